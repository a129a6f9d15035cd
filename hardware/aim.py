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
- **Tilt**: a camera that does not look straight down sees the near side of the table bigger.
  The size of a card (the square root of its area in the picture) falls off in a straight line
  across the picture, by 1.5 x tan(tilt) per focal length (the homography of a tilted pinhole
  camera: areas scale with the cube of the depth factor, sizes with its power 3/2). A straight
  line fitted to the sizes of the cards wholly in view (three rounds, each leaving out the cards
  more than 12 % off it: two cards found as one) gives the tilt in both directions, when at least
  ``TILT_CARDS`` cards spread over a quarter of the picture. Within ``TILT_OK`` degrees of
  straight down the camera is fine.
- **Focus**: the variance of the Laplacian of the grey picture inside each card (its print,
  away from its edges); below ``SHARP_ENOUGH`` the index letters run together.
- **Glare**: a card is washed out when over ``WASHED_OUT`` of it is at full white in all three
  channels and under ``INK`` of it is print (darker than 0.6 of its brightest, or coloured): a white face
  exposed to full white keeps its print and is not counted; one under a lamp's reflection loses it.
- **Framing**: a card cut by the picture's edge means the table is not all in view.

Each piece of advice carries its words as a value (:mod:`table.phrases`): an English template and
its figures (centimetres, pixels, degrees, counts), so the set-up page says it in the phone's
language with the language's digits; :attr:`Advice.text` is the English sentence.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hardware.mounting import CAMERA_MODULE_3, CARD_MM, Lens
from table.phrases import N_, NP_, Figure, Number, Phrase, Verbatim, Word

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
TILT_OK = 7.0
"""Degrees off straight down a camera may lean without advice."""
TILT_CARDS = 5
"""Least cards wholly in view to measure the tilt."""
TILT_SPREAD = 0.25
"""Least spread of those cards, as a share of the picture's height (or width), to measure the tilt that way."""


@dataclass(frozen=True)
class Advice:
    """One thing to check: ``ok`` or not, the figure measured, and what to do (``phrase``: a
    template and its figures, said in each phone's language; :attr:`text` is the English)."""

    topic: str
    """``"cards"``, ``"height"``, ``"tilt"``, ``"focus"``, ``"glare"`` or ``"framing"``."""
    ok: bool
    value: float | None
    phrase: Phrase

    @property
    def text(self) -> str:
        """What to do, in English."""
        return self.phrase.english()

    def to_dict(self) -> dict[str, Any]:
        return {"topic": self.topic, "ok": self.ok, "value": self.value, "text": self.text,
                "phrase": self.phrase.to_data()}  # fmt: skip


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


@dataclass(frozen=True)
class Tilt:
    """How far the camera leans from looking straight down, measured on the cards' sizes."""

    degrees: float
    """Off straight down, in all."""
    across: float
    """Degrees about the picture's horizontal axis (positive: the cards look bigger toward its top)."""
    sideways: float
    """Degrees about its vertical axis (positive: the cards look bigger toward its left)."""
    cards: int
    """Cards the line was fitted to."""

    @property
    def bigger_toward(self) -> str:
        """The side of the picture where the cards look bigger: the side of the table nearer the camera."""
        if abs(self.across) >= abs(self.sideways):
            return "top" if self.across > 0 else "bottom"
        return "left" if self.sideways > 0 else "right"

    @property
    def side_word(self) -> Word:
        """:attr:`bigger_toward` as a word of its own, for a phrase."""
        return Word(_SIDES[self.bigger_toward], "picture")


def camera_tilt(outlines: Sequence[Any], width: int, height: int, lens: Lens = CAMERA_MODULE_3) -> Tilt | None:
    """The camera's tilt from the sizes of the cards wholly in a ``width`` x ``height`` picture
    (None: too few cards, or not spread enough to tell)."""
    quads = [np.asarray(q, np.float64).reshape(4, 2) for q in outlines]
    quads = [q for q in quads if not _cut(q, width, height)]
    if len(quads) < TILT_CARDS:
        return None
    focal = (width / 2) / math.tan(math.radians(lens.horizontal_fov / 2))
    q = np.asarray(quads)
    centres = q.mean(axis=1)
    x, y = q[:, :, 0], q[:, :, 1]
    area = 0.5 * np.abs(np.sum(x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y, axis=1))
    size = np.sqrt(area)
    spread_x = float(np.ptp(centres[:, 0])) / width >= TILT_SPREAD
    spread_y = float(np.ptp(centres[:, 1])) / height >= TILT_SPREAD
    if not (spread_x or spread_y):
        return None
    columns = [np.ones(len(q))]
    if spread_x:
        columns.append((centres[:, 0] - width / 2) / focal)
    if spread_y:
        columns.append((centres[:, 1] - height / 2) / focal)
    design = np.stack(columns, axis=1)
    keep = np.ones(len(q), bool)
    for _ in range(3):
        if keep.sum() < TILT_CARDS:
            return None
        coef = np.linalg.lstsq(design[keep], size[keep], rcond=None)[0]
        keep = np.abs(size / (design @ coef) - 1) < 0.12
    slopes = list(coef[1:] / coef[0])
    bx = slopes.pop(0) if spread_x else 0.0
    by = slopes.pop(0) if spread_y else 0.0
    sideways, across = -bx / 1.5, -by / 1.5  # tan of each angle
    total = math.degrees(math.atan(math.hypot(sideways, across)))
    return Tilt(round(total, 1), round(math.degrees(math.atan(across)), 1), round(math.degrees(math.atan(sideways)), 1),
                int(keep.sum()))  # fmt: skip


_SIDES = {"top": NP_("picture", "top"), "bottom": NP_("picture", "bottom"), "left": NP_("picture", "left"),
          "right": NP_("picture", "right")}  # fmt: skip


def _tilt_advice(tilt: Tilt | None) -> Advice:
    if tilt is None:
        return Advice("tilt", True, None, Phrase(N_("Tilt not measured: it needs {n} or more cards wholly in view, "
                                                    "spread across the table."), n=Number(TILT_CARDS)))  # fmt: skip
    degrees, cards = Number(round(tilt.degrees)), Number(tilt.cards)
    if tilt.degrees <= TILT_OK:
        return Advice("tilt", True, tilt.degrees,
                      Phrase(N_("The camera looks straight down (tilt {degrees}°, up to {ok}° is fine; measured on "
                                "the sizes of {cards} cards)."), degrees=degrees, ok=Number(round(TILT_OK)),
                             cards=cards))  # fmt: skip
    by = max(5, round(tilt.degrees / 5) * 5)
    return Advice("tilt", False, tilt.degrees,
                  Phrase(N_("Tilt the camera back toward straight down by about {by}°: the cards look bigger toward "
                            "the {side} of the picture, the side of the table nearer the camera (tilted {degrees}°, "
                            "measured on the sizes of {cards} cards)."),
                         by=Number(by), side=tilt.side_word, degrees=degrees, cards=cards))  # fmt: skip


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
    figures: dict[str, Figure] = {
        "px": Number(round(px)),
        "low": Number(round(low)),
        "high": Number(round(high)),
        "cm": Number(round(height * 100)),
        "lens": Verbatim(lens.name),
        "move": Number(_rounded_cm(move)),
    }
    if px < SMALL_CARD_PX:
        return Advice("height", False, round(px, 1), Phrase(
            N_("Lower the camera by about {move} cm: cards are {px} px tall; the reader reads best at {low}-{high} px "
               "(under {small} px most cards stay unsure); the camera is about {cm} cm above the felt ({lens})."),
            figures, small=Number(round(SMALL_CARD_PX))))  # fmt: skip
    if px < low:
        return Advice("height", False, round(px, 1), Phrase(
            N_("Lower the camera by about {move} cm: cards are {px} px tall; the reader reads best at {low}-{high} "
               "px; the camera is about {cm} cm above the felt ({lens})."), figures))  # fmt: skip
    if px > high:
        return Advice("height", False, round(px, 1), Phrase(
            N_("Raise the camera by about {move} cm: cards are {px} px tall; the reader reads best at {low}-{high} "
               "px; the camera is about {cm} cm above the felt ({lens})."), figures))  # fmt: skip
    return Advice("height", True, round(px, 1), Phrase(
        N_("Height is right: cards are {px} px tall; the reader reads best at {low}-{high} px; the camera is about "
           "{cm} cm above the felt ({lens})."), {k: v for k, v in figures.items() if k != "move"}))  # fmt: skip


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
        if found:
            share = Number(round(100 * card_heights(found).max() / h))
            return [Advice("cards", False, 0.0, Phrase(
                N_("No card is seen: lay a few cards face up across the table (one in front of each seat, some in the "
                   "middle) and keep hands out of the picture (a shape {share}% of the picture tall was not taken "
                   "for a card: from far above, the whole table can look like one card; lower the camera)."),
                share=share))]  # fmt: skip
        return [Advice("cards", False, 0.0, Phrase(
            N_("No card is seen: lay a few cards face up across the table (one in front of each seat, some in the "
               "middle) and keep hands out of the picture.")))]  # fmt: skip
    advice = [Advice("cards", True, float(len(quads)), Phrase(N_("{n} cards seen."), n=Number(len(quads))))]
    whole = [q for q in quads if not _cut(q, w, h)]
    heights = card_heights(whole or quads)
    advice.append(_height_advice(float(np.percentile(heights, 25)), w, lens))
    advice.append(_tilt_advice(camera_tilt(quads, w, h, lens)))

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
        advice.append(Advice("focus", True, round(sharp, 1), Phrase(
            N_("Focus is sharp (sharpness {sharp}; {enough} or more reads well)."),
            sharp=Number(round(sharp)), enough=Number(round(SHARP_ENOUGH)))))  # fmt: skip
    else:
        advice.append(Advice("focus", False, round(sharp, 1), Phrase(
            N_("Focus the lens (or wipe it): the cards are blurred (sharpness {sharp}, {enough} or more reads well)."),
            sharp=Number(round(sharp)), enough=Number(round(SHARP_ENOUGH)))))  # fmt: skip
    if washed:
        advice.append(Advice("glare", False, float(washed), Phrase(
            N_("{washed} of {n} cards are washed out by glare (over {share}% of the card at full white): move the "
               "lamp or tilt it away, or lower the exposure."),
            washed=Number(washed), n=Number(len(quads)), share=Number(round(100 * WASHED_OUT)))))  # fmt: skip
    else:
        advice.append(Advice("glare", True, 0.0, Phrase(N_("No card is washed out by glare."))))
    cut = sum(_cut(q, w, h) for q in quads)
    if cut:
        advice.append(Advice("framing", False, float(cut), Phrase(
            N_("{n} card is cut by the picture's edge: the table is not all in view; raise the camera or centre it "
               "over the table.") if cut == 1 else
            N_("{n} cards are cut by the picture's edge: the table is not all in view; raise the camera or centre "
               "it over the table."), n=Number(cut))))  # fmt: skip
    else:
        advice.append(Advice("framing", True, 0.0, Phrase(N_("Every card seen lies wholly inside the picture."))))
    return advice
