"""Hard table layouts for :mod:`vision.render.scene`: what a reader meets on a real table, dealt at random.

>>> import numpy as np
>>> cards, options = deal_hard(np.random.default_rng(1), kind="grid")
>>> len(cards), options.size
(52, (1920, 1080))

Kinds (:data:`KINDS`):
- ``large``: one card 45–70 % of the frame high (a phone held close), or two or three cards 28–45 %;
- ``grid``: all 52 cards in 4 rows of 13, touching or nearly, seen straight down or a little tilted;
- ``tilted``: 4–12 cards of mixed sizes (4–35 % of the frame high) under a camera tilted 25–45°
  from straight down in any direction, with a wide lens: far cards small, near cards large;
- ``textured``: 4–12 cards from 3 % of the frame high on wood, patterned or dark cloth, in uneven
  light or glare, with a keyboard, paper, a phone, chips or coins beside them.
Tilted and textured tables sometimes have a card cut by the frame's edge (``CardTruth.cut``).
Cards are placed where the camera shows them at the chosen size: a point of the image is picked
and the table point under it found, so a tilted camera never pushes them out of the frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from table.cards import Card
from vision.errors import SceneError
from vision.render.scene import CARD_ASPECT, TABLES, PlacedCard, SceneSpec
from vision.render.scene_camera import Lens, View, homography, local_scale, to_plane
from vision.render.scene_clutter import CLUTTER
from vision.render.scene_surfaces import LIGHTS, SURFACES

KINDS = ("large", "grid", "tilted", "textured")
"""The kinds of hard table :func:`deal_hard` deals."""

_HALF_DIAGONAL = math.hypot(1.0, CARD_ASPECT) / 2
"""A card's half diagonal, in card heights."""


@dataclass(frozen=True)
class SceneOptions:
    """Everything of a :class:`~vision.render.scene.SceneSpec` but its cards, seed and deck."""

    size: tuple[int, int] = (1280, 720)
    table: str | None = None
    camera: View | None = None
    clutter: tuple[str, ...] = ()
    light: str | None = None

    def spec(self, cards: tuple[PlacedCard, ...], *, seed: int, deck: str | None = None) -> SceneSpec:
        """The scene of ``cards`` on this table."""
        return SceneSpec(cards=cards, size=self.size, table=self.table, seed=seed, deck=deck, camera=self.camera,
                         clutter=self.clutter, light=self.light)  # fmt: skip


def _any_table(rng: np.random.Generator) -> str:
    names = sorted(TABLES) + sorted(SURFACES)
    return names[int(rng.integers(len(names)))]


def _view(rng: np.random.Generator, tilt: tuple[float, float]) -> View:
    return View(tilt=float(rng.uniform(*tilt)), azimuth=float(rng.uniform(0, 360)), roll=float(rng.uniform(-20, 20)),
                fov=float(rng.uniform(50, 100)), bulge=float(rng.choice([0.0, rng.uniform(0.01, 0.06)])))  # fmt: skip


class _Dealer:
    """Places cards where the camera shows them at a chosen size, apart from those already placed."""

    def __init__(self, rng: np.random.Generator, size: tuple[int, int], view: View | None) -> None:
        self.rng, self.size = rng, size
        self.matrix = homography(view, size) if view is not None else np.eye(3)
        self.ids = [int(i) for i in rng.permutation(52)]
        self.taken: list[tuple[np.ndarray, float]] = []  # image centre, radius

    def place(self, height: float, *, face_up: float = 0.8, spacing: float = 1.0,
              cut: bool = False) -> PlacedCard | None:  # fmt: skip
        """A card ``height`` of the frame high (as seen), or None when no clear place is found."""
        w, h = self.size
        radius = height * h * _HALF_DIAGONAL
        for _ in range(60):
            if cut:  # the centre near an edge, so that the edge cuts the card
                edge = int(self.rng.integers(4))
                t = self.rng.uniform(0.15, 0.85)
                inset = self.rng.uniform(-0.2, 0.25) * height * h
                at = [(t * w, inset), (t * w, h - inset), (inset, t * h), (w - inset, t * h)][edge]
                centre = np.array(at, float)
            else:
                margin = radius + 0.01 * h
                if 2 * margin >= min(w, h):
                    return None
                centre = np.array([self.rng.uniform(margin, w - margin), self.rng.uniform(margin, h - margin)])
            if any(np.linalg.norm(centre - c) < (radius + r) * spacing for c, r in self.taken):
                continue
            plane = to_plane(self.matrix, centre[None])[0]
            angle = float(self.rng.uniform(-180, 180))
            scale = local_scale(self.matrix, Lens(0.0, self.size), (plane[0], plane[1]), angle)
            plane_height = height / scale
            if not 0.01 <= plane_height <= 2.0:
                continue
            self.taken.append((centre, radius))
            card = str(Card.from_id(self.ids.pop()))
            return PlacedCard(card, bool(self.rng.random() < face_up), (plane[0] / w, plane[1] / h), angle=angle,
                              height=plane_height)  # fmt: skip
        return None


def _deal_large(rng: np.random.Generator) -> tuple[tuple[PlacedCard, ...], SceneOptions]:
    size = ((1280, 720), (1920, 1080))[int(rng.integers(2))]
    view = _view(rng, (0, 25)) if rng.random() < 0.5 else None
    dealer = _Dealer(rng, size, view)
    heights = [rng.uniform(0.45, 0.7)] if rng.random() < 0.5 else list(rng.uniform(0.28, 0.45, int(rng.integers(2, 4))))
    cards = [c for c in (dealer.place(float(x), face_up=0.9) for x in heights) if c is not None]
    return tuple(cards), SceneOptions(size=size, table=_any_table(rng), camera=view)


def _deal_grid(rng: np.random.Generator) -> tuple[tuple[PlacedCard, ...], SceneOptions]:
    size = ((1920, 1080), (2304, 1296))[int(rng.integers(2))]
    w, h = size
    view = _view(rng, (0, 25)) if rng.random() < 0.5 else None
    matrix = homography(view, size) if view is not None else np.eye(3)
    gap = float(rng.uniform(0.0, 0.05))
    turn = math.radians(rng.uniform(-6, 6))
    ids = [int(i) for i in rng.permutation(52)]
    ups = rng.random(52) < 0.9
    jitter = rng.uniform(-2, 2, (52, 3))
    scale = rng.uniform(0.75, 1.0) * min(w / (13 * CARD_ASPECT * (1 + gap) + 0.3), h / (4 * (1 + gap) + 0.3))
    for _ in range(30):  # shrink until the camera shows the whole grid
        pitch = np.array([scale * CARD_ASPECT * (1 + gap), scale * (1 + gap)])
        rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
        grid = np.array([[(col - 6) * pitch[0], (row - 1.5) * pitch[1]] for row in range(4) for col in range(13)])
        centres = grid @ rot.T + [w / 2, h / 2] + jitter[:, :2] * scale * 0.005
        reach = np.array([[dx, dy] for dx in (-1, 1) for dy in (-1, 1)]) * [6.5 * pitch[0], 2 * pitch[1]]
        seen = _project(matrix, reach @ rot.T + [w / 2, h / 2])
        if seen.min() > 0.01 * h and (seen[:, 0] < 0.99 * w).all() and (seen[:, 1] < h - 0.01 * h).all():
            break
        scale *= 0.92
    cards = tuple(PlacedCard(str(Card.from_id(ids[k])), bool(ups[k]), (centres[k, 0] / w, centres[k, 1] / h),
                             angle=math.degrees(-turn) + float(jitter[k, 2]), height=scale / h)
                  for k in range(52))  # fmt: skip
    return cards, SceneOptions(size=size, table=_any_table(rng), camera=view)


def _project(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    homog = np.column_stack([points, np.ones(len(points))]) @ matrix.T
    out: np.ndarray = homog[:, :2] / homog[:, 2:]
    return out


def _deal_spread(rng: np.random.Generator, view: View | None, size: tuple[int, int],
                 heights: tuple[float, float]) -> list[PlacedCard]:  # fmt: skip
    dealer = _Dealer(rng, size, view)
    count = int(rng.integers(4, 13))
    # Mixed sizes: a log-uniform spread, so small cards are as common as large ones.
    wanted = np.exp(rng.uniform(math.log(heights[0]), math.log(heights[1]), count))
    cards = [dealer.place(float(x), spacing=float(rng.uniform(0.75, 1.1))) for x in sorted(wanted, reverse=True)]
    if rng.random() < 0.3:
        cards.append(dealer.place(float(rng.uniform(0.1, 0.25)), cut=True))
    return [c for c in cards if c is not None]


def _deal_tilted(rng: np.random.Generator) -> tuple[tuple[PlacedCard, ...], SceneOptions]:
    size = ((1920, 1080), (2304, 1296))[int(rng.integers(2))]
    view = _view(rng, (25, 45))
    cards = _deal_spread(rng, view, size, (0.04, 0.35))
    return tuple(cards), SceneOptions(size=size, table=_any_table(rng), camera=view)


def _deal_textured(rng: np.random.Generator) -> tuple[tuple[PlacedCard, ...], SceneOptions]:
    size = (2304, 1296)
    view = _view(rng, (0, 30))
    cards = _deal_spread(rng, view, size, (0.03, 0.25))
    surfaces = sorted(SURFACES)
    clutter = tuple(CLUTTER[int(i)] for i in rng.integers(len(CLUTTER), size=int(rng.integers(2, 6))))
    light = LIGHTS[int(rng.integers(len(LIGHTS)))] if rng.random() < 0.8 else None
    return tuple(cards), SceneOptions(size=size, table=surfaces[int(rng.integers(len(surfaces)))], camera=view,
                                      clutter=clutter, light=light)  # fmt: skip


def deal_hard(rng: np.random.Generator, *, kind: str) -> tuple[tuple[PlacedCard, ...], SceneOptions]:
    """A hard table of ``kind`` (see :data:`KINDS` and the module docstring): its cards and the
    scene's options. Build the spec with ``options.spec(cards, seed=..., deck=...)``."""
    deal = {"large": _deal_large, "grid": _deal_grid, "tilted": _deal_tilted, "textured": _deal_textured}.get(kind)
    if deal is None:
        raise SceneError(f"unknown hard table kind {kind!r}: expected one of {', '.join(KINDS)}")
    return deal(rng)
