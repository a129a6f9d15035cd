"""Win, tie and equity for 2-10 Hold'em hands with known, unknown and Tock-marked cards.

Every card position on the table (two per seat, five on the board) is either a known
:class:`~table.cards.Card`, a :class:`~table.tock.Mark` (the card is one of the few the mark
stands for) or ``None`` (any card not otherwise on the table). Every deal consistent with
that is equally likely. The answer is exact (every deal enumerated) when there are few
deals, and Monte Carlo otherwise, with its standard error.

>>> ah_kh, qs_qd = parse_cards("Ah Kh"), parse_cards("Qs Qd")
>>> result = equity([ah_kh, qs_qd])  # all 1,712,304 boards
>>> round(result[0].equity, 6), result[0].exact
(0.462145, True)
>>> equity([parse_cards("As Ad"), [Mark.parse("h:ace"), None]], trials=20_000, seed=1)[0].win > 0.8
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from table.cards import Card, parse_cards
from table.errors import InvalidCardsError
from table.evaluate import evaluate_seats
from table.tock import Mark

__all__ = ["DEFAULT_TRIALS", "EXACT_LIMIT", "SeatEquity", "equity", "parse_cards"]

Item = Card | Mark | str | None
"""One card position: a known card, a Tock mark, ``None`` for unknown (texts are parsed)."""

EXACT_LIMIT = 2_000_000
"""Enumerate every deal when there are at most this many (heads-up pre-flop has 1,712,304)."""
DEFAULT_TRIALS = 100_000

_BITS = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))


@dataclass(frozen=True)
class SeatEquity:
    """One seat's chances."""

    win: float
    """Share of deals this seat wins alone."""
    tie: float
    """Share of deals this seat ties for the best hand."""
    equity: float
    """Expected share of the pot: wins plus its part of every split."""
    stderr: float
    """Standard error of ``equity`` (0 when exact)."""
    exact: bool
    deals: int
    """Deals enumerated, or Monte Carlo trials."""


@dataclass(frozen=True)
class _Table:
    """The positions of a table: known ids, mark pools, unknown positions (hole first, then board)."""

    seats: int
    known: dict[int, int]  # position -> card id
    pools: list[tuple[list[int], npt.NDArray[np.int8]]]  # (positions, cards the mark can still be)
    unknown: list[int]  # positions of unknown cards
    free: npt.NDArray[np.int8]  # card ids not known (marked and unknown positions draw from these)

    @property
    def positions(self) -> int:
        return 2 * self.seats + 5


def _item(value: Item, where: str) -> Card | Mark | None:
    if value is None or isinstance(value, Card | Mark):
        return value
    if isinstance(value, str):
        return Mark.parse(value) if ":" in value else Card.parse(value)
    raise InvalidCardsError(f"{where}: {value!r} is not a card, a Tock mark or None (unknown)")


def _layout(hands: Sequence[Sequence[Item]], board: Sequence[Item]) -> _Table:
    if not 2 <= len(hands) <= 10:
        raise InvalidCardsError(f"equity needs 2 to 10 hands, got {len(hands)}")
    if len(board) > 5:
        raise InvalidCardsError(f"a board has at most 5 cards, got {len(board)}")
    items: list[tuple[str, Card | Mark | None]] = []
    for seat, hand in enumerate(hands):
        if len(hand) != 2:
            raise InvalidCardsError(f"seat {seat + 1} has {len(hand)} cards: give exactly 2 (None for unknown)")
        items += [(f"seat {seat + 1}", _item(v, f"seat {seat + 1}")) for v in hand]
    padded = list(board) + [None] * (5 - len(board))
    items += [("the board", _item(v, "the board")) for v in padded]

    known: dict[int, int] = {}
    where_known: dict[int, str] = {}
    by_mark: dict[Mark, list[int]] = {}
    unknown: list[int] = []
    for position, (where, item) in enumerate(items):
        if isinstance(item, Card):
            if item.id in where_known:
                raise InvalidCardsError(f"{item} is on the table twice ({where_known[item.id]} and {where})")
            known[position], where_known[item.id] = item.id, where
        elif isinstance(item, Mark):
            by_mark.setdefault(item, []).append(position)
        else:
            unknown.append(position)
    pools = []
    for mark, positions in by_mark.items():
        left = [c.id for c in mark.cards() if c.id not in where_known]
        if len(left) < len(positions):
            taken = ", ".join(f"{c} ({where_known[c.id]})" for c in mark.cards() if c.id in where_known)
            raise InvalidCardsError(
                f"{len(positions)} card(s) show the mark {mark}, which stands for {' '.join(map(str, mark.cards()))}, "
                f"but only {len(left)} of those can still be there" + (f": {taken} already known" if taken else "")
            )
        pools.append((positions, np.array(left, dtype=np.int8)))
    free = np.array([c for c in range(52) if c not in where_known], dtype=np.int8)
    marked = sum(len(p) for p, _ in pools)
    if marked + len(unknown) > len(free):
        raise InvalidCardsError(f"the table needs {len(items)} cards but a deck has 52")
    return _Table(len(hands), known, pools, unknown, free)


def _exact_count(table: _Table) -> float:
    """Number of equally likely deals, or infinity when an unknown hole card rules out enumeration."""
    if any(p < 2 * table.seats for p in table.unknown):
        return math.inf
    count = 1
    for positions, left in table.pools:
        count *= math.perm(len(left), len(positions))
    marked = sum(len(p) for p, _ in table.pools)
    return count * math.comb(len(table.free) - marked, len(table.unknown))


def combinations_array(n: int, k: int) -> npt.NDArray[np.int8]:
    """Every k-subset of range(n) (n <= 127), one per row, in lexicographic order (vectorised)."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    combos = np.arange(n, dtype=np.int8)[:, None]
    for _ in range(k - 1):
        last = combos[:, -1].astype(np.int64)
        counts = n - 1 - last
        offsets = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        following = (np.repeat(last, counts) + 1 + offsets).astype(np.int8)
        combos = np.column_stack([np.repeat(combos, counts, axis=0), following])
    return combos


def _enumerate(table: _Table) -> npt.NDArray[np.int8]:
    """Every consistent deal as rows of card ids by position."""
    blocks = [
        np.array(list(itertools.permutations(left.tolist(), len(pos))), dtype=np.int8) for pos, left in table.pools
    ]
    counts = [len(b) for b in blocks]
    marked_cols = [p for pos, _ in table.pools for p in pos]
    grid = np.indices(counts).reshape(len(counts), -1) if counts else np.zeros((0, 1), dtype=np.int64)
    marked = (
        np.concatenate([blocks[i][grid[i]] for i in range(len(blocks))], axis=1)
        if blocks
        else np.zeros((1, 0), dtype=np.int8)
    )
    combos = combinations_array(len(table.free) - marked.shape[1], len(table.unknown))
    # For each marked assignment, the cards still free, then every choice of unknown board cards.
    taken = np.zeros((len(marked), 52), dtype=bool)
    taken[np.arange(len(marked))[:, None], marked] = True
    free_mask = ~taken[:, table.free]
    rest = np.broadcast_to(table.free, free_mask.shape)[free_mask].reshape(len(marked), -1)
    deals = np.empty((len(marked) * len(combos), table.positions), dtype=np.int8)
    for position, card in table.known.items():
        deals[:, position] = card
    if marked_cols:
        deals[:, marked_cols] = np.repeat(marked, len(combos), axis=0)
    if table.unknown:
        deals[:, table.unknown] = rest[:, combos].reshape(-1, len(table.unknown))
    return deals


def _sample(table: _Table, trials: int, rng: np.random.Generator) -> npt.NDArray[np.int8]:
    """``trials`` random consistent deals: marks drawn from their pools without replacement,
    then unknown cards uniformly from what is left."""
    deals = np.empty((trials, table.positions), dtype=np.int8)
    used = np.zeros(trials, dtype=np.uint64)
    for position, card in table.known.items():
        deals[:, position] = card
        used |= _BITS[card]
    for positions, left in table.pools:
        order = np.argsort(rng.random((trials, len(left))), axis=1)[:, : len(positions)]
        cards = left[order]
        deals[:, positions] = cards
        for col in range(cards.shape[1]):
            used |= _BITS[cards[:, col]]
    for position in table.unknown:
        drawn = rng.integers(0, 52, size=trials, dtype=np.int8)
        bit = _BITS[drawn]
        clash = np.flatnonzero(used & bit)
        while clash.size:  # redraw only the deals where that card is already out
            drawn[clash] = rng.integers(0, 52, size=clash.size, dtype=np.int8)
            bit[clash] = _BITS[drawn[clash]]
            clash = clash[(used[clash] & bit[clash]) != 0]
        used |= bit
        deals[:, position] = drawn
    return deals


def equity(
    hands: Sequence[Sequence[Item]],
    board: Sequence[Item] = (),
    *,
    trials: int | None = None,
    seed: int | None = None,
    rng: np.random.Generator | None = None,
) -> list[SeatEquity]:
    """Each seat's chances from what is known of every card on the table.

    ``hands``: one entry per seat, two items each; ``board``: 0-5 items (missing ones are still
    to come). Exact when there are at most ``trials`` (default :data:`EXACT_LIMIT`) equally
    likely deals and no hole card is wholly unknown; otherwise ``trials`` (default
    :data:`DEFAULT_TRIALS`) Monte Carlo deals from ``rng`` or ``seed``.
    """
    table = _layout(hands, board)
    if trials is not None and trials < 1:
        raise InvalidCardsError(f"trials must be 1 or more, got {trials}")
    count = _exact_count(table)
    exact = count <= (trials if trials is not None else EXACT_LIMIT)
    if exact:
        deals = _enumerate(table)
    else:
        generator = rng if rng is not None else np.random.default_rng(seed)
        deals = _sample(table, trials or DEFAULT_TRIALS, generator)
    return _tally(deals, table.seats, exact=exact)


def _tally(deals: npt.NDArray[np.int8], seats: int, *, exact: bool, chunk: int = 500_000) -> list[SeatEquity]:
    wins = np.zeros(seats)
    ties = np.zeros(seats)
    shares = np.zeros(seats)
    squares = np.zeros(seats)
    for start in range(0, len(deals), chunk):
        part = deals[start : start + chunk]
        hole = part[:, : 2 * seats].reshape(-1, seats, 2)
        ranks = evaluate_seats(hole, part[:, 2 * seats :])
        best = ranks == ranks.max(axis=1, keepdims=True)
        winners = best.sum(axis=1, keepdims=True)
        share = best / winners
        wins += (best & (winners == 1)).sum(axis=0)
        ties += (best & (winners > 1)).sum(axis=0)
        shares += share.sum(axis=0)
        squares += (share * share).sum(axis=0)
    n = len(deals)
    mean = shares / n
    if exact or n < 2:
        stderr = np.zeros(seats)
    else:
        variance = np.maximum(squares / n - mean * mean, 0.0) * n / (n - 1)
        stderr = np.sqrt(variance / n)
    return [
        SeatEquity(float(wins[s] / n), float(ties[s] / n), float(mean[s]), float(stderr[s]), exact, n)
        for s in range(seats)
    ]
