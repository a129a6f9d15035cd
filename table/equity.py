"""Win, tie and equity for 2-10 Hold'em hands with known, unknown and Tock-marked cards.

Its errors stay English: they report a wrong argument to this programming interface.

Every card position on the table (two per seat, five on the board, and any dead cards such as
folded hands) is either a known :class:`~table.cards.Card`, a :class:`~table.tock.Mark` (the
card is one of the few the mark stands for) or ``None`` (any card not otherwise on the table).
Every deal consistent with that is equally likely. The answer is exact (every deal enumerated)
when there are few deals, and Monte Carlo otherwise, with its standard error.

>>> ah_kh, qs_qd = parse_cards("Ah Kh"), parse_cards("Qs Qd")
>>> result = equity([ah_kh, qs_qd])  # all 1,712,304 boards
>>> round(result[0].equity, 6), result[0].exact
(0.462145, True)
>>> equity([parse_cards("As Ad"), [Mark.parse("h:ace"), None]], trials=20_000, seed=1)[0].win > 0.8
True

Why the sampler is uniform: marked positions are filled first, each mark's positions by a
draw without replacement from that mark's cards (different marks have disjoint cards, so the
draws are independent); unknown positions are then filled from whatever is left. However the
marks were filled, the same number of cards is left for the unknown positions, so every
consistent deal has the same chance. (Filling the unknown positions first would not be
uniform: how many ways the marks can then be completed depends on which cards the unknown
positions took.)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from table.cards import Card, parse_cards
from table.errors import InvalidCardsError
from table.evaluate import Category, category_of, evaluate_seats
from table.tock_marks import ALL_MARKS, Mark, mark_of
from table.wording import counted

__all__ = [
    "DEFAULT_TRIALS",
    "EXACT_LIMIT",
    "MARK_INDEX",
    "MARK_NUMBER",
    "MAX_TRIALS",
    "Z95",
    "Cards",
    "Item",
    "Layout",
    "Pool",
    "SeatEquity",
    "combinations_array",
    "equity",
    "lay_out",
    "parse_cards",
    "read_items",
    "trials_for",
]

Item = Card | Mark | str | None
"""One card position: a known card, a Tock mark, ``None`` for unknown (texts are parsed)."""
Cards = Sequence[Item] | str
"""Several positions: a list of items, or a text such as ``"Ah Kh"``, ``"h:large ?"``."""

EXACT_LIMIT = 2_000_000
"""Enumerate every deal when there are at most this many (heads-up pre-flop has 1,712,304)."""
DEFAULT_TRIALS = 100_000
"""Monte Carlo deals when neither ``trials`` nor ``precision`` is given."""
MAX_TRIALS = 4_000_000
"""Most Monte Carlo deals a ``precision`` run may take (when ``trials`` does not cap it)."""
Z95 = 1.959963984540054
"""Standard normal quantile for a two-sided 95 % interval."""

_UNKNOWN_TEXTS = frozenset({"?", "-", "none", "None"})
_PILOT = 10_000
_CHUNK = 250_000
_BITS = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
MARK_INDEX: npt.NDArray[np.int8] = np.array(
    [ALL_MARKS.index(mark_of(Card.from_id(i))) for i in range(52)], dtype=np.int8
)
"""Index in :data:`table.tock.ALL_MARKS` of each card id's mark."""
MARK_NUMBER: dict[Mark, int] = {mark: i for i, mark in enumerate(ALL_MARKS)}
"""Index in :data:`table.tock.ALL_MARKS` of each mark."""


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
    hands: tuple[float, ...] = ()
    """Chance of each final hand category, indexed by :class:`~table.evaluate.Category`."""

    @property
    def half_width(self) -> float:
        """Half-width of the 95 % confidence interval of ``equity`` (0 when exact)."""
        return Z95 * self.stderr


@dataclass(frozen=True)
class Pool:
    """The positions that show one Tock mark, and the cards of that mark still possible."""

    mark: Mark
    positions: tuple[int, ...]
    cards: npt.NDArray[np.int8]


@dataclass(frozen=True)
class Layout:
    """Every card position of a table: seat ``s`` holds positions ``2s`` and ``2s+1``, the board
    follows (five positions, missing cards unknown), then the dead cards."""

    seats: int
    items: tuple[Card | Mark | None, ...]
    known: dict[int, int]
    """Position -> card id of every known card."""
    pools: tuple[Pool, ...]
    unknown: tuple[tuple[int, ...], ...]
    """Unknown positions in groups whose order does not matter (a seat's, the board's, the dead)."""
    free: npt.NDArray[np.int8]
    """Card ids not known anywhere (marked and unknown positions take these)."""

    @property
    def positions(self) -> int:
        return len(self.items)

    @property
    def board(self) -> range:
        """The five board positions."""
        return range(2 * self.seats, 2 * self.seats + 5)

    def owner(self, position: int) -> str:
        """Who holds a position, in words: ``"seat 3"``, ``"the board"``, ``"the dead cards"``."""
        if position < 2 * self.seats:
            return f"seat {position // 2 + 1}"
        return "the board" if position < 2 * self.seats + 5 else "the dead cards"

    def slack(self) -> npt.NDArray[np.int64]:
        """For each mark of :data:`~table.tock.ALL_MARKS`: its cards not known anywhere, minus
        the positions showing it. That many of its cards may sit at unknown positions."""
        spare = np.bincount(MARK_INDEX[self.free], minlength=16).astype(np.int64)
        for pool in self.pools:
            spare[MARK_NUMBER[pool.mark]] -= len(pool.positions)
        return spare

    def deal_count(self) -> int:
        """How many equally likely deals are consistent (unknown groups counted unordered)."""
        count = 1
        for pool in self.pools:
            count *= math.perm(len(pool.cards), len(pool.positions))
        left = len(self.free) - sum(len(pool.positions) for pool in self.pools)
        for group in self.unknown:
            count *= math.comb(left, len(group))
            left -= len(group)
        return count


def _item(value: object, where: str) -> Card | Mark | None:
    if value is None or isinstance(value, Card | Mark):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text in _UNKNOWN_TEXTS:
            return None
        return Mark.parse(text) if ":" in text else Card.parse(text)
    raise InvalidCardsError(f"{where}: {value!r} is not a card, a Tock mark or None (unknown)")


def read_items(value: object, where: str) -> list[Card | Mark | None]:
    """Items from a list or a text such as ``"Ah Kh"``, ``"h:large ?"``; ``where`` names them in errors."""
    if isinstance(value, str):
        tokens = value.replace(",", " ").split()
        if len(tokens) == 1 and ":" not in tokens[0] and len(tokens[0]) > 3:
            return list(parse_cards(tokens[0]))  # a run such as "AhKh"
        return [_item(t, where) for t in tokens]
    if not isinstance(value, Sequence):
        raise InvalidCardsError(f"{where}: {value!r} is not a list of cards, Tock marks or None")
    return [_item(v, where) for v in value]


def lay_out(hands: Sequence[Cards], board: Cards = (), *, dead: Cards = ()) -> Layout:
    """Check a table and number its positions (see :class:`Layout`).

    Raises :class:`~table.errors.InvalidCardsError` naming the problem: a wrong number of seats
    or cards, a card twice, a mark that no card left can match, more cards than a deck holds.
    """
    if isinstance(hands, str | bytes) or not isinstance(hands, Sequence) or not 2 <= len(hands) <= 10:
        count = len(hands) if isinstance(hands, Sequence) and not isinstance(hands, str | bytes) else repr(hands)
        raise InvalidCardsError(f"equity needs a list of 2 to 10 hands, got {count}")
    board_items = read_items(board, "the board")
    if len(board_items) > 5:
        raise InvalidCardsError(f"a board has at most 5 cards, got {len(board_items)}")
    items: list[tuple[str, Card | Mark | None]] = []
    for seat, hand in enumerate(hands):
        where = f"seat {seat + 1}"
        hand_items = read_items(hand, where)
        if len(hand_items) != 2:
            raise InvalidCardsError(
                f"{where} has {len(hand_items)} cards: give exactly 2 items (a Card, a Mark or None)"
            )
        items += [(where, item) for item in hand_items]
    items += [("the board", item) for item in [*board_items, *[None] * (5 - len(board_items))]]
    items += [("the dead cards", item) for item in read_items(dead, "the dead cards")]
    if len(items) > 52:
        raise InvalidCardsError(
            f"the table holds {len(items)} cards ({2 * len(hands)} in hands, 5 on the board, "
            f"{len(items) - 2 * len(hands) - 5} dead) but a deck has 52"
        )

    known: dict[int, int] = {}
    where_known: dict[int, str] = {}
    by_mark: dict[Mark, list[int]] = {}
    groups: dict[str, list[int]] = {}
    for position, (where, item) in enumerate(items):
        if isinstance(item, Card):
            if item.id in where_known:
                raise InvalidCardsError(f"{item} is on the table twice ({where_known[item.id]} and {where})")
            known[position], where_known[item.id] = item.id, where
        elif isinstance(item, Mark):
            by_mark.setdefault(item, []).append(position)
        else:
            groups.setdefault(where, []).append(position)
    pools = []
    for mark, positions in by_mark.items():
        left = [c.id for c in mark.cards() if c.id not in where_known]
        if len(left) < len(positions):
            taken = ", ".join(f"{c} ({where_known[c.id]})" for c in mark.cards() if c.id in where_known)
            raise InvalidCardsError(
                f"{counted(len(positions), 'card')} {'shows' if len(positions) == 1 else 'show'} the mark {mark}, "
                f"which stands for {' '.join(map(str, mark.cards()))}, "
                f"but only {len(left)} of those can still be there" + (f": {taken} already known" if taken else "")
            )
        pools.append(Pool(mark, tuple(positions), np.array(left, dtype=np.int8)))
    free = np.array([c for c in range(52) if c not in where_known], dtype=np.int8)
    return Layout(
        len(hands), tuple(item for _, item in items), known, tuple(pools), tuple(map(tuple, groups.values())), free
    )


@lru_cache(maxsize=8)
def combinations_array(n: int, k: int) -> npt.NDArray[np.int8]:
    """Every k-subset of range(n) (n <= 127), one per row, in lexicographic order (vectorised).

    The result is cached and read-only.
    """
    if k == 0:
        combos = np.zeros((1, 0), dtype=np.int8)
    else:
        combos = np.arange(n, dtype=np.int8)[:, None]
        for _ in range(k - 1):
            last = combos[:, -1].astype(np.int64)
            counts = n - 1 - last
            offsets = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
            following = (np.repeat(last, counts) + 1 + offsets).astype(np.int8)
            combos = np.column_stack([np.repeat(combos, counts, axis=0), following])
    combos.flags.writeable = False
    return combos


def _marked_assignments(layout: Layout) -> tuple[list[int], npt.NDArray[np.int8]]:
    """Every way to fill the marked positions: (their positions, one row per way)."""
    blocks = [
        np.array(list(itertools.permutations(pool.cards.tolist(), len(pool.positions))), dtype=np.int8)
        for pool in layout.pools
    ]
    columns = [p for pool in layout.pools for p in pool.positions]
    if not blocks:
        return columns, np.zeros((1, 0), dtype=np.int8)
    grid = np.indices([len(b) for b in blocks]).reshape(len(blocks), -1)
    return columns, np.concatenate([blocks[i][grid[i]] for i in range(len(blocks))], axis=1)


def _deal_blocks(layout: Layout, chunk: int = _CHUNK) -> Iterator[npt.NDArray[np.int8]]:
    """Every consistent deal, as blocks of at most about ``chunk`` rows of card ids by position."""
    columns, marked = _marked_assignments(layout)
    groups = [g for g in layout.unknown if g]
    left = len(layout.free) - len(columns)
    sizes = []
    for group in groups:
        sizes.append(math.comb(left, len(group)))
        left -= len(group)
    step = max(1, chunk // math.prod(sizes))
    for start in range(0, len(marked), step):
        part = marked[start : start + step]
        deals = np.empty((len(part), layout.positions), dtype=np.int8)
        for position, card in layout.known.items():
            deals[:, position] = card
        deals[:, columns] = part
        taken = np.zeros((len(part), 52), dtype=bool)
        taken[np.arange(len(part))[:, None], part] = True
        keep = ~taken[:, layout.free]
        rest = np.broadcast_to(layout.free, keep.shape)[keep].reshape(len(part), -1)
        yield from _extend(deals, rest, groups, sizes, chunk)


def _extend(
    deals: npt.NDArray[np.int8],
    rest: npt.NDArray[np.int8],
    groups: list[tuple[int, ...]],
    sizes: list[int],
    chunk: int,
) -> Iterator[npt.NDArray[np.int8]]:
    """Fill the unknown groups in turn with every subset of the cards each row has left."""
    if not groups:
        yield deals
        return
    columns, k = list(groups[0]), len(groups[0])
    combos = combinations_array(rest.shape[1], k)
    step = max(1, chunk // (len(deals) * math.prod(sizes[1:])))
    for start in range(0, len(combos), step):
        some = combos[start : start + step]
        grown = np.repeat(deals, len(some), axis=0)
        grown[:, columns] = rest[:, some].reshape(-1, k)
        if len(groups) > 1:
            keep = np.ones((len(some), rest.shape[1]), dtype=bool)
            keep[np.arange(len(some))[:, None], some] = False
            others = np.nonzero(keep)[1].reshape(len(some), -1)
            remaining = rest[:, others].reshape(len(grown), -1)
        else:
            remaining = rest[:0]
        yield from _extend(grown, remaining, groups[1:], sizes[1:], chunk)


def _sample(layout: Layout, trials: int, rng: np.random.Generator) -> npt.NDArray[np.int8]:
    """``trials`` random consistent deals: marks drawn from their pools without replacement,
    then unknown cards uniformly from what is left (see the module notes on why this order)."""
    deals = np.empty((trials, layout.positions), dtype=np.int8)
    used = np.zeros(trials, dtype=np.uint64)
    for position, card in layout.known.items():
        deals[:, position] = card
        used |= _BITS[card]
    for pool in layout.pools:
        order = np.argsort(rng.random((trials, len(pool.cards))), axis=1)[:, : len(pool.positions)]
        cards = pool.cards[order]
        deals[:, list(pool.positions)] = cards
        for col in range(cards.shape[1]):
            used |= _BITS[cards[:, col]]
    for position in itertools.chain.from_iterable(layout.unknown):
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


@lru_cache(maxsize=1)
def _category_table() -> npt.NDArray[np.intp]:
    """Category of every rank 0..7462 (one gather instead of a search per hand)."""
    return category_of(np.arange(7463)).astype(np.intp)


class _Tally:
    """Running counts over deals: for each seat, how often it was among k best hands (k = 1 is
    a win alone), from which wins, ties, pot shares and their variance follow; and how often
    it ended with each hand category."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.n = 0
        self.best = np.zeros((seats + 1, seats), dtype=np.int64)  # [k winners, seat]
        self.categories = np.zeros((len(Category), seats), dtype=np.int64)

    def add(self, deals: npt.NDArray[np.int8]) -> None:
        seats = self.seats
        column = np.arange(seats)
        for start in range(0, len(deals), _CHUNK):
            part = deals[start : start + _CHUNK]
            ranks = evaluate_seats(part[:, : 2 * seats].reshape(-1, seats, 2), part[:, 2 * seats : 2 * seats + 5])
            best = ranks == ranks.max(axis=1, keepdims=True)
            winners = np.count_nonzero(best, axis=1)
            # One counting pass each: (number of winners, seat) over the best hands, and
            # (category, seat) over every hand.
            keys = (winners[:, None] * seats + column)[best]
            self.best += np.bincount(keys, minlength=(seats + 1) * seats).reshape(seats + 1, seats)
            keys = _category_table()[ranks] * seats + column
            self.categories += np.bincount(keys.ravel(), minlength=len(Category) * seats).reshape(-1, seats)
            self.n += len(part)

    def _moments(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Mean pot share per seat and mean squared share."""
        split = np.arange(self.seats + 1, dtype=np.float64)
        split[0] = np.inf  # row 0 is always empty: a deal has at least one winner
        shares = (self.best / split[:, None]).sum(axis=0) / self.n
        squares = (self.best / (split * split)[:, None]).sum(axis=0) / self.n
        return shares, squares

    def stderr(self) -> npt.NDArray[np.float64]:
        n = self.n
        if n < 2:
            return np.full(self.seats, np.inf)
        mean, squares = self._moments()
        variance = np.maximum(squares - mean * mean, 0.0) * n / (n - 1)
        result: npt.NDArray[np.float64] = np.sqrt(variance / n)
        return result

    def results(self, *, exact: bool) -> list[SeatEquity]:
        n = self.n
        mean, _ = self._moments()
        stderr = np.zeros(self.seats) if exact else self.stderr()
        return [
            SeatEquity(
                float(self.best[1, s] / n),
                float(self.best[2:, s].sum() / n),
                float(mean[s]),
                float(stderr[s]),
                exact,
                n,
                tuple(float(x / n) for x in self.categories[:, s]),
            )
            for s in range(self.seats)
        ]


def trials_for(precision: float) -> int:
    """Monte Carlo deals that reach a 95 % half-width of ``precision`` in the worst case
    (a seat whose pot share has the largest possible variance, 1/4)."""
    return math.ceil(0.25 * (Z95 / precision) ** 2)


def equity(
    hands: Sequence[Cards],
    board: Cards = (),
    *,
    trials: int | None = None,
    seed: int | None = None,
    rng: np.random.Generator | None = None,
    dead: Cards = (),
    precision: float | None = None,
) -> list[SeatEquity]:
    """Each seat's chances from what is known of every card on the table.

    ``hands``: one entry per seat, two items each (a :class:`~table.cards.Card`, a
    :class:`~table.tock.Mark`, ``None`` for unknown, or their texts ``"Ah"``, ``"h:large"``);
    ``board``: 0-5 items (missing ones are still to come); ``dead``: cards out of play that
    still came from the deck (folded hands, burned cards), items likewise.

    How many deals:

    * by default, exact when there are at most :data:`EXACT_LIMIT` consistent deals, else
      :data:`DEFAULT_TRIALS` Monte Carlo deals;
    * ``trials=n``: exact when there are at most ``n`` deals, else ``n`` Monte Carlo deals;
    * ``precision=p``: exact when there are at most :func:`trials_for` ``(p)`` deals, else Monte
      Carlo until every seat's 95 % half-width is at most ``p`` (at most ``trials`` deals, or
      :data:`MAX_TRIALS`).

    Random deals come from ``rng`` if given, else from a generator seeded with ``seed``.
    """
    layout = lay_out(hands, board, dead=dead)
    if trials is not None and (isinstance(trials, bool) or not isinstance(trials, int) or trials < 1):
        raise InvalidCardsError(f"trials must be a whole number, 1 or more, got {trials!r}")
    if precision is not None and not 0 < precision < 0.5:
        raise InvalidCardsError(f"precision is a 95 % half-width between 0 and 0.5 (e.g. 0.005), got {precision!r}")
    limit = EXACT_LIMIT if trials is None else trials
    if precision is not None:
        limit = trials_for(precision)
    tally = _Tally(layout.seats)
    if layout.deal_count() <= limit:
        for block in _deal_blocks(layout):
            tally.add(block)
        return tally.results(exact=True)
    generator = rng if rng is not None else np.random.default_rng(seed)
    if precision is None:
        tally.add(_sample(layout, trials or DEFAULT_TRIALS, generator))
        return tally.results(exact=False)
    cap = trials if trials is not None else MAX_TRIALS
    tally.add(_sample(layout, min(_PILOT, cap), generator))
    while tally.n < cap and Z95 * tally.stderr().max() > precision:
        # Deals needed for the worst seat at its observed variance, plus 5 % against noise.
        needed = tally.n * (Z95 * tally.stderr().max() / precision) ** 2 * 1.05
        more = min(cap - tally.n, max(math.ceil(needed) - tally.n, 1_000))
        tally.add(_sample(layout, more, generator))
    return tally.results(exact=False)
