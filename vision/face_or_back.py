"""Face or back, told by the card itself: blank paper beside the index, or a back's pattern.

The card model (``card.onnx``) and the corner models learned faces from the decks the renderer
draws; a deck unlike them (printed court pictures, an index the models do not know) may look to
them like a back. Enrollment must not depend on them: a deck the reader cannot read is the deck
that needs enrolling. So this module looks at what every printed face has and no back has: the
card's paper, blank, in the two margins beside the middle of the card (between the index column
and the pips or the court picture's frame), while a back's pattern (or its solid colour) runs to
within its border, a few hundredths of the card's width from the edge.

:func:`blank_margins` straightens the card and measures, in a strip of each long margin at
mid-height, how far it is from blank paper: the strip's spread of grey (a pattern's lines and
dots), how much darker it is than the card's own paper (the brightest part of the card), and its
hue against the paper's (a white border round a coloured back). :func:`looks_face_up` applies the limits.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.rectify import rectify

SIZE = 168
"""Height in pixels the card is straightened to (its width is 5/7 of that)."""

STRIPS = ((0.085, 0.135), (0.865, 0.915))
"""The two margin strips (x from, x to, of the card's width), left and right..."""
ROWS = (0.44, 0.56)
"""... at mid-height (y from, y to, of the card's height): clear of the indices (top 42 %), left
of the pips (their outer column's edge lies at 0.18 or more) and of a court frame (0.14 or more),
inside a back's white border (at most 0.09)."""

MAX_SPREAD = 0.03
"""A blank strip's grey varies by at most this (standard deviation, of the paper's level)..."""
MIN_LEVEL = 0.8
"""... its grey is at least this share of the paper's..."""
MAX_CHROMA = 0.08
"""... and its hue that of the paper (each channel's share of the strip's grey at most this far
from the paper's, under any lamp): paper, not a solid back."""
MIN_PAPER = 80.0
"""A face's paper is the brightest thing on it, and light: its grey (the card's 95th percentile,
0..255) at least this under any usable exposure. A dark back's brightest parts are darker."""
MIN_INK = 0.004
"""A face also shows ink somewhere (its index): at least this share of the card has a colour
channel under half the paper's (red ink too). A card blank all over is not taken for a face."""


@dataclass(frozen=True)
class Margins:
    """What :func:`blank_margins` measured in the blanker of the two margin strips: the spread of its
    grey and its level (each as a share of the paper's grey), its difference of hue from the
    paper's; the paper's grey (0..255) and the share of the card printed in ink."""

    spread: float
    level: float
    chroma: float
    paper: float
    ink: float

    @property
    def blank(self) -> bool:
        """A margin shows blank paper and the card shows some ink: a face."""
        return (self.spread <= MAX_SPREAD and self.level >= MIN_LEVEL and self.chroma <= MAX_CHROMA
                and self.ink >= MIN_INK and self.paper >= MIN_PAPER)  # fmt: skip

    def why_not(self) -> str:
        """What the margins showed instead of blank paper (for messages); empty when blank."""
        if self.blank:
            return ""
        if self.spread > MAX_SPREAD:
            return (f"its margins show a pattern (grey spread {self.spread:.2f} of the paper's, a face's blank "
                    f"margin at most {MAX_SPREAD:.2f}): a back, or a picture running to the card's edge")  # fmt: skip
        if self.chroma > MAX_CHROMA:
            return f"its margins are another colour than its paper (by {self.chroma:.2f}): a back"
        if self.level < MIN_LEVEL:
            return f"its margins are darker than its paper ({self.level:.2f} of it): a back, or a shadow over the card"
        if self.paper < MIN_PAPER:
            return (f"the card has no light paper (its brightest grey {self.paper:.0f} of 255): a dark back, or too "
                    "little light")  # fmt: skip
        return "the card is one colour all over, with no print on it: a plain back"


def blank_margins_of(card: np.ndarray) -> Margins:
    """The margins of a straightened card (BGR, upright or upside down, any size)."""
    image = cv2.resize(card, (round(SIZE * 5 / 7), SIZE), interpolation=cv2.INTER_AREA).astype(np.float32)
    grey = image.mean(axis=2)
    h, w = grey.shape
    inner = grey[round(0.03 * h) : round(0.97 * h), round(0.03 * w) : round(0.97 * w)]
    paper = max(float(np.percentile(inner, 95)), 1.0)
    inner_colour = image[round(0.03 * h) : round(0.97 * h), round(0.03 * w) : round(0.97 * w)]
    tone = inner_colour[inner >= 0.97 * paper].mean(axis=0)
    y0, y1 = round(ROWS[0] * h), round(ROWS[1] * h)
    strips = []
    for x0, x1 in STRIPS:
        strip = image[y0:y1, round(x0 * w) : round(x1 * w)]
        g = strip.mean(axis=2)
        colour = np.median(strip.reshape(-1, 3), axis=0) / max(float(np.median(g)), 1.0)
        strips.append((float(g.std()) / paper, float(np.median(g)) / paper,
                       float(np.abs(colour - tone / tone.mean()).max())))  # fmt: skip
    ink = float(((inner_colour / np.maximum(tone, 1.0)).min(axis=2) < 0.5).mean())
    # The blanker strip counts: an outline a little off the card, or a neighbour lying over one
    # margin, leaves the other blank; a back's pattern fills both.
    spread, level, chroma = min(strips, key=lambda m: (m[0] > MAX_SPREAD or m[1] < MIN_LEVEL or m[2] > MAX_CHROMA,
                                                        m[0]))  # fmt: skip
    return Margins(spread, level, chroma, paper, ink)


def blank_margins(frame: np.ndarray, corners: np.ndarray) -> Margins:
    """The margins of the card whose outline in ``frame`` is ``corners`` (4×2 pixels)."""
    return blank_margins_of(rectify(frame, corners, height=SIZE))


def looks_face_up(frame: np.ndarray, corners: np.ndarray) -> bool:
    """Whether the card at ``corners`` shows blank paper in its margins: a face."""
    return blank_margins(frame, corners).blank
