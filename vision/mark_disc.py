"""Where the white disc of a Tock sticker ends round its pip: the mark's size without the outline.

Measured on a mark reader's centre patch (:mod:`vision.mark_reader`): the radial profile of the
disc's white round the pip (in pip heights, so neither the camera's distance nor the card's
outline matters), the ace's dark ring beyond it, and how much the disc is squeezed one way (an
outline too long or too wide squeezes the round disc, and a squeezed club looks like a spade).
"""

from __future__ import annotations

import math

import numpy as np

from vision.mark_pips import _XX, _YY, PATCH

_YY64, _XX64 = _YY.astype(np.float64), _XX.astype(np.float64)  # float32 - float64 is float64 anyway

_PROFILE = (0.46, 1.0, 0.02)  # radial profile: first, last radius and step, in pip heights
_INSIDE = (0.5, 0.58)  # radii (pip heights) that are on the disc's white for every mark
_RADII = _PROFILE[0] + _PROFILE[2] * (np.arange(round((_PROFILE[1] - _PROFILE[0]) / _PROFILE[2])) + 0.5)
_ON_DISC, _BEYOND = (_INSIDE[0] <= _RADII) & (_INSIDE[1] >= _RADII), _INSIDE[1] < _RADII
_ON_DISC_COUNT = int(_ON_DISC.sum())


def ring(high: np.ndarray, soft: np.ndarray, centre: np.ndarray, height_px: float) -> float:
    """Past the white round the pip, how much lighter (brightest channel) the angular mean gets
    again after its darkest radius, relative to the white: the ace's black ring on a lighter or
    coloured back; a disc's edge onto the back stays at the back's level. A dark back shows no
    ring either way."""
    first, last, step = _PROFILE
    box = _box(centre, last * max(height_px, 1.0))
    if box is None:
        return 0.0
    distance = np.hypot(_XX64[box] - centre[0], _YY64[box] - centre[1]) / max(height_px, 1.0)
    use = (soft[box] < 0.05) & (distance >= first) & (distance < last)
    bins = ((distance[use] - first) / step).astype(np.int64)
    n = len(_RADII)
    counts = np.bincount(bins, minlength=n)[:n]
    if counts.min() < 3:
        return 0.0
    profile = np.bincount(bins, weights=high[box][use], minlength=n)[:n] / counts
    inside = float(profile[_ON_DISC].sum() / _ON_DISC_COUNT)
    beyond = np.flatnonzero(_BEYOND)
    darkest = int(beyond[np.argmin(profile[beyond])])
    return float(profile[darkest:].max() - profile[darkest]) / max(inside, 1e-3)


def _box(centre: np.ndarray, reach: float) -> tuple[slice, slice] | None:
    """The patch's rows and columns within ``reach`` of ``centre`` (a pixel of margin against
    rounding), or None when the centre or the reach is not finite."""
    if not (math.isfinite(centre[0]) and math.isfinite(centre[1]) and math.isfinite(reach)):
        return None
    x0 = min(max(math.floor(centre[0] - reach) - 1, 0), PATCH)
    y0 = min(max(math.floor(centre[1] - reach) - 1, 0), PATCH)
    return (slice(y0, max(min(math.ceil(centre[1] + reach) + 2, PATCH), y0)),
            slice(x0, max(min(math.ceil(centre[0] + reach) + 2, PATCH), x0)))  # fmt: skip


def white_end(low: np.ndarray, soft: np.ndarray, centre: np.ndarray, height_px: float) -> tuple[float, float]:
    """Where the white around the pip ends (pip heights from the disc's centre) and how much
    darker it gets there: the angular mean of the whiteness, radius by radius, off the pip."""
    first, last, step = _PROFILE
    # Only pixels nearer than ``last`` pip heights count: look in the box round the centre alone
    # (a pixel of margin against rounding; row-major order is kept, so the sums are the same).
    box = _box(centre, last * max(height_px, 1.0))
    if box is None:
        return 0.0, 0.0  # no pixel can count
    distance = np.hypot(_XX64[box] - centre[0], _YY64[box] - centre[1]) / max(height_px, 1.0)
    use = (soft[box] < 0.05) & (distance >= first) & (distance < last)
    low = low[box]
    bins = ((distance[use] - first) / step).astype(np.int64)
    n = len(_RADII)
    counts = np.bincount(bins, minlength=n)[:n]
    if counts.min() < 3:
        return 0.0, 0.0
    profile = np.bincount(bins, weights=low[use], minlength=n)[:n] / counts
    return _fall(profile, _RADII, _ON_DISC, _BEYOND, last, step)


def _fall(profile: np.ndarray, radii: np.ndarray, on_disc: np.ndarray, beyond: np.ndarray, last: float,
          step: float) -> tuple[float, float]:  # fmt: skip
    """Where a radial profile of whiteness (at ``radii``) falls half way from the disc's white to
    the darkest beyond it (``last`` if it never does or there is no edge), and that contrast."""
    inside = profile[on_disc].sum() / int(on_disc.sum())
    darkest = float(profile[beyond].min())
    contrast = float(inside - darkest)
    if contrast < 0.2:
        return float(last), max(contrast, 0.0)
    level = float((inside + darkest) / 2)
    below = np.flatnonzero(beyond & (profile < level))
    if not len(below):
        return float(last), contrast
    j = int(below[0])
    a, b = float(profile[j - 1]), float(profile[j])
    t = min(max((a - level) / max(a - b, 1e-6), 0.0), 1.0)
    return float(radii[j - 1] + t * step), contrast


# In pip heights: a small pip's disc (0.86) on an outline 30 % too long still ends inside; rings
# twice as wide as the white's end's, as each holds only half the directions.
_STRETCH_LAST, _STRETCH_STEP = 1.3, 2 * _PROFILE[2]
_STRETCH_RADII = _PROFILE[0] + _STRETCH_STEP * (np.arange(round((_STRETCH_LAST - _PROFILE[0]) / _STRETCH_STEP)) + 0.5)
_STRETCH_ON_DISC = (_INSIDE[0] <= _STRETCH_RADII) & (_INSIDE[1] >= _STRETCH_RADII)
_STRETCH_BEYOND = _INSIDE[1] < _STRETCH_RADII


def stretch(low: np.ndarray, soft: np.ndarray, centre: np.ndarray, height_px: float) -> float:
    """Where the white ends along the card (above and below the pip) over where it ends across it
    (left and right): the disc is round, so this is how the card's outline squeezed the patch one
    way (0.98..1.02 on true outlines, 0.87..0.90 on one 20 % too long); 1.0 when not measurable."""
    first, step, n = _PROFILE[0], _STRETCH_STEP, len(_STRETCH_RADII)
    box = _box(centre, _STRETCH_LAST * max(height_px, 1.0))
    if box is None:
        return 1.0
    dx, dy = _XX64[box] - centre[0], _YY64[box] - centre[1]
    distance = np.hypot(dx, dy) / max(height_px, 1.0)
    use = (soft[box] < 0.05) & (distance >= first) & (distance < _STRETCH_LAST)
    low = low[box]
    bins = ((distance[use] - first) / step).astype(np.int64) + n * (np.abs(dy[use]) > np.abs(dx[use]))
    counts = np.bincount(bins, minlength=2 * n)[: 2 * n].reshape(2, n)
    if counts.min() < 3:
        return 1.0
    profiles = np.bincount(bins, weights=low[use], minlength=2 * n)[: 2 * n].reshape(2, n) / counts
    radii, on_disc, beyond = _STRETCH_RADII, _STRETCH_ON_DISC, _STRETCH_BEYOND
    (across, c_across), (along, c_along) = (_fall(row, radii, on_disc, beyond, _STRETCH_LAST, step) for row in profiles)
    if min(c_across, c_along) < 0.2 or max(across, along) >= _STRETCH_LAST:
        return 1.0
    return along / across
