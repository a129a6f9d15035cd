"""Equity and lens benchmark: tocktable against loops over eval7 and phevaluator, in one run.

    python -m bench.equity               # everything (about half a minute with the peers)
    python -m bench.equity --skip-peers  # tocktable only

Budgets (DESIGN.md §5): heads-up pre-flop exact enumeration (1,712,304 boards) <= 1 s;
6 players, 100,000 Monte Carlo trials <= 0.1 s; the Tock lens for 6 seats with every card
marked, to +-0.5 % (95 %), <= 0.5 s. Peers get the same deals in their own card format; their
loops are the straightforward way a Python program would use them. Each of our timings is the
best of a few runs (the machine is shared); peers run once (they take seconds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from itertools import combinations
from typing import TypeVar

import numpy as np

from table.cards import Card, Deck, parse_cards
from table.equity import _sample, equity, lay_out
from table.evaluate_tables import nonflush_table
from table.lens import lens, showdown
from table.reach import reach
from table.tock import Mark, mark_of

PI_SLOWDOWN = (3, 6)
T = TypeVar("T")


def timed(run: Callable[[], T], repeat: int = 1) -> tuple[float, T]:
    """Best wall time of ``repeat`` runs, and the last result."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - start)
    return min(times), out


def verdict(seconds: float, budget: float) -> str:
    pi = f"Pi ~{seconds * PI_SLOWDOWN[0]:.2f}-{seconds * PI_SLOWDOWN[1]:.2f} s"
    return f"[<= {budget:g} s: {'met' if seconds <= budget else 'MISSED'}; {pi}]"


def heads_up_peers(hero: list[Card], villain: list[Card]) -> dict[str, Callable[[], float]]:
    used = {c.id for c in hero + villain}
    rest = [i for i in range(52) if i not in used]
    names = [str(Card.from_id(i)) for i in range(52)]
    runs: dict[str, Callable[[], float]] = {}
    try:
        import eval7

        cards = [eval7.Card(n) for n in names]
        h, v = [cards[c.id] for c in hero], [cards[c.id] for c in villain]

        def eval7_loop() -> float:
            score = 0.0
            for board in combinations([cards[i] for i in rest], 5):
                a, b = eval7.evaluate(h + list(board)), eval7.evaluate(v + list(board))
                score += 1.0 if a > b else 0.5 if a == b else 0.0
            return score / 1_712_304

        runs["eval7 loop over every board"] = eval7_loop
    except ImportError:
        pass
    try:
        from phevaluator import evaluate_cards

        h_ids, v_ids = [c.id for c in hero], [c.id for c in villain]

        def phevaluator_loop() -> float:
            score = 0.0
            for board in combinations(rest, 5):
                a, b = evaluate_cards(*h_ids, *board), evaluate_cards(*v_ids, *board)
                score += 1.0 if a < b else 0.5 if a == b else 0.0
            return score / 1_712_304

        runs["phevaluator loop over every board"] = phevaluator_loop
    except ImportError:
        pass
    return runs


def peer_loops(deals: list[list[int]], players: int) -> dict[str, Callable[[], list[float]]]:
    """Each peer evaluates the given deals (card ids: two per seat, then five board cards)."""
    names = [str(Card.from_id(i)) for i in range(52)]
    runs: dict[str, Callable[[], list[float]]] = {}

    def loop(evaluate: Callable[[list[int]], int], higher_is_better: bool) -> list[float]:
        shares = [0.0] * players
        for dealt in deals:
            board = dealt[2 * players : 2 * players + 5]
            scores = [evaluate([dealt[2 * s], dealt[2 * s + 1], *board]) for s in range(players)]
            best = max(scores) if higher_is_better else min(scores)
            winners = [s for s in range(players) if scores[s] == best]
            for s in winners:
                shares[s] += 1 / len(winners)
        return [x / len(deals) for x in shares]

    try:
        import eval7

        cards = [eval7.Card(n) for n in names]
        runs["eval7 loop"] = lambda: loop(lambda ids: eval7.evaluate([cards[i] for i in ids]), True)
    except ImportError:
        pass
    try:
        from phevaluator import evaluate_cards

        runs["phevaluator loop"] = lambda: loop(lambda ids: evaluate_cards(*ids), False)
    except ImportError:
        pass
    return runs


def python_deals(players: int, trials: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), 2 * players + 5) for _ in range(trials)]


def tock_table(seed: int, seats: int = 6) -> tuple[list[list[Mark]], list[Mark]]:
    dealt = Deck(rng=random.Random(seed)).draw(2 * seats + 5)
    hands = [[mark_of(dealt[2 * s]), mark_of(dealt[2 * s + 1])] for s in range(seats)]
    return hands, [mark_of(c) for c in dealt[2 * seats :]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--tables", type=int, default=8, help="random all-marked tables for part 3")
    parser.add_argument("--skip-peers", action="store_true", help="time tocktable only")
    args = parser.parse_args(argv)
    nonflush_table(7)  # build the evaluator's tables before timing
    lens(*tock_table(0), seed=0)  # and the lens's (targets, first-use imports)

    print("1. Heads-up pre-flop, exact: AhKh vs QsQd over all 1,712,304 boards")
    hero, villain = parse_cards("Ah Kh"), parse_cards("Qs Qd")
    ours_time, result = timed(lambda: equity([hero, villain]), repeat=3)
    ours = result[0].equity
    print(f"   {'tocktable equity (exact)':40s} {ours_time:7.3f} s  AhKh {ours:.6f}  {verdict(ours_time, 1.0)}")
    if not args.skip_peers:
        for name, exact_run in heads_up_peers(hero, villain).items():
            seconds, value = timed(exact_run)
            print(f"   {name:40s} {seconds:7.3f} s  AhKh {value:.6f}  ({seconds / ours_time:.1f}x ours)")
    seconds, view = timed(lambda: showdown([hero, villain]), repeat=3)
    print(f"   {'tocktable showdown lens (+ words, reach)':40s} {seconds:7.3f} s  AhKh {view.seats[0].equity:.6f}")

    players, trials = 6, 100_000
    print(f"\n2. {players} players, {trials:,} Monte Carlo trials, every hand unknown")
    ours_time, result = timed(lambda: equity([[None, None]] * players, trials=trials, seed=args.seed), repeat=3)
    seat = result[0]
    print(
        f"   {'tocktable equity (Monte Carlo)':40s} {ours_time:7.3f} s  seat 1 {seat.equity:.4f} "
        f"+- {seat.half_width:.4f}  {verdict(ours_time, 0.1)}"
    )
    if not args.skip_peers:
        deals = python_deals(players, trials, args.seed)
        for name, run in peer_loops(deals, players).items():
            seconds, shares = timed(run)
            print(f"   {name:40s} {seconds:7.3f} s  seat 1 {shares[0]:.4f}  ({seconds / ours_time:.1f}x ours)")

    print(f"\n3. Tock lens: 6 seats, all 17 cards face down and marked, to +-0.5 % at 95 % ({args.tables} tables)")
    rows = []
    for table in range(args.tables):
        hands, board = tock_table(args.seed + table)
        lens_time, view = timed(partial(lens, hands, board, seed=args.seed), repeat=2)
        eq_time, _ = timed(partial(equity, hands, board, precision=0.005, seed=args.seed), repeat=2)
        reach_time, _ = timed(partial(reach, lay_out(hands, board)), repeat=2)
        reference = equity(hands, board, trials=1_000_000, seed=args.seed + 1)
        gaps = [abs(s.equity - r.equity) for s, r in zip(view.seats, reference, strict=True)]
        gap = max(gaps)
        within = sum(g <= 0.005 for g in gaps)
        rows.append((lens_time, eq_time, reach_time, view.deals, within, view.half_width, gap))
        print(
            f"   table {table + 1}: lens {lens_time:6.3f} s (equity {eq_time:.3f} s, reach {reach_time:.3f} s), "
            f"{'exact, ' if view.exact else ''}{view.deals:,} deals, 95% half-width {view.half_width:.4f}, "
            f"gap to a 1M-trial run {gap:.4f}"
        )
    worst, median = max(r[0] for r in rows), statistics.median(r[0] for r in rows)
    print(f"   {'tocktable lens, slowest table':40s} {worst:7.3f} s  (median {median:.3f} s)  {verdict(worst, 0.5)}")
    within, total = sum(r[4] for r in rows), 6 * len(rows)
    print(
        f"   largest 95% half-width {max(r[5] for r in rows):.4f}; {within} of {total} seat figures within 0.005 of a "
        f"1M-trial run ({100 * within / total:.0f}%, 95% expected); largest gap {max(r[6] for r in rows):.4f}"
    )
    if not args.skip_peers:
        # No other tool reads Tock marks; the nearest peer evaluates the same Tock deals one hand at a time.
        hands, board = tock_table(args.seed)
        count = rows[0][3]
        deals = _sample(lay_out(hands, board), count, np.random.default_rng(args.seed)).tolist()
        print(f"   peers evaluating table 1's {count:,} Tock deals (sampled by tocktable) one hand at a time:")
        for name, tock_run in peer_loops(deals, 6).items():
            seconds, _ = timed(tock_run)
            print(f"   {name:40s} {seconds:7.3f} s  ({seconds / rows[0][1]:.1f}x our equity on table 1)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
