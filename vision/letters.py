"""The index letters a deck prints on its court cards, where the models cannot tell them apart.

The corner models read English (K Q J), French (R D V) and German (K D B) court letters with no
setting: no letter names two ranks among them. A Dutch deck prints H (heer, the king), V (vrouw,
the queen) and B (boer, the jack); its V is the French jack. The models answer cards, not letters,
and they read all three Dutch letters as a jack (V as the French valet, B as the German Bube, H
nearest to those), so no mapping of their answers can undo it: a jack read may be any of the three.

Their features still tell the letters apart (the corner models' penultimate embedding of a
Dutch V sits nearer other Vs than Bs). :class:`LetterProbe` is a small linear classifier on that
embedding, fitted on rendered Dutch court cards of the training fonts (``python -m
vision.train.letters``), that says which of the three court ranks a card's letter is. With the
reader's ``indices = "nl"`` (``[vision] indices`` in the configuration), the ``letters`` stage
shares the mass the models gave a suit's three court cards out among them by the probe: a Dutch
V read as a jack at 0.99 becomes a queen at 0.99 times the probe's confidence, and is named only
when that passes the reader's threshold (unsure is better than wrong).

>>> probe = LetterProbe(np.array([[4.0, 0, 0], [0, 4.0, 0], [0, 0, 4.0], [0, 0, 0]]), "abc")
>>> posteriors = np.zeros((1, 52)); posteriors[0, 39] = 1.0        # Js surely, to the models
>>> shared = probe.share(posteriors, np.array([[0.0, 1.0, 0.0]]))  # the letter looks like a V
>>> int(shared.argmax()), round(float(shared.max()), 2)             # 43 is Qs
(43, 0.96)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from table.cards import Card, Rank, Suit
from vision.errors import ModelError

INDEX_SETTINGS = ("en-fr-de", "nl")
"""The reader's index letter settings: ``"en-fr-de"`` (English, French and German letters, read
together: the default) and ``"nl"`` (Dutch: H V B, whose V conflicts with the French jack)."""

COURT = (Rank.KING, Rank.QUEEN, Rank.JACK)
"""The probe's classes, in its output order."""

PROBE_FILES = {"nl": "letters-nl.npz"}
"""The probe file in the models folder for each setting that needs one."""

# card ids of the three court cards of each suit: (4 suits, 3 ranks)
_COURT_IDS = np.array([[Card(rank, suit).id for rank in COURT] for suit in Suit])


def check_indices(indices: str) -> str:
    """``indices`` if it is a known setting, else ModelError listing the allowed ones."""
    if indices not in INDEX_SETTINGS:
        raise ModelError(f"index letters {indices!r} are not known: choose one of {', '.join(INDEX_SETTINGS)}")
    return indices


@dataclass(frozen=True)
class LetterProbe:
    """A linear classifier on the corner models' embedding: (D + 1, 3) weights (the last row the
    bias) giving the logits of K, Q and J; ``corners_hash`` the corner model it was fitted on."""

    weights: np.ndarray
    corners_hash: str
    temperature: float = 1.0

    def probabilities(self, embeddings: np.ndarray) -> np.ndarray:
        """P(king, queen, jack letter) of each card's embedding (N, D): (N, 3)."""
        e = np.asarray(embeddings, np.float64)
        e = e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-9)
        if e.shape[1] + 1 != self.weights.shape[0]:
            raise ModelError(f"the letter probe expects embeddings of {self.weights.shape[0] - 1} values, got "
                             f"{e.shape[1]}: fit it again (python -m vision.train.letters)")  # fmt: skip
        logits = (e @ self.weights[:-1] + self.weights[-1]) / self.temperature
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        out: np.ndarray = p / p.sum(axis=1, keepdims=True)
        return out

    def share(self, posteriors: np.ndarray, embeddings: np.ndarray) -> np.ndarray:
        """The posteriors (N, 52) with each suit's court mass shared out by the probe."""
        out = np.array(posteriors, np.float64, copy=True)
        if not len(out):
            return out
        letters = self.probabilities(embeddings)  # (N, 3)
        mass = out[:, _COURT_IDS].sum(axis=2)  # (N, 4)
        out[:, _COURT_IDS] = mass[:, :, None] * letters[:, None, :]
        return out

    def save(self, path: Path, *, figures: dict[str, object] | None = None) -> Path:
        meta = {"corners_hash": self.corners_hash, "temperature": self.temperature, "figures": figures or {}}
        np.savez_compressed(path, weights=self.weights.astype(np.float32), meta=np.array(json.dumps(meta)))
        return path

    @staticmethod
    def load(path: Path, *, corners_hash: str | None = None) -> LetterProbe:
        """Read a probe; with ``corners_hash``, refuse one fitted on another corner model."""
        try:
            with np.load(path, allow_pickle=False) as data:
                weights = np.asarray(data["weights"], np.float64)
                meta = json.loads(str(data["meta"]))
        except (OSError, ValueError, KeyError) as error:
            raise ModelError(f"cannot read the letter probe {path}: {error}; fit it with python -m "
                             "vision.train.letters") from None  # fmt: skip
        if corners_hash is not None and meta.get("corners_hash") != corners_hash:
            raise ModelError(f"the letter probe {path} was fitted on another corner model: fit it again with "
                             "python -m vision.train.letters")  # fmt: skip
        if weights.ndim != 2 or weights.shape[1] != len(COURT):
            raise ModelError(f"the letter probe {path} holds weights of shape {weights.shape}, not (D + 1, 3)")
        return LetterProbe(weights, str(meta.get("corners_hash", "")), float(meta.get("temperature", 1.0)))


def load_probe(models_dir: Path, indices: str, *, corners_hash: str) -> LetterProbe | None:
    """The probe a setting needs (None for the default letters, which need none)."""
    name = PROBE_FILES.get(check_indices(indices))
    if name is None:
        return None
    path = Path(models_dir) / name
    if not path.is_file():
        raise ModelError(f"index letters {indices!r} need {path}, which is missing: fit it with python -m "
                         "vision.train.letters")  # fmt: skip
    return LetterProbe.load(path, corners_hash=corners_hash)
