"""Whole table scenes with exact labels: the training data, the tests' frames and the demo camera.

>>> from vision.render.scene import PlacedCard, SceneSpec, render_scene
>>> scene = render_scene(SceneSpec(cards=(PlacedCard("Ah", True, (0.3, 0.5)), PlacedCard("Kd", False, (0.6, 0.5)))))
>>> scene.image.shape, [t.card for t in scene.truth]
((720, 1280, 3), ['Ah', 'Kd'])

Everything random (the deck's look, the table, the light, the camera's noise) comes from
``SceneSpec.seed``: the same spec always gives the same image, and keeping the seed fixed while
moving cards keeps the deck, the table and the light. Surfaces, lights and card faces are
cached, so a 1280×720 frame with a dozen cards takes a few tens of milliseconds.

Hard tables are asked for with options that are off by default (so a spec without them draws the
same pixels as ever): ``table`` may name a procedural surface of :mod:`vision.render.scene_surfaces`
(wood grain, patterned or dark cloth), ``light`` a hard light, ``clutter`` objects beside the
cards (:mod:`vision.render.scene_clutter`) and ``camera`` a tilted pinhole view with a wide lens
(:mod:`vision.render.scene_camera`). :func:`vision.render.scene_layouts.deal_hard` deals such tables.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from table.cards import Card
from table.errors import CardParseError
from table.tock import mark_of
from vision.errors import SceneError
from vision.render.faces import BACK_PATTERNS, INDEX_SETS, DeckStyle, deck_style, render_back, render_face
from vision.render.fonts import font_source
from vision.render.joker_faces import render_joker, scene_joker
from vision.render.scene_camera import Lens, View, homography, plane_maps
from vision.render.scene_clutter import CLUTTER, draw_clutter
from vision.render.scene_surfaces import LIGHTS, PATTERNS, light, surface

CARD_ASPECT = 63 / 88
"""Width / height of a poker-size card."""

TABLES: dict[str, tuple[str, tuple[int, int, int]]] = {
    "green-felt": ("felt", (60, 110, 30)),
    "blue-felt": ("felt", (120, 70, 25)),
    "red-felt": ("felt", (40, 35, 120)),
    "grey-felt": ("felt", (105, 105, 100)),
    "black-cloth": ("cloth", (38, 36, 36)),
    "beige-cloth": ("cloth", (160, 190, 205)),
    "white-cloth": ("cloth", (215, 218, 220)),
    "grey-laminate": ("laminate", (150, 155, 152)),
    "light-wood": ("wood", (120, 170, 205)),
    "dark-wood": ("wood", (40, 70, 110)),
}
"""Table surfaces by name: (kind, base BGR colour)."""

BACKS = ("plain", "tock", *BACK_PATTERNS)
"""Back designs a :class:`PlacedCard` may ask for: the deck's own ("plain"), the deck's own with the
card's Tock mark ("tock"), or one of the pattern names in the deck's colours."""


@dataclass(frozen=True)
class PlacedCard:
    """One card on the table.

    ``card`` is a card ("Ah", "10h") or one of the deck's two jokers: ``"Jk"`` (in colour) or
    ``"Jk2"`` (in black), both ``"Jk"`` in the truth (:mod:`vision.render.joker_faces`).
    ``center`` is in normalised image coordinates (0..1, origin top left); ``angle`` turns the card
    counter-clockwise on screen, in degrees; ``height`` is the card's height as a fraction of the
    image height.
    """

    card: str
    face_up: bool
    center: tuple[float, float]
    angle: float = 0.0
    height: float = 0.22
    back: str = "plain"

    def __post_init__(self) -> None:
        if scene_joker(self.card) is not None:
            if self.back == "tock":
                raise SceneError(f"cannot place {self.card!r} with a Tock back: a joker has no Tock mark")
        else:
            try:
                Card.parse(self.card)
            except CardParseError as error:
                raise SceneError(f"cannot place card {self.card!r}: {error}; or 'Jk'/'Jk2' for a joker") from None
        if len(self.center) != 2 or not all(math.isfinite(v) for v in self.center):
            raise SceneError(f"card centre must be two finite numbers (x, y) in 0..1, got {self.center!r}")
        if not math.isfinite(self.angle):
            raise SceneError(f"card angle must be a finite number of degrees, got {self.angle!r}")
        if not 0.01 <= self.height <= 2.0:
            raise SceneError(f"card height must be 0.01..2 of the image height, got {self.height!r}")
        if self.back not in BACKS:
            raise SceneError(f"unknown card back {self.back!r}: expected one of {', '.join(BACKS)}")


@dataclass(frozen=True)
class SceneSpec:
    """What to draw. ``table`` None picks a surface from the seed; ``hands`` adds occluding hands.

    ``deck`` names a deck style (``"train-12"``, ``"holdout-3"``, ``"all-5"``: a font pool and a
    style seed; ``"holdout-de-3"``: the same with German index letters, see
    :data:`vision.render.faces.INDEX_SETS`); None derives it from ``seed``. ``clean`` turns off the
    camera's blur, noise, glare, perspective and JPEG (for tests that want crisp pixels).

    Hard tables (all off by default): ``table`` may also name one of
    :data:`vision.render.scene_surfaces.PATTERNS`; ``light`` one of :data:`vision.render.scene_surfaces.LIGHTS`;
    ``clutter`` objects of :data:`vision.render.scene_clutter.CLUTTER` placed beside the cards; ``camera``
    a :class:`vision.render.scene_camera.View` (its tilt and lens apply even when ``clean``).
    ``dense_courts`` draws the deck's court pictures dense and dark, as printed ones are
    (:attr:`vision.render.faces.DeckStyle.dense_courts`).
    """

    cards: tuple[PlacedCard, ...]
    size: tuple[int, int] = (1280, 720)
    table: str | None = None
    seed: int = 0
    hands: int = 0
    deck: str | None = None
    clean: bool = False
    camera: View | None = None
    clutter: tuple[str, ...] = ()
    light: str | None = None
    dense_courts: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.cards, tuple) or not all(isinstance(c, PlacedCard) for c in self.cards):
            raise SceneError("scene cards must be a tuple of PlacedCard")
        w, h = self.size
        if not (isinstance(w, int) and isinstance(h, int) and 32 <= w <= 8192 and 32 <= h <= 8192):
            raise SceneError(f"scene size must be two whole numbers of pixels in 32..8192, got {self.size!r}")
        if self.table is not None and self.table not in TABLES and self.table not in PATTERNS:
            raise SceneError(f"unknown table {self.table!r}: expected one of {', '.join([*TABLES, *PATTERNS])} "
                             "or None")  # fmt: skip
        if self.camera is not None and not isinstance(self.camera, View):
            raise SceneError(f"scene camera must be a vision.render.scene_camera.View or None, got {self.camera!r}")
        if not isinstance(self.clutter, tuple) or any(c not in CLUTTER for c in self.clutter):
            raise SceneError(f"scene clutter must be a tuple of {', '.join(CLUTTER)}, got {self.clutter!r}")
        if self.light is not None and self.light not in LIGHTS:
            raise SceneError(f"unknown light {self.light!r}: expected one of {', '.join(LIGHTS)} or None")
        if not 0 <= self.hands <= 8:
            raise SceneError(f"hands must be 0..8, got {self.hands!r}")
        if self.deck is not None:
            _parse_deck(self.deck)


@dataclass(frozen=True)
class CardTruth:
    """What was drawn for one card: face, side, Tock mark (face-down Tock backs only), corners.

    ``corners`` is 4×2 float pixel coordinates, clockwise from the card's own top left (outside the
    frame for a card the frame's edge cuts). ``cut``: some corner lies outside the frame, so a
    reader may fairly miss the card.
    """

    card: str
    face_up: bool
    mark: str | None
    corners: np.ndarray = field(repr=False)
    cut: bool = False


@dataclass(frozen=True)
class RenderedScene:
    """The drawn frame (H×W×3 uint8 BGR) and the truth of every card, in drawing order."""

    image: np.ndarray
    truth: tuple[CardTruth, ...]


def _parse_deck(name: str) -> tuple[str, int, str]:
    """(font pool, style seed, index letters) of a deck name: ``"holdout-3"`` (English letters)
    or ``"holdout-fr-3"`` (a key of :data:`vision.render.faces.INDEX_SETS` between pool and seed)."""
    head, _, number = name.rpartition("-")
    pool, _, letters = head.partition("-")
    letters = letters or "en"
    if pool not in ("train", "holdout", "all") or not number.isdigit() or letters not in INDEX_SETS:
        raise SceneError(f"deck style must look like 'train-12', 'holdout-3', 'all-5' or, with the letters of "
                         f"another language, 'holdout-fr-3' ({', '.join(INDEX_SETS)}), got {name!r}")  # fmt: skip
    return pool, int(number), letters


def _deck(name: str, dense_courts: bool = False) -> DeckStyle:
    return _deck_from(name, dense_courts, font_source())


@functools.lru_cache(maxsize=64)
def _deck_from(name: str, dense_courts: bool, source: str) -> DeckStyle:
    """The deck style ``name`` drawn from the font sources ``source`` (part of the key: see vision.render.fonts)."""
    pool, number, letters = _parse_deck(name)
    style = deck_style(number, pool, letters)  # type: ignore[arg-type]
    return replace(style, dense_courts=True) if dense_courts else style


# --- surfaces and light ----------------------------------------------------------------------


def _smooth_noise(rng: np.random.Generator, w: int, h: int, cell: int) -> np.ndarray:
    """Low-frequency noise in -1..1, ``cell`` pixels per random value."""
    small = rng.standard_normal((max(h // cell, 2), max(w // cell, 2))).astype(np.float32)
    noise: np.ndarray = np.clip(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) / 2.0, -1, 1)
    return noise


@functools.lru_cache(maxsize=6)
def _surface(table: str, size: tuple[int, int], seed: int) -> np.ndarray:
    w, h = size
    kind, base = TABLES[table]
    rng = np.random.default_rng([seed, 101])
    color = np.asarray(base, np.float32) * rng.uniform(0.9, 1.1, 3).astype(np.float32)
    shade = 1.0 + 0.06 * _smooth_noise(rng, w, h, max(w // 12, 4))
    grain = rng.standard_normal((h, w)).astype(np.float32)
    if kind == "felt":
        shade += 0.05 * cv2.GaussianBlur(grain, (0, 0), 1.2) + 0.015 * grain
    elif kind == "cloth":
        yy, xx = np.mgrid[0:h, 0:w]
        period = int(rng.integers(3, 6))
        shade += 0.04 * (((yy // period + xx // period) % 2) - 0.5) + 0.02 * grain
    elif kind == "wood":
        angle = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        along = xx * np.cos(angle) + yy * np.sin(angle)
        across = -xx * np.sin(angle) + yy * np.cos(angle)
        wobble = 12 * _smooth_noise(rng, w, h, max(w // 6, 4))
        shade += 0.12 * np.sin((across + wobble) / rng.uniform(3, 9)) * (0.5 + 0.5 * _smooth_noise(rng, w, h, 40))
        plank = float(rng.uniform(0.15, 0.3)) * max(w, h)
        seams = np.abs(((across + 0.001 * along) % plank) - plank / 2) > plank / 2 - 1.5
        shade[seams] *= 0.7
        shade += 0.02 * grain
    else:
        shade += 0.03 * grain * (rng.random((h, w)) < 0.3)
    surface: np.ndarray = np.clip(shade[:, :, None] * color, 0, 255).astype(np.uint8)
    return surface


@dataclass(frozen=True)
class _Camera:
    gain: np.ndarray  # H×W×3 uint8, light gain × 128
    glare: np.ndarray | None  # H×W×3 uint8 added light
    noise_up: np.ndarray | None
    noise_down: np.ndarray | None
    homography: np.ndarray  # table plane → image
    blur: float
    jpeg: int  # 0 = none
    shadow: tuple[float, float, float]  # dx, dy (fraction of card height), strength


@functools.lru_cache(maxsize=6)
def _camera(size: tuple[int, int], seed: int, clean: bool) -> _Camera:
    w, h = size
    rng = np.random.default_rng([seed, 202])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xn, yn = xx / w - 0.5, yy / h - 0.5
    direction = rng.uniform(0, 2 * np.pi)
    light = rng.uniform(0.7, 1.2) * (1 + rng.uniform(0, 0.45) * (xn * np.cos(direction) + yn * np.sin(direction)))
    light *= 1 - rng.uniform(0, 0.35) * (xn**2 + yn**2) * 2
    tint = np.array([rng.uniform(0.82, 1.08), 1.0, rng.uniform(0.92, 1.15)], np.float32)
    gain = np.clip(light[:, :, None] * tint * 128, 0, 255).astype(np.uint8)
    shadow = (float(rng.uniform(-0.04, 0.04)), float(rng.uniform(-0.04, 0.04)), float(rng.uniform(0.1, 0.45)))
    if clean:
        return _Camera(np.full((h, w, 3), 128, np.uint8), None, None, None, np.eye(3), 0.0, 0, shadow)
    glare = None
    if rng.random() < 0.35:
        gx, gy = rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.9)
        radius = rng.uniform(0.08, 0.3)
        spot = np.exp(-(((xx / w - gx) ** 2 + ((yy - gy * h) / w) ** 2) / (2 * radius**2)))
        glare = np.clip(spot[:, :, None] * rng.uniform(30, 110), 0, 255).astype(np.uint8).repeat(3, axis=2)
    sigma = rng.uniform(1.0, 6.0)
    noise = rng.standard_normal((h, w, 3)).astype(np.float32) * sigma
    up = np.clip(noise, 0, 255).astype(np.uint8)
    down = np.clip(-noise, 0, 255).astype(np.uint8)
    tilt = 0.035
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = src + rng.uniform(-tilt, tilt, (4, 2)).astype(np.float32) * np.array([w, h], np.float32)
    homography = cv2.getPerspectiveTransform(src, dst).astype(np.float64)
    blur = float(rng.choice([0.0, rng.uniform(0.3, 1.4)], p=[0.3, 0.7]))
    jpeg = int(rng.integers(55, 96)) if rng.random() < 0.7 else 0
    return _Camera(gain, glare, up, down, homography, blur, jpeg, shadow)


# --- cards ---------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=320)
def _pyramid(image_key: tuple[DeckStyle, str, bool, str]) -> tuple[np.ndarray, ...]:
    style, card_text, face_up, back = image_key
    joker = scene_joker(card_text)
    if face_up and joker is not None:
        top = render_joker(style, joker)
    elif face_up:
        top = render_face(style, Card.parse(card_text))
    elif back in ("plain", "tock"):
        top = render_back(style, str(mark_of(Card.parse(card_text))) if back == "tock" else None)
    else:
        top = render_back(_with_pattern(style, back))
    levels = [np.ascontiguousarray(top)]
    while levels[-1].shape[0] > 60:
        levels.append(cv2.pyrDown(levels[-1]))
    return tuple(levels)


def _truth_card(text: str) -> str:
    """The card a placed card's text names in the truth: ``"Ah"``, or ``"Jk"`` for either joker."""
    return "Jk" if scene_joker(text) is not None else str(Card.parse(text))


@functools.lru_cache(maxsize=16)
def _with_pattern(style: DeckStyle, pattern: str) -> DeckStyle:
    from dataclasses import replace

    return replace(style, back_pattern=pattern)  # type: ignore[arg-type]


def card_corners(placed: PlacedCard, size: tuple[int, int]) -> np.ndarray:
    """The 4×2 corners of a placed card on the table plane, in pixels (before the camera's tilt)."""
    w, h = size
    ch = placed.height * h
    cw = ch * CARD_ASPECT
    local = np.array([[-cw / 2, -ch / 2], [cw / 2, -ch / 2], [cw / 2, ch / 2], [-cw / 2, ch / 2]])
    a = math.radians(placed.angle)
    rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    corners: np.ndarray = local @ rot.T + np.array([placed.center[0] * w, placed.center[1] * h])
    return corners


def _draw_card(frame: np.ndarray, levels: tuple[np.ndarray, ...], corners: np.ndarray,
               shadow: tuple[float, float, float]) -> None:  # fmt: skip
    h, w = frame.shape[:2]
    side = float(np.linalg.norm(corners[3] - corners[0]))
    level = levels[0]
    for candidate in levels:
        if candidate.shape[0] >= side * 1.1:
            level = candidate
    lh, lw = level.shape[:2]
    margin = int(side * 0.08) + 3
    x0, y0 = (np.floor(corners.min(axis=0)) - margin).astype(int)
    x1, y1 = (np.ceil(corners.max(axis=0)) + margin).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    roi = frame[y0:y1, x0:x1]
    dx, dy, strength = shadow
    shifted = (corners + np.array([dx, dy]) * side - np.array([x0, y0])).astype(np.float32)
    shade: np.ndarray = np.zeros(roi.shape[:2], np.float32)
    cv2.fillConvexPoly(shade, np.round(shifted * 4).astype(np.int32), 1.0, cv2.LINE_AA, shift=2)
    shade = cv2.GaussianBlur(shade, (0, 0), max(side * 0.02, 0.8)) * np.float32(strength)
    black = np.zeros_like(roi)
    roi[:] = cv2.blendLinear(roi, black, 1.0 - shade, shade)
    src = np.array([[0, 0], [lw, 0], [lw, lh], [0, lh]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, (corners - np.array([x0, y0])).astype(np.float32))
    warped = cv2.warpPerspective(level, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))  # fmt: skip
    alpha = warped[:, :, 3].astype(np.float32) * np.float32(1 / 255)
    roi[:] = cv2.blendLinear(np.ascontiguousarray(warped[:, :, :3]), roi, alpha, 1.0 - alpha)


def _draw_hands(frame: np.ndarray, rng: np.random.Generator, count: int, targets: list[np.ndarray]) -> None:
    h, w = frame.shape[:2]
    tones = [(60, 90, 150), (95, 135, 200), (120, 160, 225), (45, 65, 105), (80, 115, 170)]
    for _ in range(count):
        tone = tones[int(rng.integers(len(tones)))]
        color = tuple(int(c * rng.uniform(0.85, 1.1)) for c in tone)
        if targets and rng.random() < 0.8:
            tip = targets[int(rng.integers(len(targets)))]
        else:
            tip = rng.uniform(0, 1, 2) * np.array([w, h])
        edge = int(rng.integers(4))
        start = {0: (tip[0], -0.1 * h), 1: (tip[0], 1.1 * h), 2: (-0.1 * w, tip[1]), 3: (1.1 * w, tip[1])}[edge]
        start = (start[0] + rng.uniform(-0.2, 0.2) * w, start[1])
        palm = np.asarray(tip) + (np.asarray(start) - tip) * rng.uniform(0.08, 0.2)
        size = h * rng.uniform(0.05, 0.08)
        arm_width = int(size * 1.6)
        cv2.line(frame, (int(start[0]), int(start[1])), (int(palm[0]), int(palm[1])), color, arm_width, cv2.LINE_AA)
        direction = math.degrees(math.atan2(tip[1] - palm[1], tip[0] - palm[0]))
        cv2.ellipse(frame, (int(palm[0]), int(palm[1])), (int(size * 1.3), int(size)), direction, 0, 360, color, -1,
                    cv2.LINE_AA)  # fmt: skip
        for k in range(4):
            spread = math.radians(direction + (k - 1.5) * 14)
            length = size * rng.uniform(1.6, 2.4)
            end = (palm[0] + math.cos(spread) * length, palm[1] + math.sin(spread) * length)
            shade = tuple(int(c * 0.92) for c in color)
            cv2.line(frame, (int(palm[0]), int(palm[1])), (int(end[0]), int(end[1])), shade, max(int(size * 0.4), 2),
                     cv2.LINE_AA)  # fmt: skip


def _is_cut(corners: np.ndarray, size: tuple[int, int]) -> bool:
    w, h = size
    return bool((corners.min(axis=0) < 0).any() or corners[:, 0].max() > w or corners[:, 1].max() > h)


def _is_hard(spec: SceneSpec) -> bool:
    return spec.camera is not None or bool(spec.clutter) or spec.light is not None or spec.table in PATTERNS


def render_scene(spec: SceneSpec) -> RenderedScene:
    """Draw ``spec``: deterministic for a given spec; see the module docstring."""
    if _is_hard(spec):
        return _render_hard(spec)
    rng = np.random.default_rng([spec.seed, 303])
    table = spec.table if spec.table is not None else sorted(TABLES)[spec.seed % len(TABLES)]
    style = _deck(spec.deck if spec.deck is not None else f"all-{spec.seed}", spec.dense_courts)
    camera = _camera(spec.size, spec.seed, spec.clean)
    frame = _surface(table, spec.size, spec.seed).copy()
    truth: list[CardTruth] = []
    targets: list[np.ndarray] = []
    # Cards are glossy and the cloth is not: a lamp's reflection shows mostly on the cards.
    glossy = np.full(frame.shape[:2], 64, np.uint8) if camera.glare is not None else None
    for placed in spec.cards:
        plane = card_corners(placed, spec.size)
        corners = cv2.perspectiveTransform(plane[None].astype(np.float64), camera.homography)[0]
        levels = _pyramid((style, placed.card, placed.face_up, placed.back))
        _draw_card(frame, levels, corners, camera.shadow)
        if glossy is not None:
            cv2.fillConvexPoly(glossy, np.round(corners * 4).astype(np.int32), 255, cv2.LINE_AA, shift=2)
        card = _truth_card(placed.card)
        mark = str(mark_of(Card.parse(card))) if placed.back == "tock" and not placed.face_up else None
        truth.append(CardTruth(card=card, face_up=placed.face_up, mark=mark, corners=corners.astype(np.float64),
                               cut=_is_cut(corners, spec.size)))  # fmt: skip
        targets.append(corners.mean(axis=0))
    if spec.hands:
        _draw_hands(frame, rng, spec.hands, targets)
    frame = cv2.multiply(frame, camera.gain, scale=1 / 128)
    if camera.glare is not None and glossy is not None:
        frame = cv2.add(frame, cv2.multiply(camera.glare, cv2.cvtColor(glossy, cv2.COLOR_GRAY2BGR), scale=1 / 255))
    return RenderedScene(image=_capture(frame, camera), truth=tuple(truth))


def _capture(frame: np.ndarray, camera: _Camera) -> np.ndarray:
    """The camera's blur, sensor noise and JPEG on a lit frame."""
    if camera.blur > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), camera.blur)
    if camera.noise_up is not None and camera.noise_down is not None:
        frame = cv2.subtract(cv2.add(frame, camera.noise_up), camera.noise_down)
    if camera.jpeg:
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, camera.jpeg])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            frame = decoded
    return frame


def _render_hard(spec: SceneSpec) -> RenderedScene:
    """:func:`render_scene` for a spec with hard-table options: everything through the table plane."""
    rng = np.random.default_rng([spec.seed, 303])
    size = spec.size
    table = spec.table if spec.table is not None else sorted(TABLES)[spec.seed % len(TABLES)]
    style = _deck(spec.deck if spec.deck is not None else f"all-{spec.seed}", spec.dense_courts)
    camera = _camera(size, spec.seed, spec.clean)
    matrix = homography(spec.camera, size) if spec.camera is not None else camera.homography
    lens = Lens(spec.camera.bulge if spec.camera is not None else 0.0, size)
    if table in PATTERNS:
        frame = surface(table, plane_maps(matrix, size), spec.seed)
    elif spec.camera is None:  # as the plain renderer: the surface is not foreshortened
        frame = _surface(table, size, spec.seed).copy()
    else:
        u, v = plane_maps(matrix, size)
        frame = cv2.remap(_surface(table, size, spec.seed), u, v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)
    planes = [card_corners(placed, size) for placed in spec.cards]
    if spec.clutter:
        heights = [p.height * size[1] for p in spec.cards] or [0.2 * size[1]]
        clear = [(c.mean(axis=0), float(np.linalg.norm(c[0] - c[2])) / 2) for c in planes]
        draw_clutter(frame, spec.clutter, matrix, seed=spec.seed, unit=float(np.median(heights)), keep_clear=clear)
    lit = light(spec.light, size, spec.seed) if spec.light is not None else None
    glare = camera.glare[:, :, 0].astype(np.float32) if camera.glare is not None else None
    if lit is not None and lit.glare is not None:
        glare = lit.glare if glare is None else glare + lit.glare
    glossy = np.full(frame.shape[:2], 64, np.uint8) if glare is not None else None
    truth: list[CardTruth] = []
    targets: list[np.ndarray] = []
    for placed, plane in zip(spec.cards, planes, strict=True):
        flat = cv2.perspectiveTransform(plane[None].astype(np.float64), matrix)[0]
        _draw_card(frame, _pyramid((style, placed.card, placed.face_up, placed.back)), flat, camera.shadow)
        if glossy is not None:
            cv2.fillConvexPoly(glossy, np.round(flat * 4).astype(np.int32), 255, cv2.LINE_AA, shift=2)
        card = _truth_card(placed.card)
        mark = str(mark_of(Card.parse(card))) if placed.back == "tock" and not placed.face_up else None
        corners = lens.to_image(flat)
        truth.append(CardTruth(card=card, face_up=placed.face_up, mark=mark, corners=corners,
                               cut=_is_cut(corners, size)))  # fmt: skip
        targets.append(flat.mean(axis=0))
    if spec.hands:
        _draw_hands(frame, rng, spec.hands, targets)
    gain = camera.gain.astype(np.float32) / 128
    if lit is not None:
        gain *= lit.gain[:, :, None]
    lighted = frame.astype(np.float32) * gain
    if glare is not None and glossy is not None:
        lighted += (glare * glossy.astype(np.float32) / 255)[:, :, None]
    frame = lens.warp(np.clip(lighted, 0, 255).astype(np.uint8))
    return RenderedScene(image=_capture(frame, camera), truth=tuple(truth))


def deal_rows(rng: np.random.Generator, *, count: int = 12, touching: bool = False,
              face_up: float = 0.75) -> tuple[PlacedCard, ...]:  # fmt: skip
    """A typical test layout: ``count`` distinct random cards in two rows across a 16:9 frame.

    Apart (any angle, about 0.2 of the frame high, never touching), or ``touching``: neighbours
    touching or overlapping a little (small angles), as on a crowded board.
    """
    ids = rng.choice(52, count, replace=False)
    per_row = (count + 1) // 2
    cards = []
    for i, cid in enumerate(ids):
        col, row = i % per_row, i // per_row
        if touching:
            x = 0.22 + 0.56 * (col + 0.5) / per_row + rng.uniform(-0.01, 0.01)
            y = 0.33 + 0.3 * row
            angle, height = float(rng.uniform(-12, 12)), float(rng.uniform(0.21, 0.25))
        else:
            x = 0.04 + 0.92 * (col + 0.5) / per_row + rng.uniform(-0.01, 0.01)
            y = 0.27 + 0.46 * row + rng.uniform(-0.02, 0.02)
            angle, height = float(rng.uniform(-180, 180)), float(rng.uniform(0.19, 0.23))
        cards.append(PlacedCard(str(Card.from_id(int(cid))), bool(rng.random() < face_up), (x, y), angle=angle,
                                height=height))  # fmt: skip
    return tuple(cards)
