"""The configuration file: one TOML file with a documented default for everything.

Every error names the file, the key and what is allowed::

    table.toml: blinds.big = 15 is not allowed: the big blind must be at least twice the small blind (5)

``tocktable config --example`` prints :data:`EXAMPLE`, a commented file with every default.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from hardware.pins import ConsoleButton, PinMap
from table.errors import TocktableError
from web.words import languages


class ConfigError(TocktableError, ValueError):
    """The configuration file is malformed or holds a value that is not allowed."""


Point = tuple[float, float]
Zone = tuple[Point, ...]
"""A polygon in normalised image coordinates (0..1, origin top left)."""

VARIANTS = ("holdem", "tock", "draw", "lowball")
DRAW_VARIANTS = ("draw", "lowball")
LOW_RULES = ("ace-to-five", "deuce-to-seven")
WILD_TIES = ("natural", "substituted")
WILD_RANKS = ("", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
MAX_DRAW_PLAYERS = 8
BETTING = ("no-limit", "fixed-limit")
CHIP_SETS = ("tock", "white-red-blue-green", "dealer")
FIRST_DEALERS = ("draw", "croupier")
MIN_DRAW_PLAYERS = 3


@dataclass(frozen=True)
class BlindLevel:
    small: int
    big: int
    ante: int = 0


@dataclass(frozen=True)
class TableConfig:
    seats: int = 6
    names: tuple[str, ...] = ()
    variant: str = "holdem"
    betting: str = "no-limit"
    buy_in: int = 1000
    chip_set: str = "tock"
    auto_confirm: float = 8.0
    """Seconds a settled hand stays on the phones before the next is dealt (0: wait for NEXT)."""
    first_dealer: str = "draw"
    """"draw": each player turns a card, the highest deals first; "croupier": the puck goes in front
    of the first player to the croupier's right (the dealer rules), placed by NEXT."""

    def seat_names(self) -> tuple[str, ...]:
        """The configured names, completed with "Seat N" for the seats without one."""
        return tuple(self.names[i] if i < len(self.names) else f"Seat {i + 1}" for i in range(self.seats))


@dataclass(frozen=True)
class BlindsConfig:
    levels: tuple[BlindLevel, ...] = (BlindLevel(5, 10),)
    """One level for fixed blinds (a cash game); several for a tournament structure."""
    level_minutes: float = 0.0
    """Minutes per level; 0 keeps the first level for the whole night."""


@dataclass(frozen=True)
class DrawConfig:
    """Five-card draw options (the ``draw`` and ``lowball`` variants; ignored otherwise)."""

    jokers: int = 0
    wild_rank: str = ""
    """A declared wild rank ("3": the threes are wild); empty: none."""
    low_rule: str = "ace-to-five"
    ties: str = "natural"
    max_draw: int = 3
    opening_bet: bool = False
    """The player left of the dealer opens with the small blind instead of everyone anteing it."""
    two_players: bool = False
    """A house option: hands between two players are dealt (the rules plan for 3 to 6)."""


@dataclass(frozen=True)
class CameraConfig:
    source: str = "picamera"
    size: tuple[int, int] = (1280, 720)
    fps: float = 15.0


INDEX_LETTERS = ("en-fr-de", "nl")
"""``[vision] indices``: the court letters of the deck (:data:`vision.letters.INDEX_SETTINGS`,
kept here too so that reading a configuration does not load the card reader)."""


@dataclass(frozen=True)
class VisionConfig:
    indices: str = "en-fr-de"
    """The deck's court letters: ``"en-fr-de"`` (English K Q J, French R D V, German K D B, read
    together) or ``"nl"`` (Dutch H V B, whose V is the queen where the French V is the jack)."""


@dataclass(frozen=True)
class ZonesConfig:
    board: Zone = ((0.3, 0.38), (0.7, 0.38), (0.7, 0.62), (0.3, 0.62))
    seats: tuple[Zone, ...] = ()
    """One zone per seat; empty: laid out evenly round the edge of the image."""
    given: bool = False
    """Whether the configuration file sets the zones (then they win over the zones drawn on the
    set-up page, kept in the data directory)."""


@dataclass(frozen=True)
class WebConfig:
    host: str = "0.0.0.0"
    port: int = 8000
    admin_pin: str = ""
    """Empty: a random PIN is made on first start and kept in the data directory."""
    language: str = "en"
    """The pages' language for a phone whose browser asks for none they speak (``web.words.languages()``)."""


@dataclass(frozen=True)
class Config:
    table: TableConfig = field(default_factory=TableConfig)
    blinds: BlindsConfig = field(default_factory=BlindsConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    zones: ZonesConfig = field(default_factory=ZonesConfig)
    pins: PinMap = field(default_factory=lambda: PinMap.default(6))
    web: WebConfig = field(default_factory=WebConfig)
    data_dir: Path = field(default_factory=lambda: default_data_dir())
    source: str = "defaults"
    draw: DrawConfig = field(default_factory=DrawConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)

    def seat_zones(self) -> tuple[Zone, ...]:
        """The configured seat zones, or an even layout round the image edge."""
        return self.zones.seats or default_seat_zones(self.table.seats)


def default_data_dir() -> Path:
    """``$TOCKTABLE_DATA``, else ``$XDG_DATA_HOME/tocktable``, else ``~/.local/share/tocktable``."""
    if os.environ.get("TOCKTABLE_DATA"):
        return Path(os.environ["TOCKTABLE_DATA"]).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or "~/.local/share"
    return Path(base).expanduser() / "tocktable"


def default_seat_zones(seats: int) -> tuple[Zone, ...]:
    """Seats spread clockwise round an ellipse from the bottom centre, each a box of 0.2 x 0.2."""
    zones = []
    for i in range(seats):
        angle = math.pi / 2 + 2 * math.pi * i / seats  # start at the bottom, go clockwise on screen
        cx, cy = 0.5 + 0.38 * math.cos(angle), 0.5 + 0.36 * math.sin(angle)
        x0, y0 = min(max(cx - 0.1, 0.0), 0.8), min(max(cy - 0.1, 0.0), 0.8)
        zones.append(((x0, y0), (x0 + 0.2, y0), (x0 + 0.2, y0 + 0.2), (x0, y0 + 0.2)))
    return tuple(zones)


# -- reading ------------------------------------------------------------------------------
class _Reader:
    """Takes values out of one TOML table, checking types and naming the key on error."""

    def __init__(self, data: Mapping[str, Any], prefix: str, source: str) -> None:
        self.data, self.prefix, self.source = data, prefix, source
        self.used: set[str] = set()

    def fail(self, key: str, message: str) -> ConfigError:
        return ConfigError(f"{self.source}: {self.prefix}{key} {message}")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        self.used.add(key)
        if key not in self.data:
            return default
        value = self.data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            names = " or ".join(
                k.__name__.replace("str", "text").replace("int", "integer").replace("bool", "true or false")
                for k in kinds
            )
            raise self.fail(key, f"= {value!r} is not allowed: expected {names}")
        return value

    def choice(self, key: str, allowed: tuple[str, ...], default: str) -> str:
        value: str = self.get(key, str, default)
        if value not in allowed:
            raise self.fail(key, f"= {value!r} is not allowed: choose one of {', '.join(allowed)}")
        return value

    def positive(self, key: str, default: int, *, minimum: int = 1, maximum: int | None = None) -> int:
        value: int = self.get(key, int, default)
        if value < minimum or (maximum is not None and value > maximum):
            span = f"{minimum}..{maximum}" if maximum is not None else f"{minimum} or more"
            raise self.fail(key, f"= {value} is not allowed: use {span}")
        return value

    def table(self, key: str) -> _Reader:
        value = self.get(key, dict, {})
        return _Reader(value, f"{self.prefix}{key}.", self.source)

    def finish(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            allowed = ", ".join(sorted(self.used))
            raise self.fail(unknown[0], f"is not a known setting: allowed here are {allowed}")


def load_config(path: str | Path | None = None, *, data_dir: str | Path | None = None) -> Config:
    """Read a configuration file (or the defaults when ``path`` is None)."""
    if path is None:
        data: dict[str, Any] = {}
        source = "defaults"
    else:
        file = Path(path)
        source = str(file)
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(
                f"{file}: no such configuration file (make one with: tocktable config --example)"
            ) from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{file}: not valid TOML: {exc}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{file}: cannot read it: {exc}") from None
    config = parse_config(data, source=source)
    if data_dir is not None:
        config = replace(config, data_dir=Path(data_dir).expanduser())
    return config


def parse_config(data: Mapping[str, Any], *, source: str = "config") -> Config:
    """Validate a parsed TOML document and build a :class:`Config`."""
    root = _Reader(data, "", source)
    table = _parse_table(root.table("table"))
    blinds = _parse_blinds(root.table("blinds"))
    camera = _parse_camera(root.table("camera"))
    zones = _parse_zones(root.table("zones"), table.seats)
    pins = _parse_pins(root.table("pins"), table.seats, source)
    web = _parse_web(root.table("web"))
    draw = _parse_draw(root.table("draw"))
    vision = _parse_vision(root.table("vision"))
    if table.variant in DRAW_VARIANTS and table.seats > MAX_DRAW_PLAYERS:
        low = 2 if draw.two_players else MIN_DRAW_PLAYERS
        raise ConfigError(f"{source}: table.seats = {table.seats} is not allowed with variant = {table.variant!r}: "
                          f"five-card draw deals {low} to {MAX_DRAW_PLAYERS} players")  # fmt: skip
    if table.variant in DRAW_VARIANTS and table.seats < MIN_DRAW_PLAYERS and not draw.two_players:
        raise ConfigError(f"{source}: table.seats = {table.seats} is not allowed with variant = {table.variant!r}: "
                          f"five-card draw is played by {MIN_DRAW_PLAYERS} to 6 players; for hands between two "
                          "players set the house option draw.two_players = true")  # fmt: skip
    data_section = root.table("data")
    data_dir_text = data_section.get("dir", str, "")
    data_section.finish()
    root.finish()
    data_dir = Path(data_dir_text).expanduser() if data_dir_text else default_data_dir()
    return Config(table, blinds, camera, zones, pins, web, data_dir, source, draw, vision)


def _parse_vision(r: _Reader) -> VisionConfig:
    indices = r.get("indices", str, "en-fr-de")
    if indices not in INDEX_LETTERS:
        raise r.fail("indices", f"= {indices!r} is not allowed: choose one of \"en-fr-de\" (English K Q J, French "
                                "R D V and German K D B letters, read together: the default) or \"nl\" (Dutch H V B)")
    r.finish()
    return VisionConfig(indices)


def _parse_draw(r: _Reader) -> DrawConfig:
    wild = r.get("wild_rank", (str, int), "")
    wild = str(wild).strip().upper().replace("10", "T")
    if wild not in WILD_RANKS:
        raise r.fail("wild_rank", f"= {wild!r} is not allowed: a rank (2..9, T, J, Q, K, A) or \"\" for none")
    result = DrawConfig(
        jokers=r.positive("jokers", 0, minimum=0, maximum=2),
        wild_rank=wild,
        low_rule=r.choice("low_rule", LOW_RULES, "ace-to-five"),
        ties=r.choice("ties", WILD_TIES, "natural"),
        max_draw=r.positive("max_draw", 3, minimum=1, maximum=5),
        opening_bet=r.get("opening_bet", bool, False),
        two_players=r.get("two_players", bool, False),
    )
    r.finish()
    return result


def _parse_table(r: _Reader) -> TableConfig:
    seats = r.positive("seats", 6, minimum=2, maximum=10)
    names = r.get("names", list, [])
    if len(names) > seats or not all(isinstance(n, str) and n.strip() for n in names):
        raise r.fail("names", f"must be a list of at most {seats} non-empty names (one per seat, in seat order)")
    result = TableConfig(
        seats=seats,
        names=tuple(n.strip() for n in names),
        variant=r.choice("variant", VARIANTS, "holdem"),
        betting=r.choice("betting", BETTING, "no-limit"),
        buy_in=r.positive("buy_in", 1000),
        chip_set=r.choice("chip_set", CHIP_SETS, "tock"),
        auto_confirm=float(_non_negative(r, "auto_confirm", 8.0)),
        first_dealer=r.choice("first_dealer", FIRST_DEALERS, "draw"),
    )
    r.finish()
    return result


def _non_negative(r: _Reader, key: str, default: float) -> float:
    value = r.get(key, (int, float), default)
    if value < 0 or value > 3600:
        raise r.fail(key, f"= {value} is not allowed: use 0..3600 seconds")
    return float(value)


def _parse_blinds(r: _Reader) -> BlindsConfig:
    small = r.positive("small", 5)
    big = r.positive("big", 10)
    ante = r.positive("ante", 0, minimum=0)
    if big < 2 * small:
        raise r.fail("big", f"= {big} is not allowed: the big blind must be at least twice the small blind ({small})")
    levels = [BlindLevel(small, big, ante)]
    raw = r.get("levels", list, [])
    if raw:
        levels = []
        for i, item in enumerate(raw):
            if (
                not isinstance(item, list)
                or len(item) not in (2, 3)
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
            ):
                raise r.fail(f"levels[{i}]", "must be [small, big] or [small, big, ante] in whole chips")
            level = BlindLevel(*item)
            if level.small < 1 or level.big < 2 * level.small or level.ante < 0:
                raise r.fail(f"levels[{i}]", f"= {item} is not allowed: big at least twice small, both above 0")
            levels.append(level)
    minutes = r.get("level_minutes", (int, float), 0)
    if minutes < 0:
        raise r.fail("level_minutes", f"= {minutes} is not allowed: use 0 (no clock) or more")
    r.finish()
    return BlindsConfig(tuple(levels), float(minutes))


def _parse_camera(r: _Reader) -> CameraConfig:
    source = r.get("source", str, "picamera")
    size = r.get("size", list, [1280, 720])
    if len(size) != 2 or not all(isinstance(v, int) and 160 <= v <= 4608 for v in size):
        raise r.fail("size", f"= {size} is not allowed: [width, height] in pixels, each 160..4608")
    fps = r.get("fps", (int, float), 15)
    if not 1 <= fps <= 60:
        raise r.fail("fps", f"= {fps} is not allowed: use 1..60 frames per second")
    r.finish()
    return CameraConfig(source.strip(), (size[0], size[1]), float(fps))


def _zone(r: _Reader, key: str, value: Any) -> Zone:
    points: list[Any]
    if isinstance(value, list) and len(value) == 4 and all(isinstance(v, int | float) for v in value):
        x0, y0, x1, y1 = (float(v) for v in value)
        points = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    else:
        points = value if isinstance(value, list) else []
    ok = len(points) >= 3 and all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(v, int | float) and 0 <= v <= 1 for v in p)
        for p in points
    )
    if not ok:
        raise r.fail(
            key,
            "must be a rectangle [x0, y0, x1, y1] or a polygon [[x, y], ...] of at least 3 points, "
            "in image coordinates from 0 to 1",
        )
    return tuple((float(p[0]), float(p[1])) for p in points)


def _parse_zones(r: _Reader, seats: int) -> ZonesConfig:
    default = ZonesConfig()
    board = _zone(r, "board", r.get("board", list, [list(p) for p in default.board]))
    raw = r.get("seats", list, [])
    if raw and len(raw) != seats:
        raise r.fail("seats", f"lists {len(raw)} zones but the table has {seats} seats: give one per seat, in order")
    zones = tuple(_zone(r, f"seats[{i}]", z) for i, z in enumerate(raw))
    given = "board" in r.data or bool(raw)
    r.finish()
    return ZonesConfig(board, zones, given)


def _parse_pins(r: _Reader, seats: int, source: str) -> PinMap:
    default = PinMap.default(seats)
    buttons_reader = r.table("buttons")
    buttons = {b: buttons_reader.get(b.value, int, default.buttons[b]) for b in ConsoleButton}
    buttons_reader.finish()
    leds = r.get("seat_leds", list, list(default.seat_leds))
    status = r.get("status_led", int, default.status_led)
    buzzer = r.get("buzzer", int, default.buzzer)
    r.finish()
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in leds):
        raise r.fail("seat_leds", "must be a list of BCM pin numbers, one per seat")
    pins = PinMap(buttons, tuple(leds), status_led=status, buzzer=buzzer, source=source)
    pins.validate(seats=seats)
    return pins


def page_languages() -> tuple[str, ...]:
    """The languages the pages speak (``[web] language``, ``demo --lang``): English and each
    catalog of ``web/translations``."""
    return languages()


def _parse_web(r: _Reader) -> WebConfig:
    host = r.get("host", str, "0.0.0.0")
    port = r.positive("port", 8000, minimum=1, maximum=65535)
    pin = r.get("admin_pin", (str, int), "")
    pin = str(pin)
    if pin and not (pin.isdigit() and 4 <= len(pin) <= 12):
        raise r.fail("admin_pin", "must be 4 to 12 digits, or empty for a random PIN made on first start")
    language = r.choice("language", languages(), "en")
    r.finish()
    return WebConfig(host, port, pin, language)


EXAMPLE = """\
# tocktable configuration. Every setting is optional: these are the defaults.

[table]
seats = 6                     # 2..10 players, seat 1 is the first LED
names = ["Ann", "Bob"]        # in seat order; seats without a name are "Seat N"
variant = "holdem"            # "holdem", "tock" (Tock-Poker: marked backs, board dealt face down),
                              # "draw" (five-card draw) or "lowball" (Petite Misère: the lowest hand wins)
betting = "no-limit"          # "no-limit" or "fixed-limit" (at most 3 raises a round)
buy_in = 1000                 # chips each player starts with
chip_set = "tock"             # "tock" (5/20/50/100), "white-red-blue-green" (1/2/10/25), "dealer" (1/5/10/25/100)
auto_confirm = 8              # seconds a finished hand stays on the phones before the next; 0 = wait for NEXT
first_dealer = "draw"         # "draw": each player turns a card, the highest deals first; "croupier": the puck
                              # goes in front of the first player to the croupier's right (placed by NEXT)

[blinds]
small = 5
big = 10                      # at least twice the small blind
ante = 0
# A tournament structure instead of fixed blinds: [small, big] or [small, big, ante] per level.
# levels = [[5, 10], [10, 20], [15, 30], [25, 50, 5]]
level_minutes = 0             # minutes per level; 0 = no clock

[draw]                        # five-card draw and Petite Misère only (at most 8 seats)
# The blind level gives the stakes: the small blind is everyone's ante (or the opening bet),
# the big blind the smallest bet (fixed limit: the bet before the draw, twice it after).
jokers = 0                    # 0, 1 or 2 jokers ("le Fou") in the deck
wild_rank = ""                # a wild rank such as "3" (the threes are wild); "" for none
low_rule = "ace-to-five"      # lowball: "ace-to-five" (5-4-3-2-A best) or "deuce-to-seven" (7-5-4-3-2 best)
ties = "natural"              # "natural": a wild card never breaks a tie; "substituted": it counts as its card
max_draw = 3                  # most cards one player exchanges: 1..5 (3 by the rules, 5 as a house option)
opening_bet = false           # true: the player left of the dealer opens with the small blind instead of antes
two_players = false           # house option: deal hands between two players (the rules plan for 3 to 6)

[camera]
source = "picamera"           # "picamera", a webcam number ("0"), a stream URL, a folder or video to replay,
                              # or "none" to play without a camera (cards entered on the admin page)
size = [1280, 720]
fps = 15

[vision]
indices = "en-fr-de"          # the deck's court letters: "en-fr-de" (English K Q J, French R D V, German
                              # K D B: read together) or "nl" (Dutch H V B: heer, vrouw, boer)

[zones]
# Where the board and each seat's cards lie, in image coordinates from 0 (left/top) to 1.
# A rectangle [x0, y0, x1, y1] or a polygon [[x, y], ...].
board = [0.3, 0.38, 0.7, 0.62]
# seats = [[0.4, 0.78, 0.6, 0.98], ...]   # one per seat; default: spread round the edge

[pins]                        # BCM GPIO numbers (see docs/hardware.md)
seat_leds = [5, 6, 13, 19, 26, 21]   # one per seat, in seat order
status_led = 18
buzzer = 9

[pins.buttons]
fold = 17
check_call = 27
bet_raise = 22
all_in = 23                   # needs a 1 s hold
undo = 24                     # needs a 1 s hold
plus = 25
minus = 8
next = 7

[web]
host = "0.0.0.0"              # every phone on the local network
port = 8000
admin_pin = ""                # 4-12 digits; empty: a random PIN is made on first start
language = "en"               # en, or one of web/translations (fr): for a phone that asks for none of them

[data]
dir = ""                      # where the game database lives; empty: ~/.local/share/tocktable
"""
