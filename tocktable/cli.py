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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command == "demo":
        sys.stdout.write(_DEMO_PLAN)
        return 0
    parser.print_help()
    return 0
