"""The ``tocktable`` command line.

Every command prints a clear message and exits with status 2 on bad input (a malformed
configuration, a missing camera, a damaged database, a data directory another tocktable is
using...) or when the store stops saving (disk full, read-only...), never a traceback.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from tocktable import __version__

# Imports inside functions: each command loads only what it runs, so "tocktable --help" and
# "tocktable config" answer without loading numpy, OpenCV, Flask or gpiozero.

_DATA_HELP = "where the game database lives (default: $TOCKTABLE_DATA, else $XDG_DATA_HOME/tocktable{})"
_PORT_HELP = "dashboard port (default: $TOCKTABLE_PORT, else {})"


def _port(args: argparse.Namespace) -> int | None:
    """The dashboard port: ``--port``, else ``$TOCKTABLE_PORT``, else None (the configured one).

    The variable lets a script or a service unit choose the port without changing the command
    line (the test that runs the README's commands as written serves them on a free port)."""
    from tocktable.config import ConfigError

    if args.port is not None:
        return int(args.port)
    text = os.environ.get("TOCKTABLE_PORT", "").strip()
    if not text:
        return None
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 1 <= port <= 65535:
        raise ConfigError(f"TOCKTABLE_PORT={text!r} is not a port: use a number 1..65535, or unset it for the "
                          "configured port")  # fmt: skip
    return port


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tocktable",
        description="A companion for live home poker games: reads the cards, logs the betting, shows the table "
        "on every phone.",
        epilog="Start with 'tocktable demo', then open http://127.0.0.1:8000 in a browser.",
    )
    parser.add_argument("--version", action="version", version=f"tocktable {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = commands.add_parser(
        "demo", help="run a whole synthetic table with the dashboard on localhost",
        description="The whole product on this machine with no hardware: a synthetic camera, mock buttons pressed "
        "by simulated players, mock LEDs, and the dashboard on http://127.0.0.1:8000. Started again on the same "
        "--data it resumes the stored game.",
    )  # fmt: skip
    demo.add_argument("--data", type=Path, default=None, help=_DATA_HELP.format("/demo"))
    demo.add_argument("--port", type=int, default=None, help=_PORT_HELP.format("web.port, 8000"))
    demo.add_argument("--fast", action="store_true", help="play without waiting on the wall clock, then stop")
    demo.add_argument("--hands", type=int, default=None, help="stop after this many hands (--fast: default 20)")
    demo.add_argument("--seed", type=int, default=None, help="seed for the deck, the table's look and the players")
    demo.add_argument("--config", default=None, help="a configuration file (seats, variant, blinds...)")
    demo.add_argument("--seats", type=int, default=None, help="players at the table, 2..10 (default 6)")
    demo.add_argument("--variant", choices=("holdem", "tock", "draw", "lowball"), default=None,
                      help="Hold'em, Tock-Poker, five-card draw or Petite Misère (lowball)")
    demo.add_argument("--new-session", action="store_true", help="start a new game instead of resuming")
    demo.add_argument("--lang", default=None, metavar="LANGUAGE",
                      help="the pages' language on every phone that has not chosen one with the page's switch: en, fr "
                      "(default: as each phone's browser asks, else web.language)")
    demo.add_argument("--no-web", action="store_true", help="do not serve the dashboard")
    demo.add_argument("--lan", action="store_true",
                      help="serve the dashboard on the network, so phones on the same Wi-Fi join (default: this "
                           "machine only)")  # fmt: skip
    demo.add_argument("--perfect-camera", action="store_true",
                      help="a perfect card reader (with the real tracker): no reading errors")  # fmt: skip
    demo.add_argument("--deck", default="trained", metavar="DECK",
                      help="the synthetic cards' look: 'trained' (a style the models were trained on), 'untrained' "
                           "(a style they never saw, with Dutch court letters H V B, which the reader learns from "
                           "the host's corrections) or a deck style such as 'holdout-de-3' (to teach it from the "
                           "set-up page)")  # fmt: skip

    serve = commands.add_parser(
        "serve", help="run the real table: camera, buttons, LEDs, dashboard on the local network",
        description="Run the table for a real game: the camera from the configuration, the GPIO console and LEDs, "
        "and the dashboard on every phone of the local network (the URL is printed as text and as a QR code, "
        "with the admin PIN). Resumes the stored game after a restart or a power cut.",
    )  # fmt: skip
    serve.add_argument("--config", default=None, help="the configuration file (tocktable config --example)")
    serve.add_argument("--data", type=Path, default=None, help=_DATA_HELP.format(""))
    serve.add_argument("--port", type=int, default=None, help=_PORT_HELP.format("web.port, 8000"))
    serve.add_argument("--host", default=None, help="address to listen on (default: web.host, 0.0.0.0)")
    serve.add_argument("--mock-pins", action="store_true", help="gpiozero mock pins instead of the GPIO header")
    serve.add_argument("--new-session", action="store_true", help="start a new game instead of resuming")
    serve.add_argument("--camera-wait", type=float, default=8.0, metavar="SECONDS",
                       help="how long to wait for the camera's first picture (default 8)")  # fmt: skip

    export = commands.add_parser(
        "export", help="write a session's hand histories (PHH) and ledger (CSV, JSON)",
        description="Write the hand histories of a session in the Poker Hand History format (.phhs) and its "
        "ledger (who bought in, who is up or down, who pays whom) as CSV and JSON.",
    )  # fmt: skip
    export.add_argument("--data", type=Path, default=None, help=_DATA_HELP.format(""))
    export.add_argument("--demo", action="store_true",
                        help="the demo's games (the demo keeps them apart, in the data directory's demo/ folder)")
    export.add_argument("--session", type=int, default=None, help="session number (default: the newest)")
    export.add_argument("--list", action="store_true", help="list the sessions and stop")
    export.add_argument("-o", "--out", type=Path, default=Path("."), help="folder to write to (default: here)")
    export.add_argument("--format", default="phh,csv,json", help="comma-separated: phh, csv, json (default: all)")

    enroll = commands.add_parser("enroll", help="teach the card reader your own deck (one photo per card)")
    enroll.add_argument("args", nargs=argparse.REMAINDER, help="passed on to the enrollment tool")
    marks = commands.add_parser("marks", help="print a sheet of Tock mark stickers to turn any deck into a Tock deck")
    marks.add_argument("args", nargs=argparse.REMAINDER, help="passed on to the sticker sheet tool")

    config = commands.add_parser("config", help="check a configuration file, or print a commented example")
    config.add_argument("file", nargs="?", help="the TOML file to check")
    config.add_argument("--example", action="store_true", help="print a commented example with every default")
    check = commands.add_parser(
        "check-hardware", help="light each LED, report each button press, read one camera frame"
    )
    check.add_argument("--seats", type=int, default=10, help="seat LEDs wired (default 10)")
    check.add_argument("--camera", default=None, help="'picamera', a webcam number, a URL, a folder or a video")
    check.add_argument("--mock", action="store_true", help="use gpiozero's mock pins (no Pi needed)")
    check.add_argument("--seconds", type=float, default=30.0, help="how long to wait for button presses")
    check.add_argument("--snapshot", default=None, help="save the camera frame with what was seen to this file")
    return parser


def _check_hardware(args: argparse.Namespace) -> int:
    from hardware.check import check_hardware
    from hardware.pins import PinMap
    from hardware.sources import source_from_spec

    factory = None
    if args.mock:
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        factory = MockFactory(pin_class=MockPWMPin)
    pins = PinMap.default(args.seats)
    source = source_from_spec(args.camera) if args.camera else None
    report = check_hardware(
        pins, pin_factory=factory, source=source, out=sys.stdout, listen_seconds=args.seconds,
        snapshot=Path(args.snapshot) if args.snapshot else None,
    )  # fmt: skip
    sys.stdout.write("hardware check passed\n" if report.ok else "hardware check found problems (see above)\n")
    return 0 if report.ok else 1


def _config(args: argparse.Namespace) -> int:
    from tocktable.config import EXAMPLE, load_config

    if args.example or not args.file:
        sys.stdout.write(EXAMPLE)
        return 0
    config = load_config(args.file)
    sys.stdout.write(
        f"{args.file}: valid. {config.table.seats} seats, {config.table.variant} {config.table.betting}, "
        f"blinds {config.blinds.levels[0].small}/{config.blinds.levels[0].big}, camera {config.camera.source}, "
        f"data in {config.data_dir}\n"
    )
    return 0


def _demo(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from hardware.pins import PinMap
    from tocktable.config import ConfigError, load_config, page_languages
    from tocktable.run import DemoOptions, run_demo

    config = load_config(args.config)
    table = config.table
    if args.seats is not None:
        if not 2 <= args.seats <= 10:
            raise ConfigError(f"--seats {args.seats} is not allowed: use 2..10")
        table = replace(table, seats=args.seats, names=table.names[: args.seats])
        config = replace(config, pins=PinMap.default(args.seats), zones=replace(config.zones, seats=()))
    if args.variant is not None:
        table = replace(table, variant=args.variant)
    if table.variant in ("draw", "lowball") and table.seats > 8:
        raise ConfigError(f"{table.seats} seats with --variant {table.variant}: five-card draw deals 2 to 8 players")
    config = replace(config, table=table)
    if args.hands is not None and args.hands < 1:
        raise ConfigError(f"--hands {args.hands} is not allowed: play at least one hand")
    if args.lang is not None and args.lang not in page_languages():
        raise ConfigError(f"--lang {args.lang} is not allowed: choose one of {', '.join(page_languages())}")

    options = DemoOptions(
        data_dir=args.data, port=_port(args), fast=args.fast, hands=args.hands, seed=args.seed,
        new_session=args.new_session, web=not args.no_web, camera="perfect" if args.perfect_camera else "auto",
        command=args.command_line, lan=args.lan, deck=args.deck, language=args.lang,
    )  # fmt: skip
    return run_demo(config, options, out=sys.stdout)


def _serve(args: argparse.Namespace) -> int:
    from tocktable.config import load_config
    from tocktable.run import ServeOptions, run_serve

    config = load_config(args.config)
    options = ServeOptions(data_dir=args.data, port=_port(args), host=args.host, mock_pins=args.mock_pins,
                           new_session=args.new_session, camera_wait=args.camera_wait,
                           command=args.command_line)  # fmt: skip
    return run_serve(config, options, out=sys.stdout)


def _export(args: argparse.Namespace) -> int:
    from datetime import datetime

    from tocktable.config import ConfigError, default_data_dir
    from tocktable.export import FORMATS, export_session
    from tocktable.run import DB_NAME
    from tocktable.store import Store

    formats = tuple(f.strip() for f in args.format.split(",") if f.strip())
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise ConfigError(f"--format {args.format!r} is not allowed: choose from {', '.join(FORMATS)}")
    if args.demo and args.data is not None:
        raise ConfigError("--demo and --data are two places: give one (--data DIR for a demo run with --data DIR)")
    data_dir = default_data_dir() / "demo" if args.demo else args.data or default_data_dir()
    demo_db = default_data_dir() / "demo" / DB_NAME
    if not (data_dir / DB_NAME).is_file() and not args.demo and args.data is None and demo_db.is_file():
        raise ConfigError(f"no tocktable database at {data_dir / DB_NAME}; the demo keeps its games apart, in "
                          f"{demo_db}: add --demo to export those")  # fmt: skip
    with Store(data_dir / DB_NAME, create=False) as store:
        if args.list:
            for info in store.sessions():
                started = datetime.fromtimestamp(info.created_at).strftime("%Y-%m-%d %H:%M")
                state = "open" if info.closed_at is None else "closed"
                sys.stdout.write(f"session {info.id}: started {started}, {info.commands} steps, {state}\n")
            return 0
        for path in export_session(store, session_id=args.session, out_dir=args.out, formats=formats):
            sys.stdout.write(f"wrote {path}\n")
    return 0


# Commands whose options belong to a tool of their own (the enrollment, the sticker sheet): everything
# after the command name goes to it untouched (argparse's REMAINDER would swallow a leading option
# such as ``-o``).
_DELEGATED = {
    "enroll": ("tocktable.enroll_cli", "deck enrollment"),
    "marks": ("vision.render.marks", "the Tock sticker sheet"),
}


def _delegate(module_name: str, what: str, args: Sequence[str]) -> int:
    """Run a vision tool's own command line, or say it is not there yet."""
    import importlib
    import inspect

    try:
        module = importlib.import_module(module_name)
    except ImportError:
        sys.stderr.write(f"tocktable: {what} is not available in this version yet ({module_name} is missing)\n")
        return 2
    main = getattr(module, "main", None)
    if main is None:
        sys.stderr.write(f"tocktable: {module_name} has no command line (main) yet\n")
        return 2
    words = list(args[1:]) if args[:1] == ["--"] else list(args)
    command = next(name for name, (tool, _) in _DELEGATED.items() if tool == module_name)
    named = {"prog": f"tocktable {command}"} if "prog" in inspect.signature(main).parameters else {}
    return int(main(words, **named) or 0)


def _missing_tool(command: str, args: argparse.Namespace) -> int:
    module_name, what = _DELEGATED[command]
    sys.stderr.write(f"tocktable: {what} is not available in this version yet ({module_name} is missing)\n")
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    import functools
    import importlib.util

    from table.errors import TocktableError

    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")  # see tocktable.run.keep_to_the_data_directory
    words = list(sys.argv[1:] if argv is None else argv)
    if words and words[0] in _DELEGATED and importlib.util.find_spec(_DELEGATED[words[0]][0]) is not None:
        module_name, what = _DELEGATED[words[0]]
        try:
            return _delegate(module_name, what, words[1:])
        except TocktableError as exc:
            sys.stderr.write(f"tocktable {words[0]}: {exc}\n")
            return 2
    parser = _build_parser()
    args = parser.parse_args(words)
    args.command_line = shlex.join(["tocktable", *words])  # named in the data directory's lock
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {
        "demo": _demo, "serve": _serve, "export": _export, "config": _config, "check-hardware": _check_hardware,
        **{name: functools.partial(_missing_tool, name) for name in _DELEGATED},
    }  # fmt: skip
    handler = handlers.get(args.command)
    if handler is None:
        parser.print_help()
        return 0
    try:
        return int(handler(args))
    except TocktableError as exc:
        sys.stderr.write(f"tocktable {args.command}: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        return 130
