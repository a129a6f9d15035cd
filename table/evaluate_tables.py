"""Lookup tables behind :mod:`table.evaluate`, built once on first use.

Its errors stay English: they report tables that cannot be built, for the command line and the logs.

How a hand of 5-7 card ids becomes a rank, with one table look-up:

* Each rank has a key (``RANK_KEYS``) such that, for a fixed number of cards, the sum of
  the keys of the cards identifies the multiset of ranks exactly (at most four of a rank).
  The keys were found by :func:`find_rank_keys`, a greedy search (smallest next key that
  keeps every sum unique); ``tests/table/test_evaluate_tables.py`` re-checks uniqueness.
* Each suit has a key ``8**suit``; the sum over the cards holds the count of each suit in
  three bits, so one look-up tells whether some suit has five or more cards.
* A card's two keys are packed into one integer (rank key above bit 12), so a hand costs a
  single gather-and-sum, then one look-up in the non-flush table or, for the ~3 % of
  seven-card hands that hold a flush, one look-up of the flush suit's 13-bit rank mask.
  (With at most seven cards a flush excludes four of a kind and a full house, so the flush
  table alone decides those hands.)

Ranks run from 1 (7-5-4-3-2, the worst high card) to 7462 (a royal flush): the 7,462
classes of five-card hands. A six- or seven-card hand gets the rank of its best five.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

RANK_KEYS: tuple[int, ...] = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
SUIT_KEYS: tuple[int, ...] = (1, 8, 64, 512)
PACK_SHIFT = 12
SUIT_FIELD = (1 << PACK_SHIFT) - 1

# Category numbers, as in table.evaluate.Category.
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

ClassKey = tuple[int, ...]
"""A hand class as (category, ranks that decide ties...), comparable as a tuple."""

CARD_PACKED: npt.NDArray[np.int64] = np.array(
    [(RANK_KEYS[i >> 2] << PACK_SHIFT) | SUIT_KEYS[i & 3] for i in range(52)], dtype=np.int64
)
CARD_PACKED_LIST: list[int] = [int(v) for v in CARD_PACKED]


def straight_top(ranks: set[int] | frozenset[int]) -> int | None:
    """The top rank of the best straight within ``ranks`` (3 = five-high wheel), or None."""
    for top in range(12, 3, -1):
        if all(r in ranks for r in range(top - 4, top + 1)):
            return top
    if {12, 0, 1, 2, 3} <= ranks:
        return 3
    return None


def best_nonflush(counts: tuple[int, ...]) -> ClassKey:
    """Best five-card class from rank counts (13 entries, 5-7 cards), ignoring flushes."""
    present = [r for r in range(12, -1, -1) if counts[r]]
    quads = [r for r in present if counts[r] == 4]
    trips = [r for r in present if counts[r] == 3]
    pairs = [r for r in present if counts[r] == 2]
    if quads:
        q = quads[0]
        return (QUADS, q, next(r for r in present if r != q))
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        return (FULL_HOUSE, t, max(trips[1:] + pairs))
    top = straight_top(set(present))
    if top is not None:
        return (STRAIGHT, top)
    if trips:
        t = trips[0]
        return (TRIPS, t, *[r for r in present if r != t][:2])
    if len(pairs) > 1:
        p1, p2 = pairs[0], pairs[1]
        return (TWO_PAIR, p1, p2, next(r for r in present if r not in (p1, p2)))
    if pairs:
        p = pairs[0]
        return (PAIR, p, *[r for r in present if r != p][:3])
    return (HIGH_CARD, *present[:5])


def best_flush(mask: int) -> ClassKey:
    """Best five-card class among the ranks of one suit (a 13-bit mask with >= 5 bits)."""
    present = [r for r in range(12, -1, -1) if mask >> r & 1]
    top = straight_top(set(present))
    if top is not None:
        return (STRAIGHT_FLUSH, top)
    return (FLUSH, *present[:5])


def five_card_classes() -> list[ClassKey]:
    """All 7,462 five-card hand classes, weakest first."""
    classes: list[ClassKey] = []
    for combo in combinations(range(12, -1, -1), 5):
        top = straight_top(set(combo))
        if top is None:
            classes += [(HIGH_CARD, *combo), (FLUSH, *combo)]
        else:
            classes += [(STRAIGHT, top), (STRAIGHT_FLUSH, top)]
    for p in range(13):
        others = [r for r in range(12, -1, -1) if r != p]
        classes += [(PAIR, p, *k) for k in combinations(others, 3)]
        classes += [(TRIPS, p, *k) for k in combinations(others, 2)]
        classes += [(FULL_HOUSE, p, k) for k in others]
        classes += [(QUADS, p, k) for k in others]
    for p1, p2 in combinations(range(12, -1, -1), 2):
        classes += [(TWO_PAIR, p1, p2, k) for k in range(12, -1, -1) if k not in (p1, p2)]
    classes.sort()
    return classes


@cache
def class_keys() -> tuple[ClassKey, ...]:
    """Index ``rank - 1`` → the class of that rank."""
    return tuple(five_card_classes())


@cache
def class_ranks() -> dict[ClassKey, int]:
    """Class → rank (1..7462)."""
    return {key: i + 1 for i, key in enumerate(class_keys())}


@cache
def category_starts() -> npt.NDArray[np.int32]:
    """First rank of each category, HIGH_CARD..STRAIGHT_FLUSH (for ``searchsorted``)."""
    keys = class_keys()
    starts = [next(i + 1 for i, k in enumerate(keys) if k[0] == cat) for cat in range(9)]
    return np.array(starts, dtype=np.int32)


@cache
def nonflush_table(size: int) -> npt.NDArray[np.uint16]:
    """Rank-key sum of a ``size``-card hand → rank of its best non-flush five.

    Five-card entries are classified directly; a six- or seven-card multiset takes the best
    of its five-card sub-multisets, looked up in the five-card table (vectorised).
    """
    if size not in (5, 6, 7):
        raise ValueError(f"tables exist for 5, 6 or 7 cards, not {size}")
    table = np.zeros(4 * RANK_KEYS[12] + (size - 4) * RANK_KEYS[11] + 1, dtype=np.uint16)
    keys = np.array(RANK_KEYS, dtype=np.int64)
    counts = rank_count_array(size)
    totals = counts @ keys
    if size == 5:
        ranks = class_ranks()
        table[totals] = [ranks[best_nonflush(tuple(row))] for row in counts.tolist()]
        return table
    five = nonflush_table(5)
    # Each multiset as its `size` rank indices (sorted), then every choice of five positions.
    held = np.repeat(np.tile(np.arange(13), (len(counts), 1)).ravel(), counts.ravel()).reshape(len(counts), size)
    best = np.zeros(len(counts), dtype=np.uint16)
    for chosen in combinations(range(size), 5):
        best = np.maximum(best, five[keys[held[:, list(chosen)]].sum(axis=1)])
    table[totals] = best
    return table


def rank_count_array(size: int) -> npt.NDArray[np.int64]:
    """Every way to hold ``size`` cards over 13 ranks with at most four alike, as rows of counts."""
    rows = np.zeros((1, 0), dtype=np.int64)
    left = np.array([size], dtype=np.int64)
    for _ in range(12):
        repeats = np.minimum(left, 4) + 1
        offsets = np.repeat(np.cumsum(repeats) - repeats, repeats)
        take = np.arange(offsets.size) - offsets
        rows = np.column_stack([np.repeat(rows, repeats, axis=0), take])
        left = np.repeat(left, repeats) - take
    keep = left <= 4
    return np.column_stack([rows[keep], left[keep]])


@cache
def flush_table() -> npt.NDArray[np.uint16]:
    """13-bit mask of the flush suit's ranks → rank of the best flush (0 if < 5 bits)."""
    ranks = class_ranks()
    table = np.zeros(1 << 13, dtype=np.uint16)
    for mask in range(1 << 13):
        if mask.bit_count() >= 5:
            table[mask] = ranks[best_flush(mask)]
    return table


@cache
def flush_suit_table() -> npt.NDArray[np.int8]:
    """Packed suit counts (3 bits per suit) → the suit holding five or more cards, or -1."""
    table = np.full(1 << PACK_SHIFT, -1, dtype=np.int8)
    for packed in range(1 << PACK_SHIFT):
        for suit in range(4):
            if (packed >> (3 * suit)) & 7 >= 5:
                table[packed] = suit
    return table


def find_rank_keys(sizes: tuple[int, ...] = (5, 6, 7)) -> list[int]:
    """Re-derive ``RANK_KEYS``: the greedy smallest keys giving unique sums (about two minutes).

    Adding rank ``i`` with key ``k`` keeps sums unique unless two ways to reach ``n`` cards,
    holding ``c1 < c2`` cards of rank ``i``, collide: ``(c2 - c1) * k`` equals the difference
    of a sum over ``n - c1`` and a sum over ``n - c2`` cards of the lower ranks. Each candidate
    ``k`` is tested against boolean maps of the existing sums.
    """
    keys = [0]
    for _ in range(1, 13):
        sums = _multiset_sums(keys, max(sizes))
        top = max(int(s.max()) for s in sums if s.size) + 1
        maps = []
        for s in sums:
            present = np.zeros(top + 4 * 2_000_000, dtype=bool)
            present[s] = True
            maps.append(present)
        checks = {(d, n - c2) for n in sizes for c2 in range(1, 5) for d in range(1, c2 + 1)}
        ordered = sorted(checks, key=lambda dc: sums[dc[1]].size)
        k = keys[-1] + 1
        while any(maps[low + d][sums[low] + d * k].any() for d, low in ordered):
            k += 1
        keys.append(k)
    return keys


def _multiset_sums(keys: list[int], size: int) -> list[npt.NDArray[np.int64]]:
    """Sums of every multiset (at most four alike) of 0..size of the given keys, by size."""
    out = [np.zeros(1, dtype=np.int64)] + [np.zeros(0, dtype=np.int64)] * size
    for k in keys:
        out = [np.concatenate([out[m - c] + c * k for c in range(min(4, m) + 1)]) for m in range(size + 1)]
    return out
