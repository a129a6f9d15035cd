"""The seat and board zones drawn on the set-up page: checked, kept in the data directory
(``zones.json`` beside the database, written whole or not at all), and handed at once to the
tracker and the camera page.

Which zones the table uses, first found first:

1. the configuration file's ``[zones]`` when it sets any (the page shows them and cannot change
   them: the file is the host's deliberate choice);
2. the zones saved from the set-up page (``zones.json``);
3. the default: the demo table's own layout, or the configuration's even layout round the edge.

A zone is a polygon of 3 to 32 points ``[x, y]`` in image coordinates from 0 to 1 (0, 0 the
picture's top left). The zones are ``"board"`` and ``"seat:0"`` .. ``"seat:N-1"`` (the first
seat is seat 1 in every message), one for every seat of the table.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from table.errors import TocktableError
from tocktable.calibrate import CalibrationError, number_from, propose
from tocktable.zone_check import zones_match

ZONES_FILE = "zones.json"
MAX_POINTS = 32
MIN_AREA = 0.0005
CHECK_SECONDS = 2.0
"""The zones are checked against the picture at most this often (:meth:`ZoneKeeper.check`)."""
"""Least area of a zone, as a share of the picture (a zone about 2 % of the picture wide)."""

Zones = dict[str, list[list[float]]]
CardsSeen = Callable[[], "tuple[Sequence[Any], tuple[int, int]] | None"]
"""The card outlines (pixels) on the camera's latest frame and its (width, height), or None."""


class ZonesError(TocktableError, ValueError):
    """Zones that cannot be used: the message says what was wrong and what is allowed."""


class ZonesLocked(TocktableError, PermissionError):
    """The configuration file sets the zones: they win over the page's."""


def zone_names(seats: int) -> list[str]:
    return ["board", *(f"seat:{i}" for i in range(seats))]


def _label(name: str) -> str:
    return f"seat {int(name.partition(':')[2]) + 1}" if name.startswith("seat:") else name


def _area(points: Sequence[Sequence[float]]) -> float:
    total = 0.0
    for (x0, y0), (x1, y1) in zip(points, [*points[1:], points[0]], strict=True):
        total += x0 * y1 - x1 * y0
    return abs(total) / 2


def check_zones(data: Any, seats: int) -> Zones:
    """``data`` as zones for a table of ``seats`` seats; :class:`ZonesError` saying what is wrong."""
    names = zone_names(seats)
    allowed = f'"board" and "seat:0" .. "seat:{seats - 1}" (seats 1 to {seats})'
    if not isinstance(data, Mapping):
        raise ZonesError(f"zones must be a JSON object with the keys {allowed}, each a polygon [[x, y], ...]")
    unknown = sorted(str(k) for k in data if k not in names)
    if unknown:
        raise ZonesError(f"unknown zone(s) {', '.join(unknown)}: this table's zones are {allowed}")
    missing = [_label(n) for n in names if n not in data]
    if missing:
        raise ZonesError(f"missing zone(s) for {', '.join(missing)}: give every one of {allowed}")
    zones: Zones = {}
    for name in names:
        polygon = data[name]
        where = _label(name)
        if not isinstance(polygon, list) or not 3 <= len(polygon) <= MAX_POINTS:
            raise ZonesError(f"{where}: a zone is a list of 3 to {MAX_POINTS} points [x, y]")
        points = []
        for point in polygon:
            if not (isinstance(point, list) and len(point) == 2
                    and all(isinstance(v, int | float) and not isinstance(v, bool) for v in point)):  # fmt: skip
                raise ZonesError(f"{where}: every point is [x, y], two numbers, not {json.dumps(point)[:40]}")
            x, y = float(point[0]), float(point[1])
            if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
                raise ZonesError(f"{where}: point [{x:g}, {y:g}] is outside the picture: x and y go from 0 to 1")
            points.append([round(x, 5), round(y, 5)])
        if _area(points) < MIN_AREA:
            raise ZonesError(f"{where}: the zone is too small or flat (area {_area(points):.5f} of the picture, "
                             f"at least {MIN_AREA} needed)")  # fmt: skip
        zones[name] = points
    return zones


def load_zones(data_dir: Path, seats: int) -> tuple[Zones | None, str | None]:
    """The zones saved in ``data_dir`` (None when there are none), and why a file there was not used."""
    path = Path(data_dir) / ZONES_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"{path} cannot be read ({exc.strerror or exc})"
    try:
        return check_zones(json.loads(text).get("zones"), seats), None
    except (ValueError, AttributeError) as exc:
        return None, f"{path} is not used: {exc}"


def save_zones(data_dir: Path, zones: Zones) -> Path:
    """Write ``zones`` to ``data_dir/zones.json``: a temporary file, flushed to disk, renamed over
    the old one (a crash leaves the old zones or the new, never half a file)."""
    directory = Path(data_dir)
    path = directory / ZONES_FILE
    temp = directory / f".{ZONES_FILE}.tmp"
    with open(temp, "w", encoding="utf-8") as out:
        json.dump({"zones": zones}, out, indent=1)
        out.write("\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(temp, path)
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return path


class ZoneKeeper:
    """The zones a table uses (see the module's docstring), and new ones from the set-up page.

    ``configured``: the configuration file's zones when it sets them, else None; ``default``: the
    zones without a file; ``use``: called with the zones whenever they change (and once now),
    e.g. to give them to the tracker and the camera page; ``cards``: the card outlines on the
    camera's latest frame and its size, for :meth:`calibrate`."""

    def __init__(self, data_dir: Path, seats: int, *, default: Mapping[str, Any],
                 configured: Mapping[str, Any] | None = None, use: Sequence[Callable[[Zones], None]] = (),
                 cards: CardsSeen | None = None) -> None:  # fmt: skip
        self.data_dir = Path(data_dir)
        self.cards = cards
        """The cards on the camera's latest frame, to :meth:`calibrate` from (None: no camera)."""
        self.seats = seats
        self._use = list(use)
        self._lock = threading.Lock()
        self.note: str | None = None
        """Why a saved file was not used (damaged, other seats), for the page to say."""
        self._checked: tuple[float, dict[str, Any]] | None = None
        self.default = check_zones(_lists(default), seats)
        if configured is not None:
            self.source, self._zones = "config", check_zones(_lists(configured), seats)
        else:
            saved, self.note = load_zones(self.data_dir, seats)
            self.source, self._zones = ("saved", saved) if saved is not None else ("default", self.default)
        self._apply()

    @property
    def locked(self) -> bool:
        return self.source == "config"

    def current(self) -> dict[str, Any]:
        """``{"zones", "source", "locked", "seats", "note"}`` for the page."""
        with self._lock:
            zones = {name: [list(p) for p in zone] for name, zone in self._zones.items()}
            return {"zones": zones, "source": self.source, "locked": self.locked, "seats": self.seats,
                    "note": self.note}  # fmt: skip

    def save(self, data: Any) -> dict[str, Any]:
        """Check, keep and use new zones: :class:`ZonesError` when they cannot be used,
        :class:`ZonesLocked` when the configuration file sets the zones; nothing changes then."""
        if self.locked:
            raise ZonesLocked("the configuration file sets the zones ([zones]): they win; remove them there to "
                              "draw the zones on this page")  # fmt: skip
        zones = check_zones(data, self.seats)
        with self._lock:
            save_zones(self.data_dir, zones)
            self._zones, self.source, self.note, self._checked = zones, "saved", None, None
        self._apply()
        return self.current()

    def calibrate(self) -> dict[str, Any]:
        """Zones proposed from the cards on the camera's latest frame (not saved: the host says
        which seat is seat 1, then saves): ``{"zones", "ring", "board", "cards"}``, seat 1 the
        first clockwise from straight below the board. :class:`ZonesError` when the cards do not
        make zones, :class:`ZonesLocked` when the configuration sets them, ``LookupError`` with no camera."""
        if self.locked:
            raise ZonesLocked("the configuration file sets the zones ([zones]): they win; remove them there to "
                              "calibrate the zones on this page")  # fmt: skip
        seen = self.cards() if self.cards is not None else None
        if seen is None:
            raise LookupError("no camera picture to calibrate from: the table runs without a camera, or it has not "
                              "sent a picture yet")  # fmt: skip
        outlines, size = seen
        try:
            proposal = propose(outlines, size, self.seats)
            zones = check_zones(number_from(proposal, 0), self.seats)
        except CalibrationError as exc:
            raise ZonesError(str(exc)) from None
        return {"zones": zones, **proposal}

    def check(self) -> dict[str, Any]:
        """Whether the zones still match the camera's latest picture (:func:`tocktable.zone_check.zones_match`):
        ``{"ok", "cards", "outside", "text", "frame"}``; ``LookupError`` with no camera picture. Worked
        out at most every ``CHECK_SECONDS`` (the card finder runs on the whole picture)."""
        now = time.monotonic()
        with self._lock:
            if self._checked is not None and now - self._checked[0] < CHECK_SECONDS:
                return dict(self._checked[1])
        seen = self.cards() if self.cards is not None else None
        if seen is None:
            raise LookupError("no camera picture to check the zones on: the table runs without a camera, or it has "
                              "not sent a picture yet")  # fmt: skip
        outlines, size = seen
        result = zones_match(outlines, size, self.current()["zones"])
        with self._lock:
            self._checked = (now, result)
        return dict(result)

    def add_user(self, use: Callable[[Zones], None]) -> None:
        """Also give the zones to ``use`` (now, and whenever they change)."""
        self._use.append(use)
        use(self.current()["zones"])

    def _apply(self) -> None:
        zones = self.current()["zones"]
        for use in self._use:
            use(zones)


def _lists(zones: Mapping[str, Any]) -> dict[str, Any]:
    return {str(name): [[float(x), float(y)] for x, y in zone] for name, zone in zones.items()}


def for_tap(tap: Any) -> Callable[[Zones], None]:
    """Give zones to a :class:`tocktable.tap.CameraTap` (the camera page draws and masks them)."""

    def use(zones: Zones) -> None:
        tap.zones = {name: [list(p) for p in zone] for name, zone in zones.items()}

    return use


def for_tracker(watcher: Any) -> Callable[[Zones], None]:
    """Give zones to the watcher's tracker, if it has one (the next frame is placed by them)."""

    def use(zones: Zones) -> None:
        tracker = getattr(watcher, "tracker", None)
        if tracker is not None:
            # the tracker's own zone type, built the way it builds it: one reference swapped, so a
            # frame being placed meanwhile uses the old zones or the new, whole
            tracker.zones = type(tracker.zones).from_mapping(zones, size=tracker.size)

    return use
