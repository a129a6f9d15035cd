"""Hand evaluator benchmark: tocktable against treys, phevaluator and eval7, in one run.

    python -m bench.evaluator                 # 200,000 random seven-card hands
    python -m bench.evaluator --exhaustive    # also classify all 133,784,560 seven-card hands

Every evaluator gets the same hands, converted to its own card format before timing.
Budgets (DESIGN.md §5): batched >= 10x phevaluator's public API, one at a time >= 3x treys,
all seven-card hands in under a minute.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from itertools import combinations
from math import comb

import numpy as np

from table.cards import Card
from table.evaluate import Category, category_of, evaluate, evaluate_many

SEVEN_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 41_584,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}


def random_hands(count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :7].astype(np.int64)


def timed(run: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    out = run()
    return time.perf_counter() - start, out


def peers(hands: np.ndarray) -> dict[str, Callable[[], list[int]]]:
    """Each peer's per-hand loop over hands already in its own format (lower is better
    for all three peers, so results are negated into 'higher is better')."""
    runs: dict[str, Callable[[], list[int]]] = {}
    rows = hands.tolist()
    names = [str(Card.from_id(i)) for i in range(52)]
    try:
        import treys

        evaluator = treys.Evaluator()
        t_cards = [[treys.Card.new(names[i]) for i in row] for row in rows]
        runs["treys (evaluate, one at a time)"] = lambda: [-evaluator.evaluate(h[:2], h[2:]) for h in t_cards]
    except ImportError:
        print("treys not installed: pip install -e '.[bench]'", file=sys.stderr)
    try:
        from phevaluator import evaluate_cards

        p_cards = [tuple(row) for row in rows]  # phevaluator's ids are ours: rank*4 + suit
        runs["phevaluator (evaluate_cards)"] = lambda: [-evaluate_cards(*h) for h in p_cards]
    except ImportError:
        print("phevaluator not installed: pip install -e '.[bench]'", file=sys.stderr)
    try:
        import eval7

        e_cards = [[eval7.Card(names[i]) for i in row] for row in rows]
        runs["eval7 (evaluate, Cython)"] = lambda: [eval7.evaluate(h) for h in e_cards]
    except ImportError:
        print("eval7 not installed: pip install -e '.[bench]'", file=sys.stderr)
    return runs


def same_order(a: list[int], b: list[int]) -> bool:
    """True when both score lists order every consecutive pair of hands the same way."""
    x, y = np.asarray(a), np.asarray(b)
    return bool((np.sign(np.diff(x)) == np.sign(np.diff(y))).all())


def random_benchmark(count: int, seed: int) -> None:
    hands = random_hands(count, seed)
    ours_cards = [[Card.from_id(i) for i in row] for row in hands.tolist()]
    evaluate_many(hands[:10])  # build the tables before timing
    evaluate(ours_cards[0])

    print(f"{count:,} random seven-card hands (seed {seed}); every evaluator converted them to its own format first\n")
    t_batch, batch = timed(lambda: evaluate_many(hands).tolist())
    t_single, single = timed(lambda: [evaluate(h).rank for h in ours_cards])
    assert single == batch, "evaluate and evaluate_many disagree"
    results: dict[str, tuple[float, list[int]]] = {
        "tocktable evaluate_many (batched)": (t_batch, batch),  # type: ignore[dict-item]
        "tocktable evaluate (one at a time)": (t_single, single),  # type: ignore[dict-item]
    }
    for name, run in peers(hands).items():
        seconds, scores = timed(run)
        results[name] = (seconds, scores)  # type: ignore[assignment]

    print(f"{'evaluator':40s} {'total s':>8s} {'µs/hand':>9s} {'M hands/s':>10s}  same order as ours")
    for name, (seconds, scores) in results.items():
        agree = "yes" if same_order(scores, batch) else "NO"  # type: ignore[arg-type]
        print(f"{name:40s} {seconds:8.3f} {seconds / count * 1e6:9.3f} {count / seconds / 1e6:10.3f}  {agree}")

    print("\nratios (how many times faster tocktable is; budget in brackets):")
    for peer, ours, budget in (
        ("phevaluator (evaluate_cards)", "tocktable evaluate_many (batched)", 10),
        ("treys (evaluate, one at a time)", "tocktable evaluate (one at a time)", 3),
        ("eval7 (evaluate, Cython)", "tocktable evaluate_many (batched)", None),
        ("eval7 (evaluate, Cython)", "tocktable evaluate (one at a time)", None),
        ("phevaluator (evaluate_cards)", "tocktable evaluate (one at a time)", None),
    ):
        if peer in results:
            ratio = results[peer][0] / results[ours][0]
            verdict = "" if budget is None else f"  [>= {budget}x: {'met' if ratio >= budget else 'MISSED'}]"
            print(f"  {ours} vs {peer}: {ratio:.1f}x{verdict}")


def colex_five_of(top: int) -> np.ndarray:
    """All 5-subsets of range(top) in colex order: those inside range(m) come first."""
    combos = np.fromiter(combinations(range(top), 5), dtype=np.dtype((np.int8, 5)), count=comb(top, 5))
    order = np.lexsort(combos.T)  # last column (the largest element) is the primary key
    return combos[order]


def exhaustive_counts(progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, int]:
    """Category counts over all seven-card hands, classified with ``evaluate_many``.

    Hands are enumerated by their two lowest cards a < b; the other five come from the cards
    above b, taken from a colex list of 5-subsets so each (a, b) is one array prefix.
    """
    five = colex_five_of(50)
    counts = np.zeros(9, dtype=np.int64)
    done = 0
    chunk = np.empty((comb(50, 5), 7), dtype=np.int8)
    for a in range(52):
        for b in range(a + 1, 52):
            n = comb(51 - b, 5)
            if n == 0:
                continue
            hands = chunk[:n]
            hands[:, 0] = a
            hands[:, 1] = b
            hands[:, 2:] = 51 - five[:n]  # subset indices 0..m-1 stand for cards 51..b+1
            counts += np.bincount(category_of(evaluate_many(hands, check=False)), minlength=9)
            done += n
        if progress is not None:
            progress(done)
    return counts, done


def exhaustive() -> bool:
    """Classify all 133,784,560 seven-card hands; print the table; True if counts match."""
    total_hands = comb(52, 7)
    print(f"\nclassifying all {total_hands:,} seven-card hands with evaluate_many ...")
    start = time.perf_counter()

    def show(done: int) -> None:
        elapsed = time.perf_counter() - start
        print(f"\r  {done / total_hands:6.1%} of hands, {elapsed:5.1f} s", end="", file=sys.stderr, flush=True)

    counts, done = exhaustive_counts(show)
    elapsed = time.perf_counter() - start
    print(file=sys.stderr)
    print(f"\n{'category':18s} {'hands':>12s} {'known':>12s}")
    ok = done == total_hands
    for cat in reversed(Category):
        got, known = int(counts[cat]), SEVEN_CARD_COUNTS[cat]
        ok &= got == known
        print(f"{cat.label:18s} {got:12,d} {known:12,d} {'' if got == known else 'MISMATCH'}")
    print(f"{'total':18s} {done:12,d} {total_hands:12,d}")
    verdict = "met" if elapsed < 60 else "MISSED"
    print(f"\nall seven-card hands in {elapsed:.1f} s ({done / elapsed / 1e6:.1f} M hands/s) [< 60 s: {verdict}]")
    print("counts match the known table" if ok else "COUNTS DO NOT MATCH")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=200_000, help="random hands to time (default 200,000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--exhaustive", action="store_true", help="also classify all 133,784,560 seven-card hands")
    args = parser.parse_args(argv)
    random_benchmark(args.hands, args.seed)
    if args.exhaustive and not exhaustive():
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
