"""Shared pieces for the web tests: a running service on a temp store, its app, a scripted hand."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from table.engine import BlindStructure
from table.session import SessionSettings
from tocktable.config import Config
from tocktable.service import Service
from tocktable.steps import Act, ChooseButton, DealBoard, Show
from tocktable.store import Store

PIN = "246810"
NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve", "Finn")
STACKS = (1000, 1000, 400, 1000, 1000, 1000)


def make_service(
    data_dir: Path, *, seats: int = 6, stacks: tuple[int, ...] = STACKS, variant: str = "holdem",
    clock: Any = None, level_minutes: float = 0.0,
) -> Service:  # fmt: skip
    """A started service with players seated (not yet dealt)."""
    blinds = (
        BlindStructure.timed([(5, 10), (10, 20), (25, 50, 5)], minutes=level_minutes)
        if level_minutes
        else BlindStructure.fixed(5, 10)
    )
    settings = SessionSettings(seats=seats, variant=variant, blinds=blinds)
    store = Store(data_dir / "tocktable.sqlite")
    players = [(NAMES[i], stacks[i]) for i in range(min(seats, len(stacks)))]
    kwargs: dict[str, Any] = {"clock": clock} if clock is not None else {}
    return Service(store, settings, players=players, confirm_seconds=None, **kwargs).start()


def make_app(service: Service, data_dir: Path, **kwargs: Any) -> Any:
    from web import create_app

    config = replace(Config(), data_dir=data_dir)
    app = create_app(config, service, **{"admin_pin": PIN, **kwargs})
    app.config["TESTING"] = True
    return app


# A six-handed hand with an all-in and a side pot. Button seat 0: Bob (1) small blind, Cleo (2)
# big blind, Dan (3) first to act. Cleo's kings win the main pot, Dan's aces up the side pot.
DEMO_PREFLOP = [Act(3, "raise", 30), Act(4, "fold"), Act(5, "call"), Act(0, "fold"), Act(1, "call"), Act(2, "call")]
DEMO_FLOP = [DealBoard(("Ah", "Kd", "7c")), Act(1, "check"), Act(2, "all_in"), Act(3, "call"), Act(5, "fold"),
             Act(1, "call")]  # fmt: skip
DEMO_TURN = [DealBoard(("2s",)), Act(1, "bet", 200), Act(3, "call")]
DEMO_RIVER = [DealBoard(("9h",)), Act(1, "check"), Act(3, "check")]
DEMO_SHOWDOWN = [Show(2, ("Kh", "Kc")), Show(1, ("As", "Qs")), Show(3, ("Ac", "7d"))]
DEMO_HAND = [ChooseButton(seat=0), *DEMO_PREFLOP, *DEMO_FLOP, *DEMO_TURN, *DEMO_RIVER, *DEMO_SHOWDOWN]
DEMO_HOLE = {1: ("As", "Qs"), 2: ("Kh", "Kc"), 3: ("Ac", "7d")}
"""The hole cards of the demo hand, shown only at its showdown."""


def play(service: Service, steps: list[Any]) -> None:
    for step in steps:
        service.call(step)
