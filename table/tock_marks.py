"""Tock-Poker marks: what the back of a marked card tells (its suit and a size class).

The Tock deck's backs show the suit and the size: small (2-5), medium (6-9), large (10-K),
and a special mark for the ace. A mark therefore stands for a small pool of cards: four
for small, medium and large, one for the ace.

>>> mark = Mark.parse("h:large")
>>> str(mark), [str(c) for c in mark.cards()]
('h:large', ['Th', 'Jh', 'Qh', 'Kh'])
>>> str(mark_of(Card.parse("As")))
's:ace'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from table.cards import SUIT_CHARS, Card, Rank, Suit
from table.errors import TocktableError
from table.phrases import N_, Phrase, given


class MarkParseError(TocktableError, ValueError):
    """A Tock mark could not be read from text."""


class SizeClass(Enum):
    """The size printed on a Tock back, with the ranks it stands for."""

    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    ACE = "ace"

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The ranks of this size: 2-5, 6-9, 10-K, or the ace alone."""
        return {
            SizeClass.SMALL: (Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE),
            SizeClass.MEDIUM: (Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE),
            SizeClass.LARGE: (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING),
            SizeClass.ACE: (Rank.ACE,),
        }[self]

    @classmethod
    def of(cls, rank: Rank) -> SizeClass:
        """The size class of a rank."""
        if rank == Rank.ACE:
            return cls.ACE
        if rank >= Rank.TEN:
            return cls.LARGE
        return cls.MEDIUM if rank >= Rank.SIX else cls.SMALL


_ALLOWED = N_("a suit letter (c, d, h, s), a colon and a size (small, medium, large, ace), e.g. 'h:large'")


@dataclass(frozen=True)
class Mark:
    """The mark on a card's back: its suit and size class."""

    suit: Suit
    size: SizeClass

    @classmethod
    def parse(cls, text: str) -> Mark:
        """Read ``"h:large"``, ``"s:ace"``, ``"d:small"``..."""
        suit_text, _, size_text = text.strip().lower().partition(":")
        if len(suit_text) != 1 or suit_text not in SUIT_CHARS or size_text not in {s.value for s in SizeClass}:
            raise MarkParseError(
                N_("cannot read Tock mark {text}: expected {allowed}"), text=given(text), allowed=Phrase(_ALLOWED)
            )
        return cls(Suit(SUIT_CHARS.index(suit_text)), SizeClass(size_text))

    def cards(self) -> tuple[Card, ...]:
        """The cards this mark stands for, lowest first."""
        return tuple(Card(rank, self.suit) for rank in self.size.ranks)

    def __str__(self) -> str:
        return f"{self.suit.char}:{self.size.value}"


def mark_of(card: Card) -> Mark:
    """The mark printed on the back of ``card``."""
    return Mark(card.suit, SizeClass.of(card.rank))


ALL_MARKS: tuple[Mark, ...] = tuple(Mark(suit, size) for suit in Suit for size in SizeClass)
"""The 16 marks of a Tock deck."""
