"""Hard table surfaces and hard light for :mod:`vision.render.scene`, drawn in the table's own plane.

A surface is a function of the table-plane coordinates every image pixel sees (from
:func:`vision.render.scene_camera.plane_maps`), so its pattern is foreshortened exactly like the cards
under a tilted camera: checks shrink towards the far side, planks converge. Each surface has a
pattern a card reader can mistake for a card's edge or ink: the seams and rings of wood, the
lines of checked and striped cloth, the outlined blobs of paisley, the weave of felt, or so little
contrast to a card's dark back that the back's outline nearly vanishes (dark cloth).

:func:`light` makes the light hard too: a steep fall-off, a soft shadow across part of the table
and, for ``"glare"``, a lamp's reflection strong enough to wash out part of a glossy card.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

Maps = tuple[np.ndarray, np.ndarray]


def _noise(rng: np.random.Generator, u: np.ndarray, v: np.ndarray, cell: float) -> np.ndarray:
    """Smooth noise in about -1..1 over the table plane, one random value per ``cell`` plane pixels."""
    u0, v0 = float(u.min()), float(v.min())
    span = max(float(u.max()) - u0, float(v.max()) - v0, 1.0)
    cell = max(cell, span / 1000)
    n = int(span / cell) + 4
    grid = rng.standard_normal((n, n)).astype(np.float32) / 2.0
    sampled: np.ndarray = cv2.remap(grid, (u - u0) / np.float32(cell) + 1, (v - v0) / np.float32(cell) + 1,
                                    cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT_101)  # fmt: skip
    return sampled


def _turned(rng: np.random.Generator, u: np.ndarray, v: np.ndarray) -> Maps:
    """The plane coordinates turned by a random angle: (along, across) a pattern's direction."""
    a = rng.uniform(0, math.pi)
    c, s = np.float32(math.cos(a)), np.float32(math.sin(a))
    return u * c + v * s, -u * s + v * c


def _colour(base: tuple[int, int, int], rng: np.random.Generator) -> np.ndarray:
    return np.asarray(base, np.float32) * rng.uniform(0.85, 1.15, 3).astype(np.float32)


def _random_colour(rng: np.random.Generator, low: int, high: int) -> np.ndarray:
    """A colour each channel of which is drawn in ``low``..``high`` (then varied as :func:`_colour` does)."""
    return _colour(tuple(int(c) for c in rng.integers(low, high, 3)), rng)  # type: ignore[arg-type]


def _paint(shade: np.ndarray, colour: np.ndarray) -> np.ndarray:
    painted: np.ndarray = shade[:, :, None] * colour
    return painted


def _wood(u: np.ndarray, v: np.ndarray, rng: np.random.Generator, base: tuple[int, int, int],
          rings: bool) -> np.ndarray:  # fmt: skip
    along, across = _turned(rng, u, v)
    plank = float(rng.uniform(90, 260))
    row = np.floor(across / plank)
    # Each plank its own grain offset, tone and butt joint.
    offset = (row * 7919.0) % 997.0
    tone = 1.0 + 0.12 * np.sin(row * 12.9898 + rng.uniform(0, 6))
    wobble = 25 * _noise(rng, u, v, 120) + 6 * _noise(rng, u, v, 30)
    if rings:  # flat-sawn: rings as nested arches along the plank
        centre = across - (row + 0.5) * plank
        arch = np.sqrt(np.abs(centre * centre * 40 + ((along + offset * 3) % 900 - 450) ** 2 * 0.5))
        grain = np.sin((arch + wobble) / rng.uniform(4, 9))
    else:  # quarter-sawn: long streaks
        grain = np.sin((across + wobble + offset) / rng.uniform(1.5, 4)) * 0.6
        grain += 0.6 * _noise(rng, along / np.float32(30), across, 2.5)
    shade = tone * (1.0 + 0.14 * grain * (0.6 + 0.4 * _noise(rng, u, v, 60)))
    seam = np.abs(((across % plank) + plank) % plank - plank / 2) > plank / 2 - 1.6
    joint_at = (row * 3571.0) % 1400.0
    joint = np.abs(((along - joint_at) % 1400.0) - 700) > 698.5
    shade = np.where(seam | joint, shade * 0.55, shade)
    return _paint(shade.astype(np.float32), _colour(base, rng))


def _checks(u: np.ndarray, v: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    along, across = _turned(rng, u, v)
    period = float(rng.uniform(12, 60))
    a = (np.floor(along / period) % 2).astype(np.float32)
    b = (np.floor(across / period) % 2).astype(np.float32)
    light = _colour((225, 225, 230), rng)
    dark = _random_colour(rng, 20, 200)
    mix = (a + b)[:, :, None] / 2  # gingham: 0 light, 1/2 mixed, 1 dark
    return light * (1 - mix) + dark * mix


def _stripes(u: np.ndarray, v: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    _, across = _turned(rng, u, v)
    period = float(rng.uniform(15, 80))
    phase = (across % period) / period
    width = rng.uniform(0.15, 0.5)
    band = (phase < width).astype(np.float32) + 0.5 * ((phase > 0.6) & (phase < 0.65))
    ground = _random_colour(rng, 40, 230)
    stripe = _random_colour(rng, 20, 240)
    band = np.clip(band, 0, 1)[:, :, None]
    mixed: np.ndarray = ground * (1 - band) + stripe * band
    return mixed


def _paisley(u: np.ndarray, v: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    field = _noise(rng, u, v, float(rng.uniform(25, 60))) + 0.5 * _noise(rng, u, v, 12)
    level = 0.25
    blob = field > level
    rim = np.abs(field - level) < 0.04
    dots = (_noise(rng, u, v, 4) > 0.55) & blob
    ground = _random_colour(rng, 30, 160)
    fill = _random_colour(rng, 60, 240)
    ink = _random_colour(rng, 0, 90)
    out = np.where(blob[:, :, None], fill, ground)
    out = np.where((rim | dots)[:, :, None], ink, out)
    return out.astype(np.float32)


def _felt(u: np.ndarray, v: np.ndarray, rng: np.random.Generator, base: tuple[int, int, int]) -> np.ndarray:
    period = float(rng.uniform(2.5, 5))
    weave = np.sin(u * np.float32(2 * math.pi / period)) * np.sin(v * np.float32(2 * math.pi / period))
    fuzz = _noise(rng, u, v, 1.5)
    shade = 1.0 + 0.07 * weave + 0.06 * fuzz + 0.08 * _noise(rng, u, v, 200)
    return _paint(shade.astype(np.float32), _colour(base, rng))


SURFACES: dict[str, Callable[[np.ndarray, np.ndarray, np.random.Generator], np.ndarray]] = {
    "oak-planks": lambda u, v, rng: _wood(u, v, rng, (95, 150, 195), rings=False),
    "oak-rings": lambda u, v, rng: _wood(u, v, rng, (100, 155, 200), rings=True),
    "walnut-planks": lambda u, v, rng: _wood(u, v, rng, (35, 60, 95), rings=True),
    "pine-streaks": lambda u, v, rng: _wood(u, v, rng, (140, 195, 225), rings=False),
    "checked-cloth": _checks,
    "striped-cloth": _stripes,
    "paisley-cloth": _paisley,
    "woven-felt": lambda u, v, rng: _felt(u, v, rng, (60, 110, 30)),
    "woven-blue-felt": lambda u, v, rng: _felt(u, v, rng, (125, 70, 25)),
    "dark-cloth": lambda u, v, rng: _felt(u, v, rng, (26, 24, 24)),
    "dark-navy-cloth": lambda u, v, rng: _felt(u, v, rng, (45, 22, 18)),
}
"""Procedural surfaces by name (see the module docstring), dealt to hard tables, the hold-out's as
the trainer's; any of these is a valid ``SceneSpec.table``."""


def _tartan(u: np.ndarray, v: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Bands of two or three colours crossing at right angles, a thin light thread among them:
    where a light band crosses a light band, a pale square with a card's colour."""
    along, across = _turned(rng, u, v)
    period = float(rng.uniform(40, 160))
    inks = [_random_colour(rng, 20, 200) for _ in range(int(rng.integers(2, 4)))]
    out = np.zeros((*u.shape, 3), np.float32) + _random_colour(rng, 30, 150)
    for axis in (along, across):
        phase = (axis % period) / period
        for k, ink in enumerate(inks):
            start, width = k / len(inks), float(rng.uniform(0.08, 0.3))
            band = ((phase >= start) & (phase < start + width))[:, :, None]
            out = np.where(band, out * 0.5 + ink * 0.5, out)
        thread = (np.abs(phase - float(rng.uniform(0, 1))) < 0.02)[:, :, None]
        out = np.where(thread, out * 0.3 + np.float32(0.7 * 235), out)
    woven: np.ndarray = out.astype(np.float32)
    return woven


def _dots(u: np.ndarray, v: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Polka dots on a lattice, light on dark or dark on light: round blobs the size of a pip or a card's corner."""
    along, across = _turned(rng, u, v)
    period = float(rng.uniform(15, 70))
    radius = period * float(rng.uniform(0.15, 0.35))
    row = np.floor(across / period)
    shift = np.where(row % 2 == 1, period / 2, 0.0) if rng.random() < 0.5 else 0.0
    du = (along + shift) % period - period / 2
    dv = across % period - period / 2
    dot = ((du * du + dv * dv) < radius * radius)[:, :, None]
    light, dark = _colour((228, 228, 232), rng), _random_colour(rng, 20, 180)
    ground, ink = (dark, light) if rng.random() < 0.5 else (light, dark)
    return np.where(dot, ink, ground).astype(np.float32)


def _tiles(u: np.ndarray, v: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Square tiles, pale or coloured, each its own tone, between dark grout lines: rectangles with
    rims, the size of cards or larger."""
    along, across = _turned(rng, u, v)
    period = float(rng.uniform(60, 260))
    grout = float(rng.uniform(1.5, 6))
    a, b = np.floor(along / period), np.floor(across / period)
    tone = 1.0 + 0.08 * np.sin(a * 12.9898 + b * 78.233 + float(rng.uniform(0, 6)))
    base = _colour((222, 224, 226), rng) if rng.random() < 0.6 else _random_colour(rng, 60, 230)
    out = tone[:, :, None].astype(np.float32) * base
    line = ((along % period) < grout) | ((across % period) < grout)
    return np.where(line[:, :, None], _random_colour(rng, 30, 110), out).astype(np.float32)


def _windowpane(u: np.ndarray, v: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Thin coloured lines crossing on a pale cloth: pale rectangles outlined in ink, as a card is."""
    along, across = _turned(rng, u, v)
    period_a, period_b = float(rng.uniform(30, 140)), float(rng.uniform(30, 140))
    width = float(rng.uniform(1.5, 5))
    line = ((along % period_a) < width) | ((across % period_b) < width)
    ground = _colour((226, 226, 228), rng) if rng.random() < 0.7 else _random_colour(rng, 120, 240)
    return np.where(line[:, :, None], _random_colour(rng, 20, 160), ground).astype(np.float32)


TRAINING_SURFACES: dict[str, Callable[[np.ndarray, np.ndarray, np.random.Generator], np.ndarray]] = {
    "tartan-cloth": _tartan,
    "dotted-cloth": _dots,
    "tiled-top": _tiles,
    "windowpane-cloth": _windowpane,
}
"""Patterned surfaces only the detector's trainer draws (``python -m vision.train.seg_train
--surfaces``), never dealt to the hold-out: pale squares, round blobs and outlined rectangles a card
finder can take for cards, so that it learns a card from what it is (paper with a rim and
something printed on it) rather than from the patterns of :data:`SURFACES` alone. Also valid
``SceneSpec.table`` names."""

PATTERNS = {**SURFACES, **TRAINING_SURFACES}
"""Every procedural surface by name: :data:`SURFACES` and :data:`TRAINING_SURFACES`."""


def surface(name: str, maps: Maps, seed: int) -> np.ndarray:
    """Surface ``name`` (of :data:`PATTERNS`) as seen through ``maps`` (plane x, y per pixel): H×W×3 uint8 BGR."""
    rng = np.random.default_rng([seed, 505])
    u, v = maps
    colour = PATTERNS[name](u, v, rng)
    grain = rng.standard_normal(u.shape).astype(np.float32)
    image: np.ndarray = np.clip(colour * (1 + 0.02 * grain)[:, :, None], 0, 255).astype(np.uint8)
    return image


LIGHTS = ("uneven", "glare", "uneven-glare")
"""Hard light a scene may ask for: a steep fall-off with a soft shadow, a strong glare, or both."""


@dataclass(frozen=True)
class Light:
    """Gain on everything (H×W float32, 1 = as lit) and glare added on glossy things (H×W, grey levels)."""

    gain: np.ndarray
    glare: np.ndarray | None


def light(name: str, size: tuple[int, int], seed: int) -> Light:
    """The light ``name`` (one of :data:`LIGHTS`) for a frame of ``size``."""
    w, h = size
    rng = np.random.default_rng([seed, 606])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xn, yn = xx / w - 0.5, yy / w - 0.5 * h / w
    gain = np.ones((h, w), np.float32)
    if "uneven" in name:
        a = rng.uniform(0, 2 * math.pi)
        slope = np.float32(rng.uniform(0.5, 1.0))
        gain *= np.float32(rng.uniform(0.8, 1.15)) * (1 + slope * (xn * math.cos(a) + yn * math.sin(a)))
        # A soft shadow (someone leaning over, a lamp's arm) across part of the table.
        b = rng.uniform(0, math.pi)
        across = (xn - rng.uniform(-0.3, 0.3)) * math.cos(b) + (yn - rng.uniform(-0.2, 0.2)) * math.sin(b)
        edge = np.float32(rng.uniform(0.01, 0.06))
        gain *= 1 - np.float32(rng.uniform(0.3, 0.6)) / (1 + np.exp(-across / edge))
        gain = np.clip(gain, 0.25, 1.6)
    glare = None
    if "glare" in name:
        gx, gy = rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8) * h / w
        radius = rng.uniform(0.05, 0.18)
        d2 = (xn + 0.5 - gx) ** 2 + (yn + 0.5 * h / w - gy) ** 2
        core = np.exp(-d2 / (2 * radius**2))
        glare = (core * np.float32(rng.uniform(160, 260))).astype(np.float32)
    return Light(gain.astype(np.float32), glare)
