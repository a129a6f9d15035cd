"""A second look at the cards the corner ensemble is unsure of (a cascade).

The three small corner readers (``corners.onnx``) read every card. Only where their voted
posterior stays below a gate (and at least one corner shows an index) are that card's two index
crops given to a bigger, finer reader, ``expert.onnx`` (:mod:`vision.train.expert`); its corner
probabilities are mixed into the ensemble's with a weight, and the corners are voted again with
the reader's own temperature, so the reader's threshold still decides "unsure". Gate and weight
come from ``models/expert.json``, fitted on calibration scenes (training fonts, own seeds) by
``python -m vision.train.expert_fit``.

Which cards are looked at again: a sure card no, an unsure one with an index in view yes, an
unsure one whose corners show no index (a back) no.

>>> from vision.reader import MODELS_DIR
>>> expert = Expert.load(MODELS_DIR)
>>> posterior = np.full((3, 52), 0.4 / 51)
>>> posterior[:, 0] = [0.999, 0.6, 0.6]
>>> none = np.array([[0.01, 0.02], [0.05, 0.5], [0.99, 0.98]])   # P(no index) of each corner
>>> expert.gate(posterior, none)
array([False,  True, False])

:meth:`Expert.second_look` then reads those cards' index crops with the expert and votes again.

The reader asks the expert when ``models/reader.json`` says ``"expert": true``; then a missing
``expert.json`` is a :class:`vision.errors.ModelError` (:meth:`Expert.load` alone answers None).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.classify import HESITATION, corner_probabilities, corner_ranks, posteriors, prepare_crops
from vision.errors import ModelError
from vision.rectify import CROP_H, CROP_W

SETTINGS_FILE = "expert.json"


@dataclass(frozen=True)
class ExpertSettings:
    """How the expert is used (from ``models/expert.json``).

    ``gate``: a card is looked at again when its voted posterior is below this; ``min_seen``: and
    when the probability that at least one corner shows an index is above this (backs are never
    looked at); ``max_cards``: at most this many cards per call, the least sure first (None: no
    limit; the shipped setting, since a limit per call would make a card's reading depend on how
    the reader splits a frame's cards between its threads); ``weight``: the expert's share when
    its corner probabilities are mixed with the ensemble's (0..1).
    """

    model: str
    gate: float
    weight: float
    min_seen: float = 0.5
    max_cards: int | None = None
    sha256: str = ""

    def __post_init__(self) -> None:
        checks = {"gate": 0.0 <= self.gate <= 1.0, "weight": 0.0 <= self.weight <= 1.0,
                  "min_seen": 0.0 <= self.min_seen <= 1.0,
                  "max_cards": self.max_cards is None or self.max_cards >= 0}  # fmt: skip
        bad = [name for name, ok in checks.items() if not ok]
        if bad:
            raise ModelError(f"expert settings out of range ({', '.join(bad)}): gate, weight and min_seen must be "
                             f"between 0 and 1, max_cards None or at least 0; got {self}")  # fmt: skip

    @staticmethod
    def load(path: Path) -> ExpertSettings:
        """The settings in ``path`` (ModelError when unreadable or incomplete)."""
        try:
            data = json.loads(Path(path).read_text())
            use = data["use"]
            return ExpertSettings(model=str(data.get("model", "expert.onnx")), gate=float(use["gate"]),
                                  weight=float(use["weight"]), min_seen=float(use.get("min_seen", 0.5)),
                                  max_cards=None if use.get("max_cards") is None else int(use["max_cards"]),
                                  sha256=str(data.get("sha256", "")))  # fmt: skip
        except ModelError:
            raise
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            raise ModelError(f"cannot read expert settings {path} (a JSON object with 'model', 'sha256' and "
                             f"'use': {{'gate', 'weight'}}): {error!r}") from None  # fmt: skip


@dataclass(frozen=True)
class SecondLook:
    """The corners' readings after the expert's look: ``cards`` (N, 2, 52), ``none`` (N, 2),
    ``posteriors`` (N, 52) voted again; ``asked`` (N,) marks the cards the expert read (the others
    are the ensemble's readings, unchanged)."""

    cards: np.ndarray
    none: np.ndarray
    posteriors: np.ndarray
    asked: np.ndarray


class Expert:
    """The expert corner reader and how its readings join the ensemble's."""

    def __init__(self, session: Any, settings: ExpertSettings) -> None:
        self.session, self.settings = session, settings

    @staticmethod
    def load(models_dir: Path, *, providers: Sequence[str] = ("CPUExecutionProvider",),
             options: Any = None) -> Expert | None:  # fmt: skip
        """The expert of ``models_dir``; None when it has no ``expert.json`` (the reader then reads
        without one). ModelError when the settings or the model are bad or do not match."""
        path = Path(models_dir) / SETTINGS_FILE
        if not path.is_file():
            return None
        settings = ExpertSettings.load(path)
        model = Path(models_dir) / settings.model
        try:
            blob = model.read_bytes()
        except OSError as error:
            raise ModelError(f"expert model {model} is unreadable ({error}); train it with "
                             "python -m vision.train.expert or remove expert.json") from None  # fmt: skip
        if settings.sha256 and hashlib.sha256(blob).hexdigest()[:16] != settings.sha256:
            raise ModelError(
                f"expert model {model} does not match the checksum in {path} ({settings.sha256}): "
                "the settings were fitted for another model; fit them again (vision.train.expert_fit)"
            )
        import onnxruntime as ort

        if options is None:
            options = ort.SessionOptions()
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            options.log_severity_level = 3
        try:
            session = ort.InferenceSession(blob, options, providers=list(providers))
        except Exception as error:  # onnxruntime raises its own untyped errors
            raise ModelError(f"cannot load expert model {model}: {error}") from None
        names = [o.name for o in session.get_outputs()]
        shape = session.get_inputs()[0].shape
        if names[:2] != ["rank_logits", "suit_logits"] or list(shape[1:]) != [2, CROP_H, CROP_W]:
            raise ModelError(f"expert model {model} has inputs {shape} and outputs {names}; expected crops "
                             f"N×2×{CROP_H}×{CROP_W} → rank_logits, suit_logits")  # fmt: skip
        return Expert(session, settings)

    def probabilities(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """BGR index crops (M, 64, 32, 3) → the expert's P(card | index) (M, 52) and P(no index) (M,)."""
        if len(crops) == 0:
            return np.zeros((0, 52)), np.zeros(0)
        rank_logits, suit_logits = self.session.run(None, {"crops": prepare_crops(crops)})[:2]
        return corner_probabilities(rank_logits[None], suit_logits[None])

    def gate(self, posterior: np.ndarray, none: np.ndarray, cards: np.ndarray | None = None) -> np.ndarray:
        """Which cards to look at again, from the ensemble's voted posteriors (N, 52) and corners'
        P(no index) (N, 2): unsure, an index in view, at most ``max_cards`` if set (the least sure).
        The expert's own P(no index) is mixed in too, so where it sees an index the ensemble half
        saw, the card's "index seen" rises (above 0.8 the reader takes the card for face up).

        With the corners' own readings ``cards`` (N, 2, 52), a card is also unsure when a corner
        that sees an index gives another rank :data:`vision.classify.HESITATION` or more, however
        sure the vote of its two corners (printed alike, they can agree on a wrong rank and sharpen
        it)."""
        best = posterior.max(axis=1) if len(posterior) else np.zeros(0)
        seen = 1.0 - np.prod(none, axis=1) if len(none) else np.zeros(0)
        unsure = best < self.settings.gate
        if cards is not None and len(cards):
            unsure |= hesitated(cards, none, posterior.argmax(axis=1))
        candidates = np.flatnonzero(unsure & (seen > self.settings.min_seen))
        keep = candidates[np.argsort(best[candidates], kind="stable")][: self.settings.max_cards]
        asked = np.zeros(len(posterior), bool)
        asked[keep] = True
        return asked

    def second_look(self, crops: np.ndarray, cards: np.ndarray, none: np.ndarray, posterior: np.ndarray, *,
                    temperature: float, dependence: float = 0.0) -> SecondLook:  # fmt: skip
        """The ensemble's readings of N cards (crops (2N, 64, 32, 3), 2 per card; ``cards`` (N, 2, 52),
        ``none`` (N, 2), voted ``posterior`` (N, 52)) with the gated cards read again and re-voted."""
        n = len(cards)
        if len(crops) != 2 * n or none.shape != (n, 2) or posterior.shape != (n, 52):
            raise ValueError(f"second_look needs 2 crops per card and (N, 2, 52), (N, 2), (N, 52) readings; got "
                             f"{len(crops)} crops, {cards.shape}, {none.shape}, {posterior.shape}")  # fmt: skip
        asked = self.gate(posterior, none, cards)
        if not asked.any():
            return SecondLook(cards, none, posterior, asked)
        rows = np.flatnonzero(asked)
        picked = crops.reshape(n, 2, *crops.shape[1:])[rows].reshape(-1, *crops.shape[1:])
        expert_cards, expert_none = self.probabilities(picked)
        w = self.settings.weight
        # As one more member of the ensemble: P(card and an index) and P(no index) are averaged,
        # then P(card | index) is taken again (vision.classify.corner_probabilities does the same).
        ex_none = expert_none.reshape(-1, 2)
        joint = (1 - w) * cards[rows] * (1 - none[rows])[:, :, None] + w * expert_cards.reshape(-1, 2, 52) * (
            1 - ex_none
        )[:, :, None]
        mixed_cards, mixed_none = cards.copy(), none.copy()
        mixed_none[rows] = (1 - w) * none[rows] + w * ex_none
        mixed_cards[rows] = joint / np.maximum(joint.sum(axis=2, keepdims=True), 1e-12)
        mixed_posterior = posterior.copy()
        mixed_posterior[rows] = posteriors(mixed_cards[rows], mixed_none[rows], temperature, dependence=dependence)
        return SecondLook(mixed_cards, mixed_none, mixed_posterior, asked)


def hesitated(cards: np.ndarray, none: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Which cards (N,) have a corner that sees an index (P(no index) at most a half) and gives a
    rank other than the best card's (``best`` (N,) card ids) :data:`vision.classify.HESITATION` or
    more: ``cards`` (N, C, 52) each corner's probabilities, ``none`` (N, C)."""
    out: np.ndarray = corner_ranks(cards, none, best).max(axis=1, initial=0.0) >= HESITATION
    return out
