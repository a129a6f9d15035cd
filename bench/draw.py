"""Five-card draw evaluation: category counts of every hand of a deck with jokers, and speed.

    python -m bench.draw              # 52 cards + 1 joker (2,869,685 hands)
    python -m bench.draw --jokers 2   # 52 cards + 2 jokers (3,162,510 hands)

Prints the category counts (high, with both tie rules, and both lowball conventions), checks
the counts of the joker hands against an independent brute force (each joker replaced by each
of the 52 cards, classified by the Hold'em evaluator), and times, in the same run:
the vectorised draw evaluator, that brute force, one-at-a-time evaluation, and the Hold'em
evaluator on the same joker-free hands.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import cache
from math import comb
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from table.cards import JOKER_ID, Card
from table.draw import (
    DrawCategory,
    LowRule,
    WildTies,
    draw_categories,
    evaluate_draw,
    evaluate_draw_many,
    evaluate_low_many,
)
from table.draw_tables import TableKind, rank_table
from table.evaluate import category_of, evaluate, evaluate_many

T = TypeVar("T")


def timed(run: Callable[[], T]) -> tuple[float, T]:
    start = time.perf_counter()
    out = run()
    return time.perf_counter() - start, out


@cache
def all_hands(n: int, k: int) -> npt.NDArray[np.int8]:
    """Every k-subset of range(n), lexicographic, built one block per first card."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    blocks = []
    for first in range(n - k + 1):
        rest = all_hands(n - first - 1, k - 1) + first + 1
        blocks.append(np.concatenate([np.full((len(rest), 1), first, dtype=np.int8), rest], axis=1))
    return np.concatenate(blocks)


def deck_hands(jokers: int) -> npt.NDArray[np.int8]:
    """Every five-card hand of 52 cards and ``jokers`` jokers (ids 52, 53 mapped to the joker id)."""
    hands = all_hands(52 + jokers, 5).copy()
    hands[hands > JOKER_ID] = JOKER_ID
    return hands


def brute_force_categories(hands: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    """Best category of one-joker hands by replacing the joker with each of the 52 cards."""
    four = np.sort(hands, axis=1)[:, :4].astype(np.int64)
    best = np.full(len(four), -1, dtype=np.int64)
    for card in range(52):
        usable = (four != card).all(axis=1)
        subs = np.concatenate([four[usable], np.full((int(usable.sum()), 1), card)], axis=1)
        best[usable] = np.maximum(best[usable], category_of(evaluate_many(subs, check=False)))
    best[((four >> 2) == (four[:, :1] >> 2)).all(axis=1)] = DrawCategory.FIVE_OF_A_KIND
    return best


def print_counts(title: str, counts: npt.NDArray[np.int64], categories: list[DrawCategory]) -> None:
    print(f"\n{title}")
    total = int(counts.sum())
    for category in reversed(categories):
        print(f"  {category.label:<16} {int(counts[category]):>12,}  {100 * counts[category] / total:8.4f} %")
    print(f"  {'total':<16} {total:>12,}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jokers", type=int, choices=(0, 1, 2), default=1, help="jokers in the deck (default 1)")
    parser.add_argument("--single", type=int, default=20_000, help="hands timed one at a time (default 20,000)")
    args = parser.parse_args(argv)

    print("building the rank tables (once per process) ...", flush=True)
    for kind in TableKind:
        seconds, table = timed(lambda kind=kind: rank_table(kind))  # type: ignore[misc]
        print(f"  {kind.value:<20} {table.size:>6,} ranks  {seconds * 1000:6.0f} ms")

    hands = deck_hands(args.jokers)
    expected = comb(52 + args.jokers, 5)
    assert len(hands) == expected
    print(f"\nall {len(hands):,} five-card hands of 52 cards + {args.jokers} joker(s)", flush=True)

    seconds_checked, ranks = timed(lambda: evaluate_draw_many(hands))
    seconds_trusted, _ = timed(lambda: evaluate_draw_many(hands, check=False))
    everything = list(DrawCategory)
    counts = np.bincount(draw_categories(ranks), minlength=10)
    print_counts("high hands, seed tie rule (categories do not depend on the tie rule)", counts, everything)
    substituted = draw_categories(evaluate_draw_many(hands, ties="substituted", check=False), ties="substituted")
    same = np.array_equal(np.bincount(substituted, minlength=10), counts)
    print(f"  same counts with ties='{WildTies.SUBSTITUTED.value}': {'yes' if same else 'NO'}")

    for rule in LowRule:
        low = draw_categories(evaluate_low_many(hands, rule=rule, check=False), low=rule)
        print_counts(
            f"Petite Misère, {rule.value} (what the hands are)", np.bincount(low, minlength=10), everything[:9]
        )

    one_joker = hands[(hands == JOKER_ID).sum(axis=1) == 1]
    print(f"\nbrute force on the {len(one_joker):,} one-joker hands (52 substitutes each) ...", flush=True)
    seconds_brute, brute = timed(lambda: brute_force_categories(one_joker))
    seconds_table, table_ranks = timed(lambda: evaluate_draw_many(one_joker, check=False))
    agree = np.array_equal(np.bincount(brute, minlength=10), np.bincount(draw_categories(table_ranks), minlength=10))
    print(f"  category counts agree with the table evaluator: {'yes' if agree else 'NO'}")

    rng = np.random.default_rng(1)
    sample = hands[rng.choice(len(hands), args.single, replace=False)]
    rows = sample.tolist()
    seconds_single, _ = timed(lambda: [evaluate_draw(row) for row in rows])
    plain = hands[(hands != JOKER_ID).all(axis=1)]
    plain_sample = plain[rng.choice(len(plain), args.single, replace=False)]
    plain_cards = [[Card.from_id(int(i)) for i in row] for row in plain_sample]
    seconds_holdem_single, _ = timed(lambda: [evaluate(c) for c in plain_cards])
    seconds_plain_draw, _ = timed(lambda: [evaluate_draw(c) for c in plain_cards])
    seconds_holdem_many, _ = timed(lambda: evaluate_many(plain, check=False))
    seconds_draw_plain, _ = timed(lambda: evaluate_draw_many(plain, check=False))

    n, j = len(hands), len(one_joker)
    print("\nspeed (same run, same machine)")
    print(f"  {'what':<58} {'seconds':>8} {'ns/hand':>8}")
    lines = [
        (f"draw, vectorised, all {n:,} hands, ids checked", seconds_checked, n),
        (f"draw, vectorised, all {n:,} hands, trusted ids", seconds_trusted, n),
        (f"draw, vectorised, {j:,} one-joker hands", seconds_table, j),
        (f"brute force (52 x Hold'em evaluate_many), {j:,} hands", seconds_brute, j),
        (f"draw, vectorised, {len(plain):,} joker-free hands", seconds_draw_plain, len(plain)),
        (f"Hold'em evaluate_many, the same {len(plain):,} hands", seconds_holdem_many, len(plain)),
        (f"draw, one at a time (evaluate_draw), {args.single:,} hands", seconds_single, args.single),
        (f"draw, one at a time, {args.single:,} joker-free Card hands", seconds_plain_draw, args.single),
        (f"Hold'em evaluate, one at a time, the same {args.single:,}", seconds_holdem_single, args.single),
    ]
    for label, seconds, count in lines:
        print(f"  {label:<58} {seconds:>8.3f} {1e9 * seconds / count:>8.0f}")
    print(f"\n  vectorised draw vs brute force on joker hands: {seconds_brute / seconds_table:.0f}x faster")
    print(f"  vectorised draw vs Hold'em evaluate_many (no jokers): {seconds_holdem_many / seconds_draw_plain:.2f}x")
    print(f"  one at a time, draw vs Hold'em evaluate: {seconds_holdem_single / seconds_plain_draw:.2f}x")
    return 0 if same and agree else 1


if __name__ == "__main__":
    sys.exit(main())
