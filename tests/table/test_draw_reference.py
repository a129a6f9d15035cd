"""Wild-card evaluation against a brute-force reference: every wild card is replaced by every
one of the 52 cards, each resulting concrete hand is classified by an independent (numpy)
classifier, and the best (for lowball: the lowest) is kept. The table evaluator must give the
same category and tie-break ranks for every hand, and order hands exactly as the reference does
(then fewer wild cards wins).

Runs: all 14,950 one-joker hands of a small deck (26 cards), in all four rankings; 50,000 random
hands with one or two jokers of the full deck; random hands with a declared wild rank; and the
category counts of all 2,869,685 hands of 52 cards and a joker, checked by substitution through
the Hold'em evaluator.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import numpy as np
import numpy.typing as npt
import pytest

from table.cards import JOKER_ID
from table.draw import DrawCategory, draw_categories, evaluate_draw_many, evaluate_low_many
from table.draw_tables import TableKind, rank_table
from table.evaluate import Category, category_of, evaluate_many

IntArray = npt.NDArray[np.int64]

HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL, QUADS, SF, FIVE = range(10)
SHAPES = {FIVE: (5,), QUADS: (4, 1), FULL: (3, 2), TRIPS: (3, 1, 1), TWO_PAIR: (2, 2, 1), PAIR: (2, 1, 1, 1),
          HIGH: (1, 1, 1, 1, 1)}  # fmt: skip
PAD = -2
"""Unused tie-break slot (straights need one number)."""
NOTHING = -1
"""A wild card's worth in a tie-break under the seed rule."""
KINDS = list(TableKind)


# ----------------------------------------------------------------------------- the reference
def classify(ranks: IntArray, suits: IntArray, wild: npt.NDArray[np.bool_], kind: TableKind) -> IntArray:
    """Encoded (category, five tie-break numbers) of concrete hands, rows of (M, 5) arrays.

    High hands: larger is better. Low hands: the usual key of the low convention, smaller is
    better. ``wild`` marks the cards that were wild (they count for nothing in a tie-break under
    the seed rule, unless they are part of a group of equal cards)."""
    low = kind.is_low
    values = (ranks + 1) % 13 if kind is TableKind.LOW_ACE_TO_FIVE else ranks.copy()
    count = (values[:, :, None] == values[:, None, :]).view(np.int8).sum(axis=2, dtype=np.int16)
    most = count.max(axis=1)
    pairs = (count == 2).sum(axis=1) // 2
    distinct = most == 1
    flush = (suits == suits[:, :1]).all(axis=1) & (kind is not TableKind.LOW_ACE_TO_FIVE)
    top, bottom = values.max(axis=1), values.min(axis=1)
    ordered = np.sort(values, axis=1)
    wheel = distinct & (ordered[:, 3] == 3) & (ordered[:, 4] == 12) & (kind is not TableKind.LOW_DEUCE_TO_SEVEN)
    straight = distinct & ((top - bottom == 4) | wheel) & (kind is not TableKind.LOW_ACE_TO_FIVE)

    category = np.full(len(ranks), HIGH)
    category[pairs == 1] = PAIR
    category[pairs == 2] = TWO_PAIR
    category[most == 3] = TRIPS
    category[straight] = STRAIGHT
    category[flush] = FLUSH
    category[(most == 3) & (pairs == 1)] = FULL
    category[most == 4] = QUADS
    category[straight & flush] = SF
    category[most == 5] = FIVE

    seed_rule = kind is TableKind.HIGH_NATURAL
    worth = values.copy()
    if seed_rule:  # a lone wild card (a kicker, or in a flush) is worth nothing
        worth = np.where(wild & (count == 1), NOTHING, worth)
    tie = -np.sort(-(count * 16 + worth + 2).astype(np.int16), axis=1) % 16 - 2  # by group size, then rank
    run = straight[:, None]
    if seed_rule:  # the highest natural card, an ace in the wheel being low
        natural_top = np.where(wild | (wheel[:, None] & (values == 12)), NOTHING, values).max(axis=1)
    else:
        natural_top = np.where(wheel, 3, top)
    straight_tie = np.concatenate([natural_top[:, None], np.full((len(ranks), 4), PAD)], axis=1)
    tie = np.where(run, straight_tie, tie)

    code = category.astype(np.int64)
    tie = tie.astype(np.int64)
    for column in range(5):
        code = code * 16 + (tie[:, column] + 2)
    # A substitution that repeats a card of the hand is no hand, unless it is five of a kind.
    card = np.sort(ranks * 4 + suits, axis=1)
    repeated = (card[:, 1:] == card[:, :-1]).any(axis=1) & (most < 5)
    return np.where(repeated, np.iinfo(np.int64).max if low else -1, code)


def reference(hands: IntArray, kind: TableKind, wild_rank: int | None = None) -> tuple[IntArray, IntArray]:
    """(best encoded key, wild-card count) per hand, by trying every substitution of its wild
    cards by the 52 cards. Wild cards are interchangeable, so each multiset of substitutes is
    tried once."""
    is_wild = (hands == JOKER_ID) | ((hands >> 2) == (-1 if wild_rank is None else wild_rank))
    wilds = is_wild.sum(axis=1)
    best = np.zeros(len(hands), dtype=np.int64)
    for w in np.unique(wilds):
        rows = np.flatnonzero(wilds == w)
        if w == 0:
            cards = hands[rows]
            best[rows] = classify(cards >> 2, cards & 3, np.zeros(cards.shape, dtype=bool), kind)
            continue
        subs = np.array(list(combinations_with_replacement(range(52), int(w))), dtype=np.int64).reshape(-1, int(w))
        for start in range(0, len(rows), max(1, 400_000 // len(subs))):
            chunk = rows[start : start + max(1, 400_000 // len(subs))]
            # Natural cards first, then the wild positions, in each hand.
            order = np.argsort(is_wild[chunk], axis=1, kind="stable")
            cards = np.take_along_axis(hands[chunk], order, axis=1)
            full = np.repeat(cards.astype(np.int16), len(subs), axis=0)
            full[:, 5 - w :] = np.tile(subs, (len(chunk), 1))
            wild_mask = np.zeros_like(full, dtype=bool)
            wild_mask[:, 5 - w :] = True
            codes = classify(full >> 2, full & 3, wild_mask, kind).reshape(len(chunk), len(subs))
            best[chunk] = codes.min(axis=1) if kind.is_low else codes.max(axis=1)
    return best, wilds


def encode_table_key(key: tuple[int, ...]) -> int:
    """The table's key in the reference's encoding (groups spelled out card by card)."""
    category, *tie = key[:-1]
    if category in (STRAIGHT, SF):
        spelled = [tie[0], PAD, PAD, PAD, PAD]
    elif category == FLUSH:
        spelled = list(tie)
    else:
        spelled = [rank for rank, n in zip(tie, SHAPES[category], strict=True) for _ in range(n)]
    code = category
    for value in spelled:
        code = code * 16 + value + 2
    return code


def check_against_reference(hands: IntArray, kind: TableKind, wild_rank: int | None = None) -> None:
    best, wilds = reference(hands, kind, wild_rank)
    many = evaluate_low_many if kind.is_low else evaluate_draw_many
    options = {TableKind.HIGH_NATURAL: {"ties": "natural"}, TableKind.HIGH_SUBSTITUTED: {"ties": "substituted"},
               TableKind.LOW_ACE_TO_FIVE: {"rule": "ace-to-five"},
               TableKind.LOW_DEUCE_TO_SEVEN: {"rule": "deuce-to-seven"}}[kind]  # fmt: skip
    wild = None if wild_rank is None else "23456789TJQKA"[wild_rank]
    ranks = many(hands, wild_rank=wild, **options)  # type: ignore[arg-type]
    keys = rank_table(kind).keys
    ours = np.array([encode_table_key(keys[r - 1]) for r in ranks])
    ours_wilds = np.array([abs(keys[r - 1][-1]) for r in ranks])
    mismatch = np.flatnonzero((ours != best) | (ours_wilds != wilds))
    assert mismatch.size == 0, f"{mismatch.size} hands differ, first {hands[mismatch[0]].tolist()}"
    # The same order: higher rank exactly when the reference key is better, then fewer wilds.
    better = (-best if kind.is_low else best) * 8 + (5 - wilds)
    order = np.argsort(ranks, kind="stable")
    assert np.array_equal(np.sign(np.diff(ranks[order])), np.sign(np.diff(better[order])))


# ----------------------------------------------------------------------------- the checks
SMALL_DECK = [*(rank * 4 + suit for rank in (0, 1, 2, 3, 8, 10, 11, 12) for suit in (0, 2, 3)), 1, 49]
"""2 3 4 5 T Q K A in three suits, and the 2 and the ace of the fourth: wheels, broadways,
flushes, every group shape and five of a kind."""


@pytest.mark.parametrize("kind", KINDS, ids=[k.value for k in KINDS])
def test_every_one_joker_hand_of_a_small_deck_matches_brute_force(kind: TableKind) -> None:
    hands = np.array([[*four, JOKER_ID] for four in combinations(SMALL_DECK, 4)], dtype=np.int64)
    assert len(hands) == 14_950
    check_against_reference(hands, kind)


def random_hands(count: int, jokers: int, seed: int) -> IntArray:
    rng = np.random.default_rng(seed)
    naturals = np.argsort(rng.random((count, 52)), axis=1)[:, : 5 - jokers]
    hands = np.concatenate([naturals, np.full((count, jokers), JOKER_ID)], axis=1)
    return np.take_along_axis(hands, np.argsort(rng.random((count, 5)), axis=1), axis=1)


def test_fifty_thousand_random_hands_with_one_or_two_jokers_match_brute_force() -> None:
    # Two jokers cost 1,378 substitutions a hand, one joker 52.
    hands = np.concatenate([random_hands(47_000, 1, seed=1), random_hands(3_000, 2, seed=2)])
    assert len(hands) == 50_000
    check_against_reference(hands, TableKind.HIGH_NATURAL)


@pytest.mark.parametrize("kind", KINDS[1:], ids=[k.value for k in KINDS[1:]])
def test_random_hands_with_jokers_match_brute_force_in_the_other_rankings(kind: TableKind) -> None:
    hands = np.concatenate([random_hands(8_000, 1, seed=3), random_hands(800, 2, seed=4)])
    check_against_reference(hands, kind)


@pytest.mark.parametrize("kind", KINDS, ids=[k.value for k in KINDS])
def test_a_declared_wild_rank_matches_brute_force(kind: TableKind) -> None:
    # Sevens wild, plus sometimes a joker: up to three wild cards, most hands with none or one.
    rng = np.random.default_rng(5)
    deck = np.array([*range(52), JOKER_ID])
    hands = np.array([rng.choice(deck, 5, replace=False) for _ in range(4_000)])
    sevens = (hands >> 2) == 5
    keep = ((sevens.sum(axis=1) + (hands == JOKER_ID).sum(axis=1)) <= 2) | (np.arange(len(hands)) % 20 == 0)
    check_against_reference(hands[keep], kind, wild_rank=5)


def test_category_counts_of_all_hands_of_52_cards_and_a_joker() -> None:
    from bench.draw import deck_hands

    hands = deck_hands(jokers=1)
    assert len(hands) == 2_869_685
    counts = np.bincount(draw_categories(evaluate_draw_many(hands, check=False)), minlength=10)
    substituted = draw_categories(evaluate_draw_many(hands, ties="substituted"), ties="substituted")
    assert np.bincount(substituted, minlength=10).tolist() == counts.tolist()
    # Hands without the joker: the public 52-card counts.
    plain = hands[hands[:, 4] != JOKER_ID]
    natural = np.bincount(category_of(evaluate_many(plain)), minlength=9)
    assert natural.tolist() == [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
    # Hands with the joker: the best category over its 52 substitutes, by the Hold'em evaluator
    # (which cannot see five of a kind: four of a kind and the joker).
    four = hands[hands[:, 4] == JOKER_ID][:, :4].astype(np.int64)
    best = np.full(len(four), -1)
    for card in range(52):
        usable = (four != card).all(axis=1)
        subs = np.concatenate([four[usable], np.full((int(usable.sum()), 1), card)], axis=1)
        best[usable] = np.maximum(best[usable], category_of(evaluate_many(subs, check=False)))
    quads_in_four = ((four >> 2) == (four[:, :1] >> 2)).all(axis=1)
    best[quads_in_four] = DrawCategory.FIVE_OF_A_KIND
    with_joker = np.bincount(best, minlength=10)
    assert (counts - np.pad(natural, (0, 1))).tolist() == with_joker.tolist()
    assert counts[DrawCategory.FIVE_OF_A_KIND] == 13 and counts[Category.STRAIGHT_FLUSH] == 204
    assert counts.sum() == 2_869_685
