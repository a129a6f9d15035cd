"""The point-in-polygon test the tracker's zones and the synthetic table's layout share."""

from __future__ import annotations

import math

import pytest

from table.polygons import inside

# An L: the square (0..2, 0..2) without its top-right quarter.
ELL = ((0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0))


@pytest.mark.parametrize("polygon", [ELL, ELL[::-1]])
def test_a_concave_polygon_either_way_round(polygon: tuple[tuple[float, float], ...]) -> None:
    assert inside((0.5, 0.5), polygon) and inside((1.5, 0.5), polygon) and inside((0.5, 1.5), polygon)
    assert not inside((1.5, 1.5), polygon), "the notch of the L is outside"
    assert not inside((-0.1, 0.5), polygon) and not inside((2.1, 0.5), polygon) and not inside((0.5, 2.1), polygon)


def test_a_turned_seat_zone_against_its_bounding_box() -> None:
    angle = math.radians(30)
    c, s = math.cos(angle), math.sin(angle)
    box = ((-0.2, -0.05), (0.2, -0.05), (0.2, 0.05), (-0.2, 0.05))
    zone = tuple((0.5 + c * x - s * y, 0.5 + s * x + c * y) for x, y in box)
    assert inside((0.5, 0.5), zone)
    assert inside((0.5 + c * 0.19, 0.5 + s * 0.19), zone), "near the end of the long axis"
    corner = (min(x for x, _ in zone) + 0.01, min(y for _, y in zone) + 0.01)
    assert not inside(corner, zone), "inside the bounding box, outside the turned zone"


def test_a_star_that_crosses_itself_counts_its_middle_as_outside() -> None:
    star = tuple((math.cos(math.radians(90 + 144 * k)), math.sin(math.radians(90 + 144 * k))) for k in range(5))
    assert not inside((0.0, 0.0), star), "even-odd: the pentagon in the middle is crossed twice"
    assert inside((0.0, 0.8), star), "a point of the star"
