"""The colour of a card's index ink: a witness that never takes a heart for a spade.

Hearts and diamonds are printed red (diamonds blue in four-colour decks); spades and clubs never
are (black, or green clubs in four-colour decks). So an index whose ink is plainly red, measured
against the card's own paper (which takes the same cast from the room's light), is a heart or a
diamond. The corner models read colour too, but they can be sure of a shape that looks like
another suit's; this witness looks at nothing but colour.

Only red speaks. Cheap cameras render red ink dark and nearly neutral (a webcam's diamonds measure
as black), so ink that looks black says nothing; ink that looks plainly red is red.

In each corner's index crop (upright, as :func:`vision.rectify.index_crops` cuts it) only the part
where the index glyphs lie is measured (a court card's picture frame lies further in). The paper
is the mean of that part's brighter 40 %, the ink the mean of its pixels furthest from the paper in Lab; the ink is red
when its a* (red-green) lies well above the paper's, and well above its b* offset. Both corners
must say red.
"""

from __future__ import annotations

import cv2
import numpy as np

RED_SUITS = (1, 2)
"""Suit indices (c, d, h, s order of card ids) printed red: diamonds and hearts."""

_GLYPHS = (0.62, 0.8)
"""The part of an index crop (left share of its width, top share of its height) where the index
glyphs lie and a court card's picture frame (further in) does not."""

_INK_SHARE = 0.08
"""The share of the measured pixels taken as ink: those furthest from the paper."""

_MIN_CONTRAST = 25.0
"""Lab distance from the paper below which the furthest pixels are not ink (a covered or blank corner)."""

_RED_A = 22.0
"""a* above the paper's (and 1.5 times its b* offset) for red ink; printed red measures +50 to +70."""


def red_inks(crops: np.ndarray) -> np.ndarray:
    """Which cards' index ink is plainly red in both corners (crops (2N, H, W, 3) uint8 BGR, 2 per
    card, upright): (N,) bool. All crops are measured at once."""
    m, h, w = crops.shape[:3]
    if not m:
        return np.zeros(0, bool)
    gh, gw = max(round(h * _GLYPHS[1]), 1), max(round(w * _GLYPHS[0]), 1)
    glyphs = np.ascontiguousarray(crops[:, :gh, :gw]).reshape(m * gh, gw, 3)
    lab = cv2.cvtColor(glyphs, cv2.COLOR_BGR2LAB).reshape(m, gh * gw, 3).astype(np.float32)
    light, red_green, yellow_blue = lab[..., 0] * (100.0 / 255.0), lab[..., 1] - 128.0, lab[..., 2] - 128.0
    n = gh * gw
    level = np.partition(light, int(0.6 * n), axis=1)[:, int(0.6 * n) : int(0.6 * n) + 1]
    bright = (light >= level).astype(np.float32)
    count = bright.sum(axis=1, keepdims=True)
    paper = [(bright * plane).sum(axis=1, keepdims=True) / count for plane in (light, red_green, yellow_blue)]
    dl, da, db = light - paper[0], red_green - paper[1], yellow_blue - paper[2]
    distance = dl * dl + da * da + db * db  # squared: only its order and the ink's mean matter
    k = max(int(n * _INK_SHARE), 4)
    far = np.argpartition(distance, -k, axis=1)[:, -k:]
    contrast = np.sqrt(np.take_along_axis(distance, far, axis=1)).mean(axis=1)
    ink_a, ink_b = np.take_along_axis(da, far, axis=1).mean(axis=1), np.take_along_axis(db, far, axis=1).mean(axis=1)
    red = (contrast >= _MIN_CONTRAST) & (ink_a > _RED_A) & (ink_a > 1.5 * np.abs(ink_b))
    out: np.ndarray = red.reshape(-1, 2).all(axis=1)
    return out


def red_likelihood(red: np.ndarray, floor: float) -> np.ndarray:
    """(N, 4) suit likelihoods (c, d, h, s): ``floor`` for spades and clubs where the ink is red,
    1 elsewhere."""
    out = np.ones((len(red), 4))
    out[np.asarray(red, bool)] = [floor, 1.0, 1.0, floor]
    return out
