"""One suit symbol cut out of an image the way the suit model reads it (shared by training and
:mod:`vision.suit_witness`, free of torch and onnxruntime).

A symbol's box (x0, y0, x1, y1 pixels, tight around its ink) becomes a square of ``SYMBOL`` pixels
centred on the box with a margin around it, so that every symbol fills the square alike whatever
its size in the frame; :func:`vision.classify.prepare_crops` then makes the model's input (grey
stretched between its percentiles, and redness).
"""

from __future__ import annotations

import cv2
import numpy as np

SYMBOL = 24
"""Side in pixels of the square a symbol is read in."""

MARGIN = 0.18
"""Margin around the symbol's box on each side, as a fraction of the box's longer side."""

CLASSES = ("c", "d", "h", "s", "none")
"""The suit model's classes: the four suits (the order of ``vision.classify.SUITS``) and "not a suit symbol"."""


def crop_symbol(image: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The ``SYMBOL`` × ``SYMBOL`` BGR square around ``box`` (edges beyond the image repeat its border)."""
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0) * (1.0 + 2.0 * MARGIN)
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    scale = SYMBOL / max(side, 1.0)
    if scale < 0.8:  # shrinking a lot: smooth first so that thin strokes are not lost between samples
        sigma = 0.45 / scale
        # only the part the square samples, with room for the blur's reach (the rest of the image is
        # not looked at: blurring all of it for every symbol cost most of a card's time)
        reach = side / 2.0 + 4.0 * sigma + 2.0
        h, w = image.shape[:2]
        left, top = max(int(cx - reach), 0), max(int(cy - reach), 0)
        right, bottom = min(int(np.ceil(cx + reach)) + 1, w), min(int(np.ceil(cy + reach)) + 1, h)
        if right - left < w or bottom - top < h:
            image = image[top:bottom, left:right]
            cx, cy = cx - left, cy - top
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    matrix = np.array([[scale, 0.0, SYMBOL / 2.0 - scale * cx], [0.0, scale, SYMBOL / 2.0 - scale * cy]])
    out: np.ndarray = cv2.warpAffine(image, matrix, (SYMBOL, SYMBOL), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)  # fmt: skip
    return out
