"""Aiming the camera: what a picture of the table and the card outlines found on it say about
the camera's height, focus, exposure and framing, in plain words with numbers.

:func:`aim_advice` is a pure function of a BGR frame and the outlines of the cards the reader
found on it (pixel corners, four per card); the host's set-up page shows its items. Lay a few
cards face up across the table (one in front of every seat and some in the middle) to measure.

- **Card height**: the lower quartile of the long sides of the cards wholly in the picture (two
  face-down cards side by side are sometimes found as one, twice as wide: a quartile is not
  pulled up by them as a median is). An outline taller than ``TOO_TALL`` of the picture is not
  taken for a card (the card finder can take a whole table seen on a dark floor for one). The
  card reader reads best from
  ``BEST_CARD_PX`` = 110 to 215 px tall: the sizes its corner models were trained hardest on
  (models/README.md, "Focus cards"); under 75 px the small-card reader takes over and leaves more
  than half unsure. The camera's height follows from the card's size (a card is 88 mm tall, the
  lens's field of view is known: :mod:`hardware.mounting`), so "lower the camera by about 25 cm"
  is worked out, not guessed.
- **Focus**: the variance of the Laplacian of the grey picture inside each card (its print,
  away from its edges); below ``SHARP_ENOUGH`` the index letters run together.
- **Glare**: a card is washed out when over ``WASHED_OUT`` of it is at full white in all three
  channels and under ``INK`` of it is print (darker than 0.6 of its brightest, or coloured): a white face
  exposed to full white keeps its print and is not counted; one under a lamp's reflection loses it.
- **Framing**: a card cut by the picture's edge means the table is not all in view.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hardware.mounting import CAMERA_MODULE_3, CARD_MM, Lens

BEST_CARD_PX = (110.0, 215.0)
"""Card heights in pixels the reader reads best (models/README.md)."""
SMALL_CARD_PX = 75.0
"""Under this the small-card reader reads the card whole, unsure of more than half."""
SHARP_ENOUGH = 30.0
"""Least median variance of the Laplacian inside the cards for a sharp print."""
WASHED_OUT = 0.8
"""A card with more than this share of its pixels at full white is blinded by glare."""
INK = 0.01
"""A card with less than this share of print pixels shows no print."""
TOO_TALL = 0.55
"""An outline taller than this share of the picture's height is not a card."""
CLIPPED = 250
"""A channel value at or above this is clipped."""
EDGE_PX = 3.0
"""A card corner this close to the picture's edge is cut by it."""


@dataclass(frozen=True)
class Advice:
    """One thing to check: ``ok`` or not, the figure measured, and what to do in plain words."""

    topic: str
    """``"cards"``, ``"height"``, ``"focus"``, ``"glare"`` or ``"framing"``."""
    ok: bool
    value: float | None
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"topic": self.topic, "ok": self.ok, "value": self.value, "text": self.text}


def card_heights(outlines: Sequence[Any]) -> np.ndarray:
    """The long side of each outline (4 x 2 corners, in order round the card), in pixels."""
    quads = np.asarray([np.asarray(q, np.float64).reshape(4, 2) for q in outlines], np.float64).reshape(-1, 4, 2)
    sides = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)
    out: np.ndarray = np.maximum((sides[:, 0] + sides[:, 2]) / 2, (sides[:, 1] + sides[:, 3]) / 2)
    return out


def camera_height(card_px: float, image_width: int, lens: Lens = CAMERA_MODULE_3) -> float:
    """Metres from the felt to a camera with ``lens`` that sees an 88 mm card ``card_px`` tall in a
    picture ``image_width`` pixels wide (the camera looking straight down)."""
    if card_px <= 0 or image_width <= 0:
        raise ValueError(f"card height and picture width must be above 0 px, got {card_px} and {image_width}")
    covered = image_width / (card_px / CARD_MM[1]) / 1000
    return covered / (2 * math.tan(math.radians(lens.horizontal_fov / 2)))


def _inner_mask(shape: tuple[int, int], quad: np.ndarray, keep: float = 0.8) -> np.ndarray:
    import cv2

    mask = np.zeros(shape, np.uint8)
    centre = quad.mean(axis=0)
    cv2.fillConvexPoly(mask, (centre + (quad - centre) * keep).round().astype(np.int32), 1)
    return mask.astype(bool)


def _cut(quad: np.ndarray, width: int, height: int) -> bool:
    """Whether a corner of the card lies on (or beyond) the picture's edge."""
    x, y = quad[:, 0], quad[:, 1]
    return bool((x < EDGE_PX).any() or (y < EDGE_PX).any() or (x > width - 1 - EDGE_PX).any()
                or (y > height - 1 - EDGE_PX).any())  # fmt: skip


def _rounded_cm(metres: float) -> int:
    return max(5, round(abs(metres) * 100 / 5) * 5)


def _height_advice(px: float, width: int, lens: Lens) -> Advice:
    low, high = BEST_CARD_PX
    height = camera_height(px, width, lens)
    target = math.sqrt(low * high)
    move = height * px / target - height  # metres up (+) or down (-) to bring cards to the middle
    reads = f"cards are {px:.0f} px tall; the reader reads best at {low:.0f}-{high:.0f} px"
    where = f"the camera is about {height * 100:.0f} cm above the felt ({lens.name})"
    if px < low:
        extra = f" (under {SMALL_CARD_PX:.0f} px most cards stay unsure)" if px < SMALL_CARD_PX else ""
        return Advice("height", False, round(px, 1),
                      f"Lower the camera by about {_rounded_cm(move)} cm: {reads}{extra}; {where}.")  # fmt: skip
    if px > high:
        return Advice("height", False, round(px, 1),
                      f"Raise the camera by about {_rounded_cm(move)} cm: {reads}; {where}.")  # fmt: skip
    return Advice("height", True, round(px, 1), f"Height is right: {reads}; {where}.")


def aim_advice(image: np.ndarray, outlines: Sequence[Any], *, lens: Lens = CAMERA_MODULE_3) -> list[Advice]:
    """What to change about the camera, from a BGR ``image`` and the ``outlines`` (4 x 2 pixel
    corners each) of the cards found on it: one :class:`Advice` per topic, ok or not."""
    import cv2

    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"the picture must be BGR (height x width x 3), got shape {image.shape}")
    h, w = image.shape[:2]
    found = [np.asarray(q, np.float64).reshape(4, 2) for q in outlines]
    quads = [q for q in found if card_heights([q])[0] <= TOO_TALL * h]
    if not quads:
        big = (f" (a shape {card_heights(found).max() / h:.0%} of the picture tall was not taken for a card: from "
               "far above, the whole table can look like one card; lower the camera)") if found else ""  # fmt: skip
        return [Advice("cards", False, 0.0,
                       "No card is seen: lay a few cards face up across the table (one in front of each seat, "
                       f"some in the middle) and keep hands out of the picture{big}.")]  # fmt: skip
    advice = [Advice("cards", True, float(len(quads)), f"{len(quads)} cards seen.")]
    whole = [q for q in quads if not _cut(q, w, h)]
    heights = card_heights(whole or quads)
    advice.append(_height_advice(float(np.percentile(heights, 25)), w, lens))

    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    laplace = cv2.Laplacian(grey, cv2.CV_64F)
    clipped = np.all(np.asarray(image) >= CLIPPED, axis=2).astype(bool)
    chroma = np.asarray(image).max(axis=2).astype(np.int16) - np.asarray(image).min(axis=2).astype(np.int16)
    sharpness, washed = [], 0
    for quad in quads:
        inside = _inner_mask((h, w), quad)
        if inside.sum() < 20:
            continue
        sharpness.append(float(laplace[inside].var()))
        card = _inner_mask((h, w), quad, keep=0.95)  # the indices in the corners too
        values = grey[card]
        ink = float(((values < 0.6 * float(np.percentile(values, 99))) | (chroma[card] > 60)).mean())
        washed += bool(clipped[inside].mean() > WASHED_OUT and ink < INK)
    sharp = float(np.median(sharpness)) if sharpness else 0.0
    if sharp >= SHARP_ENOUGH:
        advice.append(Advice("focus", True, round(sharp, 1), f"Focus is sharp (sharpness {sharp:.0f}; "
                             f"{SHARP_ENOUGH:.0f} or more reads well)."))  # fmt: skip
    else:
        advice.append(Advice("focus", False, round(sharp, 1),
                             f"Focus the lens (or wipe it): the cards are blurred (sharpness {sharp:.0f}, "
                             f"{SHARP_ENOUGH:.0f} or more reads well)."))  # fmt: skip
    if washed:
        advice.append(Advice("glare", False, float(washed),
                             f"{washed} of {len(quads)} cards are washed out by glare (over {WASHED_OUT:.0%} of "
                             "the card at full white): move the lamp or tilt it away, or lower the exposure."))
    else:
        advice.append(Advice("glare", True, 0.0, "No card is washed out by glare."))
    cut = sum(_cut(q, w, h) for q in quads)
    if cut:
        advice.append(Advice("framing", False, float(cut),
                             f"{cut} card{'s are' if cut > 1 else ' is'} cut by the picture's edge: the table is "
                             "not all in view; raise the camera or centre it over the table."))  # fmt: skip
    else:
        advice.append(Advice("framing", True, 0.0, "Every card seen lies wholly inside the picture."))
    return advice
