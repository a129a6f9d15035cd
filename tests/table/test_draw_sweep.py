"""Every category of five-card draw with 0, 1 or 2 jokers under every wild rank, high (both tie
rules) and low (both conventions): evaluated, described, and settled at a showdown.

The sweep is an explicit enumeration, not a sample: a natural hand of each category (the flush
with a joker that once could not be described among them), every way of putting 0-2 jokers in
its place, each of the 13 wild ranks and none. The property test below adds random hands, with
the corners pinned by ``@example`` and settings that do not depend on what else is collected.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from table.cards import ALL_CARDS, JOKER, Card, Rank
from table.draw import DrawCard, DrawCategory, DrawValue, LowRule, WildTies, evaluate_draw, evaluate_low
from table.engine.draw import DrawHand, DrawRules
from tests.table.fixed_settings import fixed_settings

NATURAL_HANDS: dict[DrawCategory, tuple[str, ...]] = {
    DrawCategory.HIGH_CARD: ("Ah Jd 8c 5s 3h", "7h 5d 4c 3s 2h"),
    DrawCategory.PAIR: ("9h 9d Ks 7c 2d",),
    DrawCategory.TWO_PAIR: ("Kh Kd Ts Tc Ah",),
    DrawCategory.THREE_OF_A_KIND: ("Qh Qd Qs 8c 3d",),
    DrawCategory.STRAIGHT: ("9h 8d 7s 6c 5h", "5h 4d 3c 2s Ah", "Ah Kd Qc Js Th"),
    DrawCategory.FLUSH: ("8h 4h Ah 9h Jh", "7d 5d 4d 3d 2d"),
    DrawCategory.FULL_HOUSE: ("Jh Jd Jc 4s 4h",),
    DrawCategory.FOUR_OF_A_KIND: ("8h 8d 8s 8c Kd",),
    DrawCategory.STRAIGHT_FLUSH: ("9s 8s 7s 6s 5s", "5c 4c 3c 2c Ac", "As Ks Qs Js Ts"),
}
"""Natural hands of every category but five of a kind, which a joker makes from the four eights."""

NAMES: dict[DrawCategory, tuple[str, ...]] = {
    **{category: (category.label,) for category in DrawCategory},
    DrawCategory.PAIR: ("Pair of",),
    DrawCategory.STRAIGHT_FLUSH: ("Straight flush", "Royal flush"),
}
"""How the words of each high category begin."""

WILD_RANKS: tuple[Rank | None, ...] = (None, *Rank)
RULES: tuple[tuple[str, WildTies | LowRule], ...] = (
    *(("high", ties) for ties in WildTies),
    *(("low", rule) for rule in LowRule),
)


def with_jokers(text: str) -> Iterator[tuple[DrawCard, ...]]:
    """The hand itself, then every way of replacing one or two of its cards by jokers."""
    cards = [Card.parse(t) for t in text.split()]
    for count in range(3):
        for places in combinations(range(5), count):
            yield tuple(JOKER if i in places else card for i, card in enumerate(cards))


def value(cards: tuple[DrawCard, ...], wild: Rank | None, kind: str, rule: WildTies | LowRule) -> DrawValue:
    if kind == "high":
        assert isinstance(rule, WildTies)
        return evaluate_draw(cards, wild_rank=wild, ties=rule)
    assert isinstance(rule, LowRule)
    return evaluate_low(cards, wild_rank=wild, rule=rule)


def all_hands() -> Iterator[tuple[tuple[DrawCard, ...], tuple[DrawCard, ...]]]:
    """(the natural hand, the hand with its jokers) for every hand of the sweep."""
    for texts in NATURAL_HANDS.values():
        for text in texts:
            natural = next(with_jokers(text))
            for cards in with_jokers(text):
                yield natural, cards


def opponents(cards: tuple[DrawCard, ...]) -> tuple[list[Card], list[Card]]:
    """Two natural hands from the cards the first hand does not hold (jokers stay with it)."""
    rest = [c for c in ALL_CARDS if c not in cards]
    return rest[:5], rest[-5:]


def settle(cards: tuple[DrawCard, ...], wild: Rank | None, kind: str, rule: WildTies | LowRule) -> DrawHand:
    """Three players check to a showdown where seat 1 shows ``cards``; the hand is settled."""
    rules = DrawRules(
        jokers=2,
        wild_rank=wild,
        ties=rule if isinstance(rule, WildTies) else WildTies.NATURAL,
        lowball=rule if isinstance(rule, LowRule) else None,
    )
    hand = DrawHand(rules, stacks=[20, 20, 20], button=0)
    for seat in (1, 2, 0):
        hand.act(seat, "check")
    for seat in (1, 2, 0):
        hand.draw(seat, 0)
    for seat in (1, 2, 0):
        hand.act(seat, "check")
    first, second = opponents(cards)
    hand.deal_hole(1, cards)
    hand.deal_hole(2, first)
    hand.deal_hole(0, second)
    assert hand.is_complete
    return hand


def check_showdown(hand: DrawHand) -> None:
    """The pot went to the best shown value (ties split), every hand is described, chips kept."""
    assert hand.showdown is not None
    result = hand.showdown[0]
    values = {seat: hand.value_of(hand.hole[seat]) for seat in (0, 1, 2)}
    best = max(v.rank for v in values.values())
    assert result.winners == tuple(s for s in sorted(values) if values[s].rank == best)
    assert sum(result.shares.values()) == result.amount == 3
    assert sum(hand.payoffs) == 0
    for seat, shown in values.items():
        assert result.describe(seat) == shown.describe() != ""


def test_the_sweep_covers_every_category_with_0_to_2_jokers() -> None:
    reached = {value(cards, None, "high", WildTies.NATURAL).category for _, cards in all_hands()}
    assert {value(natural, None, "high", WildTies.NATURAL).category for natural, _ in all_hands()} == set(NATURAL_HANDS)
    assert reached == set(DrawCategory)
    jokers = {sum(c is JOKER for c in cards) for _, cards in all_hands()}
    assert jokers == {0, 1, 2}


@pytest.mark.parametrize("kind, rule", RULES, ids=[f"{k}-{r.value}" for k, r in RULES])
@pytest.mark.parametrize("wild", WILD_RANKS, ids=[w.char if w else "no-wild" for w in WILD_RANKS])
def test_every_category_with_jokers_and_wild_rank_is_valued_and_described(
    wild: Rank | None, kind: str, rule: WildTies | LowRule
) -> None:
    for natural, cards in all_hands():
        got = value(cards, wild, kind, rule)
        plain = value(natural, None, kind, rule)
        text = got.describe()
        assert text and "-1" not in text and "None" not in text
        wilds = sum(1 for c in cards if c is JOKER or (isinstance(c, Card) and c.rank == wild))
        assert got.wilds == wilds and got.jokers == sum(c is JOKER for c in cards)
        if wilds:
            assert text.endswith(")") and ("joker" in text or "wild card" in text)
        # A wild card may stand for the card it replaced (the natural hand is one of its
        # choices), so it never makes a worse category; a key leaves out its wild-card term.
        if kind == "high":
            assert got.category >= plain.category
            assert text.startswith(NAMES[got.category])
            if rule is WildTies.SUBSTITUTED:
                assert got.key[:-1] >= plain.key[:-1]
        else:
            assert got.key[:-1] <= plain.key[:-1]  # a low key is badness: smaller is better
        if wilds == 0:
            assert got.rank == plain.rank and got.key == plain.key


@pytest.mark.parametrize("kind, rule", RULES, ids=[f"{k}-{r.value}" for k, r in RULES])
@pytest.mark.parametrize("wild", WILD_RANKS, ids=[w.char if w else "no-wild" for w in WILD_RANKS])
def test_every_category_with_jokers_and_wild_rank_is_settled_at_a_showdown(
    wild: Rank | None, kind: str, rule: WildTies | LowRule
) -> None:
    for _, cards in all_hands():
        check_showdown(settle(cards, wild, kind, rule))


CARDS_AND_JOKERS = st.lists(st.sampled_from([*ALL_CARDS, JOKER]), min_size=5, max_size=5).filter(
    lambda cs: sum(c is JOKER for c in cs) <= 2 and len({c for c in cs if c is not JOKER}) == 5 - cs.count(JOKER)
)


@fixed_settings(300)
@given(
    cards=CARDS_AND_JOKERS,
    wild=st.sampled_from(WILD_RANKS),
    rule=st.sampled_from([rule for _, rule in RULES]),
)
@example(cards=[Card.parse(t) for t in ["8h", "4h", "Ah", "9h"]] + [JOKER], wild=None, rule=WildTies.NATURAL)
@example(cards=[Card.parse(t) for t in ["8h", "4h", "Ah", "9h", "3h"]], wild=Rank.THREE, rule=WildTies.NATURAL)
@example(cards=[Card.parse(t) for t in ["8h", "4h", "9h"]] + [JOKER, JOKER], wild=None, rule=WildTies.SUBSTITUTED)
@example(cards=[Card.parse(t) for t in ["5c", "4c", "2c"]] + [JOKER, JOKER], wild=Rank.ACE, rule=LowRule.ACE_TO_FIVE)
@example(cards=[Card.parse(t) for t in ["7d", "5d", "3d"]] + [JOKER, JOKER], wild=None, rule=LowRule.DEUCE_TO_SEVEN)
@example(cards=[Card.parse(t) for t in ["Kh", "Kd", "Ks", "Kc"]] + [JOKER], wild=Rank.KING, rule=WildTies.NATURAL)
def test_any_hand_with_jokers_is_described_and_settled(
    cards: list[DrawCard], wild: Rank | None, rule: WildTies | LowRule
) -> None:
    kind = "high" if isinstance(rule, WildTies) else "low"
    hand = tuple(cards)
    assert value(hand, wild, kind, rule).describe()
    check_showdown(settle(hand, wild, kind, rule))
