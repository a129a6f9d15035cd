"""Lens worker benchmark: what the learning lens costs, and what the game pays for it.

    python -m bench.lens_worker              # 6 Tock hands per set-up, about a minute
    python -m bench.lens_worker --hands 3

Six-handed Tock hands (random deals, seeded): every mark read, everyone calls or checks to the
river, the live hands shown. The same hands are played through three set-ups, a hand of each in
turn (the machine is shared, so interleaving keeps the comparison fair):

- **no lens**: the service alone (the baseline);
- **worker**: the shipped design, :class:`tocktable.lens_worker.LensWorker` on its own thread;
- **inline**: the peer design, the lens worked out right after each step where the service
  would (what a step would cost the caller if the service thread did the lens itself).

Reported: the acknowledged step (``service.call``) p50/p95 for steps that change the public
table (marks, board, shown hands, folds) and for the others, in each set-up; the lens's own time
per stage; and a Hold'em all-in's TV figures (2 and 3 hands, pre-flop to river) through the
worker. On a Pi (3-6x slower) the lens takes 0.3-0.5 s per change; the game must not wait for it.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from table.cards import Card
from table.engine import BlindStructure
from table.session import SessionSettings
from table.steps import Act, ChooseButton, Confirm, DealBoard, MarkRead, Show
from table.tock import mark_of
from tocktable.lens_worker import LensWorker, public_table
from tocktable.service import Service
from tocktable.store import Store

SEATS = 6
PUBLIC = ("mark", "deal_board", "show", "fold")


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)  # p95 by nearest rank: never below the median, even for a few samples
    return statistics.median(ordered), ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def deals(hands: int, seed: int) -> list[tuple[list[tuple[str, str]], list[str]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(hands):
        cards = [str(Card.from_id(i)) for i in rng.sample(range(52), 2 * SEATS + 5)]
        out.append(([(cards[2 * s], cards[2 * s + 1]) for s in range(SEATS)], cards[2 * SEATS :]))
    return out


def make_service(folder: Path, variant: str = "tock", chips: int = 100_000) -> Service:
    settings = SessionSettings(seats=SEATS, variant=variant, blinds=BlindStructure.fixed(5, 10))
    players = [(f"P{s + 1}", chips) for s in range(SEATS)]
    return Service(Store(folder / "bench.sqlite"), settings, players=players, confirm_seconds=None).start()


class SetUp:
    """One way of running the lens, with its own service, and its timings."""

    def __init__(self, name: str, folder: Path) -> None:
        folder.mkdir()
        self.name = name
        self.service = make_service(folder)
        self.worker = LensWorker(self.service) if name != "no lens" else None
        if name == "worker" and self.worker is not None:
            self.worker.start()
        self.steps: dict[str, list[float]] = defaultdict(list)
        self.lens: dict[str, list[float]] = defaultdict(list)
        self.started = False

    def step(self, step: Any, kind: str) -> dict[str, Any]:
        start = time.perf_counter()
        self.service.call(step)
        spent = time.perf_counter() - start
        state = self.service.snapshot().to_dict()
        if self.name == "inline" and self.worker is not None:
            begin = time.perf_counter()
            if self.worker.handle(self.service.snapshot()):
                took = time.perf_counter() - begin
                table = public_table(state)
                self.lens[table.stage if table else "?"].append(took)
                spent += took
        self.steps["public" if kind in PUBLIC else "other"].append(spent)
        return state

    def play(self, holes: list[tuple[str, str]], board: list[str], rng: random.Random) -> None:
        state = self.step(ChooseButton(seat=0) if not self.started else Confirm(), "deal")
        self.started = True
        for seat in range(SEATS):
            for i, card in enumerate(holes[seat]):
                state = self.step(MarkRead(seat, i, str(mark_of(Card.parse(card)))), "mark")
        for i, card in enumerate(board):
            state = self.step(MarkRead(None, i, str(mark_of(Card.parse(card)))), "mark")
        for cut in ((0, 3), (3, 4), (4, 5), None):
            while state["to_act"] is not None:
                seat = state["to_act"]
                legal = {a["action"] for a in state["legal_actions"]}
                live = sum(1 for s in state["seats"] if s["in_hand"] and not s["folded"])
                if live > 2 and rng.random() < 0.12:
                    state = self.step(Act(seat, "fold"), "fold")
                else:
                    state = self.step(Act(seat, "check" if "check" in legal else "call"), "act")
            if cut is not None and state["status"] == "playing" and state["street"] != "showdown":
                state = self.step(DealBoard(tuple(board[cut[0] : cut[1]])), "deal_board")
        for seat in range(SEATS):
            entry = state["seats"][seat]
            if state["status"] == "playing" and entry["in_hand"] and not entry["folded"] and not entry["hole"]:
                state = self.step(Show(seat, holes[seat]), "show")

    def close(self) -> None:
        if self.worker is not None:
            if self.name == "worker":
                self.worker.wait_until(lambda d: not d["pending"], timeout=60)
            self.worker.stop()
        self.service.stop()
        self.service.store.close()


def holdem_all_in(folder: Path, players: int, holes: list[tuple[str, str]], board: list[str]) -> float:
    """Seconds the worker takes to work out a Hold'em all-in's chances by stage once shown."""
    folder.mkdir()
    service = make_service(folder, variant="holdem", chips=1_000)
    worker = LensWorker(service)
    try:
        service.call(ChooseButton(seat=0))
        in_ = 0
        while (seat := service.snapshot().to_dict()["to_act"]) is not None:
            service.call(Act(seat, "all_in" if in_ < players else "fold"))
            in_ += 1
        worker.handle(service.snapshot())
        service.call(DealBoard(tuple(board)))
        state = service.snapshot().to_dict()
        for entry in state["seats"]:
            if entry["in_hand"] and not entry["folded"]:
                service.call(Show(entry["seat"], holes[entry["seat"]]))
        start = time.perf_counter()
        assert worker.handle(service.snapshot())
        return time.perf_counter() - start
    finally:
        service.stop()
        service.store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=6, help="Tock hands per set-up (default 6)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tocktable-bench-lens-") as tmp:
        folder = Path(tmp)
        setups = [SetUp(name, folder / name.replace(" ", "-")) for name in ("no lens", "worker", "inline")]
        rngs = {s.name: random.Random(args.seed) for s in setups}  # the same folds in every set-up
        try:
            for number, (holes, board) in enumerate(deals(args.hands, args.seed), 1):
                for setup in setups:
                    setup.play(holes, board, rngs[setup.name])
                print(f"hand {number}/{args.hands} played in each set-up", file=sys.stderr, flush=True)
        finally:
            for setup in setups:
                setup.close()
        allin = [holdem_all_in(folder / f"allin-{n}", n, *deals(1, args.seed + n)[0]) for n in (2, 3)]

    base = {kind: percentiles(setups[0].steps[kind]) for kind in ("public", "other")}
    print(f"\nAcknowledged steps, {args.hands} six-handed Tock hands per set-up (ms, p50 / p95):")
    print(f"{'set-up':<10}{'public-table steps':>24}{'other steps':>20}{'public p95 vs no lens':>26}")
    for setup in setups:
        cells = []
        for kind in ("public", "other"):
            p50, p95 = percentiles(setup.steps[kind])
            cells.append(f"{1000 * p50:7.1f} / {1000 * p95:6.1f}")
        ratio = percentiles(setup.steps["public"])[1] / base["public"][1]
        n = len(setup.steps["public"])
        print(f"{setup.name:<10}{cells[0]:>24}{cells[1]:>20}{ratio:>24.2f}x   ({n} public steps)")
    print("\nThe lens itself (inline set-up, per change of the public table), ms p50 / p95:")
    inline = setups[2]
    for stage in ("preflop", "flop", "turn", "river", "showdown"):
        if inline.lens.get(stage):
            p50, p95 = percentiles(inline.lens[stage])
            print(f"  {stage:<9}{1000 * p50:7.1f} / {1000 * p95:6.1f}   ({len(inline.lens[stage])} changes)")
    print("\nHold'em all-in, hands turned after the river, TV figures for every stage from pre-flop:")
    for n, seconds in zip((2, 3), allin, strict=True):
        print(f"  {n} hands: {1000 * seconds:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
