import random

import pytest

from table.cards import ALL_CARDS, Card, Deck, Rank, Suit, format_cards, parse_cards
from table.errors import CardParseError, DeckEmptyError, InvalidCardsError, TocktableError


def test_ids_follow_rank_then_suit():
    assert [c.id for c in ALL_CARDS] == list(range(52))
    assert Card.parse("2c").id == 0
    assert Card.parse("As").id == 51
    assert Card.parse("Ah").id == 12 * 4 + 2
    assert Card(Rank.KING, Suit.DIAMONDS).id == 11 * 4 + 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Ah", "Ah"), ("ah", "Ah"), ("10h", "Th"), ("Td", "Td"), ("Q♠", "Qs"), ("K♥", "Kh"), (" 7c ", "7c"),
     ("Vh", "Jh"), ("Dd", "Qd"), ("Rs", "Ks"), ("1c", "Ac")],
)  # fmt: skip
def test_parse_accepts_human_spellings(text, expected):
    assert str(Card.parse(text)) == expected


def test_round_trip_every_card():
    for card in ALL_CARDS:
        assert Card.parse(str(card)) is card
        assert Card.from_id(card.id) is card


@pytest.mark.parametrize("text", ["", "A", "Ax", "Zh", "11h", "hA", "AhKd"])
def test_parse_errors_name_what_is_allowed(text):
    with pytest.raises(CardParseError) as info:
        Card.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert "V=valet" in message and "10h" in message
    assert isinstance(info.value, ValueError) and isinstance(info.value, TocktableError)


def test_parse_cards_forms():
    assert format_cards(parse_cards("Ah Kd Tc")) == "Ah Kd Tc"
    assert format_cards(parse_cards("Ah,Kd;10c")) == "Ah Kd Tc"
    assert format_cards(parse_cards("AhKd10c")) == "Ah Kd Tc"
    assert format_cards(parse_cards(["Ah", Card.parse("Kd")])) == "Ah Kd"
    assert parse_cards("") == []


def test_parse_cards_rejects_duplicates():
    with pytest.raises(InvalidCardsError, match="duplicate cards Ah"):
        parse_cards("Ah Kd Ah")


def test_card_is_frozen_and_ordered():
    card = Card.parse("Ah")
    with pytest.raises(AttributeError):
        card.rank = Rank.TWO  # type: ignore[misc]
    assert Card.parse("2c") < Card.parse("2d") < Card.parse("3c") < Card.parse("As")
    assert len({Card.parse("Ah"), Card.parse("ah"), Card(Rank.ACE, Suit.HEARTS)}) == 1


def test_from_id_rejects_out_of_range():
    for bad in (-1, 52, True, 3.0):
        with pytest.raises(InvalidCardsError, match=r"0\.\.51"):
            Card.from_id(bad)  # type: ignore[arg-type]


def test_deck_is_reproducible_with_injected_rng():
    a = Deck(rng=random.Random(42)).draw(52)
    b = Deck(rng=random.Random(42)).draw(52)
    c = Deck(rng=random.Random(43)).draw(52)
    assert a == b and a != c
    assert sorted(a) == list(ALL_CARDS)


def test_deck_draw_remove_and_errors():
    deck = Deck(rng=random.Random(1), excluding=parse_cards("Ah Kd"))
    assert len(deck) == 50 and Card.parse("Ah") not in list(deck)
    deck.remove(parse_cards("2c 3c"))
    assert len(deck) == 48
    with pytest.raises(DeckEmptyError, match="not in the deck"):
        deck.remove(parse_cards("2c"))
    drawn = deck.draw(48)
    assert len(set(drawn)) == 48 and len(deck) == 0
    with pytest.raises(DeckEmptyError, match="only 0 left"):
        deck.draw(1)
