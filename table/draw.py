"""Five-card draw hands with jokers and wild cards, and lowball ("Petite Misère").

A hand is five cards; ``"Jk"`` (:data:`table.cards.Card.JOKER`) is a joker, and a declared
wild rank (``wild_rank="3"``: "the threes are wild") makes every card of that rank wild too.
The exact rules, and the choices the seed text leaves open, are in :mod:`table.draw_tables`
and in the README ("Five-card draw and Petite Misère").

>>> evaluate_draw("Kh Kd Ks Kc Jk").describe()
'Five of a kind, kings (with a joker)'
>>> straight = evaluate_draw("Jk Qh Jd Tc 9s")
>>> straight.describe(), straight < evaluate_draw("Kh Qs Jd Tc 9s")
('Straight, queen high (with a joker)', True)
>>> evaluate_draw("3h 3d Ah Kd 7c", wild_rank="3").describe()
'Three of a kind, aces (with 2 wild cards)'
>>> evaluate_low("5h 4d 3c 2s Ah").describe()
'Five-four low (5-4-3-2-A)'
>>> evaluate_low("7h 5d 4c 3s 2h", rule="deuce-to-seven") > evaluate_low("6h 5d 4c 3s 2d", rule="deuce-to-seven")
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from table import draw_tables as tables
from table.cards import JOKER, JOKER_ID, RANK_CHARS, Card, Joker, Rank
from table.draw_tables import LowRule, TableKind, WildTies
from table.errors import CardParseError, InvalidCardsError, RulesError
from table.evaluate import describe_ranks
from table.phrases import N_, Number, Verbatim, Word, given

__all__ = [
    "DrawCard",
    "DrawCategory",
    "DrawValue",
    "LowRule",
    "WildTies",
    "draw_categories",
    "evaluate_draw",
    "evaluate_draw_many",
    "evaluate_low",
    "evaluate_low_many",
    "parse_draw_cards",
    "parse_low_rule",
    "parse_ties",
    "parse_wild_rank",
]

DrawCard = Card | Joker
"""A card of a draw hand: one of the 52, or a joker."""
Cards = str | Iterable[str | int | DrawCard]
"""Five cards as text (``"Ah Kd Jk 7c 7d"``) or as Card/joker objects, texts or ids (52 = joker)."""
WildRank = Rank | str | None
"""A declared wild rank: a Rank, text such as ``"3"`` or ``"T"``, or None."""

MAX_JOKERS = 2
"""A deck holds at most two jokers (the seed: "un ou deux Fous")."""


class DrawCategory(IntEnum):
    """Hand category, weakest first; five of a kind ranks above a straight flush."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9

    @property
    def label(self) -> str:
        """English name for display, e.g. ``"Five of a kind"``."""
        return self.name.replace("_", " ").capitalize()


_RANK_WORDS = tuple(r.word for r in Rank)


@dataclass(frozen=True, order=True)
class DrawValue:
    """The value of a draw hand, high or low. Compare values of one ranking with ``<``/``==``:
    by ``rank`` only, higher is better (for a low hand: a better low), equal is a tie."""

    rank: int
    cards: tuple[DrawCard, ...] = field(compare=False, repr=False)
    """The five cards, as given."""
    key: tuple[int, ...] = field(compare=False)
    """(category, ranks deciding ties..., wild-card term); see :attr:`RankTable.keys`."""
    kind: TableKind = field(compare=False, repr=False)
    wilds: int = field(compare=False)
    """Wild cards in the hand: jokers plus cards of the wild rank."""
    jokers: int = field(compare=False, repr=False)

    @property
    def category(self) -> DrawCategory:
        """What the hand makes (for a low hand: what it is, e.g. a pair is bad in lowball)."""
        return DrawCategory(self.key[0])

    @property
    def is_low(self) -> bool:
        return self.kind.is_low

    def describe(self) -> str:
        """The hand in words, e.g. ``"Straight, queen high (with a joker)"``."""
        text = self._describe_low() if self.is_low else self._describe_high()
        if self.wilds == 0:
            return text
        if self.wilds == self.jokers:
            return f"{text} (with {'a joker' if self.jokers == 1 else f'{self.jokers} jokers'})"
        return f"{text} (with {'a wild card' if self.wilds == 1 else f'{self.wilds} wild cards'})"

    def _describe_high(self) -> str:
        cat, *ranks = self.key[:-1]
        return _name(DrawCategory(cat), ranks)

    def _describe_low(self) -> str:
        cat, *values = self.key[:-1]
        category = DrawCategory(cat)
        # Ace-to-five keys hold ace-low values (0 = ace .. 12 = king).
        ace_low = self.kind is TableKind.LOW_ACE_TO_FIVE
        ranks = [12 if v == 0 else v - 1 for v in values] if ace_low else list(values)
        if category in (DrawCategory.STRAIGHT, DrawCategory.STRAIGHT_FLUSH):
            spelled = [RANK_CHARS[t] for t in range(ranks[0], ranks[0] - 5, -1)]
        else:
            shape = _SHAPES.get(category, (1, 1, 1, 1, 1))
            spelled = [RANK_CHARS[rank] for rank, n in zip(ranks, shape, strict=True) for _ in range(n)]
        if category in (DrawCategory.HIGH_CARD, DrawCategory.FLUSH):
            name = f"{_RANK_WORDS[ranks[0]].capitalize()}-{_RANK_WORDS[ranks[1]]} low"
            name = f"Flush, {name.lower()}" if category == DrawCategory.FLUSH else name
        else:
            name = _name(category, ranks)
        return f"{name} ({'-'.join(spelled)})"


_SHAPES = {DrawCategory.FOUR_OF_A_KIND: (4, 1), DrawCategory.FULL_HOUSE: (3, 2),
           DrawCategory.THREE_OF_A_KIND: (3, 1, 1), DrawCategory.TWO_PAIR: (2, 2, 1),
           DrawCategory.PAIR: (2, 1, 1, 1)}  # fmt: skip


def _name(category: DrawCategory, r: list[int]) -> str:
    """A category and its deciding ranks in words (``r`` in the order of the key)."""
    if category == DrawCategory.FIVE_OF_A_KIND:
        return f"Five of a kind, {Rank(r[0]).plural}"
    return describe_ranks(category, r)  # the other categories are numbered as Hold'em's


# ------------------------------------------------------------------------- input
_SPLIT = re.compile(r"[\s,;]+")


def parse_draw_cards(text: str | Iterable[str | DrawCard]) -> list[DrawCard]:
    """Read cards that may include jokers: ``"Ah Kd Jk"``, ``"AhKdJk"`` or a list.

    ``"Jk"``, ``"joker"``, ``"Fou"`` and ``"🃏"`` are jokers; everything else is read by
    :meth:`Card.parse`. Repeated natural cards are rejected (jokers may repeat).
    """
    tokens: list[str | DrawCard]
    if isinstance(text, str):
        words = [t for t in _SPLIT.split(text.strip()) if t]
        if len(words) == 1 and len(words[0]) > 3 and words[0].lower() not in Joker.TEXTS:
            words = list(_split_run(words[0]))
        tokens = list(words)
    else:
        tokens = list(text)
    cards = [_as_draw_card(t) for t in tokens]
    _ensure_distinct_naturals(cards)
    return cards


def _split_run(run: str) -> Iterable[str]:
    i = 0
    while i < len(run):
        step = 3 if run[i : i + 2] == "10" else 2
        yield run[i : i + step]
        i += step


def _as_draw_card(item: object) -> DrawCard:
    if isinstance(item, Card | Joker):
        return item
    if isinstance(item, str):
        return JOKER if item.strip().lower() in Joker.TEXTS else Card.parse(item)
    if isinstance(item, int | np.integer) and not isinstance(item, bool):
        return JOKER if int(item) == JOKER_ID else Card.from_id(int(item))
    raise CardParseError(
        N_("cannot read {item}: give Card objects, Card.JOKER, ids 0..52 (52 = joker) or texts"), item=given(item)
    )


def _ensure_distinct_naturals(cards: Iterable[DrawCard]) -> None:
    seen: set[Card] = set()
    repeated = []
    for card in cards:
        if isinstance(card, Card):
            if card in seen:
                repeated.append(str(card))
            seen.add(card)
    if repeated:
        raise InvalidCardsError(
            N_("duplicate cards {cards}: a deck holds each card once (only jokers may repeat)"),
            cards=Verbatim(" ".join(repeated)),
        )


def parse_wild_rank(wild_rank: WildRank) -> Rank | None:
    """A declared wild rank from a :class:`Rank`, text such as ``"3"``, ``"T"``, ``"10"``, or None.

    A bare number is refused: ``3`` could mean the threes or rank index 3 (the fives)."""
    if wild_rank is None or isinstance(wild_rank, Rank):
        return wild_rank
    if isinstance(wild_rank, int):
        raise RulesError(
            N_(
                "wild_rank {wild_rank}: a bare number is ambiguous (rank index or face value?); give a Rank such as "
                "Rank.THREE, or text such as '3', 'T' or '10'"
            ),
            wild_rank=given(wild_rank),
        )
    if isinstance(wild_rank, str):
        try:
            return Card.parse(wild_rank.strip() + "c").rank
        except CardParseError:
            pass
    raise RulesError(
        N_("wild_rank {wild_rank} is not a rank: give a Rank, or text such as '3', 'T' or '10', or None"),
        wild_rank=given(wild_rank),
    )


def _hand(cards: Cards) -> tuple[DrawCard, ...]:
    if isinstance(cards, str):
        hand = tuple(parse_draw_cards(cards))
    else:
        hand = tuple(c if type(c) is Card else _as_draw_card(c) for c in cards)
    naturals = [c.id for c in hand if type(c) is Card]
    if len(set(naturals)) != len(naturals):
        _ensure_distinct_naturals(hand)
    if len(hand) != 5:
        raise InvalidCardsError(N_("a draw hand has exactly 5 cards, got {n_hand}"), n_hand=Number(len(hand)))
    if 5 - len(naturals) > MAX_JOKERS:
        raise InvalidCardsError(
            N_("a hand holds at most {max_jokers} jokers (a deck has one or two), got {value}"),
            max_jokers=Number(MAX_JOKERS),
            value=Number(5 - len(naturals)),
        )
    return hand


def _evaluate(cards: Cards, wild_rank: WildRank, kind: TableKind) -> DrawValue:
    hand = _hand(cards)
    wild = parse_wild_rank(wild_rank)
    codes: list[int] = []
    suits: set[int] = set()
    for card in hand:
        if isinstance(card, Card) and card.rank != wild:
            codes.append(card.rank)
            suits.add(card.suit)
    wilds = 5 - len(codes)
    codes.sort(reverse=True)
    table = tables.rank_table(kind)
    rank = int(table.lookup.item(tables.row_index([tables.WILD_CODE] * wilds + codes), int(len(suits) <= 1)))
    jokers = sum(1 for c in hand if isinstance(c, Joker))
    return DrawValue(rank, hand, table.keys[rank - 1], kind, wilds, jokers)


E = TypeVar("E", WildTies, LowRule)


def _option(kind: type[E], value: E | str, what: Word) -> E:
    try:
        return kind(value)
    except ValueError:
        allowed = Verbatim(", ".join(repr(option.value) for option in kind))
        raise RulesError(
            N_("{what} {value} is not known: use one of {allowed}"), what=what, value=given(value), allowed=allowed
        ) from None


def parse_ties(ties: WildTies | str) -> WildTies:
    """The tie rule from a :class:`WildTies` or its value (``"natural"``, ``"substituted"``)."""
    return _option(WildTies, ties, Word(N_("tie rule")))


def parse_low_rule(rule: LowRule | str) -> LowRule:
    """The lowball convention from a :class:`LowRule` or its value (``"ace-to-five"``, ``"deuce-to-seven"``)."""
    return _option(LowRule, rule, Word(N_("low rule")))


def _high_kind(ties: WildTies | str) -> TableKind:
    natural = parse_ties(ties) is WildTies.NATURAL
    return TableKind.HIGH_NATURAL if natural else TableKind.HIGH_SUBSTITUTED


def _low_kind(rule: LowRule | str) -> TableKind:
    ace_to_five = parse_low_rule(rule) is LowRule.ACE_TO_FIVE
    return TableKind.LOW_ACE_TO_FIVE if ace_to_five else TableKind.LOW_DEUCE_TO_SEVEN


# ------------------------------------------------------------------------- one hand
def evaluate_draw(
    cards: Cards,
    *,
    wild_rank: WildRank = None,
    ties: WildTies | str = WildTies.NATURAL,
) -> DrawValue:
    """Value of five cards for high poker with jokers (``"Jk"``) and an optional wild rank.

    ``ties`` is how a wild card counts between hands of one category: by default the seed's
    rule, "le Fou ne compte pas pour départager deux mains" (see :class:`WildTies`). Raises
    :class:`~table.errors.InvalidCardsError` for a wrong count, repeated cards or more than
    two jokers, :class:`~table.errors.RulesError` for an unknown wild rank or tie rule.
    """
    return _evaluate(cards, wild_rank, _high_kind(ties))


def evaluate_low(
    cards: Cards,
    *,
    wild_rank: WildRank = None,
    rule: LowRule | str = LowRule.ACE_TO_FIVE,
) -> DrawValue:
    """Value of five cards for Petite Misère (lowball): a higher ``rank`` is a better low hand.

    ``rule`` is the lowball convention, ace-to-five by default (aces low, straights and
    flushes ignored, 5-4-3-2-A best) or ``"deuce-to-seven"`` (aces high, straights and flushes
    count against, 7-5-4-3-2 best). Wild cards take the value that makes the hand lowest.
    """
    return _evaluate(cards, wild_rank, _low_kind(rule))


# ------------------------------------------------------------------------- many hands
def _ranks_many(ids: npt.ArrayLike, wild_rank: WildRank, kind: TableKind, check: bool) -> npt.NDArray[np.int32]:
    arr = np.asarray(ids)
    if arr.dtype.kind not in "iu":
        raise InvalidCardsError(
            N_("card ids must be an integer array, got dtype {dtype}"), dtype=Verbatim(str(arr.dtype))
        )
    if arr.ndim != 2 or arr.shape[1] != 5:
        raise InvalidCardsError(N_("card ids must have shape (N, 5), got {shape}"), shape=Verbatim(str(arr.shape)))
    wild = parse_wild_rank(wild_rank)
    if arr.shape[0] == 0:
        return np.zeros(0, dtype=np.int32)
    arr = arr.astype(np.int16)
    if check:
        _check_ids(arr)
    rank = arr >> 2
    is_wild = arr == JOKER_ID
    if wild is not None:
        is_wild |= rank == wild
    codes = np.where(is_wild, tables.WILD_CODE, rank).astype(np.int32)
    codes.sort(axis=1)
    index = ((codes[:, 4] * tables.BASE + codes[:, 3]) * tables.BASE + codes[:, 2]) * tables.BASE + codes[:, 1]
    index = index * tables.BASE + codes[:, 0]
    suit = arr & 3
    suited = np.where(is_wild, 9, suit).min(axis=1) >= np.where(is_wild, -1, suit).max(axis=1)
    result: npt.NDArray[np.int32] = tables.rank_table(kind).lookup[index, suited.astype(np.intp)]
    return result


_BITS = np.array([1 << i for i in range(52)] + [0], dtype=np.int64)
"""One bit per card id; none for the joker."""


def _check_ids(arr: npt.NDArray[np.int16]) -> None:
    low, high = int(arr.min()), int(arr.max())
    if low < 0 or high > JOKER_ID:
        bad = low if low < 0 else high
        raise InvalidCardsError(
            N_("card id {bad} is out of range: ids are 0..51, and 52 for a joker"), bad=Verbatim(str(bad))
        )
    jokers = (arr == JOKER_ID).sum(axis=1, dtype=np.int8)
    if int(jokers.max()) > MAX_JOKERS:
        row = int(np.argmax(jokers))
        raise InvalidCardsError(
            N_("row {row} holds {jokers_in_row} jokers: a hand holds at most {max_jokers}"),
            row=Number(int(row)),
            jokers_in_row=Number(int(jokers[row])),
            max_jokers=Number(MAX_JOKERS),
        )
    # One bit per natural card (none for a joker): with no repeats the bits' sum equals their union.
    bits = _BITS[arr]
    total, union = bits[:, 0].copy(), bits[:, 0].copy()
    for column in range(1, 5):
        total += bits[:, column]
        union |= bits[:, column]
    repeats = np.flatnonzero(total != union)
    if repeats.size:
        row = int(repeats[0])
        raise InvalidCardsError(
            N_("row {row} repeats a card ({card_ids}): a hand holds each card once"),
            row=Number(int(row)),
            card_ids=Verbatim(str(arr[row].tolist())),
        )


def evaluate_draw_many(
    ids: npt.ArrayLike,
    *,
    wild_rank: WildRank = None,
    ties: WildTies | str = WildTies.NATURAL,
    check: bool = True,
) -> npt.NDArray[np.int32]:
    """Ranks (as ``evaluate_draw(...).rank``) of every row of an (N, 5) id array, where id 52
    is a joker (:data:`table.cards.JOKER_ID`). Vectorised: a sort and one look-up per hand.
    ``check=False`` skips validating the ids for trusted input."""
    return _ranks_many(ids, wild_rank, _high_kind(ties), check)


def evaluate_low_many(
    ids: npt.ArrayLike,
    *,
    wild_rank: WildRank = None,
    rule: LowRule | str = LowRule.ACE_TO_FIVE,
    check: bool = True,
) -> npt.NDArray[np.int32]:
    """Ranks (as ``evaluate_low(...).rank``) of every row of an (N, 5) id array (52 = joker)."""
    return _ranks_many(ids, wild_rank, _low_kind(rule), check)


def draw_categories(
    ranks: npt.ArrayLike, *, ties: WildTies | str = WildTies.NATURAL, low: LowRule | str | None = None
) -> npt.NDArray[np.int8]:
    """:class:`DrawCategory` numbers of an array of ranks from :func:`evaluate_draw_many`
    (with the same ``ties``) or, when ``low`` is given, from :func:`evaluate_low_many`."""
    table = tables.rank_table(_high_kind(ties) if low is None else _low_kind(low))
    categories = np.array([key[0] for key in table.keys], dtype=np.int8)
    arr = np.asarray(ranks)
    if arr.size and (int(arr.min()) < 1 or int(arr.max()) > table.size):
        raise InvalidCardsError(
            N_("ranks run 1..{size} for this ranking, got {lowest}..{highest}"),
            size=Number(table.size),
            lowest=Number(int(arr.min())),
            highest=Number(int(arr.max())),
        )
    result: npt.NDArray[np.int8] = categories[arr - 1]
    return result
