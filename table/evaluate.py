"""Exact poker hand evaluation: one hand at a time, or millions at once with numpy.

Its errors stay English: they report a wrong argument to this programming interface.

The ranking follows the seed rules: ten categories from high card to royal flush; the ace
is high, or low only in the straight A-2-3-4-5 (the lowest straight); no wrap-around
(K-A-2-3-4 is not a straight); kickers decide within a category; suits never break ties.

>>> hand = evaluate(parse_cards("Kh Kd Ks 7c 7d 2s 3h"))
>>> hand.describe(), hand.category.label
('Full house, kings full of sevens', 'Full house')
>>> evaluate(parse_cards("Ah 2d 3c 4s 5h")).describe()
'Straight, five high'
>>> compare(parse_cards("Ah Qh Th 4h 3h"), parse_cards("Ad Qd Td 4d 2d"))
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache, cached_property

import numpy as np
import numpy.typing as npt

from table import evaluate_tables as tables
from table.cards import Card, Rank, ensure_distinct, parse_cards
from table.errors import InvalidCardsError

__all__ = [
    "Category",
    "HandValue",
    "category_of",
    "compare",
    "describe_ranks",
    "evaluate",
    "evaluate_many",
    "evaluate_seats",
    "parse_cards",
    "winners",
]

RANK_COUNT = 7462
"""Number of distinct five-card hand classes: ranks run 1..RANK_COUNT."""


class Category(IntEnum):
    """Hand category, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """English name for display, e.g. ``"Two pair"``."""
        return self.name.replace("_", " ").capitalize()


def describe_ranks(category: int, ranks: Sequence[int]) -> str:
    """A :class:`Category` and the ranks that decide ties (rank indices 0 (two) .. 12 (ace), in
    the order of :attr:`HandValue.key`) in words, e.g. ``"Full house, kings full of twos"``.

    >>> describe_ranks(Category.FULL_HOUSE, [11, 0])
    'Full house, kings full of twos'
    """
    # Only the ranks the words name are turned into Rank: the later kickers of a key may hold a
    # wild card that counts for nothing (-1 in five-card draw's keys, e.g. a joker in a flush).
    def word(i: int) -> str:
        return Rank(ranks[i]).word

    def plural(i: int) -> str:
        return Rank(ranks[i]).plural

    if category == Category.STRAIGHT_FLUSH:
        return "Royal flush" if ranks[0] == Rank.ACE else f"Straight flush, {word(0)} high"
    if category == Category.FOUR_OF_A_KIND:
        return f"Four of a kind, {plural(0)}"
    if category == Category.FULL_HOUSE:
        return f"Full house, {plural(0)} full of {plural(1)}"
    if category in (Category.FLUSH, Category.STRAIGHT):
        return f"{Category(category).label}, {word(0)} high"
    if category == Category.THREE_OF_A_KIND:
        return f"Three of a kind, {plural(0)}"
    if category == Category.TWO_PAIR:
        return f"Two pair, {plural(0)} and {plural(1)}"
    if category == Category.PAIR:
        return f"Pair of {plural(0)}"
    return f"High card, {word(0)}"


@dataclass(frozen=True, order=True)
class HandValue:
    """The value of a hand. Compare values with ``<``/``==`` (by ``rank`` only: equal is a tie)."""

    rank: int
    """1 (7-5-4-3-2 high) .. 7462 (royal flush); higher is stronger, equal means a tie."""
    cards: tuple[Card, ...] = field(compare=False, repr=False)
    """The 5-7 cards that were evaluated."""

    @property
    def category(self) -> Category:
        """The hand's category."""
        return Category(int(np.searchsorted(tables.category_starts(), self.rank, side="right")) - 1)

    @property
    def is_royal(self) -> bool:
        """True for the ace-high straight flush, which is named "Royal flush"."""
        return self.rank == RANK_COUNT

    @property
    def key(self) -> tuple[int, ...]:
        """(category, ranks that decide ties...) with rank indices 0 (two) .. 12 (ace)."""
        return tables.class_keys()[self.rank - 1]

    @cached_property
    def best_five(self) -> tuple[Card, ...]:
        """The five cards that make the hand, the deciding cards first."""
        return _pick_best_five(self.cards, self.key)

    def describe(self) -> str:
        """The hand in words, e.g. ``"Two pair, aces and nines"``."""
        cat, *r = self.key
        return describe_ranks(cat, r)

    def __str__(self) -> str:
        return f"{self.describe()} ({' '.join(str(c) for c in self.best_five)})"


def _pick_best_five(cards: tuple[Card, ...], key: tuple[int, ...]) -> tuple[Card, ...]:
    cat, *ranks = key
    by_rank = sorted(cards, key=lambda c: (c.rank, c.suit), reverse=True)
    if cat in (tables.FLUSH, tables.STRAIGHT_FLUSH):
        suit_counts = [sum(1 for c in cards if c.suit == s) for s in range(4)]
        flush_suit = max(range(4), key=lambda s: suit_counts[s])
        by_rank = [c for c in by_rank if c.suit == flush_suit]
    if cat in (tables.STRAIGHT, tables.STRAIGHT_FLUSH):
        top = ranks[0]
        wanted = [top - i for i in range(5)] if top > 3 else [3, 2, 1, 0, 12]
        return tuple(next(c for c in by_rank if c.rank == r) for r in wanted)
    if cat == tables.FLUSH:
        return tuple(by_rank[:5])
    # Groups first (quads, trips, pairs), then kickers: take as many of each rank as the
    # class asks for, in the order of the class key.
    group = {tables.QUADS: (4, 1), tables.FULL_HOUSE: (3, 2), tables.TRIPS: (3, 1, 1),
             tables.TWO_PAIR: (2, 2, 1), tables.PAIR: (2, 1, 1, 1)}.get(cat, (1, 1, 1, 1, 1))  # fmt: skip
    chosen: list[Card] = []
    for rank, take in zip(ranks, group, strict=True):
        chosen += [c for c in by_rank if c.rank == rank][:take]
    return tuple(chosen)


def _card_ids(cards: Iterable[Card | int | str]) -> tuple[tuple[Card, ...], list[int]]:
    """Validate 5-7 distinct cards given as Card, id or text; return cards and ids."""
    items = tuple(parse_cards(cards) if isinstance(cards, str) else cards)
    if not all(type(item) is Card for item in items):
        items = tuple(_as_card(item) for item in items)
    ids = [c.id for c in items]  # type: ignore[union-attr]
    if not 5 <= len(ids) <= 7:
        raise InvalidCardsError(f"a hand to evaluate has 5, 6 or 7 cards, got {len(ids)}")
    if len(set(ids)) != len(ids):
        ensure_distinct(items)  # type: ignore[arg-type]
    return items, ids  # type: ignore[return-value]


def _as_card(item: object) -> Card:
    if isinstance(item, Card):
        return item
    if isinstance(item, str):
        return Card.parse(item)
    if isinstance(item, int | np.integer) and not isinstance(item, bool):
        return Card.from_id(int(item))
    raise InvalidCardsError(f"cannot evaluate {item!r}: give Card objects, card ids 0..51 or texts like 'Ah'")


def _rank_of_ids(ids: list[int]) -> int:
    total = sum(map(tables.CARD_PACKED_LIST.__getitem__, ids))
    flush_suits, flushes = _flush_lists()
    suit = flush_suits[total & tables.SUIT_FIELD]
    if suit < 0:
        return int(tables.nonflush_table(len(ids)).item(total >> tables.PACK_SHIFT))
    mask = 0
    for i in ids:
        if i & 3 == suit:
            mask |= 1 << (i >> 2)
    return flushes[mask]


@cache
def _flush_lists() -> tuple[list[int], list[int]]:
    """The flush tables as Python lists: faster than numpy for one hand at a time."""
    return tables.flush_suit_table().tolist(), tables.flush_table().tolist()


def evaluate(cards: Iterable[Card | int | str]) -> HandValue:
    """Evaluate 5, 6 or 7 distinct cards (Card objects, ids 0..51, or texts like ``"Ah"``).

    Raises :class:`~table.errors.InvalidCardsError` for a wrong count, duplicates or
    unknown cards.
    """
    items, ids = _card_ids(cards)
    return HandValue(_rank_of_ids(ids), items)


def compare(a: HandValue | Iterable[Card | int | str], b: HandValue | Iterable[Card | int | str]) -> int:
    """1 if ``a`` beats ``b``, -1 if it loses, 0 for a tie (cards or values)."""
    ra = (a if isinstance(a, HandValue) else evaluate(a)).rank
    rb = (b if isinstance(b, HandValue) else evaluate(b)).rank
    return (ra > rb) - (ra < rb)


def winners(values: Sequence[HandValue]) -> list[int]:
    """Indices of every best hand among ``values`` (several when they tie)."""
    if not values:
        raise InvalidCardsError("no hands to compare: a showdown needs at least one hand")
    best = max(v.rank for v in values)
    return [i for i, v in enumerate(values) if v.rank == best]


def evaluate_many(ids: npt.ArrayLike, *, check: bool = True) -> npt.NDArray[np.int32]:
    """Ranks (the same as ``evaluate(...).rank``) for every row of an (N, 5|6|7) id array.

    Vectorised: one gather-and-sum per card column and one table look-up per hand.
    ``check=False`` skips the validation of ids (range, duplicates) for trusted input,
    such as the equity code's own deals.
    """
    arr = np.asarray(ids)
    if arr.dtype.kind not in "iu":
        raise InvalidCardsError(f"card ids must be an integer array, got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] not in (5, 6, 7):
        raise InvalidCardsError(f"card ids must have shape (N, 5|6|7), got {arr.shape}")
    if arr.shape[0] == 0:
        return np.zeros(0, dtype=np.int32)
    if check:
        _check_ids(arr)
    packed = tables.CARD_PACKED[arr]
    total = packed[:, 0].copy()
    for col in range(1, arr.shape[1]):
        total += packed[:, col]
    result: npt.NDArray[np.int32] = tables.nonflush_table(arr.shape[1])[total >> tables.PACK_SHIFT].astype(np.int32)
    flush_suit = tables.flush_suit_table()[total & tables.SUIT_FIELD]
    rows = np.flatnonzero(flush_suit >= 0)
    if rows.size:
        sub = arr[rows].astype(np.int64)
        in_suit = (sub & 3) == flush_suit[rows, None]
        mask = np.where(in_suit, np.left_shift(1, sub >> 2), 0).sum(axis=1)
        result[rows] = tables.flush_table()[mask]
    return result


def evaluate_seats(hole: npt.NDArray[np.integer], board: npt.NDArray[np.integer]) -> npt.NDArray[np.int32]:
    """Ranks of every seat's two hole cards with a shared five-card board, for many deals.

    ``hole`` has shape (N, seats, 2) and ``board`` (N, 5), both card ids; the result has shape
    (N, seats) and equals ``evaluate_many`` on each seat's seven cards. The board's keys are
    summed once per deal, not once per seat. Ids are trusted (no validation): this is the
    inner loop of equity.
    """
    packed = tables.CARD_PACKED
    board_sum = packed[board[:, 0]] + packed[board[:, 1]] + packed[board[:, 2]] + packed[board[:, 3]]
    board_sum += packed[board[:, 4]]
    total = board_sum[:, None] + packed[hole[:, :, 0]] + packed[hole[:, :, 1]]
    ranks: npt.NDArray[np.int32] = tables.nonflush_table(7)[total >> tables.PACK_SHIFT].astype(np.int32)
    flush_suit = tables.flush_suit_table()[total & tables.SUIT_FIELD]
    deal, seat = np.nonzero(flush_suit >= 0)
    if deal.size:
        cards = np.concatenate([board[deal], hole[deal, seat]], axis=1).astype(np.int64)
        in_suit = (cards & 3) == flush_suit[deal, seat][:, None]
        mask = np.where(in_suit, np.left_shift(1, cards >> 2), 0).sum(axis=1)
        ranks[deal, seat] = tables.flush_table()[mask]
    return ranks


def _check_ids(arr: npt.NDArray[np.integer]) -> None:
    low, high = int(arr.min()), int(arr.max())
    if low < 0 or high > 51:
        bad = low if low < 0 else high
        raise InvalidCardsError(f"card id {bad} is out of range: ids are integers 0..51")
    # One bit per card: with no repeats the bits' sum equals their union.
    bits = np.left_shift(np.int64(1), arr[:, 0].astype(np.int64))
    union = bits.copy()
    for col in range(1, arr.shape[1]):
        bit = np.left_shift(np.int64(1), arr[:, col].astype(np.int64))
        bits += bit
        union |= bit
    repeats = np.flatnonzero(bits != union)
    if repeats.size:
        row = int(repeats[0])
        raise InvalidCardsError(f"row {row} repeats a card ({arr[row].tolist()}): a hand holds each card once")


def category_of(ranks: npt.ArrayLike) -> npt.NDArray[np.int8]:
    """Category numbers (see :class:`Category`) for an array of ranks."""
    return (np.searchsorted(tables.category_starts(), np.asarray(ranks), side="right") - 1).astype(np.int8)
