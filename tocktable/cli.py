"""The ``tocktable`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tocktable import __version__

_DEMO_PLAN = """\
tocktable demo - coming soon.

The demo will run a whole table on this computer with no Pi and no camera: a synthetic
camera deals and turns cards, the card reader reads them, mock buttons log the betting,
and the dashboard shows the live table at http://127.0.0.1:8080 for any phone or browser.

What works today: the cards and the exact hand evaluator (python -m bench.evaluator).
"""


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tocktable", description="A companion for live home poker games.")
    parser.add_argument("--version", action="version", version=f"tocktable {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("demo", help="run a whole synthetic table with the dashboard on localhost")
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
    from pathlib import Path

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
    from table.errors import TocktableError
    from tocktable.config import EXAMPLE, load_config

    if args.example or not args.file:
        sys.stdout.write(EXAMPLE)
        return 0
    try:
        config = load_config(args.file)
    except TocktableError as exc:
        sys.stderr.write(f"tocktable config: {exc}\n")
        return 2
    sys.stdout.write(
        f"{args.file}: valid. {config.table.seats} seats, {config.table.variant} {config.table.betting}, "
        f"blinds {config.blinds.levels[0].small}/{config.blinds.levels[0].big}, camera {config.camera.source}, "
        f"data in {config.data_dir}\n"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command == "demo":
        sys.stdout.write(_DEMO_PLAN)
        return 0
    if args.command == "config":
        return _config(args)
    if args.command == "check-hardware":
        from table.errors import TocktableError

        try:
            return _check_hardware(args)
        except TocktableError as exc:
            sys.stderr.write(f"tocktable check-hardware: {exc}\n")
            return 2
    parser.print_help()
    return 0
