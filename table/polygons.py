"""Polygons on the table's plane: whether a point lies inside one.

The table's zones (the board, each seat's place) are polygons in normalised picture coordinates;
the camera's tracker (``vision.zones``) asks which zone holds a card's centre, and the synthetic
table (``hardware.table_layout``) whether a card it lays out stays inside its zone. Both ask the
same question, so it is answered once, here, below both packages: ``table`` is the one package
that ``vision`` and ``hardware`` both import, and ``hardware`` may not load ``vision`` when it is
imported (its synthetic camera loads the renderer only when a frame is drawn).

>>> square = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
>>> inside((0.5, 0.5), square), inside((1.5, 0.5), square)
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence

Point = tuple[float, float]
"""(x, y): on the picture, x to the right and y down."""


def inside(point: Point, polygon: Sequence[Point]) -> bool:
    """Whether ``point`` lies inside ``polygon`` (three or more points, in order, either way round).

    Even-odd rule: a ray from the point crosses the polygon's edges an odd number of times when the
    point is inside, so a polygon that crosses itself counts its overlaps as outside. A point on an
    edge may go either way."""
    x, y = point
    result = False
    for (x0, y0), (x1, y1) in zip(polygon, (*polygon[1:], polygon[0]), strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            result = not result
    return result
