"""Playing cards: ranks, suits, cards, parsing of human input, and a deck.

A card's integer id is ``rank_index * 4 + suit_index`` with ranks ``23456789TJQKA`` and
suits ``cdhs``, so ids run 0 (2c) .. 51 (As). The evaluator and the vision models use ids;
people use text such as ``"Ah"``, ``"10h"`` or the French ``"Dh"`` (dame = queen).

>>> Card.parse("Ah")
Card('Ah')
>>> str(Card.parse("10h")), Card.parse("Vs").id
('Th', 39)
>>> [str(c) for c in parse_cards("Ah Kd, Tc")]
['Ah', 'Kd', 'Tc']
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from typing import ClassVar

from table.errors import CardParseError, DeckEmptyError, InvalidCardsError
from table.phrases import N_, Number, Phrase, Verbatim, given

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"

_RANK_WORDS = (
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)  # fmt: skip
_RANK_PLURALS = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
    "nines", "tens", "jacks", "queens", "kings", "aces",
)  # fmt: skip


class Rank(IntEnum):
    """Card rank, ordered from two (0) to ace (12)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        """One-letter symbol: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return RANK_CHARS[self]

    @property
    def word(self) -> str:
        """English name in lower case, e.g. ``"king"``."""
        return _RANK_WORDS[self]

    @property
    def plural(self) -> str:
        """English plural in lower case, e.g. ``"sixes"``."""
        return _RANK_PLURALS[self]


class Suit(IntEnum):
    """Card suit; the index order ``cdhs`` is also the order of strength used to break
    ties when drawing for the first dealer (spades > hearts > diamonds > clubs)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """One-letter symbol: ``c``, ``d``, ``h`` or ``s``."""
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        """The suit's pip as a Unicode character."""
        return "♣♦♥♠"[self]

    @property
    def word(self) -> str:
        """English name in lower case, e.g. ``"hearts"``."""
        return ("clubs", "diamonds", "hearts", "spades")[self]


# Human input: every spelling we accept for a rank or a suit.
_RANK_ALIASES: dict[str, Rank] = {c: Rank(i) for i, c in enumerate(RANK_CHARS)}
_RANK_ALIASES.update({"10": Rank.TEN, "1": Rank.ACE, "V": Rank.JACK, "D": Rank.QUEEN, "R": Rank.KING})
_SUIT_ALIASES: dict[str, Suit] = {c: Suit(i) for i, c in enumerate(SUIT_CHARS)}
_SUIT_ALIASES.update({"♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES})
_SUIT_ALIASES.update({"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES})

_ALLOWED = N_(
    "a rank (2-9, T or 10, J, Q, K, A; French V=valet/jack, D=dame/queen, R=roi/king) "
    "followed by a suit (c, d, h, s or ♣ ♦ ♥ ♠), e.g. 'Ah', '10h', 'Dd'"
)


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card. Frozen, hashable, ordered by id (rank first, then suit)."""

    rank: Rank
    suit: Suit
    id: int = field(init=False, repr=False, compare=False)
    JOKER: ClassVar[Joker]
    """The joker, for five-card draw only (see :class:`Joker`); set below the class."""

    def __post_init__(self) -> None:
        rank, suit = Rank(self.rank), Suit(self.suit)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "id", int(rank) * 4 + int(suit))

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """The card with integer id ``card_id`` (0..51)."""
        if isinstance(card_id, bool) or not isinstance(card_id, int) or not 0 <= card_id <= 51:
            raise InvalidCardsError(
                N_("card id {card_id} is out of range: ids are integers 0..51"), card_id=given(card_id)
            )
        return _ALL_CARDS[card_id]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card from text such as ``"Ah"``, ``"10h"``, ``"td"``, ``"Q♠"`` or ``"Rs"``."""
        if not isinstance(text, str):
            raise CardParseError(
                N_("a card must be given as text, got {name}: allowed is {allowed}"),
                name=Verbatim(type(text).__name__),
                allowed=Phrase(_ALLOWED),
            )
        token = text.strip()
        if len(token) < 2:
            raise CardParseError(
                N_("cannot read card {text}: expected {allowed}"), text=given(text), allowed=Phrase(_ALLOWED)
            )
        rank_text, suit_text = token[:-1].upper(), token[-1].lower()
        rank = _RANK_ALIASES.get(rank_text)
        suit = _SUIT_ALIASES.get(suit_text)
        if rank is None or suit is None:
            if rank is None:
                raise CardParseError(
                    N_("cannot read card {text}: unknown rank {bad}; expected {allowed}"),
                    text=given(text),
                    bad=given(token[:-1]),
                    allowed=Phrase(_ALLOWED),
                )
            raise CardParseError(
                N_("cannot read card {text}: unknown suit {bad}; expected {allowed}"),
                text=given(text),
                bad=given(token[-1]),
                allowed=Phrase(_ALLOWED),
            )
        return _ALL_CARDS[int(rank) * 4 + int(suit)]

    def __str__(self) -> str:
        return RANK_CHARS[self.rank] + SUIT_CHARS[self.suit]

    def __repr__(self) -> str:
        return f"Card('{self}')"


_ALL_CARDS: tuple[Card, ...] = tuple(Card(Rank(i // 4), Suit(i % 4)) for i in range(52))
ALL_CARDS = _ALL_CARDS
"""The 52 cards in id order."""

JOKER_ID = 52
"""The joker's id where card ids are packed in arrays (five-card draw): one past the deck."""

COURT_RANKS = (int(Rank.JACK), int(Rank.QUEEN), int(Rank.KING))
"""The court ranks as ints (a packed card id's rank is ``id // 4``)."""


@dataclass(frozen=True, slots=True)
class Joker:
    """The joker ("le Fou"), only used by five-card draw (:mod:`table.draw`).

    It is not one of the 52 cards: it has no rank and no suit, and nothing outside
    :mod:`table.draw` accepts it. All jokers are alike (a deck may hold two).

    >>> Card.JOKER, str(Card.JOKER), Joker.parse("jk") is Card.JOKER
    (Card.JOKER, 'Jk', True)
    """

    id: ClassVar[int] = JOKER_ID
    TEXTS: ClassVar[frozenset[str]] = frozenset({"jk", "joker", "fou", "🃏"})
    """Spellings read as a joker (case-insensitive)."""

    @classmethod
    def parse(cls, text: str) -> Joker:
        """The joker from ``"Jk"``, ``"joker"``, French ``"Fou"`` or ``"🃏"``."""
        if not isinstance(text, str) or text.strip().lower() not in cls.TEXTS:
            raise CardParseError(
                N_("cannot read {text} as a joker: write 'Jk', 'joker', 'Fou' or '🃏'"), text=given(text)
            )
        return JOKER

    def __str__(self) -> str:
        return "Jk"

    def __repr__(self) -> str:
        return "Card.JOKER"


JOKER = Joker()
Card.JOKER = JOKER

_SPLIT = re.compile(r"[\s,;]+")


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Read several cards: ``"Ah Kd Tc"``, ``"AhKdTc"``, ``"Ah,Kd"`` or a list of texts/cards.

    Duplicates are rejected: a real deck holds each card once.
    """
    cards: list[Card]
    if isinstance(text, str):
        tokens = [t for t in _SPLIT.split(text.strip()) if t]
        if len(tokens) == 1 and len(tokens[0]) > 3:
            tokens = _split_run(tokens[0])
        cards = [Card.parse(t) for t in tokens]
    else:
        cards = [c if isinstance(c, Card) else Card.parse(c) for c in text]
    ensure_distinct(cards)
    return cards


def _split_run(run: str) -> list[str]:
    """Split a run with no separators such as ``"AhKd10c"`` into card tokens."""
    tokens: list[str] = []
    i = 0
    while i < len(run):
        step = 3 if run[i : i + 2] == "10" else 2
        tokens.append(run[i : i + step])
        i += step
    return tokens


def ensure_distinct(cards: Iterable[Card]) -> None:
    """Raise :class:`InvalidCardsError` naming the repeats if any card appears twice."""
    seen: set[Card] = set()
    repeated: list[str] = []
    for card in cards:
        if card in seen:
            repeated.append(str(card))
        seen.add(card)
    if repeated:
        raise InvalidCardsError(
            N_("duplicate cards {cards}: a deck holds each card once"), cards=Verbatim(" ".join(repeated))
        )


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as text separated by spaces, e.g. ``"Ah Kd"``."""
    return " ".join(str(c) for c in cards)


class Deck:
    """A deck of 52 cards with an injectable random source.

    >>> deck = Deck(rng=random.Random(7))
    >>> len(deck.draw(2)), len(deck)
    (2, 50)
    """

    def __init__(self, rng: random.Random | None = None, *, excluding: Iterable[Card] = ()) -> None:
        self._rng = rng if rng is not None else random.Random()
        gone = set(excluding)
        self._cards = [c for c in _ALL_CARDS if c not in gone]
        self._rng.shuffle(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(list(self._cards))

    def shuffle(self) -> None:
        """Shuffle the cards still in the deck."""
        self._rng.shuffle(self._cards)

    def draw(self, count: int = 1) -> list[Card]:
        """Take ``count`` cards from the top."""
        if count < 0:
            raise InvalidCardsError(N_("cannot draw {count} cards: the count must be 0 or more"), count=Number(count))
        if count > len(self._cards):
            raise DeckEmptyError(
                N_("cannot draw {count} cards: only {n_cards} left in the deck"),
                count=Number(count),
                n_cards=Number(len(self._cards)),
            )
        taken, self._cards = self._cards[:count], self._cards[count:]
        return taken

    def remove(self, cards: Iterable[Card]) -> None:
        """Take the given cards out of the deck (e.g. cards already seen on the table)."""
        wanted = list(cards)
        missing = [str(c) for c in wanted if c not in self._cards]
        if missing:
            raise DeckEmptyError(N_("cards {cards} are not in the deck"), cards=Verbatim(" ".join(missing)))
        gone = set(wanted)
        self._cards = [c for c in self._cards if c not in gone]
