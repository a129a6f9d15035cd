"""Equity benchmark: tocktable's equity against loops over eval7 and phevaluator, in one run.

    python -m bench.equity

Budgets (DESIGN.md §5): heads-up pre-flop exact enumeration (1,712,304 boards) <= 1 s;
6 players, 100,000 Monte Carlo trials <= 0.1 s; the Tock lens for 6 seats with every card
marked, to +-0.5 % (95 %), <= 0.5 s. Peers get the same deals in their own card format; their
loops are the straightforward way a Python program would use them.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from itertools import combinations

from table.cards import Card, Deck, parse_cards
from table.equity import equity
from table.evaluate_tables import nonflush_table
from table.tock import mark_of


def timed(run: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    out = run()
    return time.perf_counter() - start, out


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


def multiway_peers(players: int, trials: int, seed: int) -> dict[str, Callable[[], list[float]]]:
    names = [str(Card.from_id(i)) for i in range(52)]
    runs: dict[str, Callable[[], list[float]]] = {}

    def loop(evaluate: Callable[[list[int]], int], higher_is_better: bool) -> list[float]:
        rng = random.Random(seed)
        shares = [0.0] * players
        deck = list(range(52))
        for _ in range(trials):
            dealt = rng.sample(deck, 2 * players + 5)
            board = dealt[2 * players :]
            scores = [evaluate([dealt[2 * s], dealt[2 * s + 1], *board]) for s in range(players)]
            best = max(scores) if higher_is_better else min(scores)
            winners = [s for s in range(players) if scores[s] == best]
            for s in winners:
                shares[s] += 1 / len(winners)
        return [x / trials for x in shares]

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


def verdict(seconds: float, budget: float) -> str:
    return f"[<= {budget:g} s: {'met' if seconds <= budget else 'MISSED'}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--skip-peers", action="store_true", help="time tocktable only")
    args = parser.parse_args(argv)
    nonflush_table(7)  # build the evaluator's table before timing

    print("1. Heads-up pre-flop, exact: AhKh vs QsQd over all 1,712,304 boards")
    hero, villain = parse_cards("Ah Kh"), parse_cards("Qs Qd")
    ours_time, result = timed(lambda: equity([hero, villain]))
    ours = result[0].equity  # type: ignore[index]
    print(f"   {'tocktable equity (exact)':38s} {ours_time:7.3f} s  AhKh equity {ours:.6f}  {verdict(ours_time, 1.0)}")
    if not args.skip_peers:
        for name, run in heads_up_peers(hero, villain).items():
            seconds, value = timed(run)
            print(f"   {name:38s} {seconds:7.3f} s  AhKh equity {value:.6f}  ({seconds / ours_time:.1f}x ours)")

    players, trials = 6, 100_000
    print(f"\n2. {players} players, {trials:,} Monte Carlo trials, every hand unknown")
    ours_time, result = timed(lambda: equity([[None, None]] * players, trials=trials, seed=args.seed))
    seat = result[0]  # type: ignore[index]
    print(
        f"   {'tocktable equity (Monte Carlo)':38s} {ours_time:7.3f} s  seat 1 {seat.equity:.4f} "
        f"+- {seat.stderr:.4f}  {verdict(ours_time, 0.1)}"
    )
    if not args.skip_peers:
        for name, run in multiway_peers(players, trials, args.seed).items():
            seconds, shares = timed(run)
            print(f"   {name:38s} {seconds:7.3f} s  seat 1 {shares[0]:.4f}  ({seconds / ours_time:.1f}x ours)")  # type: ignore[index]

    print("\n3. Tock lens: 6 seats, all 17 cards face down and marked, to +-0.5 % at 95 %")
    deck = Deck(rng=random.Random(args.seed))
    dealt = deck.draw(17)
    hands = [[mark_of(dealt[2 * s]), mark_of(dealt[2 * s + 1])] for s in range(6)]
    board = [mark_of(c) for c in dealt[12:]]
    lens_trials = 40_000
    ours_time, result = timed(lambda: equity(hands, board, trials=lens_trials, seed=args.seed))
    worst = max(s.stderr for s in result)  # type: ignore[attr-defined]
    reference = equity(hands, board, trials=1_000_000, seed=args.seed + 1)
    off = max(abs(a.equity - b.equity) for a, b in zip(result, reference, strict=True))  # type: ignore[call-overload]
    print(f"   marks: {' | '.join(' '.join(map(str, h)) for h in hands)} | board {' '.join(map(str, board))}")
    print(
        f"   {'tocktable lens (Monte Carlo)':38s} {ours_time:7.3f} s  {lens_trials:,} trials, "
        f"95% half-width {1.96 * worst:.4f}, largest gap to a 1M-trial run {off:.4f}  {verdict(ours_time, 0.5)}"
    )
    print("   (no peer: no other tool reads Tock marks)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
