"""Cards the host taught the reader at the table: examples kept in the deck profile.

When the host corrects a card the camera read, or enters one it was unsure of, the crop of that
card becomes an :class:`Example` of the right card for this deck (:mod:`vision.deck_learning`
takes it; :class:`vision.deck_profile.DeckProfile` keeps it, in the data directory). The reader
then names a card by an example only when three witnesses agree:

1. the corner models' embedding is near the example's (cosine at least ``EMBEDDING_GATE``): the
   same kind of index, cheaply;
2. the models read the card as they read the example (their best guess then, or the example's
   card itself): a queen the models took for a jack teaches nothing about their sure kings;
3. the index itself, both corners' pixels (the rank and the suit, grey, lightly blurred), matches
   the example's by normalised cross-correlation within a few pixels of shift, at least
   ``CROP_SAME``, and better by ``CROP_MARGIN`` than any example of another card.

The third is what makes an example safe. The embedding is trained to tell cards apart by what
the models know: on a Dutch deck (H V B) the models read all three court letters as a jack, and
the embeddings of its queen and jack of one suit come as close as 0.956, nearer than two crops
of one card often are (5 % of them under 0.936). The pixels of a V and a B are far apart:
on rendered Dutch tables of hold-out fonts (3 decks, 30 tables) no two court cards of one suit
the models read alike matched better than 0.88, and two crops of the same card matched at 0.98
in the median (at least 0.82 for 95 % of them).

A corrected example also records what the models misread the card as (``read``): a card the
models read that way and no example matches is made unsure (it may be this deck's card again).

>>> a = np.zeros((2, CROP_ROWS, CROP_W), np.uint8); a[:, 8:30, 10:20] = 200
>>> round(crop_similarity(a, a), 3), round(crop_similarity(a, 255 - a), 3) < 0
(1.0, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.rectify import CROP_H, CROP_W

CROP_ROWS = 40
"""Rows of each 64-row index crop kept (the rank and most of the suit under it)."""
EMBEDDING_GATE = 0.88
"""Cosine of the corner models' embeddings below which an example is not looked at."""
CROP_SAME = 0.93
"""Normalised cross-correlation of the better corner from which an example names a card."""
CROP_MARGIN = 0.03
"""How much better than any example of another card the best example must match."""
_SHIFT = 3  # pixels of shift searched each way
_BLUR = 0.8

PER_CARD = 3
"""Examples kept per card (the oldest goes first): the profile stays small, about 3 KB an example."""
MOST = 156
"""Examples kept in all."""


@dataclass(frozen=True)
class Example:
    """One card the host taught: ``card`` the right card, ``vector`` the corner models' embedding,
    ``crops`` both index corners (2, CROP_ROWS, CROP_W) grey, ``guess`` the models' best card
    then, ``read`` what they named surely when it was wrong ("" when they did not), ``key`` the
    place it came from (``"session/hand/board/2"``: a later correction there replaces it)."""

    card: str
    vector: np.ndarray
    crops: np.ndarray
    guess: str
    read: str
    key: str
    created: float = 0.0


def grey_crops(crops: np.ndarray) -> np.ndarray:
    """Index crops (2·N, CROP_H, CROP_W, 3) BGR of :func:`vision.rectify.index_crops` → the
    examples' form: (N, 2, CROP_ROWS, CROP_W) uint8 grey."""
    crops = np.asarray(crops)
    if crops.ndim != 4 or crops.shape[1:3] != (CROP_H, CROP_W) or len(crops) % 2:
        raise ValueError(f"index crops must be (2N, {CROP_H}, {CROP_W}, 3), got {crops.shape}")
    grey = np.stack([cv2.cvtColor(c, cv2.COLOR_BGR2GRAY) for c in crops]) if len(crops) else np.zeros(
        (0, CROP_H, CROP_W), np.uint8)  # fmt: skip
    return grey[:, :CROP_ROWS].reshape(-1, 2, CROP_ROWS, CROP_W)


def _ncc(image: np.ndarray, template: np.ndarray) -> float:
    return float(cv2.matchTemplate(image, template, cv2.TM_CCOEFF_NORMED).max())


def crop_similarity(a: np.ndarray, b: np.ndarray) -> float:
    """How alike two cards' index corners are: for each corner, the best normalised cross-
    correlation of one's middle slid over the other within a few pixels, both ways; the better
    corner (a neighbour or a hand may cover the other)."""
    return prepared_similarity(prepared(a), prepared(b))


def prepared(crops: np.ndarray) -> np.ndarray:
    """Both index corners (2, CROP_ROWS, CROP_W) grey as :func:`crop_similarity` compares them:
    float32, lightly blurred (made once for a crop compared with many)."""
    return np.stack([cv2.GaussianBlur(corner.astype(np.float32), (0, 0), _BLUR) for corner in crops])


def prepared_similarity(x: np.ndarray, y: np.ndarray) -> float:
    """:func:`crop_similarity` of two :func:`prepared` crops."""
    best = -1.0
    inner = (slice(_SHIFT, -_SHIFT), slice(_SHIFT, -_SHIFT))
    for k in range(2):
        if float(x[k].std()) < 1.0 or float(y[k].std()) < 1.0:
            continue  # a blank crop matches nothing
        best = max(best, _ncc(x[k], y[k][inner]), _ncc(y[k], x[k][inner]))
    return best


@dataclass(frozen=True)
class ExampleMatch:
    """The card the examples name for one card (None: no example matches surely), how well the
    best example matched, its margin over other cards' examples, and whether the models misread
    that card when it was taught (their reading is then no evidence against it)."""

    card: str | None
    score: float
    margin: float
    misread: bool

    @property
    def confidence(self) -> float:
        """The confidence reported for a card an example names: 0.9 at the thresholds, towards
        0.99 well past them (a measured margin, not a calibrated probability)."""
        if self.card is None:
            return 0.0
        z = min((self.score - CROP_SAME) / 0.01, (self.margin - CROP_MARGIN) / 0.01)
        return float(0.9 + 0.09 * np.tanh(max(z, 0.0) / 2.0))


NO_MATCH = ExampleMatch(None, -1.0, 0.0, False)


def match_examples(examples: Sequence[Example], vector: np.ndarray, crops: np.ndarray, guess: str) -> ExampleMatch:
    """The example match of one card: its embedding, its (2, CROP_ROWS, CROP_W) grey crops and the
    models' best guess (see the module docstring)."""
    v = np.asarray(vector, np.float32)
    v = v / max(float(np.linalg.norm(v)), 1e-9)
    per_card: dict[str, float] = {}
    misread: dict[str, bool] = {}
    for example in examples:
        if example.guess != guess and example.card != guess:
            continue
        e = example.vector / max(float(np.linalg.norm(example.vector)), 1e-9)
        if float(v @ e) < EMBEDDING_GATE:
            continue
        score = crop_similarity(crops, example.crops)
        if score > per_card.get(example.card, -2.0):
            per_card[example.card] = score
            misread[example.card] = example.card != example.guess
    if not per_card:
        return NO_MATCH
    ranked = sorted(per_card.items(), key=lambda item: -item[1])
    card, score = ranked[0]
    margin = score - ranked[1][1] if len(ranked) > 1 else 1.0
    named = card if score >= CROP_SAME and margin >= CROP_MARGIN else None
    return ExampleMatch(named, score, margin, misread[card])


def misreads(examples: Sequence[Example]) -> set[str]:
    """The cards the models surely named wrongly on taught cards (a card read so is in doubt)."""
    return {example.read for example in examples if example.read and example.read != example.card}


def added(examples: Sequence[Example], example: Example, *, per_card: int = PER_CARD,
          most: int = MOST) -> tuple[Example, ...]:  # fmt: skip
    """``examples`` with ``example`` added: one of the same key replaced, at most ``per_card``
    of its card and ``most`` in all (the oldest dropped)."""
    kept = [e for e in examples if e.key != example.key]
    same = [e for e in kept if e.card == example.card]
    for old in same[: max(0, len(same) - per_card + 1)]:
        kept.remove(old)
    kept.append(example)
    return tuple(kept[-most:])
