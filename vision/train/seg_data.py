"""Training data for the card segmenter: rendered tables and, for each, exact card and core maps.

Each sample is a whole table scene drawn by :func:`vision.render.scene.render_scene` (deck styles from
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

With ``hard``, a share of the samples are instead looks at hard tables (:func:`hard_sample`): the
kinds of :func:`vision.render.scene_layouts.deal_hard` (one large card, a 4×13 grid, a tilted camera with
a wide lens, textured cloth or wood with clutter and hard light) and ordinary layouts on such
tables, each seen as the detector sees it (:mod:`vision.scale`): the whole frame shrunk to the
work width, and second looks at crops where a card is 36–70 pixels tall, a large card alone about
64 pixels tall, a dense grid about twice as closely. Clutter (paper, a phone, a keyboard, an index
card) is never a card: table in the targets.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from table.cards import Card
from vision.render.scene import BACKS, TABLES, PlacedCard, SceneSpec, _draw_hands, deal_rows, render_scene
from vision.render.scene_camera import Lens, View
from vision.render.scene_clutter import CLUTTER
from vision.render.scene_layouts import KINDS, SceneOptions, deal_hard
from vision.render.scene_surfaces import LIGHTS, SURFACES, TRAINING_SURFACES
from vision.scale import FAR_HEIGHT, MIN_LOOK, TRAINED_HEIGHT, crop_box, shrink
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


def sample(seed: int, tock: float | None = None, rows: float = 0.0, hard: float = 0.0) -> SegSample:
    """One rendered table and its targets (deterministic for ``seed``, ``tock``, ``rows`` and ``hard``).

    ``tock``: the share of face-down cards given a Tock back (its sticker in the middle of the
    back is what a core must not break at); None leaves the layout's own backs. ``rows``: the
    share of tables that are instead :func:`down_rows` (their own random stream, so ``rows=0``
    gives the same tables as before it existed). ``hard``: the share of samples that are instead
    looks at hard tables (:func:`hard_sample`; decided per group of :data:`LOOKS_PER_SCENE`
    seeds from a stream of its own, so ``hard=0`` gives the same samples as before it existed).
    """
    if hard > 0 and is_hard(seed, hard):
        return hard_sample(seed)
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
    return whole_frame(spec)


def whole_frame(spec: SceneSpec) -> SegSample:
    """The table ``spec`` draws, shrunk to :data:`WORK_WIDTH` wide as a camera frame is at run time,
    and its card and core maps (a hand's pixels are not card)."""
    size, hands = spec.size, spec.hands
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


def _rendered(render: Callable[[Any], list[SegSample]], chunks: list[Any], jobs: int,
              progress: Callable[[int], None] | None) -> list[SegSample]:  # fmt: skip
    """The frames ``render`` makes of every chunk, in order, in ``jobs`` forked processes,
    ``progress`` told the count after each chunk."""
    out: list[SegSample] = []
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as workers:
            parts: Iterable[list[SegSample]] = workers.imap(render, chunks)
            for part in parts:
                out.extend(part)
                if progress is not None:
                    progress(len(out))
        return out
    for chunk in chunks:
        out.extend(render(chunk))
        if progress is not None:
            progress(len(out))
    return out


def _chunk(job: tuple[list[int], float | None, float, float]) -> list[SegSample]:
    seeds, tock, rows, hard = job
    return [sample(s, tock, rows, hard) for s in seeds]


def sample_seeds(count: int, seed: int) -> list[int]:
    """The seeds of :func:`sample` behind the ``count`` samples :func:`render_samples` draws for ``seed``, in order."""
    return [seed * 1_000_003 + k for k in range(count)]


def render_samples(count: int, *, seed: int, jobs: int = 1, tock: float | None = None, rows: float = 0.0,
                   hard: float = 0.0, progress: Callable[[int], None] | None = None) -> list[SegSample]:  # fmt: skip
    """``count`` samples (seeds :func:`sample_seeds`), rendered in ``jobs`` processes."""
    seeds = sample_seeds(count, seed)
    # Chunks of whole groups of seeds, so that each hard scene is rendered once for all its looks.
    step = 48 if hard > 0 else 50
    chunks = [(seeds[i : i + step], tock, rows, hard) for i in range(0, count, step)]
    return _rendered(_chunk, chunks, jobs, progress)


# --- hard tables, at the scales the detector looks at them --------------------------------------

HARD_DATA_VERSION = 3
"""Version of the samples :func:`hard_sample` draws (3: their court pictures dense and dark, as
printed ones are, ``SceneSpec.dense_courts``: on sparse ones the network learned that a dark
picture is not card; the older streams are versions 1 and 2)."""

LOOKS_PER_SCENE = 3
"""Consecutive seeds that share one hard table: the first look at it and two second looks."""

LOOK_KINDS = ("first", "near", "large", "grid")
"""How a hard sample looks at its table (see :func:`hard_sample`)."""

_HARD_KINDS = (*KINDS, "mixed")
_HARD_SHARES = (0.15, 0.2, 0.2, 0.2, 0.25)


@dataclass(frozen=True)
class HardTable:
    """A rendered hard table: the frame, each card's visible outline in drawing order (frame
    pixels; a polygon that follows a wide lens's bowed edges), and the kind of table it is
    (one of :data:`vision.render.scene_layouts.KINDS` or ``"mixed"``: an ordinary layout on a hard table)."""

    image: np.ndarray
    outlines: tuple[np.ndarray, ...]
    cut: tuple[bool, ...]
    kind: str


def is_hard(seed: int, share: float) -> bool:
    """Whether sample ``seed`` is a hard one when ``share`` of them are (same for its whole group)."""
    return bool(np.random.default_rng([seed // LOOKS_PER_SCENE, 7004]).random() < share)


def _bowed(corners: np.ndarray, lens: Lens) -> np.ndarray:
    """A card's outline under a wide lens: its corners (as the lens shows them) back to where the
    undistorted frame has them, its straight sides sampled there, all mapped through the lens."""
    if lens.bulge == 0:
        return corners.astype(np.float64)
    w, h = lens.size
    centre, unit = np.array([w / 2, h / 2]), math.hypot(w, h) / 2
    d = (corners - centre) / unit
    flat = d * ((1 + lens.bulge * (d**2).sum(axis=1, keepdims=True)) / (1 + lens.bulge)) * unit + centre
    t = np.linspace(0, 1, 12, endpoint=False)[:, None]
    sides = [flat[k] + t * (flat[(k + 1) % 4] - flat[k]) for k in range(4)]
    return lens.to_image(np.concatenate(sides))


def _mixed(rng: np.random.Generator) -> tuple[tuple[PlacedCard, ...], SceneOptions]:
    """An ordinary layout (:func:`layout`) on a hard table: a textured surface more often than not,
    maybe clutter, hard light and a tilted camera with a wide lens."""
    size = ((1280, 720), (1280, 960), (1920, 1080))[int(rng.integers(3))]
    cards = layout(rng, size[0] / size[1])
    view = None
    if rng.random() < 0.5:
        view = View(tilt=float(rng.uniform(0, 35)), azimuth=float(rng.uniform(0, 360)),
                    roll=float(rng.uniform(-15, 15)), fov=float(rng.uniform(50, 90)),
                    bulge=float(rng.choice([0.0, rng.uniform(0.01, 0.06)])))  # fmt: skip
    tables = sorted(SURFACES) if rng.random() < 0.7 else sorted(TABLES)
    table = tables[int(rng.integers(len(tables)))]
    clutter = tuple(CLUTTER[int(i)] for i in rng.integers(len(CLUTTER), size=int(rng.integers(1, 5))))
    light = LIGHTS[int(rng.integers(len(LIGHTS)))] if rng.random() < 0.5 else None
    return cards, SceneOptions(size=size, table=table, camera=view, clutter=clutter if rng.random() < 0.6 else (),
                               light=light)  # fmt: skip


def _drawn(rng: np.random.Generator, kind: str, cards: tuple[PlacedCard, ...], options: SceneOptions) -> HardTable:
    """A dealt hard table of ``kind`` drawn: face-down cards given any back, a "train" deck, the
    cards' outlines as the scene's lens bows them."""
    backs = rng.choice(BACKS, size=len(cards))
    cards = tuple(c if c.face_up else replace(c, back=str(b)) for c, b in zip(cards, backs, strict=True))
    spec = replace(options.spec(cards, seed=int(rng.integers(1 << 30)), deck=f"train-{int(rng.integers(100000))}"),
                   dense_courts=True)  # fmt: skip
    scene = render_scene(spec)
    lens = Lens(spec.camera.bulge if spec.camera is not None else 0.0, spec.size)
    return HardTable(scene.image, tuple(_bowed(t.corners, lens) for t in scene.truth),
                     tuple(t.cut for t in scene.truth), kind)  # fmt: skip


@functools.lru_cache(maxsize=2)
def hard_table(group: int) -> HardTable:
    """The hard table of a group of seeds (deterministic): one of :func:`vision.render.scene_layouts.deal_hard`'s
    kinds or an ordinary layout on a hard table (:func:`_mixed`), face-down cards given any back,
    a "train" deck."""
    rng = np.random.default_rng([group, 7005])
    kind = str(rng.choice(_HARD_KINDS, p=_HARD_SHARES))
    cards, options = _mixed(rng) if kind == "mixed" else deal_hard(rng, kind=kind)
    return _drawn(rng, kind, cards, options)


def _height(outline: np.ndarray) -> float:
    """A card's height in frame pixels: the longer side of the rectangle round its outline."""
    return float(max(cv2.minAreaRect(outline.astype(np.float32))[1]))


def _box(outlines: list[np.ndarray]) -> tuple[float, float, float, float]:
    points = np.concatenate(outlines)
    return (float(points[:, 0].min()), float(points[:, 1].min()), float(points[:, 0].max()) + 1,
            float(points[:, 1].max()) + 1)  # fmt: skip


def choose_look(table: HardTable, rng: np.random.Generator, kind: str
                ) -> tuple[tuple[int, int, int, int], float]:  # fmt: skip
    """Where (frame box x0, y0, x1, y1) and how closely (work pixels per frame pixel, at most 1)
    a look of ``kind`` (:data:`LOOK_KINDS`) sees ``table``, as the detector would:

    - ``first``: the whole frame shrunk to :data:`WORK_WIDTH` wide;
    - ``near``: a card and its neighbours, the card 36–70 pixels tall (or the frame's own pixels
      when that would enlarge it): a patch the first look did not explain;
    - ``large``: the tallest card alone, about :data:`vision.scale.FAR_HEIGHT` tall;
    - ``grid``: a block of the cards (all of them, a row or a few columns) at 1.8–3 times the
      first look's scale (a dense grid looked at closer).
    """
    h, w = table.image.shape[:2]
    first = min(1.0, WORK_WIDTH / w)
    whole = [o for o, cut in zip(table.outlines, table.cut, strict=True) if not cut] or list(table.outlines)
    if kind == "first" or not whole:
        return (0, 0, w, h), first
    heights = [_height(o) for o in whole]
    if kind == "large":
        k = int(np.argmax(heights))
        scale = min(FAR_HEIGHT * float(rng.uniform(0.75, 1.3)) / heights[k], 1.0)
        return crop_box(_box([whole[k]]), scale, (h, w)), scale
    if kind == "grid":
        centres = np.array([o.mean(axis=0) for o in whole])
        pick = np.ones(len(whole), bool)
        if rng.random() < 0.6 and len(whole) > 4:  # a band of the grid, across or along it
            axis = int(rng.integers(2))
            lo, hi = np.sort(rng.uniform(centres[:, axis].min(), centres[:, axis].max(), 2))
            pick = (centres[:, axis] >= lo - np.median(heights) / 2) & (centres[:, axis] <= hi + np.median(heights) / 2)
        chosen = [o for o, p in zip(whole, pick, strict=True) if p]
        scale = min(first * float(rng.uniform(1.8, 3.0)), 1.0)
        return crop_box(_box(chosen), scale, (h, w)), scale
    k = int(rng.integers(len(whole)))
    centre, height = whole[k].mean(axis=0), heights[k]
    near = [o for o in whole if np.linalg.norm(o.mean(axis=0) - centre) < height * float(rng.uniform(0.5, 1.6))]
    scale = min(math.exp(rng.uniform(math.log(36), math.log(70))) / height, 1.0)
    return crop_box(_box(near), scale, (h, w)), scale


def look_targets(outlines: tuple[np.ndarray, ...], box: tuple[int, int, int, int], scale: float,
                 out: tuple[int, int]) -> np.ndarray:  # fmt: skip
    """Card and core maps (2, h, w) at ``out`` (w, h: the network's output for the look) of the
    look at ``box`` and ``scale``, from the cards' outlines (frame pixels, drawing order): drawn at
    four times the output's resolution, each card's core measured from its visible part."""
    ow, oh = out
    factor = 4 / OUT_SCALE * scale  # canvas pixels per frame pixel (the canvas is 4 times the output)
    canvas = (4 * oh, 4 * ow)
    covered = np.zeros(canvas, np.uint8)
    card = np.zeros(canvas, np.float32)
    core = np.zeros(canvas, np.float32)
    origin = np.array(box[:2], np.float64)
    for outline in reversed(outlines):
        poly = (outline + 0.5 - origin) * factor - 0.5
        x0, y0 = np.floor(poly.min(axis=0)).astype(int) - 3
        x1, y1 = np.ceil(poly.max(axis=0)).astype(int) + 4
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, canvas[1]), min(y1, canvas[0])
        if x1 <= x0 or y1 <= y0:
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [np.round((poly - (x0, y0)) * 4).astype(np.int32)], 1, cv2.LINE_8, shift=2)
        visible = mask & (1 - covered[y0:y1, x0:x1])
        covered[y0:y1, x0:x1] |= mask
        if not visible.any():
            continue
        rect = cv2.minAreaRect(poly.astype(np.float32))
        margin = CORE_FRACTION * float(min(rect[1]))
        pad = math.ceil(margin) + 2
        # The look's border is not a card's edge: the card goes on beyond it.
        padded = cv2.copyMakeBorder(visible, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        inside = cv2.distanceTransform(padded, cv2.DIST_L2, 5)[pad:-pad, pad:-pad]
        card[y0:y1, x0:x1][visible > 0] = 1.0
        core[y0:y1, x0:x1][inside >= margin] = 1.0
    return np.stack([cv2.resize(card, out, interpolation=cv2.INTER_AREA),
                     cv2.resize(core, out, interpolation=cv2.INTER_AREA)])  # fmt: skip


def hard_sample(seed: int) -> SegSample:
    """One look at a hard table, as the detector takes it (deterministic for ``seed``).

    The :data:`LOOKS_PER_SCENE` consecutive seeds of a group share a table (:func:`hard_table`):
    the group's first seed is its first look, the others second looks (:func:`choose_look`) of the
    kind the table asks for: closer at a dense grid, further at a large card, near a card
    elsewhere (:func:`take_look`). Things beside the cards (paper, a phone, a keyboard) are never
    in the truth: table in the targets.
    """
    return _look_at(hard_table(seed // LOOKS_PER_SCENE), seed)


def _look_at(table: HardTable, seed: int) -> SegSample:
    """The look of :func:`hard_sample` that ``seed`` (the table's group's first seed, or another) takes at ``table``."""
    rng = np.random.default_rng([seed, 7006])
    if seed % LOOKS_PER_SCENE == 0:
        kind = "first"
    else:
        first = min(1.0, WORK_WIDTH / table.image.shape[1])
        tallest = max((_height(o) for o in table.outlines), default=0.0) * first
        weights = {"near": 1.0, "large": 1.5 if tallest > 1.6 * TRAINED_HEIGHT else 0.0,
                   "grid": 1.5 if table.kind == "grid" or len(table.outlines) > 20 else 0.0}  # fmt: skip
        names = [name for name in ("near", "large", "grid") if weights[name] > 0]
        p = np.array([weights[name] for name in names])
        kind = names[int(rng.choice(len(names), p=p / p.sum()))]
    box, scale = choose_look(table, rng, kind)
    return take_look(table.image, table.outlines, box, scale)


def take_look(image: np.ndarray, outlines: tuple[np.ndarray, ...], box: tuple[int, int, int, int],
              scale: float) -> SegSample:  # fmt: skip
    """The look at ``box`` of a frame at ``scale`` and its targets, from the cards' outlines (frame
    pixels, drawing order). The crop is shrunk as the detector shrinks it and, if smaller than
    :data:`vision.scale.MIN_LOOK`, padded with the table's colour as the detector pads it (table
    in the targets)."""
    x0, y0, x1, y1 = box
    crop = image[y0:y1, x0:x1]
    size = (max(round((x1 - x0) * scale), 1), max(round((y1 - y0) * scale), 1))
    small = shrink(crop, size) if scale < 1.0 else crop.copy()
    out = (-(-small.shape[1] // OUT_SCALE), -(-small.shape[0] // OUT_SCALE))
    target = look_targets(outlines, box, scale, out)
    if min(small.shape[:2]) < MIN_LOOK:
        edge = np.concatenate([small[0], small[-1], small[:, 0], small[:, -1]])
        colour = tuple(float(v) for v in np.median(edge, axis=0))
        bottom, right = max(MIN_LOOK - small.shape[0], 0), max(MIN_LOOK - small.shape[1], 0)
        small = cv2.copyMakeBorder(small, 0, bottom, 0, right, cv2.BORDER_CONSTANT, value=colour)
        padded = (-(-small.shape[1] // OUT_SCALE), -(-small.shape[0] // OUT_SCALE))
        target = np.pad(target, ((0, 0), (0, padded[1] - out[1]), (0, padded[0] - out[0])))
    return SegSample(np.ascontiguousarray(small), target.astype(np.float32))


# --- hard tables on patterned surfaces ----------------------------------------------------------

SURFACE_VERSION = 1
"""Version of the looks :func:`surface_sample` draws (the cache's file names carry it)."""

SURFACE_KINDS = ("textured", "mixed", "tilted", "grid")
"""The layouts dealt on patterned surfaces (:func:`surface_table`)."""

_SURFACE_SHARES = (0.35, 0.3, 0.2, 0.15)
"""How often each of :data:`SURFACE_KINDS` is dealt: a grid hides most of its cloth."""

TRAINING_SHARE = 0.4
"""The share of :func:`surface_table`'s tables on a surface only the trainer draws
(:data:`vision.render.scene_surfaces.TRAINING_SURFACES`)."""


@functools.lru_cache(maxsize=2)
def surface_table(group: int) -> HardTable:
    """A hard table whose surface is always a procedural pattern (deterministic for ``group``): a
    layout of :data:`SURFACE_KINDS` on one of :data:`vision.render.scene_surfaces.SURFACES` or, for
    :data:`TRAINING_SHARE` of them, of :data:`vision.render.scene_surfaces.TRAINING_SURFACES`, face-down
    cards given any back, a "train" deck. Cloth whose pale squares or outlined rectangles are the
    size of cards is where a detector trained on plain tables takes the whole cloth for one card."""
    rng = np.random.default_rng([group, 7008])
    kind = str(rng.choice(SURFACE_KINDS, p=_SURFACE_SHARES))
    cards, options = _mixed(rng) if kind == "mixed" else deal_hard(rng, kind=kind)
    names = sorted(TRAINING_SURFACES) if rng.random() < TRAINING_SHARE else sorted(SURFACES)
    options = replace(options, table=names[int(rng.integers(len(names)))])
    return _drawn(rng, kind, cards, options)


def surface_sample(seed: int) -> SegSample:
    """One look at a table on a patterned surface (:func:`surface_table`), as :func:`hard_sample`
    looks at a hard table: :data:`LOOKS_PER_SCENE` consecutive seeds share it."""
    return _look_at(surface_table(seed // LOOKS_PER_SCENE), seed)


def _surface_chunk(seeds: list[int]) -> list[SegSample]:
    return [surface_sample(s) for s in seeds]


def render_surfaces(count: int, *, seed: int, jobs: int = 1,
                    progress: Callable[[int], None] | None = None) -> list[SegSample]:  # fmt: skip
    """``count`` :func:`surface_sample` looks (seeds derived from ``seed``, whole groups of a table's
    looks to a chunk), rendered in ``jobs`` processes."""
    seeds = [seed * 1_000_003 * LOOKS_PER_SCENE + k for k in range(count)]
    step = 8 * LOOKS_PER_SCENE
    chunks = [seeds[i : i + step] for i in range(0, count, step)]
    return _rendered(_surface_chunk, chunks, jobs, progress)


# --- the table seen from further away, the floor beyond it --------------------------------------

BEYOND_SHRINK = (0.35, 0.85)
"""How much of the frame's width the table keeps when the camera is raised (:func:`beyond_table`)."""

BEYOND_ASPECT = 1.6
"""The least width / height of a frame the trainer shows as a raised camera sees it: a table seen
whole is then wider than a card lying on its side (7:5, 1.4), so a card-shaped plain rectangle
is never taught as table."""


def beyond_table(image: np.ndarray, target: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A work-size training frame and its maps (2, h/OUT_SCALE, w/OUT_SCALE) as a camera raised
    above the table sees them: the whole table shrunk by 0.35-0.85 and a little turned and
    foreshortened (a quadrilateral anywhere in the frame), and beyond its edge the floor, a plain
    or mottled colour of any brightness (no card: table in the targets). A table seen whole is a
    large, plain, card-coloured rectangle on a dark floor; the network must not take it for a card."""
    h, w = image.shape[:2]
    s = float(rng.uniform(*BEYOND_SHRINK))
    tw, th = w * s, h * s
    x0, y0 = float(rng.uniform(0, w - tw)), float(rng.uniform(0, h - th))
    quad = np.array([[x0, y0], [x0 + tw, y0], [x0 + tw, y0 + th], [x0, y0 + th]], np.float64)
    quad += rng.uniform(-0.08, 0.08, (4, 2)) * [tw, th]  # a tilt or a turn: the table's rectangle skewed
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    matrix = cv2.getPerspectiveTransform(source.astype(np.float32), quad.astype(np.float32))
    table = cv2.warpPerspective(image, matrix, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT)
    inside = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, (w, h), flags=cv2.INTER_LINEAR)
    colour = rng.uniform(10, 90, 3) if rng.random() < 0.7 else rng.uniform(0, 255, 3)
    mottle = cv2.resize(rng.standard_normal((max(h // 24, 2), max(w // 24, 2))).astype(np.float32), (w, h),
                        interpolation=cv2.INTER_CUBIC)  # fmt: skip
    floor = colour[None, None, :] * (1 + float(rng.uniform(0, 0.12)) * mottle[:, :, None])
    floor += rng.normal(0, float(rng.uniform(0, 4)), (h, w, 3))
    alpha = (inside.astype(np.float32) / 255)[:, :, None]
    framed = np.clip(table * alpha + floor * (1 - alpha), 0, 255).astype(np.uint8)
    oh, ow = target.shape[1:]
    half = np.diag([1 / OUT_SCALE, 1 / OUT_SCALE, 1.0]) @ matrix @ np.diag([OUT_SCALE, OUT_SCALE, 1.0])
    maps = np.stack([cv2.warpPerspective(np.ascontiguousarray(t), half, (ow, oh), flags=cv2.INTER_LINEAR,
                                         borderMode=cv2.BORDER_CONSTANT) for t in np.clip(target, 0, 1)])  # fmt: skip
    return framed, maps.astype(np.float32)


# --- large cards close to the camera -------------------------------------------------------------

CLOSE_HEIGHT = 0.25
"""A whole frame is a close one (:func:`tallest_core`) when some card's core spans at least this
share of the frame's height: a card filling about a third of the frame or more, as a low camera or a
webcam close to one card sees it."""


def tallest_core(target: np.ndarray) -> float:
    """The height of the tallest card core of a frame's maps (2, h, w), as a share of the frame's
    height (0 when no pixel is core). Cores of cards side by side are apart (each lies a fifth of
    its card's shorter side inside it), so the tallest core is the tallest single card's."""
    core = (target[1] > 0.5).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=4)
    if count < 2:
        return 0.0
    return float(stats[1:, cv2.CC_STAT_HEIGHT].max()) / core.shape[0]


# --- a large plain card lying on its side on a plain table ----------------------------------------

SIDE_VERSION = 2
"""Version of the frames :func:`side_sample` draws by default (2: court cards among them, some
upright, some on a black cloth; 1: plain ranks lying on their side on grey, white and wooden
tables only)."""

PLAIN_TABLES = ("grey-laminate", "grey-felt", "white-cloth", "beige-cloth", "light-wood", "dark-wood", "black-cloth")
"""Uniform surfaces (grey, white, wood, black) a large card is laid on in :func:`side_sample`."""

PLAIN_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
"""Ranks whose faces are mostly blank card between a few pips: the plain middle of a large one
looks like table at the detector's 320-pixel look."""

COURT_SHARE = (0.75, 0.5)
"""In :func:`side_sample`: the share of large cards of a plain rank (the rest a jack, queen or king),
and the share of frames whose court pictures are dense and dark, as printed ones are: a large
court card's busy middle must stay card as a plain one's blank middle must."""

UPRIGHT_SHARE = 0.25
"""The share of :func:`side_sample`'s large cards standing upright instead of lying on their side."""

SIDE_SIZES = ((640, 480), (640, 480), (640, 360))
"""Frame sizes of :func:`side_sample`: a webcam's 4:3 more often than 16:9."""


def side_layout(rng: np.random.Generator, aspect: float, version: int = SIDE_VERSION) -> tuple[PlacedCard, ...]:
    """One large card, of a plain rank (:data:`PLAIN_RANKS`) more often than a court
    (:data:`COURT_SHARE`), or its plain back, lying on its side (turned about 90°, its long side
    across the frame; a quarter of them upright instead, :data:`UPRIGHT_SHARE`), its long side
    0.45-1.05 of the frame's height, sometimes a second smaller card of any kind beside it.
    ``aspect`` is the frame's width / height. ``version`` 1 (:data:`SIDE_VERSION`): plain ranks
    lying on their side only."""
    if version == 1 or rng.random() < COURT_SHARE[0]:
        rank = str(rng.choice(PLAIN_RANKS))
    else:
        rank = str(rng.choice(["J", "Q", "K"]))
    suit = str(rng.choice(list("cdhs")))
    height = float(rng.uniform(0.45, 1.05))
    angle = float(rng.choice([90.0, -90.0]) + rng.normal(0, 4)) if rng.random() < 0.9 else float(rng.uniform(60, 120))
    if version > 1 and rng.random() < UPRIGHT_SHARE:  # upright, as a phone held over one card sees it
        angle = float(rng.choice([0.0, 180.0]) + rng.normal(0, 4))
    center = (float(rng.uniform(0.3, 0.7)), float(rng.uniform(0.35, 0.65)))
    out = [PlacedCard(rank + suit, bool(rng.random() < 0.85), center, angle=angle, height=height, back="plain")]
    if rng.random() < 0.2:
        other = _cards(rng, 2)
        card = other[0] if other[0] != rank + suit else other[1]
        small = float(rng.uniform(0.15, 0.35))
        side = 1.0 if center[0] < 0.5 else -1.0
        spot = (center[0] + side * float(rng.uniform(0.33, 0.42)), float(rng.uniform(0.2, 0.8)))
        out.append(_placed(rng, card, (spot[0] * aspect, spot[1]), float(rng.uniform(-180, 180)), small, aspect))
    return tuple(out)


def side_sample(seed: int, version: int = SIDE_VERSION) -> SegSample:
    """A whole frame of a large card, mostly a plain one lying on its side (:func:`side_layout`),
    on a plain, uniform table (:data:`PLAIN_TABLES`), as a webcam or a phone close to one card sees
    it (deterministic for ``seed``, a "train" deck). The card's plain middle between the pips, or
    its court picture, is card in the targets: a large card is one card, not two or three pieces.
    ``version``: of the frames (:data:`SIDE_VERSION`), so an older stream can be drawn again."""
    if version not in (1, 2):
        raise ValueError(f"side frames of version {version!r}: versions 1 and 2 exist")
    rng = np.random.default_rng([seed, 7007])
    size = SIDE_SIZES[int(rng.integers(len(SIDE_SIZES)))]
    cards = side_layout(rng, size[0] / size[1], version)
    table = str(rng.choice(PLAIN_TABLES if version > 1 else PLAIN_TABLES[:-1]))
    spec = SceneSpec(cards=cards, size=size, table=table, seed=int(rng.integers(1 << 30)),
                     deck=f"train-{int(rng.integers(100000))}")  # fmt: skip
    if version > 1:
        spec = replace(spec, dense_courts=bool(rng.random() < COURT_SHARE[1]))
    return whole_frame(spec)


def _side_chunk(job: tuple[list[int], int]) -> list[SegSample]:
    seeds, version = job
    return [side_sample(s, version) for s in seeds]


def render_side(count: int, *, seed: int, jobs: int = 1, version: int = SIDE_VERSION,
                progress: Callable[[int], None] | None = None) -> list[SegSample]:  # fmt: skip
    """``count`` :func:`side_sample` frames of ``version`` (seeds derived from ``seed``), rendered
    in ``jobs`` processes."""
    seeds = [seed * 1_000_003 + k for k in range(count)]
    chunks = [(seeds[i : i + 25], version) for i in range(0, count, 25)]
    return _rendered(_side_chunk, chunks, jobs, progress)
