"""Shared pieces for the service tests: a settable clock, table views, a service on a temp store."""

from __future__ import annotations

import io
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from table.engine import BlindStructure
from table.session import SessionSettings
from tocktable.service import Service
from tocktable.store import Store
from vision.view import SeenCard, TableView

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eli", "Fay")


class FakeClock:
    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def make_service(
    path: Path, *, seats: int = 3, variant: str = "holdem", clock: Any = None, confirm_seconds: float | None = None,
    lights: Any = None, level_minutes: float = 0.0, chips: int = 1000,
) -> Service:  # fmt: skip
    blinds = (
        BlindStructure.timed([(5, 10), (10, 20), (20, 40)], minutes=level_minutes)
        if level_minutes
        else BlindStructure.fixed(5, 10)
    )
    settings = SessionSettings(seats=seats, variant=variant, blinds=blinds)
    store = Store(path, clock=clock or FakeClock())
    return Service(store, settings, players=[(NAMES[i], chips) for i in range(seats)], clock=clock or FakeClock(),
                   confirm_seconds=confirm_seconds, lights=lights)  # fmt: skip


def seen(card: str | None, *, zone: str, x: float = 0.5, face_up: bool = True, mark: str | None = None) -> SeenCard:
    corners = ((x, 0.4), (x + 0.05, 0.4), (x + 0.05, 0.5), (x, 0.5))
    return SeenCard(card if face_up else None, face_up, mark, zone, 0.99, corners)


def view(board: list[str] | None = None, seats: dict[int, list[str]] | None = None, *, frame: int = 1,
         face_down: dict[int, list[str]] | None = None, board_down: list[str] | None = None) -> TableView:  # fmt: skip
    """A view: face-up board cards, face-up seat cards, and face-down cards given by their marks."""
    board_cards = [seen(c, zone="board", x=0.1 * i) for i, c in enumerate(board or [])]
    board_cards += [seen(None, zone="board", x=0.1 * (len(board_cards) + i), face_up=False, mark=m)
                    for i, m in enumerate(board_down or [])]  # fmt: skip
    seat_cards: dict[int, list[SeenCard]] = {}
    for seat, cards in (seats or {}).items():
        seat_cards.setdefault(seat, []).extend(seen(c, zone=f"seat:{seat}", x=0.1 * i) for i, c in enumerate(cards))
    for seat, marks in (face_down or {}).items():
        seat_cards.setdefault(seat, []).extend(
            seen(None, zone=f"seat:{seat}", x=0.1 * i, face_up=False, mark=m) for i, m in enumerate(marks)
        )
    return TableView(frame, float(frame), tuple(board_cards), {s: tuple(c) for s, c in seat_cards.items()})


@contextmanager
def fast_demo(
    tmp_path: Path, config: Any, *, hands: int, seed: int, camera: str
) -> Iterator[tuple[Any, list[dict[str, Any]], io.StringIO]]:
    """The demo (store under ``tmp_path / "demo"``) after ``hands`` fast hands: the open demo,
    every state it published (as dicts) and what it printed."""
    from tocktable.run import DemoOptions, open_demo  # the whole product: only the demo tests need it

    options = DemoOptions(data_dir=tmp_path / "demo", fast=True, seed=seed, web=False, camera=camera)
    out = io.StringIO()
    with open_demo(config, options, out=out) as demo:
        subscription = demo.service.subscribe(maxsize=100_000)
        demo.run_fast(hands, confirm_seconds=options.confirm_seconds)
        demo.service.sync()
        published = []
        while (snap := subscription.get(timeout=0)) is not None:
            published.append(snap.to_dict())
        yield demo, published, out


def assert_chips_conserved(published: list[dict[str, Any]]) -> None:
    """Every published state of a hand holds the chips bought in: stacks plus the pot."""
    for snap in published:
        if snap["hand_number"] == 0:
            continue
        bought = sum(line["bought_in"] for line in snap["ledger"])
        on_table = sum(p["stack"] for p in snap["seats"]) + snap["pot_total"]
        assert on_table == bought, f"hand {snap['hand_number']}: {on_table} on the table, {bought} bought in"


def dump_database(path: Path) -> str:
    """Every row of every table of a SQLite file, as text (to search for leaked cards)."""
    db = sqlite3.connect(path)
    try:
        rows = []
        for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'"):
            rows += [repr(r) for r in db.execute(f"SELECT * FROM {table}")]
        return "\n".join(rows)
    finally:
        db.close()


ROOT = Path(__file__).resolve().parents[2]


def cli_env(**extra: str) -> dict[str, str]:
    """The environment for ``python -m tocktable`` in a subprocess (this checkout on the path)."""
    import os

    return {**os.environ, "PYTHONPATH": str(ROOT), **extra}


def run_cli(*args: str, cwd: Path, prefix: tuple[str, ...] = (), env: dict[str, str] | None = None,
            timeout: float = 180.0) -> Any:  # fmt: skip
    """``tocktable ARGS`` in a subprocess (after ``prefix``, e.g. ``setpriv ...``): its result."""
    import subprocess
    import sys

    return subprocess.run([*prefix, sys.executable, "-m", "tocktable", *args], capture_output=True, text=True,
                          env=env or cli_env(), cwd=cwd, timeout=timeout)  # fmt: skip
