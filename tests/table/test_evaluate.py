import numpy as np
import pytest

from table.cards import Card, parse_cards
from table.errors import CardParseError, InvalidCardsError, TocktableError
from table.evaluate import Category, HandValue, category_of, compare, evaluate, evaluate_many, winners


def value(text: str) -> HandValue:
    return evaluate(parse_cards(text))


# Named cases from the seed rules (texas-holdem-chips-1-2-10-25.txt, tock-poker-and-texas-holdem.md).
def test_flush_kickers_decide():
    assert compare(parse_cards("Ah Qh Th 4h 3h"), parse_cards("As Qs Ts 4s 2s")) == 1


def test_two_pair_kicker_decides():
    assert value("Kh Kd Th Tc Ad") > value("Ks Kc Ts Td 9h")


def test_full_house_compares_the_three_first():
    assert value("9h 9d 9c 4s 4h") > value("8h 8d 8c Ks Kh")


def test_wheel_is_the_lowest_straight():
    wheel, six_high = value("Ah 2d 3c 4s 5h"), value("2h 3d 4c 5s 6h")
    assert wheel < six_high
    assert wheel.describe() == "Straight, five high"
    assert wheel.category is Category.STRAIGHT


def test_no_wrap_around_straight():
    assert value("Kh Ad 2c 3s 4h").category is Category.HIGH_CARD
    assert value("Qh Kd Ac 2s 3h").category is Category.HIGH_CARD


def test_identical_hands_split_and_suits_never_break_ties():
    a, b = value("Ah Kh Qd Jc 9s"), value("As Ks Qc Jd 9h")
    assert a == b and compare(a, b) == 0
    assert winners([a, b, value("Ah Kh Qd Jc 8s")]) == [0, 1]


def test_board_plays_for_both():
    board = "Ah Kh Qh Jh Th"
    assert compare(parse_cards(board + " 2c 3d"), parse_cards(board + " 4c 5d")) == 0


@pytest.mark.parametrize(
    ("cards", "category", "words"),
    [
        ("Ah Kh Qh Jh Th 2c 3d", Category.STRAIGHT_FLUSH, "Royal flush"),
        ("9s 8s 7s 6s 5s Ad Ac", Category.STRAIGHT_FLUSH, "Straight flush, nine high"),
        ("Jc Jd Jh Js 2c 2d 2h", Category.FOUR_OF_A_KIND, "Four of a kind, jacks"),
        ("Kh Kd Ks 7c 7d 2s 3h", Category.FULL_HOUSE, "Full house, kings full of sevens"),
        ("Kh Kd Ks 7c 7d 7s 3h", Category.FULL_HOUSE, "Full house, kings full of sevens"),
        ("Ah 9h 7h 4h 2h Kd Kc", Category.FLUSH, "Flush, ace high"),
        ("Tc 9d 8h 7s 6c 2d 2h", Category.STRAIGHT, "Straight, ten high"),
        ("6h 6d 6c As 9d 4c 2h", Category.THREE_OF_A_KIND, "Three of a kind, sixes"),
        ("Ah Ad 9c 9s 5d 5c 2h", Category.TWO_PAIR, "Two pair, aces and nines"),
        ("Qh Qd 9c 7s 5d 3c 2h", Category.PAIR, "Pair of queens"),
        ("Ah Jd 9c 7s 5d 3c 2h", Category.HIGH_CARD, "High card, ace"),
    ],
)
def test_categories_and_words(cards, category, words):
    hand = value(cards)
    assert hand.category is category
    assert hand.describe() == words
    assert hand.is_royal == (words == "Royal flush")


@pytest.mark.parametrize(
    ("cards", "best"),
    [
        ("Kh Kd Ks 7c 7d 7s 3h", {"Kh", "Kd", "Ks"}),
        ("Ah Ad 9c 9s 5d 5c Kh", {"Ah", "Ad", "9c", "9s", "Kh"}),
        ("As 2d 3c 4s 5h Kd Kc", {"As", "2d", "3c", "4s", "5h"}),
        ("Ah 9h 7h 4h 2h 3h Kd", {"Ah", "9h", "7h", "4h", "3h"}),
        ("Jc Jd Jh Js Ac 2d 2h", {"Jc", "Jd", "Jh", "Js", "Ac"}),
    ],
)
def test_best_five_holds_the_deciding_cards(cards, best):
    hand = value(cards)
    five = hand.best_five
    assert len(five) == 5 and best <= {str(c) for c in five}
    assert set(five) <= set(parse_cards(cards))
    assert evaluate(five).rank == hand.rank


def test_six_and_five_card_hands_and_inputs():
    assert value("2c 2d 2h 9s 9d Ah").describe() == "Full house, twos full of nines"
    ids = [c.id for c in parse_cards("Ah Kh Qh Jh Th")]
    assert evaluate(ids).is_royal
    assert evaluate(np.array(ids)).is_royal
    assert evaluate("Ah Kh Qh Jh Th").is_royal
    assert evaluate(["Ah", "Kh", "Qh", "Jh", "Th"]).is_royal


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("Ah Kh Qh Jh", "5, 6 or 7 cards, got 4"),
        ("Ah Kh Qh Jh Th 9h 8h 7h", "5, 6 or 7 cards, got 8"),
        ("Ah Kh Qh Jh Ah", "duplicate cards Ah"),
    ],
)
def test_bad_hands_raise_typed_errors(cards, message):
    with pytest.raises(InvalidCardsError, match=message):
        evaluate(cards.split())


def test_bad_card_values():
    with pytest.raises(CardParseError, match="unknown rank"):
        evaluate(["Ah", "Kh", "Qh", "Jh", "Xh"])
    with pytest.raises(InvalidCardsError, match=r"0\.\.51"):
        evaluate([0, 1, 2, 3, 52])
    with pytest.raises(InvalidCardsError, match="give Card objects"):
        evaluate([0, 1, 2, 3, 4.5])  # type: ignore[list-item]
    with pytest.raises(TocktableError):
        evaluate([True, 1, 2, 3, 4])  # type: ignore[list-item]


def test_evaluate_many_matches_evaluate():
    rng = np.random.default_rng(5)
    for k in (5, 6, 7):
        ids = np.argsort(rng.random((3000, 52)), axis=1)[:, :k]
        ranks = evaluate_many(ids)
        assert ranks.shape == (3000,) and ranks.dtype == np.int32
        assert ranks.tolist() == [evaluate(row.tolist()).rank for row in ids]
        assert (evaluate_many(ids.astype(np.uint8), check=False) == ranks).all()


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        (np.zeros((3, 7), dtype=np.float64), "integer array, got dtype float64"),
        (np.arange(8).reshape(1, 8), r"shape \(N, 5\|6\|7\), got \(1, 8\)"),
        (np.arange(7), r"shape \(N, 5\|6\|7\), got \(7,\)"),
        (np.array([[0, 1, 2, 3, 52]]), "card id 52 is out of range"),
        (np.array([[0, 1, 2, 3, -1]]), "card id -1 is out of range"),
        (np.array([[0, 1, 2, 3, 4], [5, 6, 7, 5, 9]]), r"row 1 repeats a card"),
    ],
)
def test_evaluate_many_bad_input(ids, message):
    with pytest.raises(InvalidCardsError, match=message):
        evaluate_many(ids)


def test_evaluate_many_empty_and_categories():
    assert evaluate_many(np.zeros((0, 7), dtype=np.int64)).shape == (0,)
    ranks = evaluate_many(np.array([[c.id for c in parse_cards("Ah Kh Qh Jh Th")], [0, 5, 10, 15, 20]]))
    assert category_of(ranks).tolist() == [Category.STRAIGHT_FLUSH, Category.HIGH_CARD]


def test_hand_value_is_frozen_and_prints():
    hand = value("Ah Ad 9c 9s 5d 5c Kh")
    with pytest.raises(AttributeError):
        hand.rank = 1  # type: ignore[misc]
    assert str(hand) == "Two pair, aces and nines (Ah Ad 9s 9c Kh)"
    assert isinstance(hand.best_five[0], Card)


def test_winners_needs_hands():
    with pytest.raises(InvalidCardsError, match="at least one hand"):
        winners([])
