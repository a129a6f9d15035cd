"""Training data for the card segmenter: rendered tables and, for each, exact card and core maps.

Each sample is a whole table scene drawn by :func:`vision.scene.render_scene` (deck styles from
the "train" font pool only) in one of several layouts a real night produces: rows apart, rows
touching, piles, fanned hands, a board with hole cards around it, one or two large cards cut by
the frame's edge, sometimes hands reaching over the cards; with ``rows``, a share of the tables
are rows of mostly face-down cards (Tock, plain and patterned backs) on light tables more often
than not (:func:`down_rows`), where the base detector drew phantom cards and card halos on the
cloth. The scene is drawn at twice the detector's work size and shrunk like a camera frame is
at run time. Targets come from the truth corners in drawing order (a later card hides an
earlier one), with the hands' own pixels removed:

- card: the share of each output pixel covered by any visible card;
- core: the share covered by some card's visible part lying at least CORE_FRACTION of that
  card's shorter side inside its visible edge (the frame's border is not an edge).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from table.cards import Card
from vision.scene import BACKS, TABLES, PlacedCard, SceneSpec, _draw_hands, deal_rows, render_scene
from vision.segment import CORE_FRACTION, OUT_SCALE

WORK_WIDTH = 320
_SIZES = ((640, 360), (640, 480), (640, 360), (640, 400))


@dataclass
class SegSample:
    image: np.ndarray  # (H, W, 3) uint8 BGR, work size
    target: np.ndarray  # (2, H/OUT_SCALE, W/OUT_SCALE) float32: card, core


def _cards(rng: np.random.Generator, count: int) -> list[str]:
    return [str(Card.from_id(int(c))) for c in rng.choice(52, count, replace=False)]


def _placed(rng: np.random.Generator, card: str, center: tuple[float, float], angle: float, height: float,
            aspect: float, face_up: float = 0.6) -> PlacedCard:  # fmt: skip
    back = str(rng.choice(BACKS)) if rng.random() < 0.5 else "plain"
    return PlacedCard(card, bool(rng.random() < face_up), (center[0] / aspect, center[1]), angle=angle,
                      height=height, back=back)  # fmt: skip


def layout(rng: np.random.Generator, aspect: float) -> tuple[PlacedCard, ...]:
    """A random table layout; ``aspect`` is the frame's width / height. x positions below are in
    units of the frame's height, then divided by the aspect."""
    kind = rng.choice(["spread", "touching", "pile", "fan", "game", "large"], p=[0.18, 0.2, 0.17, 0.13, 0.2, 0.12])
    if kind in ("spread", "touching") and aspect > 1.5:
        return deal_rows(rng, count=int(rng.integers(4, 15)), touching=kind == "touching")
    out: list[PlacedCard] = []
    if kind == "pile" or kind in ("spread", "touching"):
        n = int(rng.integers(1, 15))
        for card in _cards(rng, n):
            height = float(np.exp(rng.uniform(np.log(0.06), np.log(0.35))))
            center = (float(rng.uniform(0.05, 0.95) * aspect), float(rng.uniform(0.05, 0.95)))
            out.append(_placed(rng, card, center, float(rng.uniform(-180, 180)), height, aspect))
    elif kind == "fan":
        for _ in range(int(rng.integers(1, 4))):
            n = int(rng.integers(2, 7))
            height = float(rng.uniform(0.12, 0.4))
            cx, cy = float(rng.uniform(0.2, 0.8) * aspect), float(rng.uniform(0.2, 0.8))
            base, step = float(rng.uniform(-180, 180)), float(rng.uniform(6, 22)) * rng.choice([-1, 1])
            shift = float(rng.uniform(0.08, 0.3)) * height
            for k, card in enumerate(_cards(rng, n)):
                a = math.radians(base + k * step)
                center = (cx + k * shift * math.cos(a), cy - k * shift * math.sin(a))
                out.append(_placed(rng, card, center, base + k * step, height, aspect, face_up=0.8))
    elif kind == "game":
        height = float(rng.uniform(0.08, 0.18))
        cards = _cards(rng, 5 + 2 * 9)
        board = int(rng.integers(0, 6))
        gap = float(rng.uniform(-0.05, 0.25)) * height * 0.714
        x0 = aspect / 2 - (board - 1) / 2 * (height * 0.714 + gap)
        for k in range(board):
            center = (x0 + k * (height * 0.714 + gap), 0.5 + float(rng.normal(0, 0.01)))
            out.append(_placed(rng, cards[k], center, float(rng.normal(0, 4)), height, aspect, face_up=0.9))
        seats = int(rng.integers(2, 10))
        for s in range(seats):
            t = 2 * math.pi * s / seats + float(rng.normal(0, 0.1))
            sx, sy = aspect / 2 + 0.38 * aspect * math.cos(t), 0.5 + 0.36 * math.sin(t)
            turn = float(rng.uniform(-180, 180))
            for k in range(2):
                offset = float(rng.uniform(0.15, 0.7)) * height * 0.714
                a = math.radians(turn)
                center = (sx + k * offset * math.cos(a), sy - k * offset * math.sin(a))
                out.append(_placed(rng, cards[5 + 2 * s + k], center, turn + float(rng.normal(0, 8)), height, aspect,
                                   face_up=0.3))  # fmt: skip
    else:  # large: one or two cards filling much of the frame, maybe cut by its edge
        for card in _cards(rng, int(rng.integers(1, 3))):
            height = float(rng.uniform(0.35, 0.95))
            center = (float(rng.uniform(0.15, 0.85) * aspect), float(rng.uniform(0.15, 0.85)))
            out.append(_placed(rng, card, center, float(rng.uniform(-180, 180)), height, aspect, face_up=0.7))
    return tuple(out)


def _targets(corners: list[np.ndarray], hands: np.ndarray, size: tuple[int, int], out: tuple[int, int]) -> np.ndarray:
    """Card and core maps at ``out`` (w, h) from card corners in drawing order at ``size``."""
    w, h = size
    covered = hands.copy()  # pixels already hidden by something drawn later
    card = np.zeros((h, w), np.float32)
    core = np.zeros((h, w), np.float32)
    for quad in reversed(corners):
        poly = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(poly, np.round(quad * 4).astype(np.int32), 1, cv2.LINE_8, shift=2)
        visible = poly & (1 - covered)
        covered |= poly
        if not visible.any():
            continue
        sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
        short = float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)
        margin = CORE_FRACTION * short
        pad = math.ceil(margin) + 2
        padded = cv2.copyMakeBorder(visible, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        inside = cv2.distanceTransform(padded, cv2.DIST_L2, 5)[pad:-pad, pad:-pad]
        card[visible > 0] = 1.0
        core[inside >= margin] = 1.0
    size_out = (out[0], out[1])
    return np.stack([cv2.resize(card, size_out, interpolation=cv2.INTER_AREA),
                     cv2.resize(core, size_out, interpolation=cv2.INTER_AREA)])  # fmt: skip


PALE_TABLES = ("white-cloth", "beige-cloth", "grey-laminate", "grey-felt", "light-wood")
"""Light tables: where a lamp's glare on the cloth can look like a white card face, and a card's
edge shows least against the cloth (the base detector drew phantom cards there)."""


def down_rows(rng: np.random.Generator) -> tuple[tuple[PlacedCard, ...], str]:
    """A 16:9 table of rows of mostly face-down cards (Tock, plain and patterned backs), as a game
    deals them, and its surface: a light one more often than not."""
    cards = deal_rows(rng, count=int(rng.integers(6, 15)), touching=bool(rng.random() < 0.3),
                      face_up=float(rng.uniform(0.0, 0.3)))  # fmt: skip
    backs = rng.choice(["tock", "plain", *BACKS[2:]], size=len(cards),
                       p=[0.6, 0.2] + [0.2 / (len(BACKS) - 2)] * (len(BACKS) - 2))  # fmt: skip
    cards = tuple(replace(c, back=str(b)) for c, b in zip(cards, backs, strict=True))
    table = str(rng.choice(PALE_TABLES)) if rng.random() < 0.6 else str(rng.choice(sorted(TABLES)))
    return cards, table


def sample(seed: int, tock: float | None = None, rows: float = 0.0) -> SegSample:
    """One rendered table and its targets (deterministic for ``seed``, ``tock`` and ``rows``).

    ``tock``: the share of face-down cards given a Tock back (its sticker in the middle of the
    back is what a core must not break at); None leaves the layout's own backs. ``rows``: the
    share of tables that are instead :func:`down_rows` (their own random stream, so ``rows=0``
    gives the same tables as before it existed).
    """
    rng = np.random.default_rng([seed, 7001])
    size = _SIZES[int(rng.integers(len(_SIZES)))]
    cards = layout(rng, size[0] / size[1])
    if tock is not None:
        backs = np.random.default_rng([seed, 7002]).random(len(cards)) < tock
        cards = tuple(replace(c, back="tock") if b and not c.face_up else c for c, b in zip(cards, backs, strict=True))
    table = None
    if rows > 0:
        other = np.random.default_rng([seed, 7003])
        if other.random() < rows:
            size = (640, 360)
            cards, table = down_rows(other)
    hands = int(rng.choice([0, 0, 0, 1, 2, 3]))
    spec = SceneSpec(cards=cards, size=size, table=table, seed=int(rng.integers(1 << 30)), hands=hands,
                     deck=f"train-{int(rng.integers(100000))}")  # fmt: skip
    scene = render_scene(spec)
    hand_mask = np.zeros((size[1], size[0]), np.uint8)
    if hands:  # the same hands render_scene drew (same random stream), on a blank canvas
        canvas = np.zeros((size[1], size[0], 3), np.uint8)
        targets = [t.corners.mean(axis=0) for t in scene.truth]
        _draw_hands(canvas, np.random.default_rng([spec.seed, 303]), hands, targets)
        hand_mask = (canvas.max(axis=2) > 0).astype(np.uint8)
    scale = WORK_WIDTH / size[0]
    work = (WORK_WIDTH, round(size[1] * scale))
    image = cv2.resize(scene.image, work, interpolation=cv2.INTER_AREA)
    out = (-(-work[0] // OUT_SCALE), -(-work[1] // OUT_SCALE))
    target = _targets([t.corners for t in scene.truth], hand_mask, size, out)
    return SegSample(image, target)


def _chunk(job: tuple[list[int], float | None, float]) -> list[SegSample]:
    seeds, tock, rows = job
    return [sample(s, tock, rows) for s in seeds]


def render_samples(count: int, *, seed: int, jobs: int = 1, tock: float | None = None, rows: float = 0.0,
                   progress: Callable[[int], None] | None = None) -> list[SegSample]:  # fmt: skip
    """``count`` samples (seeds derived from ``seed``), rendered in ``jobs`` processes."""
    seeds = [seed * 1_000_003 + k for k in range(count)]
    chunks = [(seeds[i : i + 50], tock, rows) for i in range(0, count, 50)]
    out: list[SegSample] = []
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as workers:
            for part in workers.imap(_chunk, chunks):
                out.extend(part)
                if progress is not None:
                    progress(len(out))
    else:
        for chunk in chunks:
            out.extend(_chunk(chunk))
            if progress is not None:
                progress(len(out))
    return out
