"""Hands, cards and Tock marks in words, per language.

The evaluators return values, not words: a Hold'em hand's key is its category then the ranks
that decide ties (``table.evaluate.HandValue.key``), a draw hand adds its wild cards
(``table.draw.DrawValue``). These functions name them in the phone's language:

>>> from table.evaluate import evaluate
>>> from web.words import words_for
>>> value = evaluate(["As", "Ad", "8c", "8h", "Kd"])
>>> hand_name(words_for("en"), value.key), hand_name(words_for("fr"), value.key)
('Two pair, aces and eights', 'Double paire, as et huit')
>>> hand_name(words_for("fr"), evaluate(["Ks", "Kd", "Kc", "7h", "7d"]).key)
'Full aux rois par les sept'
>>> card_words(words_for("fr"), Card.parse("Qh")), card_words(words_for("fr"), Card.parse("Ac"))
('la dame de cœur', 'l’as de trèfle')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from table.cards import SUIT_CHARS, Card, Rank, Suit
from table.draw import DrawCategory, DrawValue
from table.evaluate import Category
from table.tock_marks import Mark, SizeClass
from web.words import N_, NP_, Words, counted

__all__ = [
    "card_words",
    "category_name",
    "draw_hand_name",
    "hand_name",
    "mark_words",
    "rank_plural",
    "rank_word",
    "suit_plural",
    "target_name",
]


_RANKS = (N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"), N_("eight"), N_("nine"),
          N_("ten"), N_("jack"), N_("queen"), N_("king"), N_("ace"))  # fmt: skip
_RANK_PLURALS = (N_("twos"), N_("threes"), N_("fours"), N_("fives"), N_("sixes"), N_("sevens"), N_("eights"),
                 N_("nines"), N_("tens"), N_("jacks"), N_("queens"), N_("kings"), N_("aces"))  # fmt: skip
# The plural after "of", where a language joins them (French: "d'as", "de rois").
_OF_RANKS = (NP_("of", "twos"), NP_("of", "threes"), NP_("of", "fours"), NP_("of", "fives"), NP_("of", "sixes"),
             NP_("of", "sevens"), NP_("of", "eights"), NP_("of", "nines"), NP_("of", "tens"), NP_("of", "jacks"),
             NP_("of", "queens"), NP_("of", "kings"), NP_("of", "aces"))  # fmt: skip
_SUITS = (N_("clubs"), N_("diamonds"), N_("hearts"), N_("spades"))
_SUIT = (N_("club"), N_("diamond"), N_("heart"), N_("spade"))
# A card's suit after its rank ("the king of hearts", French "le roi de cœur").
_OF_SUITS = (NP_("card", "clubs"), NP_("card", "diamonds"), NP_("card", "hearts"), NP_("card", "spades"))
_CARDS = (NP_("card", "the two of {suit}"), NP_("card", "the three of {suit}"), NP_("card", "the four of {suit}"),
          NP_("card", "the five of {suit}"), NP_("card", "the six of {suit}"), NP_("card", "the seven of {suit}"),
          NP_("card", "the eight of {suit}"), NP_("card", "the nine of {suit}"), NP_("card", "the ten of {suit}"),
          NP_("card", "the jack of {suit}"), NP_("card", "the queen of {suit}"), NP_("card", "the king of {suit}"),
          NP_("card", "the ace of {suit}"))  # fmt: skip
_CATEGORIES = (N_("High card"), N_("Pair"), N_("Two pair"), N_("Three of a kind"), N_("Straight"), N_("Flush"),
               N_("Full house"), N_("Four of a kind"), N_("Straight flush"), N_("Five of a kind"))  # fmt: skip


def rank_word(words: Words, rank: Rank | int) -> str:
    """``"king"``, ``"roi"``."""
    return words(_RANKS[rank])


def rank_plural(words: Words, rank: Rank | int) -> str:
    """``"kings"``, ``"rois"``."""
    return words(_RANK_PLURALS[rank])


def _of_ranks(words: Words, rank: Rank | int) -> str:
    return words.pgettext("of", _OF_RANKS[rank])


def suit_plural(words: Words, suit: Suit | int) -> str:
    """``"hearts"``, ``"cœurs"``."""
    return words(_SUITS[suit])


def suit_singular(words: Words, suit: Suit | int) -> str:
    """``"heart"``, ``"cœur"``."""
    return words(_SUIT[suit])


def card_words(words: Words, card: Card) -> str:
    """``"the queen of hearts"``, ``"la dame de cœur"``."""
    return words.pgettext("card", _CARDS[card.rank], suit=words.pgettext("card", _OF_SUITS[card.suit]))


# One Tock mark, then two alike, by size ("a large heart", "two large hearts"); an ace's mark is
# named by its card instead.
_ONE_MARK = {SizeClass.SMALL: N_("a small {suit}"), SizeClass.MEDIUM: N_("a medium {suit}"),
             SizeClass.LARGE: N_("a large {suit}")}  # fmt: skip
_TWO_MARKS = {SizeClass.SMALL: N_("two small {suits}"), SizeClass.MEDIUM: N_("two medium {suits}"),
              SizeClass.LARGE: N_("two large {suits}")}  # fmt: skip


def mark_words(words: Words, mark: Mark) -> str:
    """One Tock mark: ``"a large heart"``, ``"un grand cœur"``; an ace's mark names its card."""
    if mark.size == SizeClass.ACE:
        return card_words(words, Card(Rank.ACE, mark.suit))
    return words(_ONE_MARK[mark.size], suit=suit_singular(words, mark.suit))


def marks_words(words: Words, mark: Mark) -> str:
    """Two alike marks (not aces): ``"two large hearts"``, ``"deux grands cœurs"``."""
    return words(_TWO_MARKS.get(mark.size, _TWO_MARKS[SizeClass.LARGE]), suits=suit_plural(words, mark.suit))


def category_name(words: Words, category: Category | int) -> str:
    """A category alone: ``"Two pair"``, ``"Double paire"``."""
    return words(_CATEGORIES[category])


def hand_name(words: Words, key: Sequence[int]) -> str:
    """A Hold'em hand from its key (category, ranks that decide ties): ``"Full house, kings full of
    sevens"``, ``"Full aux rois par les sept"``."""
    category, *ranks = key
    return _named(words, category, ranks)


# The hands named by their highest rank alone, as {rank} ("king"), {ranks} ("kings") or, where a
# language joins them, {of_ranks} (French "de rois"); any other category is named as a high card.
_BY_TOP_RANK: dict[int, str] = {
    Category.STRAIGHT_FLUSH: N_("Straight flush, {rank} high"),
    DrawCategory.FIVE_OF_A_KIND: N_("Five of a kind, {ranks}"),
    Category.FOUR_OF_A_KIND: N_("Four of a kind, {ranks}"),
    Category.FLUSH: N_("Flush, {rank} high"),
    Category.STRAIGHT: N_("Straight, {rank} high"),
    Category.THREE_OF_A_KIND: N_("Three of a kind, {ranks}"),
    Category.PAIR: N_("Pair of {ranks}"),
    Category.HIGH_CARD: N_("High card, {rank}"),
}


def _named(words: Words, category: int, ranks: Sequence[int]) -> str:
    top = {"rank": rank_word(words, ranks[0]), "ranks": rank_plural(words, ranks[0]),
           "of_ranks": _of_ranks(words, ranks[0])}  # fmt: skip
    if category == Category.STRAIGHT_FLUSH and ranks[0] == Rank.ACE:
        return words("Royal flush")
    if category == Category.FULL_HOUSE:
        return words("Full house, {ranks} full of {ranks2}", ranks2=rank_plural(words, ranks[1]), **top)
    if category == Category.TWO_PAIR:
        return words("Two pair, {ranks} and {ranks2}", ranks2=rank_plural(words, ranks[1]), **top)
    return words(_BY_TOP_RANK.get(category, _BY_TOP_RANK[Category.HIGH_CARD]), **top)


def draw_hand_name(words: Words, value: DrawValue) -> str:
    """A five-card draw hand, high or low, with its wild cards: ``"Straight, queen high (with a
    joker)"``, ``"Quinte hauteur dame (avec le Fou)"``; a low hand with its cards (``"Seven-five
    low (7-5-4-3-2)"``)."""
    text = _low_name(words, value) if value.is_low else _named(words, value.key[0], value.key[1:-1])
    if value.wilds == 0:
        return text
    if value.wilds == value.jokers:
        return counted("{hand} (with a joker)", "{hand} (with {n} jokers)", value.jokers, words, hand=text)
    return counted("{hand} (with a wild card)", "{hand} (with {n} wild cards)", value.wilds, words, hand=text)


def _low_name(words: Words, value: DrawValue) -> str:
    # The spelled cards come from the table's own words (ranks as characters), the name from here.
    english = value.describe()
    spelled = english[english.index("(") : english.index(")") + 1] if "(" in english else ""
    cat, *values = value.key[:-1]
    category = DrawCategory(cat)
    ace_low = value.kind.name == "LOW_ACE_TO_FIVE"
    ranks = [12 if v == 0 else v - 1 for v in values] if ace_low else list(values)
    if category in (DrawCategory.HIGH_CARD, DrawCategory.FLUSH):
        name = words("{rank}-{rank2} low", rank=rank_word(words, ranks[0]), rank2=rank_word(words, ranks[1]))
        name = name[0].upper() + name[1:]
        if category == DrawCategory.FLUSH:
            name = words("Flush, {low}", low=name[0].lower() + name[1:])
    else:
        name = _named(words, category, ranks)
    return f"{name} {spelled}".strip()


# What a seat can still make of one rank ({ranks}, or {of_ranks} where a language joins them).
_OF_A_KIND = {Category.FOUR_OF_A_KIND: N_("four {ranks}"), Category.THREE_OF_A_KIND: N_("three {ranks}"),
              Category.PAIR: N_("a pair of {ranks}")}  # fmt: skip


def target_name(words: Words, category: Category, example: Mapping[str, Any]) -> str:
    """What a seat can still make, from the lens's example of a category (``{"ranks": [...],
    "suit": "h"}``: its cards' ranks, the suit of its first): ``"a flush in hearts"``, ``"une
    couleur à cœur"``."""
    ranks = [Rank(r) for r in example["ranks"]]
    suit_index = SUIT_CHARS.index(example["suit"])
    if category == Category.STRAIGHT_FLUSH:
        top = _straight_top(ranks)
        suit = suit_plural(words, suit_index)
        if top == Rank.ACE:
            return words("a royal flush in {suits}", suits=suit, suit=suit_singular(words, suit_index))
        return words("a straight flush in {suits}, {rank} high", suits=suit,
                     suit=suit_singular(words, suit_index), rank=rank_word(words, top))  # fmt: skip
    if category in _OF_A_KIND:
        return words(_OF_A_KIND[category], ranks=rank_plural(words, ranks[0]), of_ranks=_of_ranks(words, ranks[0]))
    if category == Category.FULL_HOUSE:
        return words("a full house, {ranks} full of {ranks2}", ranks=rank_plural(words, ranks[0]),
                     ranks2=rank_plural(words, ranks[3]))  # fmt: skip
    if category == Category.FLUSH:
        return words("a flush in {suits}", suits=suit_plural(words, suit_index),
                     suit=suit_singular(words, suit_index))  # fmt: skip
    if category == Category.STRAIGHT:
        return words("a straight, {rank} high", rank=rank_word(words, _straight_top(ranks)))
    if category == Category.TWO_PAIR:
        return words("two pair, {ranks} and {ranks2}", ranks=rank_plural(words, ranks[0]),
                     ranks2=rank_plural(words, ranks[2]))  # fmt: skip
    return words("a high card")


def _straight_top(ranks: Sequence[Rank]) -> Rank:
    return Rank.FIVE if Rank.ACE in ranks and Rank.TWO in ranks else max(ranks)
