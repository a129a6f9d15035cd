"""Things beside the cards that are not cards, for :mod:`vision.render.scene`: the reader must ignore them.

Each object is drawn as polygons on the table plane, projected through the scene's camera, so a
tilted camera foreshortens it like the cards. Sizes are in card heights (a poker card is 88 mm):
a keyboard (rows of lettered keys), sheets of paper with lines of text, sticky notes and blank
index cards (white rectangles close to a card's shape: the hardest not-a-card), a phone, poker
chips and coins. None of them is ever in the scene's truth.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

CLUTTER = ("keyboard", "paper", "note", "index-card", "phone", "chips", "coins")
"""Objects a scene may ask for (``SceneSpec.clutter``, repeats allowed)."""

_EXTENT = {"keyboard": 2.8, "paper": 2.2, "note": 0.65, "index-card": 0.85, "phone": 1.0, "chips": 0.9,
           "coins": 0.6}  # fmt: skip
"""Rough radius of each object, in card heights (for keeping it clear of the cards)."""


def _project(matrix: np.ndarray, points: np.ndarray) -> np.ndarray | None:
    """Plane points → image pixels, or None when any lies behind the camera or absurdly far out."""
    homog = np.column_stack([points, np.ones(len(points))]) @ matrix.T
    if (homog[:, 2] <= 1e-6).any():
        return None
    image: np.ndarray = homog[:, :2] / homog[:, 2:]
    if np.abs(image).max() > 1e5:
        return None
    return image


class _Painter:
    """Fills plane polygons into an image through a homography, with anti-aliased edges."""

    def __init__(self, frame: np.ndarray, shadow: np.ndarray, matrix: np.ndarray) -> None:
        self.frame, self.shadow, self.matrix = frame, shadow, matrix

    def poly(self, points: np.ndarray, colour: tuple[float, ...], *, cast: bool = False) -> None:
        image = _project(self.matrix, points)
        if image is None:
            return
        pts = np.round(image * 4).astype(np.int32)
        if cast:
            cv2.fillPoly(self.shadow, [pts], 1.0, cv2.LINE_AA, shift=2)
        cv2.fillPoly(self.frame, [pts], tuple(float(c) for c in colour), cv2.LINE_AA, shift=2)

    def text(self, at: np.ndarray, word: str, height: float, colour: tuple[int, int, int]) -> None:
        ends = _project(self.matrix, np.array([at, at + np.array([0.0, height])]))
        if ends is None:
            return
        size = float(np.linalg.norm(ends[1] - ends[0]))
        if size < 4:
            return
        scale = size / 22
        (tw, th), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        org = (int(ends[0][0] - tw / 2), int(ends[0][1] + th / 2))
        cv2.putText(self.frame, word, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, max(int(scale * 1.5), 1),
                    cv2.LINE_AA)  # fmt: skip


def _rect(centre: np.ndarray, w: float, h: float, angle: float, radius: float = 0.0) -> np.ndarray:
    """A (rounded) rectangle's outline on the plane, turned by ``angle`` radians."""
    if radius <= 0:
        local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    else:
        radius = min(radius, w / 2, h / 2)
        pts = []
        x, y = w / 2 - radius, h / 2 - radius
        for cx, cy, start in ((x, -y, -90), (x, y, 0), (-x, y, 90), (-x, -y, 180)):
            for k in range(7):
                t = math.radians(start + 15 * k)
                pts.append((cx + radius * math.cos(t), cy + radius * math.sin(t)))
        local = np.array(pts)
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    out: np.ndarray = local @ rot.T + centre
    return out


def _disc(centre: np.ndarray, r: float, n: int = 40) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    out: np.ndarray = centre + r * np.column_stack([np.cos(t), np.sin(t)])
    return out


def _keyboard(p: _Painter, rng: np.random.Generator, c: np.ndarray, unit: float, a: float) -> None:
    dark = rng.random() < 0.6
    body = (35, 35, 38) if dark else (215, 215, 210)
    key = (55, 55, 58) if dark else (238, 238, 235)
    ink = (215, 215, 215) if dark else (40, 40, 40)
    kw = unit * 0.2
    p.poly(_rect(c, 15.5 * kw, 5.8 * kw, a, kw * 0.3), body, cast=True)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    rows = ["1234567890-=", "QWERTYUIOP[]", "ASDFGHJKL;'", "ZXCVBNM,./"]
    for r, row in enumerate(rows):
        for k, letter in enumerate(row):
            local = np.array([(-6.6 + k + 0.3 * r) * kw, (-2.1 + r) * kw])
            centre = local @ rot.T + c
            p.poly(_rect(centre, kw * 0.84, kw * 0.84, a, kw * 0.12), key)
            if rng.random() < 0.9:
                p.text(centre, letter, kw * 0.4, ink)
    space = np.array([0.0, 2.0 * kw]) @ rot.T + c
    p.poly(_rect(space, 6 * kw, kw * 0.84, a, kw * 0.12), key)


def _paper(p: _Painter, rng: np.random.Generator, c: np.ndarray, unit: float, a: float) -> None:
    w, h = 2.4 * unit, 3.4 * unit
    tone = float(rng.uniform(225, 250))
    p.poly(_rect(c, w, h, a), (tone, tone, tone - rng.uniform(0, 12)), cast=True)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    line = unit * 0.08
    y = -h / 2 + unit * 0.35
    while y < h / 2 - unit * 0.3:
        length = w * 0.75 * (rng.uniform(0.3, 1.0) if rng.random() < 0.2 else 1.0)
        centre = np.array([-w * 0.375 + length / 2, y]) @ rot.T + c
        ink = float(rng.uniform(60, 130))
        p.poly(_rect(centre, length, line * 0.35, a), (ink, ink, ink))
        y += line * 1.6


def _note(p: _Painter, rng: np.random.Generator, c: np.ndarray, unit: float, a: float) -> None:
    colours = [(120, 235, 250), (180, 240, 170), (200, 170, 250), (245, 225, 170)]
    p.poly(_rect(c, 0.86 * unit, 0.86 * unit, a), colours[int(rng.integers(len(colours)))], cast=True)


def _index_card(p: _Painter, rng: np.random.Generator, c: np.ndarray, unit: float, a: float) -> None:
    tone = float(rng.uniform(228, 250))
    # An index card, a business card, or a blank card-shaped piece of card.
    shape = [(1.44, 0.86), (0.96, 0.62), (1.0, 1.0 / 0.72)][int(rng.integers(3))]
    p.poly(_rect(c, shape[0] * unit, shape[1] * unit, a, 0.03 * unit), (tone, tone, tone), cast=True)
    if rng.random() < 0.5:  # a few words in the middle, as on a business card
        p.text(c, "".join(chr(int(rng.integers(65, 91))) for _ in range(5)), 0.12 * unit, (60, 50, 40))


def _phone(p: _Painter, rng: np.random.Generator, c: np.ndarray, unit: float, a: float) -> None:
    w, h = 0.8 * unit, 1.7 * unit
    p.poly(_rect(c, w, h, a, 0.1 * unit), (20, 20, 22), cast=True)
    lit = rng.random() < 0.5
    screen = (float(rng.uniform(120, 230)), float(rng.uniform(90, 200)), float(rng.uniform(60, 200))) if lit \
        else (12, 12, 14)  # fmt: skip
    p.poly(_rect(c, w * 0.9, h * 0.9, a, 0.06 * unit), screen)


def _chips(p: _Painter, rng: np.random.Generator, c: np.ndarray, unit: float, a: float) -> None:
    colours = [(40, 40, 200), (200, 80, 30), (30, 30, 30), (230, 230, 230), (40, 150, 40)]
    for _ in range(int(rng.integers(2, 7))):
        at = c + rng.uniform(-0.5, 0.5, 2) * unit
        r = 0.23 * unit
        colour = colours[int(rng.integers(len(colours)))]
        p.poly(_disc(at, r), colour, cast=True)
        for k in range(6):  # the edge spots
            t = a + k * math.pi / 3
            spot = at + 0.8 * r * np.array([math.cos(t), math.sin(t)])
            p.poly(_rect(spot, 0.3 * r, 0.18 * r, t), (240, 240, 240))
        p.poly(_disc(at, 0.62 * r), tuple(min(255, int(v) + 30) for v in colour))


def _coins(p: _Painter, rng: np.random.Generator, c: np.ndarray, unit: float, a: float) -> None:
    for _ in range(int(rng.integers(2, 6))):
        at = c + rng.uniform(-0.4, 0.4, 2) * unit
        r = rng.uniform(0.1, 0.14) * unit
        gold = rng.random() < 0.4
        base = np.array([60, 170, 205] if gold else [175, 175, 170], float) * rng.uniform(0.8, 1.1)
        p.poly(_disc(at, r), tuple(base * 0.75), cast=True)
        p.poly(_disc(at, r * 0.85), tuple(np.minimum(base * 1.1, 255)))


_DRAW = {"keyboard": _keyboard, "paper": _paper, "note": _note, "index-card": _index_card, "phone": _phone,
         "chips": _chips, "coins": _coins}  # fmt: skip


def draw_clutter(frame: np.ndarray, names: tuple[str, ...], matrix: np.ndarray, *, seed: int, unit: float,
                 keep_clear: list[tuple[np.ndarray, float]]) -> None:  # fmt: skip
    """Draw ``names`` onto ``frame`` (in place) through the plane→image ``matrix``.

    ``unit`` is a card's height on the plane; ``keep_clear`` lists (plane centre, radius) discs,
    the cards', that no object may cover. An object that finds no clear place is left out.
    """
    h, w = frame.shape[:2]
    rng = np.random.default_rng([seed, 707])
    inverse = np.linalg.inv(matrix)
    shadow = np.zeros((h, w), np.float32)
    painter = _Painter(frame, shadow, matrix)
    taken = list(keep_clear)
    for name in names:
        extent = _EXTENT[name] * unit
        for _ in range(40):
            # Somewhere in view: pick an image point, find the plane point it shows.
            seen = np.array([rng.uniform(-0.1, 1.1) * w, rng.uniform(-0.1, 1.1) * h, 1.0]) @ inverse.T
            if seen[2] <= 0:
                continue
            centre = seen[:2] / seen[2]
            if all(np.linalg.norm(centre - at) > extent + r for at, r in taken):
                _DRAW[name](painter, rng, centre, unit, float(rng.uniform(0, 2 * math.pi)))
                taken.append((centre, extent))
                break
    if shadow.any():  # objects cast a soft shadow down and right of themselves
        shift = np.array([[1, 0, unit * 0.03], [0, 1, unit * 0.04]], np.float32)
        shade = cv2.GaussianBlur(cv2.warpAffine(shadow, shift, (w, h)), (0, 0), max(unit * 0.03, 1.0))
        shade = np.where(shadow > 0, 0, shade) * np.float32(0.35)
        frame[:] = np.clip(frame * (1 - shade[:, :, None]), 0, 255).astype(np.uint8)
