"""Exhaustive and differential checks of the evaluator against known counts, an obviously
correct reference written here, and treys."""

from collections import Counter
from functools import cache
from itertools import combinations, pairwise
from math import comb

import numpy as np
import pytest

from table.cards import Card
from table.evaluate import Category, category_of, evaluate, evaluate_many

FIVE_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}


def all_five_card_hands() -> np.ndarray:
    hands = np.fromiter(combinations(range(52), 5), dtype=np.dtype((np.int8, 5)), count=comb(52, 5))
    return hands


def test_all_2598960_five_card_hands():
    hands = all_five_card_hands()
    ranks = evaluate_many(hands)
    counts = np.bincount(category_of(ranks), minlength=9)
    assert {Category(i): int(n) for i, n in enumerate(counts)} == FIVE_CARD_COUNTS
    assert len(np.unique(ranks)) == 7462
    royal = [c.id for c in (Card.parse(t) for t in ["Ah", "Kh", "Qh", "Jh", "Th"])]
    assert int((ranks == ranks.max()).sum()) == 4 and ranks.max() == evaluate(royal).rank


def reference_five(cards: tuple[int, ...]) -> tuple[int, ...]:
    """Obviously correct five-card score: (category, tie-break ranks...), larger is better."""
    return score_five(tuple(sorted((c // 4 for c in cards), reverse=True)), len({c % 4 for c in cards}) == 1)


@cache
def score_five(ranks: tuple[int, ...], flush: bool) -> tuple[int, ...]:
    """The score depends only on the ranks (high to low) and whether all suits match."""
    distinct = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        straight_top = distinct[0]
    if distinct == [12, 3, 2, 1, 0]:
        straight_top = 3  # A-2-3-4-5: the ace plays low, five high
    # Ranks ordered by how many times they occur, then by rank: the tie-break order.
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [n for _, n in groups]
    order = tuple(r for r, _ in groups)
    if straight_top is not None and flush:
        return (8, straight_top)
    if shape == [4, 1]:
        return (7, *order)
    if shape == [3, 2]:
        return (6, *order)
    if flush:
        return (5, *ranks)
    if straight_top is not None:
        return (4, straight_top)
    if shape == [3, 1, 1]:
        return (3, *order)
    if shape == [2, 2, 1]:
        return (2, *order)
    if shape == [2, 1, 1, 1]:
        return (1, *order)
    return (0, *ranks)


def reference_best(cards: tuple[int, ...]) -> tuple[int, ...]:
    return max(reference_five(five) for five in combinations(cards, 5))


def assert_same_order(ours: list[int], theirs: list) -> None:
    """Our ranks must order the hands exactly as ``theirs`` does, ties included."""
    pairs = sorted(zip(theirs, ours, strict=True))
    for (t1, o1), (t2, o2) in pairwise(pairs):
        if t1 == t2:
            assert o1 == o2, f"tie {t1} got ranks {o1} and {o2}"
        else:
            assert o1 < o2, f"{t1} < {t2} but ranks {o1} >= {o2}"


def random_hands(count: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :size].astype(np.int64)


@pytest.mark.slow
def test_seven_cards_agree_with_reference_on_100000_hands():
    hands = random_hands(100_000, 7, seed=11)
    batched = evaluate_many(hands).tolist()
    single = [evaluate(row).rank for row in hands.tolist()]
    assert single == batched
    assert_same_order(batched, [reference_best(tuple(row)) for row in hands.tolist()])


def test_reference_agrees_on_every_category():
    # Every one of the 7,462 classes, seen through the reference, in the same order.
    hands = all_five_card_hands()[::97]
    ranks = evaluate_many(hands).tolist()
    assert_same_order(ranks, [reference_five(tuple(h)) for h in hands.tolist()])


def test_order_agrees_with_treys_on_100000_hands():
    treys = pytest.importorskip("treys")
    evaluator = treys.Evaluator()
    hands = random_hands(100_000, 7, seed=12)
    to_treys = [treys.Card.new(str(Card.from_id(i))) for i in range(52)]
    theirs = [-evaluator.evaluate([to_treys[i] for i in row[:2]], [to_treys[i] for i in row[2:]])
              for row in hands.tolist()]  # fmt: skip
    assert_same_order(evaluate_many(hands).tolist(), theirs)


@pytest.mark.slow
def test_all_133784560_seven_card_hands():
    from bench.evaluator import SEVEN_CARD_COUNTS, exhaustive_counts

    counts, total = exhaustive_counts()
    assert total == comb(52, 7)
    assert {Category(i): int(n) for i, n in enumerate(counts)} == SEVEN_CARD_COUNTS
