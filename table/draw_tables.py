"""Lookup tables behind :mod:`table.draw`: five-card hands with wild cards, high and low.

A five-card hand with wild cards (jokers, or every card of a declared wild rank) has a value
that depends on three things only: the multiset of its natural ranks, the number of wild
cards, and whether the natural cards all share one suit (a wild card takes any suit, so only
then can the hand be a flush). That gives fewer than nine thousand classes, each classified
once by the rules below and numbered in order of strength, so a hand costs one look-up:

* sort the five rank codes in descending order, a wild card being code 13 (so wild cards
  come first), and read them as a base-14 number: the row of the table;
* the column says whether the natural cards share a suit.

The rules (the seed text, with the choices it leaves open; see README "Five-card draw"):

* A wild card stands for any card. It may stand for an ace or complete a straight or a flush;
  four of a rank and a wild card make five of a kind, above a straight flush.
* :attr:`WildTies.NATURAL` (the seed, the default): a wild card never counts to break a tie.
  It makes the category and joins a group (the third king of "K K Jk"), but a straight is
  then ranked by its highest *natural* card and a flush by its natural cards, the wild card
  counting for nothing (below a two). So Jk-Q-J-10-9 is a queen-high straight and loses to
  K-Q-J-10-9; with the same natural cards, fewer wild cards wins.
* :attr:`WildTies.SUBSTITUTED`: a wild card counts as the card it stands for (the best one:
  Jk-Q-J-10-9 is king high; in a flush the highest rank the hand lacks); at equality, fewer
  wild cards wins (Jk-Q-J-10-9 still loses to the natural K-Q-J-10-9).
* No wrap-around straights; A-2-3-4-5 is the lowest straight (high hands).
* Lowball ace-to-five: aces are low, straights and flushes do not count, 5-4-3-2-A is best;
  deuce-to-seven: aces are high, straights and flushes count against the hand, A-2-3-4-5 is
  not a straight (ace high), 7-5-4-3-2 of mixed suits is best. A wild card takes the value
  that makes the hand lowest; at equality fewer wild cards wins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
import numpy.typing as npt

ACE = 12
WILD_CODE = 13
"""The rank code of a wild card in the table index."""
BASE = 14
ROWS = BASE**5
NOTHING = -1
"""What a wild card is worth in a tie-break under the seed rule (below a two)."""

# Category numbers, as in table.draw.DrawCategory (the first nine as in table.evaluate).
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, FIVE = range(10)

Key = tuple[int, ...]
"""(category, ranks deciding ties...) for a concrete set of five ranks."""

_SHAPES: dict[tuple[int, ...], int] = {
    (5,): FIVE,
    (4, 1): QUADS,
    (3, 2): FULL_HOUSE,
    (3, 1, 1): TRIPS,
    (2, 2, 1): TWO_PAIR,
    (2, 1, 1, 1): PAIR,
    (1, 1, 1, 1, 1): HIGH_CARD,
}

# Straight windows as (top, ranks); the wheel A-2-3-4-5 has top 3 (the five).
_WINDOWS: tuple[tuple[int, frozenset[int]], ...] = (
    *((top, frozenset(range(top - 4, top + 1))) for top in range(ACE, 3, -1)),
    (3, frozenset({ACE, 0, 1, 2, 3})),
)


class WildTies(Enum):
    """How a wild card counts when two high hands of one category are compared."""

    NATURAL = "natural"
    """The seed rule: a wild card never counts to break a tie (the default)."""
    SUBSTITUTED = "substituted"
    """A wild card counts as the card it stands for; at equality the natural hand wins."""


class LowRule(Enum):
    """Lowball convention for Petite Misère."""

    ACE_TO_FIVE = "ace-to-five"
    """Aces low, straights and flushes ignored: 5-4-3-2-A is the best hand (the default)."""
    DEUCE_TO_SEVEN = "deuce-to-seven"
    """Aces high, straights and flushes count against: 7-5-4-3-2 unsuited is the best hand."""


def group_key(ranks: Sequence[int]) -> Key:
    """(category, each distinct rank by group size then rank) for five ranks, looking only at
    groups of equal ranks (five of a kind .. high card), never at straights or flushes."""
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return (_SHAPES[tuple(sorted(counts.values(), reverse=True))], *order)


def concrete_key(ranks: Sequence[int], *, flush: bool, wheel: bool = True) -> Key:
    """The usual key of five concrete ranks (no wild card); ``wheel=False`` when A-2-3-4-5 is
    not a straight (deuce-to-seven)."""
    key = group_key(ranks)
    if key[0] != HIGH_CARD:
        return key
    present = frozenset(ranks)
    top = next((t for t, window in _WINDOWS if window == present and (wheel or t != 3)), None)
    if top is not None:
        return (STRAIGHT_FLUSH if flush else STRAIGHT, top)
    return (FLUSH, *key[1:]) if flush else key


def high_key(naturals: Sequence[int], *, suited: bool, wilds: int, ties: WildTies) -> Key:
    """Best key of a high hand: ``naturals`` are the natural ranks (0 = two .. 12 = ace),
    ``wilds`` the number of wild cards (together five cards); ``suited`` when the natural
    cards share a suit. Without the trailing wild-card count that breaks remaining ties."""
    if not naturals:
        return (FIVE, ACE)
    counts = Counter(naturals)
    # For groups the wild cards all join the largest group (the highest one on equal size):
    # any other use makes a weaker group shape or a lower group.
    target = max(counts, key=lambda r: (counts[r], r))
    candidates = [group_key([*naturals, *[target] * wilds])]
    if len(counts) == len(naturals):
        windows = [(top, window) for top, window in _WINDOWS if counts.keys() <= window]
        if windows:
            if ties is WildTies.NATURAL:
                top = max(max(NOTHING if (r == ACE and t == 3) else r for r in naturals) for t, _ in windows)
            else:
                top = max(t for t, _ in windows)
            candidates.append((STRAIGHT_FLUSH if suited else STRAIGHT, top))
        if suited:
            if ties is WildTies.NATURAL:
                fill = [NOTHING] * wilds
            else:
                fill = [r for r in range(ACE, -1, -1) if r not in counts][:wilds]
            candidates.append((FLUSH, *sorted([*naturals, *fill], reverse=True)))
    return max(candidates)


def low_ace_to_five_key(naturals: Sequence[int], *, wilds: int) -> Key:
    """Badness of an ace-to-five low hand (lower is better), ranks as 0 (ace) .. 12 (king).

    Wild cards take the lowest ranks the hand lacks: a new rank never pairs, and lower
    ranks make every position of the descending comparison lower."""
    low = [(r + 1) % 13 for r in naturals]
    fill = [v for v in range(13) if v not in low][:wilds]
    return group_key([*low, *fill])


def low_deuce_to_seven_key(naturals: Sequence[int], *, suited: bool, wilds: int) -> Key:
    """Badness of a deuce-to-seven low hand (lower is better): the usual high key with the ace
    high only. Wild cards take distinct ranks the hand lacks, avoiding straights (some choice
    always avoids one), and a suit that breaks the flush."""
    missing = [r for r in range(13) if r not in naturals]
    return min(
        concrete_key([*naturals, *fill], flush=suited and wilds == 0, wheel=False)
        for fill in combinations(missing, wilds)
    )


class TableKind(Enum):
    """The four rankings: high with either tie rule, low with either convention."""

    HIGH_NATURAL = "high-natural"
    HIGH_SUBSTITUTED = "high-substituted"
    LOW_ACE_TO_FIVE = "low-ace-to-five"
    LOW_DEUCE_TO_SEVEN = "low-deuce-to-seven"

    @property
    def is_low(self) -> bool:
        return self in (TableKind.LOW_ACE_TO_FIVE, TableKind.LOW_DEUCE_TO_SEVEN)


@dataclass(frozen=True)
class RankTable:
    """Ranks of every class of one ranking; rank 1 is the weakest (or, low, the worst)."""

    kind: TableKind
    lookup: npt.NDArray[np.int32]
    """Shape (14**5, 2): rank by (index of the sorted rank codes, natural cards suited)."""
    keys: tuple[Key, ...]
    """keys[rank - 1]: (category, ranks deciding ties..., wild-card term) of that rank."""

    @property
    def size(self) -> int:
        """The number of distinct ranks."""
        return len(self.keys)


def natural_multisets() -> Iterator[tuple[int, ...]]:
    """Every multiset of 0..5 natural ranks with at most four alike, in descending order."""
    for k in range(6):
        for combo in combinations_with_replacement(range(ACE, -1, -1), k):
            if k < 4 or max(Counter(combo).values()) <= 4:
                yield combo


def row_index(codes_descending: Sequence[int]) -> int:
    """The table row of five rank codes already sorted in descending order."""
    index = 0
    for code in codes_descending:
        index = index * BASE + code
    return index


def _class_key(kind: TableKind, naturals: tuple[int, ...], suited: bool) -> Key:
    wilds = 5 - len(naturals)
    # The last term breaks ties by the number of wild cards: fewer is better, and a larger
    # key is better for high hands, a smaller (less bad) one for low hands.
    if kind is TableKind.HIGH_NATURAL:
        return (*high_key(naturals, suited=suited, wilds=wilds, ties=WildTies.NATURAL), -wilds)
    if kind is TableKind.HIGH_SUBSTITUTED:
        return (*high_key(naturals, suited=suited, wilds=wilds, ties=WildTies.SUBSTITUTED), -wilds)
    if kind is TableKind.LOW_ACE_TO_FIVE:
        return (*low_ace_to_five_key(naturals, wilds=wilds), wilds)
    return (*low_deuce_to_seven_key(naturals, suited=suited, wilds=wilds), wilds)


@cache
def rank_table(kind: TableKind) -> RankTable:
    """Build (once) the table of one ranking: a few hundred milliseconds."""
    entries: list[tuple[int, int, Key]] = []
    for naturals in natural_multisets():
        index = row_index((WILD_CODE,) * (5 - len(naturals)) + naturals)
        plain = _class_key(kind, naturals, False)
        distinct = len(set(naturals)) == len(naturals)
        # Natural cards of one suit have distinct ranks; an impossible "suited pair" row
        # gets the unsuited value so that every row is defined.
        suited = _class_key(kind, naturals, True) if distinct else plain
        entries += [(index, 0, plain), (index, 1, suited)]
    ordered = sorted({key for _, _, key in entries}, reverse=kind.is_low)
    number = {key: i + 1 for i, key in enumerate(ordered)}
    lookup = np.zeros((ROWS, 2), dtype=np.int32)
    for index, column, key in entries:
        lookup[index, column] = number[key]
    lookup.setflags(write=False)
    return RankTable(kind, lookup, tuple(ordered))
