"""A second witness for number cards: how many pips the card's body shows.

The corner models read a card from its two index corners; in some fonts a small 6 looks like an
8, a 4 like a 6, and both corners of one card are printed alike, so they can agree on the wrong
rank. The body of a number card says its rank another way: a 6 shows six pips. Counting pips is
rough (a pip cut by a neighbour lying over the card, two pips run together under blur), so the
count never names a card; it only takes a reading back to "unsure" when it is exactly the rank
the corners nearly read instead (the runner-up) and not the rank they read. Measured on the
synthetic hold-out's touching rows: the three number cards read as another rank were all caught,
one right reading of 171 became unsure; on cards apart nothing changed.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.mark_reader import card_regions
from vision.rectify import Pyramid

BODY = (120, 168)
"""Width and height in pixels of the straightened card whose pips are counted."""

_PIP_BOX = (0.2, 0.1, 0.8, 0.9)
"""The part of an upright card (x0, y0, x1, y1 as fractions) where a number card's pips lie and its
indices do not."""

_LARGEST_SHARE = 0.25
"""A blob of ink counts as a pip when it is at least this share of the largest blob's area."""

_ALIKE = 2.0
"""The pips of one card are alike: the largest counted blob may be at most this many times the smallest."""

_RUNNER_UP = 0.001
"""The runner-up rank must hold at least this posterior for the count to be asked at all."""

NUMBER_RANKS = 9
"""Card ids rank * 4 + suit: ranks 0..8 are the number cards 2..10."""


def count_pips(body_bgr: np.ndarray) -> int | None:
    """The number of pip-sized blobs of ink in the middle of a straightened card (BGR, upright or
    upside down), split from the paper by Otsu's threshold; None when they are not alike in size
    (a pip cut by a card lying over it, pips run together): then the count is not trusted."""
    grey = cv2.cvtColor(body_bgr, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    x0, y0, x1, y1 = _PIP_BOX
    middle = grey[int(y0 * h) : int(y1 * h), int(x0 * w) : int(x1 * w)]
    _, ink = cv2.threshold(middle, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA]
    if not len(areas):
        return 0
    pips = areas[areas > _LARGEST_SHARE * areas.max()]
    return len(pips) if pips.max() <= _ALIKE * pips.min() else None


def pip_vetoes(frame: np.ndarray, corners: np.ndarray, card_ids: np.ndarray, posterior: np.ndarray, *,
               pyramid: Pyramid) -> np.ndarray:  # fmt: skip
    """Which readings the pips contradict (bool per card).

    ``corners`` (N, 4, 2) in the reader's order, ``card_ids`` (N,) the sure readings (-1 for none),
    ``posterior`` (N, 52) the corners' voted posterior over the cards. A number card read sure is
    contradicted when its pips number exactly the rank of the best card of another rank (itself a
    number), which is not its own.
    """
    n = len(card_ids)
    veto = np.zeros(n, bool)
    candidates, alternatives = [], []
    for i in np.flatnonzero(card_ids >= 0):
        best = int(card_ids[i])
        if best // 4 >= NUMBER_RANKS:
            continue
        other = posterior[i].copy()
        other[(best // 4) * 4 : (best // 4) * 4 + 4] = -1.0  # every suit of the read rank
        alternative = int(np.argmax(other))
        if alternative // 4 < NUMBER_RANKS and other[alternative] > _RUNNER_UP:
            candidates.append(int(i))
            alternatives.append(alternative // 4)
    if not candidates:
        return veto
    bodies = card_regions(pyramid, [corners[i] for i in candidates], (0.0, 0.0, 1.0, 1.0), BODY, ordered=True)
    for k, rank, body in zip(candidates, alternatives, bodies, strict=True):
        veto[k] = count_pips(body) == rank + 2  # the runner-up is of another rank than the reading
    return veto
