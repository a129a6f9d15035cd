"""Where cards lie on a synthetic table: the zones, and the card slots inside each zone.

Zones are polygons in normalised image coordinates (0..1, origin top left), named like the
tracker names them (``vision.view``): ``"board"`` and ``"seat:N"``. Board cards lie left to right
across the board zone; a seat's cards lie side by side in its zone, turned to face the player
(the bottom edge of each card points away from the middle of the table).

Angles are in degrees, counter-clockwise as seen in the image. Geometry is done in pixels, so
that a card keeps its 63 x 88 mm shape on a 16:9 picture.

>>> board, seats = default_zones(6)
>>> len(seats), zone_name(2), zone_name("board")
(6, 'seat:2', 'board')
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from hardware.errors import TableModelError
from table.polygons import inside
from table.wording import seat_numbers, seat_word

Point = tuple[float, float]
Zone = tuple[Point, ...]
"""A polygon in normalised image coordinates (the same shape as ``tocktable.config.Zone``)."""

BOARD = "board"
CARD_ASPECT = 63 / 88
"""Width over height of a poker-size card."""
MAX_CARD_HEIGHT = 0.22
MIN_CARD_HEIGHT = 0.06
_JITTER_MARGIN = 1.08  # room left round each card for the hand-placed wobble
_SEAT_GAP = 0.12  # gap between a seat's cards, as a fraction of the card width
_BOARD_GAP = 0.10


def seat_zone(seat: int) -> str:
    """The zone name of a seat, as the tracker uses it: ``seat_zone(3) == "seat:3"``."""
    return f"seat:{seat}"


def zone_name(zone: str | int) -> str:
    """Normalise a zone given as a seat number, ``"seat:N"`` or ``"board"`` (no range check)."""
    if isinstance(zone, bool):
        raise TableModelError(f"zone {zone!r} is not a zone: use 'board', a seat number or 'seat:N'")
    if isinstance(zone, int):
        return seat_zone(zone)
    if zone == BOARD:
        return BOARD
    head, _, number = zone.partition(":")
    if head == "seat" and number.isdigit():
        return seat_zone(int(number))
    raise TableModelError(f"zone {zone!r} is not a zone: use 'board', a seat number or 'seat:N'")


def default_zones(seats: int, *, size: tuple[int, int] = (1280, 720)) -> tuple[Zone, tuple[Zone, ...]]:
    """A board zone in the middle and one zone per seat round an oval table, for 2..10 seats.

    Seat 0 sits at the bottom centre, the others follow clockwise on the picture, equally spaced
    along the table's edge (so a long table gets more seats on its long sides, as in real life).
    Each seat zone is a rectangle turned to face its player.
    """
    if not 2 <= seats <= 10:
        raise TableModelError(f"a table has 2 to 10 seats, not {seats}")
    width, height = size
    board = _box(0.5, 0.5, 0.48, 0.28)
    cx, cy, rx, ry = width / 2, height / 2, 0.38 * width, 0.34 * height
    samples = 3600
    points = [
        (cx + rx * math.cos(math.pi / 2 + 2 * math.pi * k / samples),
         cy + ry * math.sin(math.pi / 2 + 2 * math.pi * k / samples))
        for k in range(samples + 1)
    ]  # fmt: skip
    arc = [0.0]
    for a, b in itertools.pairwise(points):
        arc.append(arc[-1] + math.dist(a, b))
    spacing = arc[-1] / seats
    along = min(0.92 * spacing, 0.42 * height)
    depth = 0.26 * height
    zones = []
    k = 0
    for seat in range(seats):
        while arc[k] < seat * spacing:
            k += 1
        phi = math.pi / 2 + 2 * math.pi * k / samples
        px, py = points[k]
        nx, ny = math.cos(phi) / rx, math.sin(phi) / ry  # outward normal of the ellipse
        norm = math.hypot(nx, ny)
        nx, ny = nx / norm, ny / norm
        tx, ty = -ny, nx
        corners = [
            (px + sa * along / 2 * tx + sd * depth / 2 * nx, py + sa * along / 2 * ty + sd * depth / 2 * ny)
            for sa, sd in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
        zones.append(tuple((min(max(x / width, 0.0), 1.0), min(max(y / height, 0.0), 1.0)) for x, y in corners))
    return board, tuple(zones)


def _box(cx: float, cy: float, w: float, h: float) -> Zone:
    return ((cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2))


def check_zone(zone: Sequence[Sequence[float]], *, what: str) -> Zone:
    """A validated polygon: three or more points inside 0..1 that enclose some area."""
    try:
        points = tuple((float(x), float(y)) for x, y in zone)
    except (TypeError, ValueError) as exc:
        raise TableModelError(f"{what} must be a list of (x, y) points, got {zone!r}") from exc
    if len(points) < 3:
        raise TableModelError(f"{what} needs at least 3 points, got {len(points)}")
    for x, y in points:
        if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
            raise TableModelError(f"{what} has the point ({x}, {y}) outside the picture: use 0..1 for x and y")
    if abs(_area(points)) < 1e-6:
        raise TableModelError(f"{what} encloses no area: its points are all on one line")
    return points


def _area(points: Sequence[Point]) -> float:
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, (*points[1:], points[0]), strict=True))


def centroid(points: Sequence[Point]) -> Point:
    """The centre of area of a polygon."""
    area = _area(points)
    sx = sy = 0.0
    for (x0, y0), (x1, y1) in zip(points, (*points[1:], points[0]), strict=True):
        cross = x0 * y1 - x1 * y0
        sx += (x0 + x1) * cross
        sy += (y0 + y1) * cross
    return sx / (6 * area), sy / (6 * area)


def card_corners(center: Point, angle: float, height: float, size: tuple[int, int]) -> tuple[Point, ...]:
    """The four corners (normalised) of a card of ``height`` (fraction of the image height),
    clockwise from its top left as the card is read."""
    width_px, height_px = size
    h = height * height_px
    w = h * CARD_ASPECT
    cx, cy = center[0] * width_px, center[1] * height_px
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    out = []
    for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
        # counter-clockwise on the picture, whose y axis points down
        out.append(((cx + dx * cos + dy * sin) / width_px, (cy - dx * sin + dy * cos) / height_px))
    return tuple(out)


@dataclass(frozen=True)
class Slot:
    """Where the ``index``-th card of a zone lies before the hand-placed wobble."""

    zone: str
    index: int
    center: Point
    angle: float


@dataclass(frozen=True)
class TableLayout:
    """Zones, the slots in each, and one card size for the whole table.

    ``card_height`` (fraction of the image height): None picks the largest size, up to
    :data:`MAX_CARD_HEIGHT`, at which every zone holds its cards.
    """

    board: Zone
    seats: tuple[Zone, ...]
    size: tuple[int, int] = (1280, 720)
    hole_cards: int = 2
    board_cards: int = 5
    card_height: float = 0.0

    @classmethod
    def build(
        cls,
        seats: int,
        *,
        board: Sequence[Sequence[float]] | None = None,
        seat_zones: Sequence[Sequence[Sequence[float]]] | None = None,
        size: tuple[int, int] = (1280, 720),
        hole_cards: int = 2,
        card_height: float | None = None,
    ) -> TableLayout:
        """Check the zones (or make the default ones) and fit the card size."""
        if len(size) != 2 or min(size) < 16:
            raise TableModelError(f"image size {size!r} is too small: give (width, height) of 16 pixels or more")
        if not 1 <= hole_cards <= 7:
            raise TableModelError(f"a seat holds 1 to 7 cards, not {hole_cards}")
        default_board, default_seats = default_zones(seats, size=size)
        board_zone = check_zone(board, what="the board zone") if board is not None else default_board
        if seat_zones is None:
            zones = default_seats
        else:
            zones = tuple(check_zone(z, what=f"the zone of {seat_word(i)}") for i, z in enumerate(seat_zones))
            if len(zones) != seats:
                raise TableModelError(f"{len(zones)} seat zones were given for {seats} seats: give one per seat")
        layout = cls(board_zone, zones, (int(size[0]), int(size[1])), hole_cards)
        if card_height is None:
            card_height = layout._fit()
        elif not MIN_CARD_HEIGHT <= card_height <= 0.5:
            raise TableModelError(
                f"card height {card_height} is not allowed: use {MIN_CARD_HEIGHT}..0.5 of the image height"
            )
        return cls(board_zone, zones, layout.size, hole_cards, 5, float(card_height))

    # -- zones -----------------------------------------------------------------------
    def zone(self, name: str) -> Zone:
        """The polygon of a zone by name (``"board"`` or ``"seat:N"``)."""
        if name == BOARD:
            return self.board
        seat = int(name.partition(":")[2])
        if not 0 <= seat < len(self.seats):
            raise TableModelError(f"there is no {seat_word(seat)}: seats are {seat_numbers(len(self.seats))}")
        return self.seats[seat]

    def capacity(self, name: str) -> int:
        return self.board_cards if name == BOARD else self.hole_cards

    @property
    def centre(self) -> Point:
        return centroid(self.board)

    def facing(self, name: str) -> float:
        """The angle of a zone's cards: 0 for the board. A seat's cards face its player: their
        bottom edge lies along the zone's edge that faces away from the middle of the table
        (so cards line up with the zone, as they line up with the table's rail)."""
        if name == BOARD:
            return 0.0
        width, height = self.size
        polygon = [(x * width, y * height) for x, y in self.zone(name)]
        zx, zy = centroid(polygon)
        bx, by = self.centre[0] * width, self.centre[1] * height
        radial = (zx - bx, zy - by)
        if math.hypot(*radial) < 1e-9:
            return 0.0
        best, best_dot = (0.0, 1.0), -math.inf
        for (x0, y0), (x1, y1) in zip(polygon, (*polygon[1:], polygon[0]), strict=True):
            length = math.hypot(x1 - x0, y1 - y0)
            if length < 1e-9:
                continue
            nx, ny = (y1 - y0) / length, -(x1 - x0) / length
            if nx * ((x0 + x1) / 2 - zx) + ny * ((y0 + y1) / 2 - zy) < 0:
                nx, ny = -nx, -ny  # make it point out of the zone
            dot = (nx * radial[0] + ny * radial[1]) / math.hypot(*radial)
            if dot > best_dot:
                best, best_dot = (nx, ny), dot
        # an upright card's bottom edge points down (0, 1); turn it to point along ``best``
        return math.degrees(math.atan2(best[0], best[1]))

    def slot(self, name: str, index: int, *, height: float | None = None) -> Slot:
        """The place of the ``index``-th card of a zone (0 = left as the player sees it)."""
        count = self.capacity(name)
        if not 0 <= index < count:
            raise TableModelError(f"{name} has slots 0..{count - 1}, not {index}")
        height = self.card_height if height is None else height
        angle = self.facing(name)
        width_px = height * self.size[1] * CARD_ASPECT
        step = width_px * (1 + (_BOARD_GAP if name == BOARD else _SEAT_GAP))
        offset = (index - (count - 1) / 2) * step
        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        cx, cy = centroid(self.zone(name))
        # the card's own x axis, turned like the card
        return Slot(name, index, (cx + offset * cos / self.size[0], cy - offset * sin / self.size[1]), angle)

    def zone_names(self) -> tuple[str, ...]:
        return (BOARD, *(seat_zone(i) for i in range(len(self.seats))))

    def _fits(self, height: float) -> bool:
        for name in self.zone_names():
            polygon = self.zone(name)
            for index in range(self.capacity(name)):
                slot = self.slot(name, index, height=height)
                corners = card_corners(slot.center, slot.angle, height * _JITTER_MARGIN, self.size)
                if not all(inside(corner, polygon) for corner in corners):
                    return False
        return True

    def _fit(self) -> float:
        if self._fits(MAX_CARD_HEIGHT):
            return MAX_CARD_HEIGHT
        low, high = MIN_CARD_HEIGHT, MAX_CARD_HEIGHT
        if not self._fits(low):
            return low  # zones too small for any card: cards overflow, their centres stay inside
        for _ in range(20):
            mid = (low + high) / 2
            low, high = (mid, high) if self._fits(mid) else (low, mid)
        return low
