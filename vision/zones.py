"""Table zones: the board area and one area per seat, and which zone a card lies in.

Zones come from the configuration as polygons (three or more points; a rectangle is four) in
normalised image coordinates (0..1, origin top left), named ``"board"`` and ``"seat:N"``. A card
belongs to the zone that holds its centre; where zones overlap, the smallest one wins (it is the
more specific). Cards of a zone are ordered along the zone's long axis: the board left to right
on the picture, a seat's cards from the player's left to right (the player sits on the far side
of the seat zone from the board, facing the board).

Geometry is done in pixels of the camera's frame size, so that a zone's long axis is the long
axis on the picture, not in stretched normalised units.

>>> zones = TableZones.from_mapping({"board": [(0.3, 0.4), (0.7, 0.4), (0.7, 0.6), (0.3, 0.6)],
...                                  "seat:0": [(0.4, 0.8), (0.6, 0.8), (0.6, 1.0), (0.4, 1.0)]})
>>> zones.zone_of((0.5, 0.5)), zones.zone_of((0.5, 0.9)), zones.zone_of((0.05, 0.05))
('board', 'seat:0', '')
>>> zones.along("board", (0.6, 0.5)) > zones.along("board", (0.4, 0.5))
True
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from table.polygons import inside
from vision.errors import VisionError
from vision.view import BOARD, Point

OUTSIDE = ""
"""The zone name of a card that lies in no zone."""


class ZoneError(VisionError, ValueError):
    """A zone the tracker cannot use: bad name, too few points, points off the picture, no area."""


@dataclass(frozen=True)
class Zone:
    """One named zone: its polygon (normalised) and, derived in pixels, its area, centre and the
    unit direction along which its cards are ordered."""

    name: str
    polygon: tuple[Point, ...]
    area_px: float
    centre_px: tuple[float, float]
    axis: tuple[float, float]

    @property
    def seat(self) -> int | None:
        """The seat number of a ``"seat:N"`` zone, None for the board."""
        return None if self.name == BOARD else int(self.name.partition(":")[2])


def check_zone_name(name: object) -> str:
    """``name`` if it is ``"board"`` or ``"seat:N"`` (N a whole number from 0), else :class:`ZoneError`."""
    if not isinstance(name, str):
        raise ZoneError(f"zone name {name!r} is not text: use 'board' or 'seat:N' (N = 0, 1, ...)")
    if name == BOARD:
        return name
    head, _, number = name.partition(":")
    if head != "seat" or not number.isdigit() or number != str(int(number)):
        raise ZoneError(f"zone name {name!r} is not allowed: use 'board' or 'seat:N' (N = 0, 1, ...)")
    return name


def check_polygon(points: object, *, what: str) -> tuple[Point, ...]:
    """A polygon of three or more finite points inside 0..1 that encloses some area."""
    try:
        polygon = tuple((float(x), float(y)) for x, y in points)  # type: ignore[attr-defined]
    except (TypeError, ValueError) as exc:
        raise ZoneError(f"{what} must be a list of (x, y) points in 0..1, got {points!r}") from exc
    if len(polygon) < 3:
        raise ZoneError(f"{what} needs at least 3 points (a rectangle is 4), got {len(polygon)}")
    for x, y in polygon:
        if not (math.isfinite(x) and math.isfinite(y) and 0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
            raise ZoneError(f"{what} has the point ({x}, {y}) off the picture: x and y must be in 0..1")
    if abs(_moments(polygon)[0]) < 1e-8:
        raise ZoneError(f"{what} encloses no area: its points lie on one line")
    return polygon


def _moments(points: Sequence[Point]) -> tuple[float, float, float, float, float, float]:
    """Signed area, centroid (x, y) and central second moments (xx, xy, yy) of a polygon."""
    a = cx = cy = ixx = ixy = iyy = 0.0
    for (x0, y0), (x1, y1) in zip(points, (*points[1:], points[0]), strict=True):
        cross = x0 * y1 - x1 * y0
        a += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
        ixx += (x0 * x0 + x0 * x1 + x1 * x1) * cross
        iyy += (y0 * y0 + y0 * y1 + y1 * y1) * cross
        ixy += (x0 * y1 + 2 * x0 * y0 + 2 * x1 * y1 + x1 * y0) * cross
    a /= 2
    if abs(a) < 1e-12:
        return a, 0.0, 0.0, 0.0, 0.0, 0.0
    cx, cy = cx / (6 * a), cy / (6 * a)
    return a, cx, cy, ixx / (12 * a) - cx * cx, ixy / (24 * a) - cx * cy, iyy / (12 * a) - cy * cy


def _long_axis(xx: float, xy: float, yy: float) -> tuple[float, float]:
    """Unit vector of the larger principal axis; (1, 0) for a shape with no long axis (a square)."""
    if math.hypot(xx - yy, 2 * xy) < 1e-6 * max(xx + yy, 1e-12):
        return 1.0, 0.0
    angle = 0.5 * math.atan2(2 * xy, xx - yy)
    return math.cos(angle), math.sin(angle)


def _check_size(size: object) -> tuple[int, int]:
    if (
        not isinstance(size, tuple | list)
        or len(size) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 16 for v in size)
    ):
        raise ZoneError(f"frame size must be (width, height) in whole pixels, 16 or more, got {size!r}")
    return int(size[0]), int(size[1])


@dataclass(frozen=True)
class TableZones:
    """The zones of one table at one camera frame size. Build with :meth:`from_mapping`."""

    zones: tuple[Zone, ...]
    size: tuple[int, int] = (1280, 720)

    @classmethod
    def from_mapping(
        cls, zones: Mapping[str, Sequence[Sequence[float]]] | TableZones, *, size: tuple[int, int] = (1280, 720)
    ) -> TableZones:
        """Check ``{"board": polygon, "seat:0": polygon, ...}`` (normalised points) and build the
        zones for frames of ``size`` = (width, height) pixels. No zone at all is allowed (every
        card is then outside); a board is not required."""
        if isinstance(zones, TableZones):
            return zones if zones.size == tuple(size) else cls.from_mapping(zones.as_mapping(), size=size)
        if not isinstance(zones, Mapping):
            raise ZoneError(f"zones must be a mapping of zone name to polygon, got {type(zones).__name__}")
        width, height = _check_size(size)
        checked = {check_zone_name(k): check_polygon(points, what=f"zone {k!r}") for k, points in zones.items()}
        board_centre: tuple[float, float] | None = None
        if BOARD in checked:
            _, bx, by, *_ = _moments([(x * width, y * height) for x, y in checked[BOARD]])
            board_centre = (bx, by)
        built = []
        for name, polygon in checked.items():
            area, cx, cy, xx, xy, yy = _moments([(x * width, y * height) for x, y in polygon])
            ax, ay = _long_axis(xx, xy, yy)
            if name == BOARD or board_centre is None or math.hypot(board_centre[0] - cx, board_centre[1] - cy) < 1e-6:
                # left to right on the picture (top to bottom for an upright zone)
                right = (1.0, 0.0) if abs(ax) > 1e-9 else (0.0, 1.0)
            else:
                # a player faces the board: their right hand is the facing direction turned a
                # quarter clockwise on the picture (whose y axis points down)
                fx, fy = board_centre[0] - cx, board_centre[1] - cy
                right = (-fy, fx)
            if ax * right[0] + ay * right[1] < 0:
                ax, ay = -ax, -ay
            built.append(Zone(name, polygon, abs(area), (cx, cy), (ax, ay)))
        built.sort(key=lambda z: (z.name != BOARD, z.seat or 0))
        return cls(tuple(built), (width, height))

    def __iter__(self) -> Iterator[Zone]:
        return iter(self.zones)

    def __len__(self) -> int:
        return len(self.zones)

    def __contains__(self, name: object) -> bool:
        return any(z.name == name for z in self.zones)

    @property
    def names(self) -> tuple[str, ...]:
        """Zone names, board first then seats in order."""
        return tuple(z.name for z in self.zones)

    def zone(self, name: str) -> Zone:
        """The zone called ``name``."""
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise ZoneError(f"there is no zone {name!r}: the zones are {', '.join(self.names) or '(none)'}")

    def as_mapping(self) -> dict[str, tuple[Point, ...]]:
        """``{name: polygon}``, the form :meth:`from_mapping` takes."""
        return {z.name: z.polygon for z in self.zones}

    def zone_of(self, point: Point) -> str:
        """The name of the zone holding ``point`` (normalised), the smallest if several do,
        :data:`OUTSIDE` (``""``) if none."""
        best: Zone | None = None
        for zone in self.zones:
            if inside(point, zone.polygon) and (best is None or zone.area_px < best.area_px):
                best = zone
        return OUTSIDE if best is None else best.name

    def along(self, name: str, point: Point) -> float:
        """How far ``point`` (normalised) lies along the zone's ordering axis, in pixels from the
        zone's centre: sorting a zone's cards by this puts them left to right."""
        zone = self.zone(name)
        x, y = point[0] * self.size[0] - zone.centre_px[0], point[1] * self.size[1] - zone.centre_px[1]
        return x * zone.axis[0] + y * zone.axis[1]
