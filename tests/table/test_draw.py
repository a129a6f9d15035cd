"""Five-card draw with jokers and wild ranks, and Petite Misère: every example of the seed text
(/work/shared/rules/five-card-draw-jokers-wild-lowball.txt), the choices it leaves open, input errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from table.cards import JOKER, JOKER_ID, Card, Joker, Rank, parse_cards
from table.draw import (
    DrawCategory,
    LowRule,
    WildTies,
    draw_categories,
    evaluate_draw,
    evaluate_draw_many,
    evaluate_low,
    evaluate_low_many,
    parse_draw_cards,
)
from table.errors import CardParseError, InvalidCardsError, RulesError, TocktableError
from table.evaluate import evaluate

BOTH_TIES = pytest.mark.parametrize("ties", list(WildTies))


def beats(a: str, b: str, **options: Any) -> bool:
    return evaluate_draw(a, **options) > evaluate_draw(b, **options)


def ties_with(a: str, b: str, **options: Any) -> bool:
    return evaluate_draw(a, **options).rank == evaluate_draw(b, **options).rank


# ----------------------------------------------------------------------------- the joker card
def test_joker_is_parsed_and_printed_without_touching_the_52_cards() -> None:
    assert parse_draw_cards("Ah Jk 10d fou 🃏") == [Card.parse("Ah"), JOKER, Card.parse("Td"), JOKER, JOKER]
    assert parse_draw_cards("AhJkTd") == [Card.parse("Ah"), JOKER, Card.parse("Td")]
    assert Card.JOKER is JOKER and str(JOKER) == "Jk" and JOKER.id == JOKER_ID == 52
    assert Joker.parse("JOKER") is JOKER
    with pytest.raises(CardParseError, match="joker"):
        Joker.parse("Jx")
    # The 52-card world is unchanged: "Jk" is not a card there, ids stay 0..51.
    with pytest.raises(CardParseError):
        Card.parse("Jk")
    with pytest.raises(InvalidCardsError):
        Card.from_id(52)
    with pytest.raises(CardParseError):
        evaluate(["Jk", "Ah", "Kh", "Qh", "Th"])
    with pytest.raises(InvalidCardsError):
        evaluate([JOKER, "Ah", "Kh", "Qh", "Th"])  # type: ignore[list-item]


# ----------------------------------------------------------------------------- seed: hand values
@BOTH_TIES
def test_le_poker_four_of_a_rank_and_a_joker_is_five_of_a_kind_above_the_royal_flush(ties: WildTies) -> None:
    five_kings = evaluate_draw("Kh Kd Ks Kc Jk", ties=ties)
    assert five_kings.category == DrawCategory.FIVE_OF_A_KIND
    assert five_kings.describe() == "Five of a kind, kings (with a joker)"
    assert beats("Kh Kd Ks Kc Jk", "Ah Kh Qh Jh Th", ties=ties)
    # "quatre As battront des Rois, qui battront des Dames"
    assert beats("Ah Ad As Ac Jk", "Kh Kd Ks Kc Jk", ties=ties)
    assert beats("Kh Kd Ks Kc Jk", "Qh Qd Qs Qc Jk", ties=ties)


@BOTH_TIES
def test_straight_flushes_go_by_their_top_card_the_royal_flush_is_unbeaten_and_the_wheel_lowest(
    ties: WildTies,
) -> None:
    royal = evaluate_draw("As Ks Qs Js Ts", ties=ties)
    assert royal.describe() == "Royal flush"
    others = ["Ks Qs Js Ts 9s", "Kh Qh Jh Th Jk", "Jk Qd Jd Td 9d", "5c 4c 3c 2c Ac", "Jk Jk 9h 8h 7h"]
    assert all(royal > evaluate_draw(h, ties=ties) for h in others)
    assert beats("Kd Qd Jd Td 9d", "Qh Jh Th 9h 8h", ties=ties)
    wheel = evaluate_draw("5c 4c 3c 2c Ac", ties=ties)
    assert wheel.describe() == "Straight flush, five high"
    lowest_natural = min(evaluate_draw(f"{r}h {r - 1}h {r - 2}h {r - 3}h {r - 4}h", ties=ties) for r in range(6, 10))
    assert wheel < lowest_natural


@BOTH_TIES
def test_no_wrap_around_even_with_a_joker(ties: WildTies) -> None:
    # "les suites du genre 3, 2, As, Roi et Dame sont habituellement interdites"
    assert evaluate_draw("3h 2d Ac Ks Qh", ties=ties).category == DrawCategory.HIGH_CARD
    assert evaluate_draw("3h 2d Ac Ks Jk", ties=ties).category == DrawCategory.PAIR
    assert evaluate_draw("3h 2h Ah Kh Jk", ties=ties).category == DrawCategory.FLUSH


@BOTH_TIES
def test_seed_tie_breaks_in_every_category(ties: WildTies) -> None:
    # Four jacks and a 5 beat four tens and a queen.
    assert beats("Jh Jd Js Jc 5h", "Th Td Ts Tc Qh", ties=ties)
    # Three nines and a pair of fours beat three eights and a pair of kings.
    assert beats("9h 9d 9s 4c 4h", "8h 8d 8s Kc Kh", ties=ties)
    # A flush A-Q-10-4-3 beats A-Q-10-4-2.
    assert beats("Ah Qh Th 4h 3h", "Ad Qd Td 4d 2d", ties=ties)
    # Straights: by the highest card.
    assert beats("Kh Qd Jc Ts 9h", "Qh Jd Tc 9s 8h", ties=ties)
    assert ties_with("Kh Qd Jc Ts 9h", "Kd Qc Js Th 9c", ties=ties)
    # Three tens beat three sevens; with wild cards equal trips go to the highest card left.
    assert beats("Th Td Ts 4c 2h", "7h 7d 7s Ac Kh", ties=ties)
    assert beats("Th Td Jk Ac 2h", "Tc Ts Jk Kc Qh", ties=ties)
    # Two kings, two tens and an ace beat two kings, two tens and a nine; the lower pair next.
    assert beats("Kh Kd Th Td Ah", "Ks Kc Ts Tc 9h", ties=ties)
    assert beats("Kh Kd Jh Jd 2h", "Ks Kc Ts Tc Ah", ties=ties)
    # Two pairs of nines: the highest remaining card decides, then the next ones.
    assert beats("9h 9d Ah 5d 3c", "9s 9c Kh Qd Jc", ties=ties)
    assert beats("9h 9d Ah 5d 4c", "9s 9c Ad 5c 3s", ties=ties)
    # No combination: the cards in descending order.
    assert beats("Ah Jd 9c 5s 3h", "Ad Jc 9s 5h 2d", ties=ties)
    assert ties_with("Ah Jd 9c 5s 3h", "Ad Jc 9s 5h 3d", ties=ties)


@BOTH_TIES
def test_the_ace_plays_high_or_low_in_a_straight_and_the_wheel_is_the_lowest_straight(ties: WildTies) -> None:
    assert evaluate_draw("Ah Kd Qc Js Th", ties=ties).describe() == "Straight, ace high"
    wheel = evaluate_draw("5h 4d 3c 2s Ah", ties=ties)
    assert wheel.describe() == "Straight, five high"
    assert wheel < evaluate_draw("6h 5d 4c 3s 2h", ties=ties)
    assert wheel > evaluate_draw("Ah Ad Ac Ks Qh", ties=ties)  # any straight beats three of a kind


@BOTH_TIES
def test_a_joker_may_stand_for_an_ace_or_complete_a_straight_or_a_flush(ties: WildTies) -> None:
    assert evaluate_draw("Jk Ah Ad 7c 2s", ties=ties).describe() == "Three of a kind, aces (with a joker)"
    assert evaluate_draw("Jk Ah Kd Qc Js", ties=ties).describe() == "Straight, ace high (with a joker)"
    assert evaluate_draw("Jk 9h 7d 6c 5s", ties=ties).category == DrawCategory.STRAIGHT  # inside the run
    assert evaluate_draw("Jk 9h 7h 4h 2h", ties=ties).category == DrawCategory.FLUSH
    assert evaluate_draw("Jk Jk 9h 8h 6h", ties=ties).category == DrawCategory.STRAIGHT_FLUSH
    assert evaluate_draw("Jk Jk 9h 9d 9s", ties=ties).describe() == "Five of a kind, nines (with 2 jokers)"


def test_the_joker_does_not_count_to_break_a_tie_seed_rule() -> None:
    # "un Fou complétant la suite Dame, Valet, 10 et 9 perdra devant la suite Roi, Dame, Valet, 10, 9"
    assert beats("Kh Qs Jd Tc 9s", "Jk Qh Jd Tc 9s")
    value = evaluate_draw("Jk Qh Jd Tc 9s")
    assert value.describe() == "Straight, queen high (with a joker)"
    # Whatever the joker stands for, it adds nothing: the straight is "queen high", so the same
    # natural cards with the joker placed inside the run make an equal hand.
    assert ties_with("Jk Qh Jd Tc 9s", "Jk Qd Jc Ts 8s")
    # In a flush the joker counts for nothing (below a two).
    assert beats("Ah Qh Th 4h 2h", "Ad Qd Td 4d Jk")
    assert beats("Jk Ah Qh Th 4h", "Ad Kd 9d 4d 3d") is False


def test_the_joker_counts_as_what_it_stands_for_under_the_substituted_rule() -> None:
    options = {"ties": WildTies.SUBSTITUTED}
    assert beats("Kh Qs Jd Tc 9s", "Jk Qh Jd Tc 9s", **options)  # equal straights: the natural wins
    assert evaluate_draw("Jk Qh Jd Tc 9s", ties=WildTies.SUBSTITUTED).describe() == "Straight, king high (with a joker)"
    assert beats("Jk Qh Jd Tc 9s", "Qd Jc Ts 9h 8c", **options)
    assert beats("Jk Ah Qh Th 4h", "Ad Kd 9d 4d 3d", **options)  # the joker is the missing king
    assert beats("Ad Kd Qd Td 4d", "Jk Ah Qh Th 4h", **options)


@BOTH_TIES
def test_between_otherwise_equal_hands_fewer_jokers_wins(ties: WildTies) -> None:
    # "S'il y a égalité, la main comportant le moins de jokers est la plus forte."
    assert beats("Ah Ad As 9c 4h", "Ac Jk Jk 9d 4d", ties=ties)
    assert beats("Kh Kd Jk 9c 4h", "Ks Jk Jk 9d 4d", ties=ties)
    assert beats("Ah Kh Qh Jh Th", "Ad Kd Qd Jd Jk", ties=ties)
    assert beats("Qc Qd Qs Qh Jk", "Qc Qd Qs Jk Jk", ties=ties)
    assert ties_with("Kh Kd Jk 9c 4h", "Ks Kc Jk 9d 4d", ties=ties)  # same jokers: a split pot


def test_a_declared_wild_rank_makes_a_royal_flush_easier() -> None:
    # "annoncez par exemple que les 3 sont des cartes atouts ... une quinte flush royale!"
    royal = evaluate_draw("3c As Ks Qs Js", wild_rank="3")
    assert royal.describe() == "Royal flush (with a wild card)"
    assert evaluate_draw("3c As Ks Qs Js").category == DrawCategory.HIGH_CARD
    four_aces = "Four of a kind, aces (with 3 wild cards)"
    assert evaluate_draw("3c 3d As Kh Jk", wild_rank=Rank.THREE).describe() == four_aces
    assert evaluate_draw("3c 3d 3h 3s Jk", wild_rank="3").describe() == "Five of a kind, aces (with 5 wild cards)"
    # Fewer wild cards still wins: a natural royal flush beats a wild one.
    assert evaluate_draw("As Ks Qs Js Ts", wild_rank="3") > royal


# ----------------------------------------------------------------------------- Petite Misère
def test_petite_misere_ace_to_five_aces_low_straights_and_flushes_ignored() -> None:
    best = evaluate_low("5h 4d 3c 2s Ah")
    assert best.describe() == "Five-four low (5-4-3-2-A)"
    assert best > evaluate_low("6h 4d 3c 2s Ah")
    assert evaluate_low("5h 4h 3h 2h Ah").rank == best.rank  # a flush and a straight do not count
    assert evaluate_low("7h 5d 4c 3s 2h") > evaluate_low("7d 6c 4s 3h 2c")  # the second card decides
    assert evaluate_low("Kh Qd Jc 9s 8h") > evaluate_low("2h 2d 3c 4s 5h")  # any pair is worse
    assert evaluate_low("Ah Ad 3c 4s 5h") > evaluate_low("2h 2d 3c 4s 5d")  # aces are the lowest pair
    assert evaluate_low("Kh Kd Ks Kc 2h").category == DrawCategory.FOUR_OF_A_KIND


def test_petite_misere_deuce_to_seven_aces_high_straights_and_flushes_count() -> None:
    rule = LowRule.DEUCE_TO_SEVEN
    best = evaluate_low("7h 5d 4c 3s 2h", rule=rule)
    assert best.describe() == "Seven-five low (7-5-4-3-2)"
    assert best > evaluate_low("7h 6d 4c 3s 2h", rule=rule)
    assert evaluate_low("6h 5d 4c 3s 2h", rule=rule).category == DrawCategory.STRAIGHT
    assert evaluate_low("7h 5h 4h 3h 2h", rule=rule).category == DrawCategory.FLUSH
    wheel = evaluate_low("5h 4d 3c 2s Ah", rule=rule)
    assert wheel.category == DrawCategory.HIGH_CARD and wheel.describe() == "Ace-five low (A-5-4-3-2)"
    assert evaluate_low("Kh Qd Jc 9s 8h", rule=rule) > wheel  # the ace is high only
    assert evaluate_low("Kh Qd Jc 9s 8h", rule=rule) > evaluate_low("2h 2d 3c 4s 5h", rule=rule)


@pytest.mark.parametrize("rule", list(LowRule))
def test_petite_misere_wild_cards_go_low_and_a_natural_hand_wins_a_tie(rule: LowRule) -> None:
    best = "7h 5d 4c 3s 2h" if rule is LowRule.DEUCE_TO_SEVEN else "5h 4d 3c 2s Ah"
    with_joker = evaluate_low("Jk " + " ".join(best.split()[1:]), rule=rule)
    assert with_joker.key[:-1] == evaluate_low(best, rule=rule).key[:-1]
    assert evaluate_low(best, rule=rule) > with_joker
    assert evaluate_low("Jk 9h 8d 6c 5s", rule=rule) > evaluate_low("Th 9d 8c 6s 5h", rule=rule)
    # A wild card never pairs and, in deuce-to-seven, avoids a straight.
    assert evaluate_low("Jk Jk Kh Kd Ks", rule=rule).category == DrawCategory.THREE_OF_A_KIND
    assert evaluate_low("Jk 6h 5d 4c 3s", rule=rule).category == DrawCategory.HIGH_CARD
    assert evaluate_low("3c 6h 5d 4c 3s", rule=rule, wild_rank="3").category == DrawCategory.HIGH_CARD


def test_low_and_high_rank_in_opposite_directions() -> None:
    hands = ["5h 4d 3c 2s Ah", "Kh Kd Ks Kc 2h", "Jk Qh Jd Tc 9s", "9h 9d Ah 5d 3c"]
    high = sorted(hands, key=lambda h: evaluate_draw(h).rank)
    low = sorted(hands, key=lambda h: evaluate_low(h).rank)
    assert high[-1] == "Kh Kd Ks Kc 2h" and low[-1] == "5h 4d 3c 2s Ah"
    assert low[0] == "Kh Kd Ks Kc 2h"


# ----------------------------------------------------------------------------- many hands
@pytest.mark.parametrize("wild_rank", [None, "3"])
def test_evaluate_many_agrees_with_one_at_a_time(wild_rank: str | None) -> None:
    rng = np.random.default_rng(10)
    deck = np.concatenate([np.arange(52), [JOKER_ID, JOKER_ID]])
    ids = np.array([rng.choice(deck, 5, replace=False) for _ in range(3000)])
    for ties in WildTies:
        many = evaluate_draw_many(ids, wild_rank=wild_rank, ties=ties)
        one = [evaluate_draw(row.tolist(), wild_rank=wild_rank, ties=ties).rank for row in ids]
        assert many.tolist() == one
        categories = [evaluate_draw(row.tolist(), wild_rank=wild_rank, ties=ties).category for row in ids]
        assert draw_categories(many, ties=ties).tolist() == categories
    for rule in LowRule:
        many = evaluate_low_many(ids, wild_rank=wild_rank, rule=rule)
        assert many.tolist() == [evaluate_low(row.tolist(), wild_rank=wild_rank, rule=rule).rank for row in ids]
        assert draw_categories(many, low=rule).max() <= DrawCategory.STRAIGHT_FLUSH


def test_without_wild_cards_the_draw_order_is_the_hold_em_evaluator_order() -> None:
    rng = np.random.default_rng(3)
    ids = np.argsort(rng.random((5000, 52)), axis=1)[:, :5]
    ours = evaluate_draw_many(ids)
    theirs = np.array([evaluate([Card.from_id(int(i)) for i in row]).rank for row in ids])
    order = np.argsort(theirs, kind="stable")
    assert np.array_equal(np.sign(np.diff(ours[order])), np.sign(np.diff(theirs[order])))


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("cards", "error", "message"),
    [
        ("Ah Kd Qc Js", InvalidCardsError, "exactly 5 cards, got 4"),
        ("Ah Kd Qc Js Th 9h", InvalidCardsError, "exactly 5 cards, got 6"),
        ("Ah Ah Qc Js Th", InvalidCardsError, "duplicate cards Ah"),
        ("Jk Jk Jk Js Th", InvalidCardsError, "at most 2 jokers"),
        ("Ah Kd Qc Js Zz", CardParseError, "unknown rank"),
        (["Ah", "Kd", "Qc", "Js", 1.5], CardParseError, "cannot read 1.5"),
        (["Ah", "Kd", "Qc", "Js", 53], InvalidCardsError, "out of range"),
    ],
)
def test_bad_hands_raise_typed_errors_saying_what_is_allowed(cards: object, error: type, message: str) -> None:
    for evaluator in (evaluate_draw, evaluate_low):
        with pytest.raises(error, match=message) as caught:
            evaluator(cards)  # type: ignore[arg-type]
        assert isinstance(caught.value, TocktableError) and isinstance(caught.value, ValueError)


def test_bad_rules_raise_typed_errors() -> None:
    with pytest.raises(RulesError, match="wild_rank 'Z' is not a rank"):
        evaluate_draw("Ah Kd Qc Js Th", wild_rank="Z")
    with pytest.raises(RulesError, match="wild_rank 3: a bare number is ambiguous"):
        evaluate_draw("Ah Kd Qc Js Th", wild_rank=3)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="tie rule 'jokers-high' is not known: use one of 'natural', 'substituted'"):
        evaluate_draw("Ah Kd Qc Js Th", ties="jokers-high")
    with pytest.raises(
        RulesError, match="low rule 'ace-to-six' is not known: use one of 'ace-to-five', 'deuce-to-seven'"
    ):
        evaluate_low("Ah Kd Qc Js Th", rule="ace-to-six")


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        (np.zeros((3, 4), dtype=int), r"shape \(N, 5\)"),
        (np.array([[0.0, 1, 2, 3, 4]]), "integer array"),
        (np.array([[0, 1, 2, 3, 53]]), "id 53 is out of range"),
        (np.array([[0, 1, 2, 3, -1]]), "id -1 is out of range"),
        (np.array([[0, 1, 2, 3, 4], [0, 1, 2, 2, 52]]), "row 1 repeats a card"),
        (np.array([[52, 52, 52, 3, 4]]), "row 0 holds 3 jokers"),
    ],
)
def test_bad_id_arrays_raise_typed_errors(ids: np.ndarray, message: str) -> None:
    with pytest.raises(InvalidCardsError, match=message):
        evaluate_draw_many(ids)
    with pytest.raises(InvalidCardsError, match=message):
        evaluate_low_many(ids)


def test_two_jokers_may_repeat_but_natural_cards_may_not() -> None:
    assert evaluate_draw_many(np.array([[52, 52, 0, 1, 2]])).shape == (1,)
    assert evaluate_draw_many(np.zeros((0, 5), dtype=int)).shape == (0,)
    with pytest.raises(InvalidCardsError, match="duplicate cards Kd"):
        parse_draw_cards("Kd Jk Kd")
    assert len(parse_draw_cards([*parse_cards("Ah Kd"), JOKER, JOKER])) == 4


def test_every_hand_with_jokers_and_wild_cards_can_be_described() -> None:
    """Every 5-card hand of a pool that makes every category (flushes, straights, pairs, trips, a
    quad's worth of eights) with 0-2 jokers, under each wild rank and tie rule, high and low, is
    valued and described: a wild card that counts for nothing (a joker in a flush) never reaches
    the words."""
    from itertools import combinations

    from table.draw import WildTies, evaluate_draw, evaluate_low

    pool = ["Ah", "Kh", "Qh", "Jh", "Th", "9h", "8h", "4h", "2h", "8s", "8d", "8c", "As", "Jk", "Jk"]
    described = 0
    for hand in combinations(range(len(pool)), 5):
        cards = [pool[i] for i in hand]
        for wild in (None, "2", "8", "A"):
            for ties in WildTies:
                value = evaluate_draw(cards, wild_rank=wild, ties=ties)
                assert value.describe()
                described += 1
            for rule in ("ace-to-five", "deuce-to-seven"):
                assert evaluate_low(cards, wild_rank=wild, rule=rule).describe()
    assert described == 3003 * 4 * len(WildTies)
