"""Deck profiles: the reader taught one user's own deck, from one photo per card.

A :class:`DeckProfile` holds prototypes of the deck as the card reader sees it: for each card,
the corner model's embedding of its index (mean of both corners, unit length) and both index
corners as its photo shows them (grey crops), and optionally, for a deck whose backs carry marks
of another design than ours, a descriptor of one back per mark that does not change as the card
or its mark turns (:func:`back_descriptors`). Reading with a profile is nearest-prototype: the
closest card's cosine similarity and its margin over the next card give a calibrated confidence
(DESIGN.md §7: 100 % of the real Bicycle photos from one photo per card). Where the embeddings
cannot tell a few cards apart (the letters of a deck the models never learned: a German queen's
D and jack's B of one suit come as close as two photos of one card), the index pixels of those
few decide (:meth:`DeckProfile.match_pixels`), as they do for the cards the host teaches at the
table (:mod:`vision.deck_examples`).

A profile is a small ``.npz`` file (about 100 KB for 52 cards) holding the prototypes, a format
``version`` and the hash of the corner model it was made with: embeddings of another model are
meaningless, so :meth:`DeckProfile.load` refuses a profile made with other models.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> vectors = rng.normal(size=(3, 8)).astype(np.float32)
>>> profile = DeckProfile.from_faces({"Ah": [vectors[0]], "Kd": [vectors[1]], "7c": [vectors[2]]},
...                                  model_hash="abc")
>>> profile.cards
('7c', 'Ah', 'Kd')
>>> match = profile.match_faces(vectors[1:2] + 0.01)[0]
>>> match.card, match.confidence > 0.9
('Kd', True)
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from table.cards import Card, Joker
from table.errors import CardParseError
from table.tock import Mark, MarkParseError
from vision.deck_examples import (
    CROP_MARGIN,
    CROP_ROWS,
    CROP_SAME,
    EMBEDDING_GATE,
    Example,
    ExampleMatch,
    added,
    prepared,
    prepared_similarity,
)
from vision.errors import VisionError
from vision.mark_reader import CENTRE_BOX, card_regions
from vision.rectify import CROP_W, Pyramid

if TYPE_CHECKING:  # the reader imports this module
    from vision.mark_reader import MarkReader

PROFILE_NAME = "deck-profile.npz"
"""The deck profile's file name in the data directory."""

PROFILE_VERSION = 2
"""Format version of the profile file; a file of another version is refused with a clear message
(a version 1 file with faces only is still read, its faces being the same; one that holds backs,
described another way then, is refused as a whole: enroll again)."""

# Calibration of the face match (cosine similarities of the corner model's embeddings, measured
# on the real Bicycle photos: the card's own prototype 0.915..1.0, the best other card at most
# 0.89; the margin of a right match over the next card at least 0.07).
_FACE_SIMILARITY = (0.85, 0.02)  # centre and scale of the "is this the enrolled deck at all" factor
_FACE_MARGIN = (0.02, 0.01)  # centre and scale of the "this card rather than the next" factor
# Backs (another mark design; rings and angular harmonics round the mark, see back_descriptors).
# Measured on our own stickers treated as an unknown design (rendered tables of seeds 201 and 305,
# not the benchmark's): nearest mark right 553 of 570, a right match's cosine 0.80..1.0; wrong
# nearest marks reached a margin of 0.044 over the next mark. The margin factor is a logistic
# centred on 0.035 (scale 0.007): at the profile's threshold a back is named from a margin of
# about 0.05 (347 of 570 named there, 0 wrong).
_BACK_SIMILARITY = (0.7, 0.03)
_BACK_MARGIN = (0.035, 0.007)

PIXEL_WINDOW = 0.04
"""How far below the nearest enrolled card's cosine another enrolled card is still a candidate whose
index pixels are compared (:meth:`DeckProfile.match_pixels`). The embedding tells the suits apart
(two cards of one rank and other suits come 0.75-0.80 apart) but not always the letters of a deck
the models do not know: a German queen (D) and jack (B) of one suit 0.91-0.96 against 0.92-0.99."""


class ProfileError(VisionError, ValueError):
    """A deck profile that cannot be made, read or used: bad file, other models, bad labels."""


@dataclass(frozen=True)
class Match:
    """The nearest prototype of one embedding: ``card`` (or mark) None when unsure, ``guess`` the
    nearest anyway, ``similarity`` its cosine, ``margin`` over the next label, ``confidence``."""

    card: str | None
    guess: str
    similarity: float
    margin: float
    confidence: float


def model_hash(models_dir: Path, names: Sequence[str] = ("corners.onnx", "card.onnx")) -> str:
    """A short hash of the model files a profile's embeddings come from."""
    digest = hashlib.sha256()
    for name in names:
        path = Path(models_dir) / name
        if path.is_file():
            digest.update(name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _unit(vectors: np.ndarray) -> np.ndarray:
    v = np.asarray(vectors, np.float32)
    out: np.ndarray = v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-9)
    return out


def _sure(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))


def _checked_rows(values: np.ndarray, width: int, what: str, hint: str = "") -> np.ndarray:
    """``values`` as float32 rows of ``width``, or ProfileError saying what shape was given."""
    rows = np.asarray(values, np.float32)
    if rows.ndim != 2 or rows.shape[1] != width:
        raise ProfileError(f"{what} must be (N, {width}) to match this profile, got shape {rows.shape}{hint}")
    return rows


def _match(prototypes: np.ndarray, labels: tuple[str, ...], queries: np.ndarray, *,
           similarity: tuple[float, float], margin: tuple[float, float], threshold: float) -> list[Match]:  # fmt: skip
    """Nearest label (best prototype of each label) for each query row."""
    if not len(labels) or not len(queries):
        return []
    names = sorted(set(labels))
    index = np.array([names.index(label) for label in labels])
    sims = _unit(queries) @ prototypes.T  # (Q, P)
    per_label = np.full((len(queries), len(names)), -2.0, np.float32)
    for j in range(len(names)):
        per_label[:, j] = sims[:, index == j].max(axis=1)
    order = np.argsort(-per_label, axis=1)
    out = []
    for q in range(len(queries)):
        best = per_label[q, order[q, 0]]
        second = per_label[q, order[q, 1]] if len(names) > 1 else -1.0
        confidence = _sure((best - similarity[0]) / similarity[1]) * _sure((best - second - margin[0]) / margin[1])
        guess = names[order[q, 0]]
        out.append(Match(guess if confidence >= threshold else None, guess, float(best), float(best - second),
                         float(confidence)))  # fmt: skip
    return out


@dataclass(frozen=True)
class PixelMatch:
    """The enrolled cards near one card's embedding, told apart by their index pixels
    (:meth:`DeckProfile.match_pixels`): ``near`` the enrolled cards within :data:`PIXEL_WINDOW`
    of the nearest, ``scores`` the crop similarity (:func:`vision.deck_examples.crop_similarity`)
    of those whose enrollment photo's crops were kept, ``card`` the one named (None: no candidate
    matches at least ``CROP_SAME`` and better by ``CROP_MARGIN`` than the next)."""

    card: str | None
    scores: Mapping[str, float]
    near: frozenset[str] = frozenset()

    @property
    def confidence(self) -> float:
        """As a taught example's (:attr:`vision.deck_examples.ExampleMatch.confidence`)."""
        ranked = sorted(self.scores.values(), reverse=True)
        if self.card is None or not ranked:
            return 0.0
        margin = ranked[0] - ranked[1] if len(ranked) > 1 else 1.0
        return ExampleMatch(self.card, ranked[0], margin, False).confidence

    def doubts(self, card: str) -> bool:
        """Whether the enrolled deck doubts ``card``: its pixels were compared, and ``card`` is not
        near (its prototype more than :data:`PIXEL_WINDOW` below the nearest) or another near
        card's index pixels match better than its own. False without pixels, or for a near card
        whose crops were not kept."""
        if not self.scores:
            return False
        if card not in self.near:
            return True
        return card in self.scores and any(score > self.scores[card] for other, score in self.scores.items()
                                           if other != card)  # fmt: skip


NO_PIXELS = PixelMatch(None, {})


def _reading(text: str) -> str:
    """What the models named an enrolled card, canonical: one of the 52, or the joker (``"Jk"``: the
    joker check may take a card of a deck it does not know for a joker)."""
    try:
        return str(Card.parse(text))
    except CardParseError:
        if isinstance(text, str) and text.strip().lower() in Joker.TEXTS:
            return str(Card.JOKER)
        raise


@dataclass(frozen=True)
class DeckProfile:
    """Prototypes of one deck (see the module docstring). Make one with :meth:`from_faces` or
    :func:`vision.enroll.enroll`; save with :meth:`save`, read with :meth:`load`."""

    face_labels: tuple[str, ...]
    face_prototypes: np.ndarray  # (K, D) float32, unit rows
    model_hash: str
    back_labels: tuple[str, ...] = ()
    back_prototypes: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    name: str = ""
    created: float = 0.0
    threshold: float = 0.9
    model_reads: Mapping[str, str] = field(default_factory=dict)
    """For an enrolled card the models alone did not name rightly on its enrollment photos, what
    they named (``{"Jc": "Qc"}``: this deck's jack of clubs reads as a queen to the models; ``""``:
    they were unsure of it). Where a card matches ``Jc`` the models' reading is no evidence against
    the profile (they did not know this deck's jack), and a card the models read as ``Qc`` that the
    profile cannot place surely is unsure (it may be this deck's jack)."""
    examples: tuple[Example, ...] = ()
    """Cards the host taught at the table (:mod:`vision.deck_examples`), newest last."""
    face_crops: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, CROP_ROWS, CROP_W), np.uint8))
    """Each enrolled face's index corners as the enrollment photo shows them, row for row the
    prototypes' (K, 2, CROP_ROWS, CROP_W) grey (:func:`vision.deck_examples.grey_crops`; all 0 where
    none was kept), or none at all (a profile made without them)."""

    def __post_init__(self) -> None:
        if self.face_prototypes.ndim != 2 or len(self.face_prototypes) != len(self.face_labels):
            raise ProfileError(f"a profile needs one prototype row per face label: {len(self.face_labels)} labels, "
                               f"prototypes of shape {self.face_prototypes.shape}")  # fmt: skip
        if len(self.back_labels) != (len(self.back_prototypes) if self.back_prototypes.size else 0):
            raise ProfileError(f"a profile needs one back prototype per mark label: {len(self.back_labels)} labels, "
                               f"prototypes of shape {self.back_prototypes.shape}")  # fmt: skip
        for label in self.face_labels:
            try:
                if str(Card.parse(label)) != label:
                    raise CardParseError(f"not in canonical form ({Card.parse(label)})")
            except CardParseError as error:
                raise ProfileError(f"profile face label {label!r} is not a card like 'Ah': {error}") from None
        for label in self.back_labels:
            try:
                Mark.parse(label)
            except MarkParseError as error:
                raise ProfileError(f"profile back label {label!r} is not a mark like 'h:large': {error}") from None
        crops = self.face_crops
        if len(crops) and (crops.shape != (len(self.face_labels), 2, CROP_ROWS, CROP_W) or crops.dtype != np.uint8):
            raise ProfileError(f"a profile's index crops must be uint8 of shape ({len(self.face_labels)}, 2, "
                               f"{CROP_ROWS}, {CROP_W}), one per face prototype: got {crops.dtype} {crops.shape}")
        if not 0.0 < self.threshold < 1.0:
            raise ProfileError(f"profile threshold must be between 0 and 1, got {self.threshold!r}")
        for enrolled, read in self.model_reads.items():
            try:
                Card.parse(enrolled), _reading(read) if read else None
            except CardParseError as error:
                raise ProfileError(f"profile model reading {enrolled!r}: {read!r}: the enrolled card must be "
                                   f"one of the 52, the reading one of them or the joker: {error}") from None
        for example in self.examples:
            try:
                Card.parse(example.card)
            except CardParseError as error:
                raise ProfileError(f"profile example {example.key!r}: {example.card!r} is not a card: "
                                   f"{error}") from None  # fmt: skip
            width = self.face_prototypes.shape[1]
            if width and example.vector.shape != (width,):
                raise ProfileError(f"profile example {example.key!r} has an embedding of shape "
                                   f"{example.vector.shape}, the profile's are {width} long")  # fmt: skip

    # ------------------------------------------------------------------ making
    @staticmethod
    def from_faces(faces: Mapping[str, Iterable[np.ndarray]], *, model_hash: str,
                   backs: Mapping[str, Iterable[np.ndarray]] | None = None, name: str = "",
                   model_reads: Mapping[str, str] | None = None,
                   crops: Mapping[str, Sequence[np.ndarray | None]] | None = None) -> DeckProfile:  # fmt: skip
        """A profile from embeddings per card (``"Ah": [vector, ...]``) and optionally back
        descriptors per mark (``"h:large": [vector, ...]``), the other cards the models alone
        named on some enrolled cards' photos (:attr:`model_reads`) and the index crops of each
        card's photos (``"Ah": [crops, ...]``, one (2, CROP_ROWS, CROP_W) per vector, in order:
        :attr:`face_crops`)."""
        listed = {card: list(vectors) for card, vectors in faces.items()}  # read once: the crops follow them
        labels, rows = _rows(listed, canonical=lambda t: str(Card.parse(t)), what="card")
        back_labels, back_rows = _rows(backs or {}, canonical=lambda t: str(Mark.parse(t)), what="mark")
        if not rows:
            raise ProfileError("a deck profile needs at least one card")
        backs_array = _unit(np.stack(back_rows)) if back_rows else np.zeros((0, 0), np.float32)
        reads = {str(Card.parse(c)): _reading(r) if r else "" for c, r in (model_reads or {}).items()
                 if c in faces}  # fmt: skip
        given = crops is not None and any(photo is not None for photos in crops.values() for photo in photos)
        face_crops = _face_crops(listed, crops) if crops and given else np.zeros((0, 2, CROP_ROWS, CROP_W), np.uint8)
        return DeckProfile(tuple(labels), _unit(np.stack(rows)), model_hash, tuple(back_labels), backs_array,
                           name=name, created=time.time(), model_reads=reads, face_crops=face_crops)  # fmt: skip

    @staticmethod
    def empty(*, model_hash: str, width: int) -> DeckProfile:
        """A profile with nothing enrolled, for the examples the host teaches (embeddings of ``width``)."""
        return DeckProfile((), np.zeros((0, width), np.float32), model_hash, created=time.time())

    def with_example(self, example: Example) -> DeckProfile:
        """This profile with one more taught example (one from the same place replaced; bounded:
        :func:`vision.deck_examples.added`)."""
        return replace(self, examples=added(self.examples, example))

    def without_example(self, key: str) -> DeckProfile:
        """This profile without the example taught at ``key`` (a correction undone)."""
        return replace(self, examples=tuple(e for e in self.examples if e.key != key))

    @property
    def cards(self) -> tuple[str, ...]:
        """The cards enrolled (sorted)."""
        return tuple(sorted(set(self.face_labels)))

    @cached_property
    def _prepared_crops(self) -> np.ndarray:
        """:attr:`face_crops` as the pixel match compares them (made once per profile)."""
        return np.stack([prepared(c) for c in self.face_crops]) if len(self.face_crops) else self.face_crops

    @cached_property
    def _kept(self) -> np.ndarray:
        """Which prototypes' photos kept their index crops (not all 0)."""
        return np.asarray(self.face_crops.reshape(len(self.face_crops), -1).any(axis=1), bool)

    def crops_by_card(self) -> dict[str, np.ndarray]:
        """Each enrolled card's index crops (its last photo's; none for a card without them), for
        making a profile again from its parts (the enrollment guides)."""
        return {label: crops for label, crops in zip(self.face_labels, self.face_crops, strict=False) if crops.any()}

    @property
    def marks(self) -> tuple[str, ...]:
        """The back marks enrolled (sorted)."""
        return tuple(sorted(set(self.back_labels)))

    # ------------------------------------------------------------------ matching
    def match_faces(self, embeddings: np.ndarray) -> list[Match]:
        """The nearest enrolled card of each corner-model embedding (N, D)."""
        embeddings = _checked_rows(embeddings, self.face_prototypes.shape[1], "embeddings",
                                   ": was the profile made with other models?")  # fmt: skip
        return _match(self.face_prototypes, self.face_labels, embeddings, similarity=_FACE_SIMILARITY,
                      margin=_FACE_MARGIN, threshold=self.threshold)  # fmt: skip

    def match_backs(self, descriptors: np.ndarray) -> list[Match]:
        """The nearest enrolled mark of each back descriptor (N, BACK_FEATURES) of
        :func:`back_descriptors` (they do not change as a card turns: one per card)."""
        if not self.back_labels or not len(descriptors):
            return []
        descriptors = _checked_rows(descriptors, self.back_prototypes.shape[1], "back descriptors")
        return _match(self.back_prototypes, self.back_labels, descriptors, similarity=_BACK_SIMILARITY,
                      margin=_BACK_MARGIN, threshold=self.threshold)  # fmt: skip

    def match_pixels(self, embedding: np.ndarray, crops: np.ndarray) -> PixelMatch:
        """The enrolled cards whose prototypes are near one card's corner-model ``embedding`` (D,)
        (within :data:`PIXEL_WINDOW` of the nearest, and at least ``EMBEDDING_GATE``), compared by
        the index pixels of both corners (``crops``: (2, CROP_ROWS, CROP_W) grey) against their
        enrollment photos' (:attr:`face_crops`). The embedding picks the few cards it cannot tell
        apart (of one suit, mostly); the pixels of a letter the models never learned tell them apart,
        as they do the host's taught examples (:mod:`vision.deck_examples`). NO_PIXELS without
        crops."""
        if not len(self.face_crops) or not len(self.face_labels):
            return NO_PIXELS
        vector = _checked_rows(np.reshape(embedding, (1, -1)), self.face_prototypes.shape[1], "embedding")
        similarities = self.face_prototypes @ _unit(vector)[0]
        near = np.flatnonzero(similarities >= max(float(similarities.max()) - PIXEL_WINDOW, EMBEDDING_GATE))
        scores: dict[str, float] = {}
        query = prepared(crops)
        for j in near[self._kept[near]]:
            label = self.face_labels[j]
            scores[label] = max(prepared_similarity(query, self._prepared_crops[j]), scores.get(label, -2.0))
        ranked = sorted(scores.items(), key=lambda item: -item[1])
        if not ranked:
            return NO_PIXELS
        card, score = ranked[0]
        margin = score - ranked[1][1] if len(ranked) > 1 else 1.0
        named = card if score >= CROP_SAME and margin >= CROP_MARGIN else None
        return PixelMatch(named, scores, frozenset(self.face_labels[j] for j in near))

    # ------------------------------------------------------------------ files
    def save(self, path: str | Path) -> Path:
        """Write the profile (written to a temporary file, then moved: never half a file)."""
        path = Path(path)
        meta = {"version": PROFILE_VERSION, "model_hash": self.model_hash, "name": self.name,
                "created": self.created, "threshold": self.threshold, "face_labels": list(self.face_labels),
                "back_labels": list(self.back_labels), "model_reads": dict(self.model_reads),
                "examples": [{"card": e.card, "guess": e.guess, "read": e.read, "key": e.key, "created": e.created}
                             for e in self.examples]}  # fmt: skip
        width = self.face_prototypes.shape[1]
        vectors = np.stack([e.vector for e in self.examples]) if self.examples else np.zeros((0, width), np.float32)
        crops = (np.stack([e.crops for e in self.examples]) if self.examples
                 else np.zeros((0, 2, CROP_ROWS, 0), np.uint8))  # fmt: skip
        buffer = io.BytesIO()
        np.savez_compressed(buffer, meta=np.array(json.dumps(meta)), faces=self.face_prototypes,
                            backs=self.back_prototypes, example_vectors=vectors.astype(np.float32),
                            example_crops=crops.astype(np.uint8), face_crops=self.face_crops)  # fmt: skip
        partial = path.with_name(path.name + ".tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(partial, "wb") as file:
                file.write(buffer.getvalue())
                file.flush()
                os.fsync(file.fileno())  # on disk before the rename, so a power cut leaves old or new
            partial.replace(path)
        except OSError as error:
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
            raise ProfileError(f"cannot write deck profile {path}: {error.strerror or error}; "
                               "choose a writable file (--out)") from None  # fmt: skip
        return path

    @staticmethod
    def load(path: str | Path, *, model_hash: str | None = None) -> DeckProfile:
        """Read a profile; with ``model_hash``, refuse one made with other models."""
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                meta: dict[str, Any] = json.loads(str(data["meta"]))
                faces, backs = np.asarray(data["faces"], np.float32), np.asarray(data["backs"], np.float32)
                vectors = np.asarray(data["example_vectors"], np.float32) if "example_vectors" in data else None
                crops = np.asarray(data["example_crops"], np.uint8) if "example_crops" in data else None
                face_crops = (np.asarray(data["face_crops"], np.uint8) if "face_crops" in data
                              else np.zeros((0, 2, CROP_ROWS, CROP_W), np.uint8))  # fmt: skip
        except (OSError, ValueError, KeyError) as error:
            raise ProfileError(f"cannot read deck profile {path}: {error}") from None
        if meta.get("version") == 1 and meta.get("back_labels"):
            raise ProfileError(f"deck profile {path} holds backs described the old way (format version 1), "
                               "which this version cannot match: enroll the backs again "
                               "(tocktable enroll --marks)")  # fmt: skip
        if meta.get("version") not in (1, PROFILE_VERSION):  # a version 1 file without backs: its faces are the same
            raise ProfileError(f"deck profile {path} has format version {meta.get('version')!r}; this version "
                               f"reads {PROFILE_VERSION}: enroll the deck again (tocktable enroll)")  # fmt: skip
        if model_hash is not None and meta.get("model_hash") != model_hash:
            raise ProfileError(f"deck profile {path} was made with other models ({meta.get('model_hash')}, these are "
                               f"{model_hash}): enroll the deck again (tocktable enroll)")  # fmt: skip
        return DeckProfile(tuple(meta["face_labels"]), faces, str(meta["model_hash"]), tuple(meta["back_labels"]),
                           backs, name=str(meta.get("name", "")), created=float(meta.get("created", 0.0)),
                           threshold=float(meta.get("threshold", 0.9)),
                           model_reads={str(k): str(v) for k, v in dict(meta.get("model_reads", {})).items()},
                           examples=_examples(path, meta, vectors, crops), face_crops=face_crops)  # fmt: skip


def _examples(path: Path, meta: dict[str, Any], vectors: np.ndarray | None,
              crops: np.ndarray | None) -> tuple[Example, ...]:  # fmt: skip
    """The taught examples of a profile file (ProfileError when its parts disagree)."""
    listed = list(meta.get("examples", []))
    if not listed:
        return ()
    if vectors is None or crops is None or len(vectors) != len(listed) or len(crops) != len(listed):
        raise ProfileError(f"deck profile {path} lists {len(listed)} taught examples but holds "
                           f"{0 if vectors is None else len(vectors)} of their embeddings: the file is damaged; "
                           "delete it (the deck is taught again at the table)")  # fmt: skip
    return tuple(Example(str(item["card"]), vectors[k], crops[k], str(item.get("guess", "")),
                         str(item.get("read", "")), str(item["key"]), float(item.get("created", 0.0)))
                 for k, item in enumerate(listed))  # fmt: skip


def _face_crops(faces: Mapping[str, list[np.ndarray]], crops: Mapping[str, Sequence[np.ndarray | None]]) -> np.ndarray:
    """The index crops of :meth:`DeckProfile.from_faces`, row for row its prototypes' (all 0 for a
    photo whose crops are not given or None)."""
    shape = (2, CROP_ROWS, CROP_W)
    rows = []
    for card, vectors in faces.items():
        given = list(crops.get(card, ()))
        for k in range(len(vectors)):
            photo = given[k] if k < len(given) else None
            crop = np.zeros(shape, np.uint8) if photo is None else np.asarray(photo, np.uint8)
            if crop.shape != shape:
                raise ProfileError(f"the index crops of {card} must be of shape {shape}, got {crop.shape}")
            rows.append(crop)
    return np.stack(rows)


def _rows(
    groups: Mapping[str, Iterable[np.ndarray]], *, canonical: Any, what: str
) -> tuple[list[str], list[np.ndarray]]:
    labels: list[str] = []
    rows: list[np.ndarray] = []
    width = None
    for text, vectors in groups.items():
        try:
            label = canonical(text)
        except (CardParseError, MarkParseError) as error:
            raise ProfileError(f"cannot enroll {what} {text!r}: {error}") from None
        for vector in vectors:
            v = np.asarray(vector, np.float32).reshape(-1)
            if width is not None and len(v) != width:
                raise ProfileError(f"every {what} prototype must have the same length: {len(v)} against {width}")
            if not np.all(np.isfinite(v)) or not np.any(v):
                raise ProfileError(f"the prototype of {what} {label} is empty or not finite")
            width = len(v)
            labels.append(label)
            rows.append(v)
    return labels, rows


# ---------------------------------------------------------------------------------- backs
_RINGS, _ANGLES = 16, 64  # the polar resampling of the back's middle: rings out to its edge, angles round
_HARMONICS = (2, 10)  # angular harmonics kept per ring: the 1st follows an off-centre mark, not its shape
_HARMONIC_WEIGHT = 3.0  # the shape (harmonics) against the ring colours: the suit is in the shape
_PATCH = 48  # pixels a side of the back's middle (the mark reader's centre box): finer only costs
_BACK_BLUR = 0.7  # pixels of the patch: a sharp enrollment photo against a table's small, softer cards
_RECENTRE = 0.4  # of the patch's side: how far from its middle the mark's centre is looked for
BACK_FEATURES = _RINGS * 3 * (1 + _HARMONICS[1] - _HARMONICS[0] + 1)
"""Length of a back descriptor (:func:`back_descriptors`)."""


def _mark_centres(patches: np.ndarray) -> np.ndarray:
    """Where the mark sits in each normalised centre patch (N, side, side, 3): the centroid of what
    differs from the back (the patch's border colour) near its middle, found twice (the second
    nearer the first): (N, 2) x, y. A sticker stuck off the card's middle, or a card outline drawn
    a little off, moves the mark in the patch; the rings must go round the mark, not the patch."""
    n, side = len(patches), patches.shape[1]
    top, bottom = patches[:, :4].reshape(n, -1, 3), patches[:, -4:].reshape(n, -1, 3)
    left, right = patches[:, :, :4].reshape(n, -1, 3), patches[:, :, -4:].reshape(n, -1, 3)
    border = np.concatenate([top, bottom, left, right], axis=1)
    apart = np.abs(patches - np.median(border, axis=1)[:, None, None])
    differs = (apart[..., 0] + apart[..., 1] + apart[..., 2]).reshape(n, -1)  # numpy sums a 3-long axis slowly
    differs = np.maximum(differs - np.median(differs, axis=1, keepdims=True), 0.0)
    centres = np.full((n, 2), (side - 1) / 2, np.float32)
    reach = (_RECENTRE * side) ** 2
    for _ in range(2):
        near = (_GRID_XY[:, 1] - centres[:, :1]) ** 2 + (_GRID_XY[:, 2] - centres[:, 1:]) ** 2 < reach
        sums = (differs * near) @ _GRID_XY  # (N, 3): total weight, its x and y moments
        found = sums[:, 0] > 1e-6
        centres[found] = sums[found, 1:] / sums[found, :1]
    return centres


_GRID_XY = np.stack([np.ones(_PATCH * _PATCH), *np.mgrid[0:_PATCH, 0:_PATCH][::-1].reshape(2, -1)], axis=1)
_GRID_XY = _GRID_XY.astype(np.float32)
"""Each patch pixel's (1, x, y), row-major: weighted sums of all three in one product."""


def back_descriptors(frame: np.ndarray, cards: Sequence[np.ndarray], *, pyramid: Pyramid | None = None,
                     ordered: bool = False) -> np.ndarray:  # fmt: skip
    """A descriptor of each card's back that does not change as the card or its mark turns:
    (N, BACK_FEATURES) float32 (``ordered``: see :func:`vision.mark_reader.card_regions`).

    The middle of the back (the mark reader's centre box, 48 pixels a side), each colour channel
    with its mean and spread taken out (the room's light), is resampled in rings round the mark's centre
    (:func:`_mark_centres`); per ring, its mean colour (the plain back's look and the mark's
    colours, by distance from the centre) and the magnitudes of angular harmonics 2..10 of each
    channel (the mark's shape; a magnitude does not change as the ring turns).
    """
    pyramid = pyramid or Pyramid(frame)
    return _describe(card_regions(pyramid, cards, CENTRE_BOX, (_PATCH, _PATCH), ordered=ordered))


def _describe(regions: np.ndarray) -> np.ndarray:
    """:func:`back_descriptors` of centre patches (N, _PATCH, _PATCH, 3), 0..255."""
    if not len(regions):
        return np.zeros((0, BACK_FEATURES), np.float32)
    blurred = np.stack([cv2.GaussianBlur(r.astype(np.float32), (0, 0), _BACK_BLUR) for r in regions])
    # Each channel's mean and spread, as products (numpy's reductions over the middle axes are slow).
    pixels = blurred.reshape(len(blurred), -1, 3)
    share = np.full((1, pixels.shape[1]), 1.0 / pixels.shape[1], np.float32)
    mean = share @ pixels
    spread = np.sqrt(np.maximum(share @ (pixels * pixels) - mean * mean, 0.0))
    patches = ((pixels - mean) / np.maximum(spread, 4.0)).reshape(blurred.shape)
    # (N, angles, rings, 3); past the patch's edge (the mark's centre off its middle) is the mean, 0
    flags = cv2.WARP_POLAR_LINEAR + cv2.INTER_LINEAR + cv2.WARP_FILL_OUTLIERS
    polar = np.stack([cv2.warpPolar(patch, (_RINGS, _ANGLES), (float(x), float(y)), _PATCH / 2, flags)
                      for patch, (x, y) in zip(patches, _mark_centres(patches), strict=True)])  # fmt: skip
    first, last = _HARMONICS
    rings = polar.mean(axis=1).reshape(len(polar), -1)
    shape = np.abs(np.fft.rfft(polar, axis=1)[:, first : last + 1]).reshape(len(polar), -1) / _ANGLES
    out = np.concatenate([rings, _HARMONIC_WEIGHT * shape], axis=1).astype(np.float32)
    out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)
    return out


# ---------------------------------------------------------------------------------- reading
def read_backs(frame: np.ndarray, corners: Sequence[np.ndarray], *, pyramid: Pyramid | None,
               profile: DeckProfile | None, marks: MarkReader | None) -> list[tuple[str | None, float]]:  # fmt: skip
    """The mark and its confidence of each face-down card (corners in the card reader's order): of
    the profile's enrolled backs when it has some, else of ``marks`` (None for no marks: nothing)."""
    if not len(corners) or (marks is None and (profile is None or not profile.back_labels)):
        return [(None, 1.0)] * len(corners)
    pyramid = pyramid or Pyramid(frame)
    if profile is not None and profile.back_labels:
        descriptors = back_descriptors(frame, list(corners), pyramid=pyramid, ordered=True)
        return [(m.card, m.confidence) for m in profile.match_backs(descriptors)]
    assert marks is not None
    return [(r.mark, r.confidence) for r in marks.read(frame, list(corners), pyramid=pyramid, ordered=True)]
