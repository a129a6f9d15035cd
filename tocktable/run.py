"""Putting the parts together: ``tocktable demo`` and ``tocktable serve``.

Both check everything that can be wrong (configuration, another tocktable on the same data
directory, pins, camera, port, database) before the first write, so a bad start leaves nothing
behind. Each holds its data directory's lock (:mod:`tocktable.datalock`) while it runs, and keeps
everything it writes there (database, admin PIN, the dashboard's key and settings, the lock).

When the store cannot keep a step (disk full, read-only, no permission, damaged), the service
stops taking steps and says "not saving: ..." to every phone; the command then stops within a
second or two and exits with status 2 and that one line (:class:`tocktable.service.NotSaving`).
"""

from __future__ import annotations

import os
import signal
import threading
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from hardware.aim import camera_height
from hardware.camera_rig import CameraRig
from hardware.console import Console
from hardware.lights import TableLights
from hardware.pins import make_pin_factory
from hardware.sources import source_from_spec
from hardware.synthetic import SyntheticTableSource
from hardware.table_model import TableModel
from table.engine import BlindLevel, BlindStructure
from table.errors import TocktableError
from table.session import DrawOptions, SessionSettings
from table.wording import counted
from tocktable.aim import AimCheck
from tocktable.camera import (
    CameraLoop,
    ModelCamera,
    VisionUnavailable,
    VisionWatcher,
    Watcher,
    demo_watcher,
    perfect_picture,
)
from tocktable.config import Config, ConfigError, default_data_dir
from tocktable.datalock import DataLock, check_free
from tocktable.deck_teacher import DeckTeacher
from tocktable.demo import NAMES, Buttons, Demo, TeachingHands, VirtualClock
from tocktable.dry_run import DryRun, game_table
from tocktable.memory import few_malloc_arenas
from tocktable.server import WebServer, admin_pin, check_port, lan_address, print_banner
from tocktable.service import NotSaving, Service
from tocktable.store import Store
from tocktable.table_zones import ZoneKeeper, for_tap, for_tracker
from tocktable.tap import CameraTap
from web import create_app
from web.camera import hole_cards_public

DB_NAME = "tocktable.sqlite"
NO_CAMERA = ("none", "off", "")


class StartError(TocktableError, RuntimeError):
    """Something needed to start is missing (camera, GPIO pins): the message says what to do."""


def keep_to_the_data_directory() -> None:
    """Ask the libraries that would write outside the data directory not to: onnxruntime (the card
    reader's runtime) keeps a telemetry device id and event queue under ``~/.cache/Microsoft`` and a
    ``.ses`` file in the temporary folder unless ``ORT_DISABLE_TELEMETRY`` is set before it loads."""
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")


def game_settings(config: Config, *, names: tuple[str, ...] = ()) -> tuple[SessionSettings, list[tuple[str, int]]]:
    """Session settings and the seated players (name, buy-in) from the configuration."""
    levels = tuple(BlindLevel(lv.small, lv.big, lv.ante) for lv in config.blinds.levels)
    blinds = BlindStructure(levels, level_seconds=config.blinds.level_minutes * 60)
    draw = None
    if config.table.variant in ("draw", "lowball"):
        d = config.draw
        draw = DrawOptions(jokers=d.jokers, wild_rank=d.wild_rank or None, low_rule=d.low_rule, ties=d.ties,
                           max_draw=d.max_draw, opening_bet=d.opening_bet, two_players=d.two_players)  # fmt: skip
    settings = SessionSettings(seats=config.table.seats, betting=config.table.betting, variant=config.table.variant,
                               blinds=blinds, draw=draw, first_dealer=config.table.first_dealer)  # fmt: skip
    seat_names = config.table.names + names[len(config.table.names):] if names else config.table.seat_names()
    seat_names = tuple(seat_names[i] if i < len(seat_names) else f"Seat {i + 1}" for i in range(config.table.seats))
    return settings, [(name, config.table.buy_in) for name in seat_names]


def _demo_host(options: DemoOptions) -> str:
    return "0.0.0.0" if options.lan else "127.0.0.1"


def _another_game(store: Store, settings: SessionSettings, out: TextIO) -> bool:
    """Whether the demo's stored open session is another game (another variant or seat count)
    than the one asked for: then it is left in the database and a new session starts, said once."""
    stored = store.open_session()
    if stored is None:
        return False
    was = stored.meta.get("settings", {})
    if (was.get("variant"), was.get("seats")) == (settings.variant, settings.seats):
        return False
    out.write(f"The stored demo game (session {stored.id}) is {was.get('variant')} with {was.get('seats')} seats; "
              f"starting a new session for {settings.variant} with {settings.seats} seats (the old one stays in "
              f"the database).\n")  # fmt: skip
    return True


@contextmanager
def _closing(thing: Any) -> Iterator[Any]:
    try:
        yield thing
    finally:
        (getattr(thing, "stop", None) or thing.close)()


FAULT_POLL = 0.05
"""Seconds between two looks at the service's fault while waiting for a signal."""


def _wait_for_signal(stop: threading.Event, faulted: threading.Event | None = None) -> None:
    """Wait for Ctrl-C, SIGTERM, ``stop`` or (``faulted``) the store failing to keep a step."""

    def handler(signum: int, frame: Any) -> None:
        stop.set()

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        while not stop.wait(FAULT_POLL):
            if faulted is not None and faulted.is_set():
                break
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)


def _ignore_fault(fault: NotSaving) -> None:
    """The command reports the fault itself (its one line at exit): the service need not log it."""


def vision_watcher(zones: dict[str, Any], size: tuple[int, int], out: TextIO, *,
                   data_dir: Path | None = None, indices: str = "en-fr-de") -> VisionWatcher | None:  # fmt: skip
    """The real card reader and tracker, or None (with a line saying why) when not installed."""
    out.write("Card reader: loading the models...\n")
    out.flush()
    try:
        watcher = VisionWatcher.default(zones, size=size, data_dir=data_dir, indices=indices)
        out.write(f"Card reader: ready{'; ' + watcher.profile_note if watcher.profile_note else ''}.\n")
        return watcher
    except VisionUnavailable as exc:
        out.write(f"Card reader: not available ({exc}).\n")
        return None


# ------------------------------------------------------------------------------ demo
@dataclass(frozen=True)
class DemoOptions:
    data_dir: Path | None = None
    port: int | None = None
    fast: bool = False
    hands: int | None = None
    seed: int | None = None
    new_session: bool = False
    web: bool = True
    camera: str = "auto"
    """"auto" (the card reader when installed), "perfect" (a perfect reader, the real tracker) or
    "view" (the table model's contents, no reader and no tracker); see ``tocktable.camera``."""
    confirm_seconds: float = 4.0
    pace: float = 1.0
    command: str | None = None
    """The command line, written into the data directory's lock for a second start to name."""
    lan: bool = False
    """Serve the dashboard on every interface (phones on the Wi-Fi join), not on this machine only."""
    deck: str = "trained"
    """The cards' look: ``"trained"`` (a deck style of the fonts the models were trained on),
    ``"untrained"`` (a hold-out font and style, printing Dutch court letters H V B, which the
    models read as jacks: the reader learns them from the host's corrections) or a renderer deck
    style (``vision.render.scene.SceneSpec.deck``, e.g. ``"holdout-de-3"``, to teach from the
    set-up page)."""
    language: str | None = None
    """The pages' language on every phone that has not chosen one with the switch (``--lang``)."""


DEMO_FRAME = (1280, 720)
"""The synthetic camera's frame for two cards a seat (Hold'em, Tock): its cards come out 138-157 px
tall, inside the 110-215 px the set-up page asks for (:data:`hardware.aim.BEST_CARD_PX`)."""

DRAW_FRAME = (2304, 1296)
"""... and for five cards a seat: side by side, five cards come out 76 px tall at 1280×720, where
the reader leaves most cards unsure (it names a card under 105 px from its corners only at a
posterior of 0.9999). The Pi camera's 2304×1296 mode makes them 137 px (123 px at eight seats,
the most a draw game seats): ``tocktable demo --fast --hands 6 --seed 3 --variant draw --seats 4``
reads 59 % of the cards at 1280×720 and 95 % at 2304×1296."""


def demo_frame_size(hole_cards: int) -> tuple[int, int]:
    """The demo camera's frame for a table of ``hole_cards`` cards a seat."""
    return DRAW_FRAME if hole_cards > 2 else DEMO_FRAME


@contextmanager
def open_demo(config: Config, options: DemoOptions, *, out: TextIO) -> Iterator[Any]:
    """Everything the demo needs, started (service, mock pins, LEDs, console, camera watcher,
    dashboard); yields the :class:`tocktable.demo.Demo` and stops it all on exit."""
    keep_to_the_data_directory()
    few_malloc_arenas()
    data_dir = options.data_dir or default_data_dir() / "demo"
    config = replace(config, data_dir=data_dir)  # the dashboard's key and settings live there too
    check_free(data_dir)
    settings, players = game_settings(config, names=NAMES)
    clock = VirtualClock() if options.fast else None
    back = "tock" if config.table.variant == "tock" else "plain"
    hole_cards = 5 if config.table.variant in ("draw", "lowball") else 2
    deck = demo_deck(options.deck, options.seed)
    model = TableModel(config.table.seats, seed=options.seed, back=back, hole_cards=hole_cards, deck=deck,
                       size=demo_frame_size(hole_cards))  # fmt: skip
    if deck is not None:
        _check_deck(model)
    if options.camera == "auto":
        out.write("Camera: loading the card reader...\n")
    watcher, what = demo_watcher(model, camera=options.camera, data_dir=data_dir, indices=config.vision.indices)
    out.write(f"Camera: {what}.\n")
    factory = _pin_factory(True)
    port = options.port if options.port is not None else config.web.port
    if options.web:
        check_port(_demo_host(options), port)
    with ExitStack() as stack:
        lock = stack.enter_context(DataLock(data_dir, command=options.command, port=port if options.web else None))
        store = stack.enter_context(_closing(Store(data_dir / DB_NAME, clock=clock or _wall)))
        lights = stack.enter_context(_closing(TableLights(config.pins, pin_factory=factory)))
        new_session = options.new_session or _another_game(store, settings, out)
        service = Service(store, settings, players=players, lights=lights, clock=clock or _wall,
                          confirm_seconds=options.confirm_seconds, new_session=new_session,
                          on_fault=_ignore_fault)  # fmt: skip
        service.teacher = getattr(watcher, "teach", None)
        stack.enter_context(_closing(service.start()))
        hold = 0.05 if options.fast else 1.0
        stack.enter_context(_closing(Console(config.pins, service.inbox, pin_factory=factory, hold_time=hold,
                                             clock=clock or _monotonic)))  # fmt: skip
        pin = admin_pin(config.web.admin_pin, data_dir)
        rig = demo_rig(model)
        render = rig.wrap(model.frame if watcher.needs_image else perfect_picture(model))
        tap = CameraTap(model.zones, public=lambda: hole_cards_public(service), render=render)
        aim = AimCheck(tap.raw, rig=rig)
        # the demo's table is the model's: its layout is the default, the configuration's zones do not apply
        zones = ZoneKeeper(data_dir, model.seats, default=model.zones, use=[for_tap(tap), for_tracker(watcher)],
                           cards=aim.cards)  # fmt: skip
        dry_run = DryRun(table=game_table(service))
        tap.listen(dry_run.observe)
        # the card reader, not a perfect one
        table_reader = getattr(watcher, "reader", None) if watcher.needs_image else None
        teacher = DeckTeacher(tap.raw, data_dir, reader=_card_reader(lambda: table_reader))
        if table_reader is not None:
            teacher.share(table_reader)
        app = None
        if options.web:
            app = create_app(config, service, admin_pin=pin, camera=tap, aim=aim, zones=zones, dry_run=dry_run,
                             deck=teacher, language=options.language)  # fmt: skip
            server = stack.enter_context(_closing(WebServer(app, _demo_host(options), port).start()))
            lock.update(port=server.port)
            shown = lan_address() if options.lan else "127.0.0.1"
            where = "on this network: phones join there" if options.lan else "on this machine only; --lan for phones"
            out.write(f"Dashboard: http://{shown}:{server.port}  ({where})\n")
        out.write(f"Admin PIN: {pin}\nData: {data_dir / DB_NAME}\n")
        if service.resumed:
            out.write(f"Resuming session {service.session_id} at hand {service.game.hand_number}.\n")
        out.flush()
        demo = Demo(service, model, watcher, Buttons(factory, config.pins, hold=hold, clock=clock), clock=clock,
                    buy_in=config.table.buy_in, seed=options.seed, out=out,
                    steady_frames=getattr(getattr(watcher, "tracker", None), "confirm_frames", 0) + 2)  # fmt: skip
        demo.lights, demo.factory, demo.tap, demo.app = lights, factory, tap, app
        demo.rig, demo.aim, demo.zones, demo.dry_run = rig, aim, zones, dry_run
        demo.teacher, teacher.hands = teacher, TeachingHands(demo)
        yield demo


def demo_deck(deck: str, seed: int | None) -> str | None:
    """The renderer's deck style of a demo ``--deck`` (None: the table model's own, from its
    seed); a name but ``trained`` and ``untrained`` is taken as a deck style, checked when the table is drawn."""
    if deck == "trained":
        return None
    return f"holdout-nl-{seed if seed is not None else 22}" if deck == "untrained" else deck


def run_demo(config: Config, options: DemoOptions, *, out: TextIO) -> int:
    """Run the demo (see ``tocktable.demo``); returns the exit code (raises
    :class:`tocktable.service.NotSaving` when the store stopped keeping the game)."""
    with open_demo(config, options, out=out) as demo:
        service = demo.service
        if options.fast:
            hands = options.hands if options.hands is not None else 20
            out.write(f"Playing {hands} hands without waiting on the clock...\n")
            demo.run_fast(hands, confirm_seconds=options.confirm_seconds)
            out.write(summary(service))
            return 0
        with playing_live(demo, options) as stop:
            out.write("Playing live; press Ctrl-C to stop (the game is kept: run the demo again to resume).\n")
            out.flush()
            _wait_for_signal(stop, service.faulted)
        if service.fault is not None:
            raise service.fault
        out.write(summary(service))
    return 0


@contextmanager
def playing_live(demo: Any, options: DemoOptions) -> Iterator[threading.Event]:
    """The live demo's camera and players, running until the event it yields is set (then
    stopped; a play thread held up by a fault is not waited for)."""
    stop = threading.Event()
    with _closing(_live_camera(demo.model, demo.watcher, demo.service, demo.tap, demo.rig)):
        player = threading.Thread(target=_play_live, args=(demo, stop, options), name="tocktable-demo", daemon=True)
        player.start()
        try:
            yield stop
        finally:
            stop.set()
            if demo.service.fault is None:  # a play thread in a press when the store failed is not waited for
                player.join(timeout=5)


def _wall() -> float:
    import time

    return time.time()


def _monotonic() -> float:
    import time

    return time.monotonic()


def _play_live(demo: Any, stop: threading.Event, options: DemoOptions) -> None:
    goal = demo.played + options.hands if options.hands is not None else None
    inner = threading.Event()

    def watch_goal() -> None:
        while not stop.is_set() and not inner.is_set():
            if goal is not None and demo.played >= goal:
                stop.set()
            stop.wait(0.2)

    threading.Thread(target=watch_goal, daemon=True).start()
    try:
        demo.run_live(stop, pace=options.pace)
    finally:
        inner.set()


def _check_deck(model: TableModel) -> None:
    """Draw the table once, so a deck style that does not exist is said before anything starts."""
    try:
        model.frame()
    except ValueError as exc:
        raise ConfigError(f"--deck {model.deck}: {exc}; or 'trained' or 'untrained'") from None


def _card_reader(table_reader: Any) -> Any:
    """The deck teacher's card reader: the table's own (``table_reader()``) when it reads with
    one, else one of its own with the shipped models."""

    def make() -> Any:
        shared = table_reader()
        if shared is not None:
            return shared
        # the card reader (onnxruntime and its models) loads when the deck is first taught
        from vision.reader import CardReader

        return CardReader.default()

    return make


def demo_rig(model: TableModel) -> CameraRig:
    """The demo's movable camera, mounted where a Camera Module 3 sees the model's cards as tall
    as they are drawn (the set-up page's aim advice then finds it well placed until it is moved)."""
    return CameraRig(camera_height(model.card_height * model.size[1], model.size[0]))


def _live_camera(model: Any, watcher: Watcher, service: Service, tap: CameraTap | None = None,
                 rig: CameraRig | None = None) -> Any:  # fmt: skip
    if not watcher.needs_image:
        return ModelCamera(watcher, service.submit, tap=tap).start()
    scene = rig.wrap(model) if rig is not None else model
    return CameraLoop(SyntheticTableSource(scene, fps=8.0), watcher, service.submit, tap=tap).start()


def summary(service: Service) -> str:
    """The ledger at the end of a demo, and whether every chip is accounted for."""
    session = service.game.session
    lines = [f"\n{counted(len(session.records), 'hand')} played in session {service.session_id}."]
    ledger = session.ledger()
    for line in ledger:
        data = line.to_dict()
        lines.append(f"  {data['name']:<8} bought {data['bought_in']:>6}  now {data['cashed_out']:>6}  "
                     f"net {data['net']:+d}")  # fmt: skip
    total_in = sum(line.bought_in for line in ledger)
    hand = service.game.hand
    on_table = sum(line.cashed_out for line in ledger) + (hand.pot_total if hand is not None and not
                                                          hand.is_complete else 0)  # fmt: skip
    lines.append(f"Chips: {total_in} bought in, {on_table} at the table"
                 f" ({'all accounted for' if total_in == on_table else 'MISMATCH'}).\n")  # fmt: skip
    return "\n".join(lines)


# ------------------------------------------------------------------------------ serve
@dataclass(frozen=True)
class ServeOptions:
    data_dir: Path | None = None
    port: int | None = None
    host: str | None = None
    mock_pins: bool = False
    new_session: bool = False
    camera_wait: float = 8.0
    command: str | None = None
    """The command line, written into the data directory's lock for a second start to name."""


def run_serve(config: Config, options: ServeOptions, *, out: TextIO) -> int:
    """Run the real table: camera, console, LEDs, web on the LAN. Returns the exit code."""
    keep_to_the_data_directory()
    few_malloc_arenas()
    data_dir = options.data_dir or config.data_dir
    config = replace(config, data_dir=data_dir)  # the dashboard's key and settings live there too
    check_free(data_dir)
    settings, players = game_settings(config)
    with ExitStack() as stack:
        factory = _pin_factory(options.mock_pins)
        lights = stack.enter_context(_closing(_gpio(lambda: TableLights(config.pins, pin_factory=factory))))
        source = _camera(config, options.camera_wait, stack, out)
        port = options.port if options.port is not None else config.web.port
        host = options.host or config.web.host
        check_port(host, port)
        lock = stack.enter_context(DataLock(data_dir, command=options.command, port=port))
        store = stack.enter_context(_closing(Store(data_dir / DB_NAME)))
        pin = admin_pin(config.web.admin_pin, data_dir)
        service = Service(store, settings, players=players, lights=lights, new_session=options.new_session,
                          confirm_seconds=config.table.auto_confirm or None, on_fault=_ignore_fault)  # fmt: skip
        zones = ZoneKeeper(data_dir, config.table.seats, default=_zones(config),
                           configured=_zones(config) if config.zones.given else None)  # fmt: skip
        aim = dry_run = teacher = None
        watcher: Any = None
        if zones.note:
            out.write(f"Zones: {zones.note}; the {zones.source} zones are used.\n")
        tap = None
        if source is not None:
            tap = CameraTap(zones.current()["zones"], public=lambda: hole_cards_public(service), source=source)
            zones.add_user(for_tap(tap))
            aim = AimCheck(tap.raw)
            zones.cards = aim.cards
            dry_run = DryRun(table=game_table(service))
            tap.listen(dry_run.observe)
            teacher = DeckTeacher(tap.raw, data_dir, reader=_card_reader(lambda: getattr(watcher, "reader", None)))
        app = create_app(config, service, admin_pin=pin, camera=tap, aim=aim, zones=zones, dry_run=dry_run,
                         deck=teacher)  # fmt: skip
        server = stack.enter_context(_closing(WebServer(app, host, port)))
        lock.update(port=server.port)
        stack.enter_context(_closing(service.start()))
        stack.enter_context(_closing(_gpio(lambda: Console(config.pins, service.inbox, pin_factory=factory))))
        if source is not None:
            watcher = vision_watcher(zones.current()["zones"], config.camera.size, out, data_dir=data_dir,
                                     indices=config.vision.indices)  # fmt: skip
            if watcher is not None:
                service.teacher = watcher.teach
                zones.add_user(for_tracker(watcher))
                if teacher is not None:
                    teacher.share(watcher.reader)
                stack.enter_context(_closing(CameraLoop(source, watcher, service.submit, tap=tap).start()))
            else:
                out.write("The camera is not read: enter the cards from the admin page.\n")
        server.start()
        shown_host = lan_address() if host in ("0.0.0.0", "::") else host
        note = (f"Resuming session {service.session_id} at hand {service.game.hand_number}." if service.resumed
                else f"New session {service.session_id}.")  # fmt: skip
        print_banner(f"http://{shown_host}:{server.port}/", pin, out=out, note=note)
        _wait_for_signal(threading.Event(), service.faulted)
    if service.fault is not None:
        raise service.fault
    return 0


def _pin_factory(mock: bool) -> Any:
    return make_pin_factory("mock" if mock else "auto")


def _gpio(make: Any) -> Any:
    from gpiozero.exc import GPIOZeroError

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gpiozero warns for every pin library it tries
        try:
            return make()
        except GPIOZeroError as exc:
            raise StartError(
                f"no GPIO pins ({exc}): on a Raspberry Pi install the 'pi' extra (lgpio); "
                "elsewhere use --mock-pins, or 'tocktable demo'"
            ) from None


def _camera(config: Config, wait: float, stack: ExitStack, out: TextIO) -> Any:
    spec = config.camera.source.strip().lower()
    if spec in NO_CAMERA:
        return None
    source = source_from_spec(config.camera.source, size=config.camera.size, fps=config.camera.fps)
    stack.enter_context(_closing(source))
    out.write(f"Camera: waiting up to {wait:g} s for the first picture from {config.camera.source!r}...\n")
    out.flush()
    source.start()
    if source.read(timeout=wait) is None:
        health = source.health()
        if "size changed" in (health.last_error or ""):
            raise StartError(
                f"the camera library does not load ({health.last_error}): this is the numpy/simplejpeg trap on "
                "Raspberry Pi OS, keep numpy below 2 in the venv (README, 'Running on a Raspberry Pi')"
            )
        raise StartError(
            f"the camera {config.camera.source!r} gives no picture ({health.last_error or 'no frame'}): check the "
            f"cable and camera.source in {config.source}, or set camera.source = \"none\" to play without a camera"
        )
    return source


def _zones(config: Config) -> dict[str, Any]:
    zones: dict[str, Any] = {"board": config.zones.board}
    for seat, zone in enumerate(config.seat_zones()):
        zones[f"seat:{seat}"] = zone
    return zones
