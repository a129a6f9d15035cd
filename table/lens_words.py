"""The lens in plain words, for players who are learning: what each seat shows, what it can
still make and why, and its chances.

>>> pair_words(Mark.parse("h:large"), Mark.parse("h:large"))
'two large hearts'
>>> pair_words(Mark.parse("s:ace"), Mark.parse("d:small"))
'the ace of spades and a small diamond'
>>> percent(0.4137, exact=False), percent(0.004, exact=True), percent(1.0, exact=True)
('about 41%', 'less than 1%', '100%')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from table.cards import Card, Suit
from table.evaluate import Category, evaluate
from table.tock_marks import Mark, SizeClass

if TYPE_CHECKING:
    from table.reach import Reach

__all__ = ["board_words", "card_words", "explain", "item_words", "pair_words", "percent", "summary"]

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven")
Item = Card | Mark | None


class SeatFigures(Protocol):
    """What the words say of one seat (a :class:`table.lens.SeatFigures` has it all)."""

    @property
    def seat(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def shows(self) -> tuple[Item, Item]: ...
    @property
    def folded(self) -> bool: ...
    @property
    def win(self) -> float: ...
    @property
    def tie(self) -> float: ...
    @property
    def equity(self) -> float: ...
    @property
    def best_example(self) -> str | None: ...
    @property
    def outs(self) -> tuple[Card, ...] | None: ...


def card_words(card: Card) -> str:
    """``"the king of hearts"``."""
    return f"the {card.rank.word} of {card.suit.word}"


def _singular(suit: Suit) -> str:
    return suit.word[:-1]


def item_words(item: Item) -> str:
    """One position in words: a card, a mark (``"a large heart"``; an ace mark names its card),
    or ``"an unseen card"``."""
    if isinstance(item, Card):
        return card_words(item)
    if isinstance(item, Mark):
        if item.size == SizeClass.ACE:
            return f"the ace of {item.suit.word}"
        return f"a {item.size.value} {_singular(item.suit)}"
    return "an unseen card"


def pair_words(first: Item, second: Item) -> str:
    """Two positions in words, grouped when alike: ``"two large hearts"``."""
    if isinstance(first, Mark) and first == second and first.size != SizeClass.ACE:
        return f"two {first.size.value} {first.suit.word}"
    if first is None and second is None:
        return "two unseen cards"
    return f"{item_words(first)} and {item_words(second)}"


def _list(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def percent(chance: float, *, exact: bool) -> str:
    """A chance as a beginner reads it: ``"41%"``, ``"about 41%"`` when sampled."""
    if chance <= 0:
        return "0%" if exact else "almost 0%"
    if chance < 0.005:
        return "less than 1%"
    if chance >= 1:
        return "100%"
    if chance > 0.995:
        return "more than 99%"
    return f"{'' if exact else 'about '}{100 * chance:.0f}%"


def board_words(board: Sequence[Item]) -> str:
    """The board in one sentence, with the suit that could make a flush."""
    up = [c for c in board if isinstance(c, Card)]
    down = [m for m in board if isinstance(m, Mark)]
    unseen = sum(1 for c in board if c is None)
    parts = []
    if up:
        parts.append(f"{_list([card_words(c) for c in up])} face up")
    if down:
        parts.append(f"{_NUMBERS[len(down)]} face down: {_list([item_words(m) for m in down])}")
    if unseen:
        parts.append(f"{_NUMBERS[unseen]} not seen yet")
    text = "The board: " + "; ".join(parts) + "."
    counts = {suit: sum(1 for c in board if c is not None and c.suit == suit) for suit in Suit}
    suit, most = max(counts.items(), key=lambda kv: kv[1])
    if most >= 3:
        need = max(5 - most, 0)
        who = "for every seat" if need == 0 else f"for anyone holding {_NUMBERS[need]} more"
        text += f" {_NUMBERS[most].capitalize()} are {suit.word}: a flush is possible {who}."
    return text


def _article(category: Category) -> str:
    label = category.label.lower()
    return label if category in (Category.TWO_PAIR, Category.THREE_OF_A_KIND, Category.FOUR_OF_A_KIND) else f"a {label}"


def _hand_words(described: str) -> str:
    """``"Flush, ace high"`` -> ``"a flush, ace high"``; ``"High card, king"`` -> ``"king high"``."""
    text = described[0].lower() + described[1:]
    if text.startswith("high card, "):
        return f"{text.removeprefix('high card, ')} high"
    return text if text.startswith(("two pair", "three of", "four of")) else f"a {text}"


def explain(
    seat: SeatFigures,
    board: Sequence[Item],
    possible: Reach | None,
    *,
    viewer: int | None,
    exact: bool,
    alone: bool,
    basis: str,
    face_up: bool = False,
) -> tuple[str, ...]:
    """Sentences about one seat: what it shows, the best it can make and why, the nuts, its chances.

    ``face_up``: every live hand is shown (Hold'em all-in); then the nuts are mentioned only
    once the board is complete, and nothing is said of what a wholly unseen board could make.
    """
    you = seat.seat == viewer
    name, it, verb_show = ("You", "you", "hold") if you else (seat.name, "it", "shows")
    if seat.folded:
        return (f"{name} folded: {'your' if you else 'its'} cards are out of play.",)
    if alone:
        return (f"Everyone else folded: {name} {'win' if you else 'wins'} the pot.",)
    first, second = seat.shows
    shown = pair_words(first, second)
    sentences = []
    known_hand = isinstance(first, Card) and isinstance(second, Card)
    all_known = known_hand and all(isinstance(c, Card) for c in board)
    up = [c for c in board if isinstance(c, Card)]
    suit = possible.example[0].suit if possible is not None and possible.example else None
    flushing = possible is not None and possible.best in (Category.FLUSH, Category.STRAIGHT_FLUSH)
    mine = sum(1 for c in seat.shows if c is not None and c.suit == suit) if flushing else 0
    if all_known and possible is not None and possible.best_hand is not None:
        sentences.append(f"{name} {verb_show} {shown}: {_hand_words(possible.best_hand)}.")
    elif possible is not None and suit is not None and mine:
        theirs = sum(1 for c in board if c is not None and c.suit == suit)
        unseen = sum(1 for c in board if c is None) if mine + theirs < 5 else 0
        extra = f" and {_NUMBERS[unseen]} unseen" if unseen else ""
        suits = suit.word if theirs != 1 else _singular(suit)
        sentences.append(
            f"{name} {verb_show} {shown} and the board has {_NUMBERS[theirs]} {suits}{extra}: "
            f"{_article(possible.best)} is possible."
        )
    else:
        sentences.append(f"{name} {verb_show} {shown}.")
    if known_hand and len(up) >= 3 and not all_known:
        now = evaluate([first, second, *up]).describe()  # type: ignore[list-item]
        sentences.append(f"{'You have' if you else 'It has'} {_hand_words(now)} now.")
    if possible is not None and not all_known and not mine and not all(c is None for c in board):
        best = _hand_words(possible.best_hand) if possible.best_hand else seat.best_example
        sentences.append(f"At best {it} can make {best}.")
    if possible is not None and possible.nuts is not None and (all_known or not face_up):
        if all_known:
            sentences.append(
                "Nothing can beat that: it is the nuts."
                if possible.nuts
                else "Other cards could make a better hand on this board: it is not the nuts."
            )
        elif possible.nuts:
            sentences.append(f"{name} could hold the nuts, the best hand this board allows.")
        else:
            sentences.append(f"{name} cannot hold the nuts: whatever the cards are, a better hand is possible.")
    subject = "you" if you else name
    splits = f"{'split' if you else 'splits'} the pot {percent(seat.tie, exact=exact)}" if seat.tie >= 0.005 else ""
    if seat.win > 0:
        win = f"{subject} {'win' if you else 'wins'} {percent(seat.win, exact=exact)} of the time"
        sentences.append(f"{basis}, {win}{' and ' + splits if splits else ''}.")
    else:
        never = "cannot win" if exact else ("almost never win" if you else "almost never wins")
        sentences.append(f"{basis}, {subject} {never}{' outright, but ' + splits if splits else ''}.")
    if seat.outs is not None and seat.equity < 0.5:
        if seat.outs:
            cards = " ".join(map(str, seat.outs))
            count = f"one of {len(seat.outs)} cards" if len(seat.outs) > 1 else "one card"
            sentences.append(f"{name} {'need' if you else 'needs'} {count} on the river to win or split: {cards}.")
        else:
            dead = "you are" if you else "it is"
            sentences.append(f"No river card can save {'you' if you else 'it'}: {dead} drawing dead.")
    return tuple(sentences)


def summary(seats: Sequence[SeatFigures], *, viewer: int | None, exact: bool, basis: str) -> str:
    """Who leads, in one sentence; ``basis`` says from what (``"From what the table can see"``)."""
    live = sorted((s for s in seats if not s.folded), key=lambda s: -s.equity)

    def who(seat: SeatFigures) -> str:
        return "you" if seat.seat == viewer else seat.name

    def verb(seat: SeatFigures, word: str) -> str:
        return word if seat.seat == viewer else word + "s"

    lead = live[0]
    if len(live) == 1:
        return f"{who(lead).capitalize()} {verb(lead, 'win')}: everyone else folded."
    where = basis
    if lead.equity >= 1:
        return (
            f"{where}, {who(lead)} cannot lose." if exact else f"{where}, {who(lead)} {verb(lead, 'win')} every time."
        )
    level = [s for s in live if abs(s.equity - lead.equity) < 0.01]
    if len(level) > 1:
        return f"{where}, {_list([who(s) for s in level])} are level at {percent(lead.equity, exact=exact)} each."
    second = live[1]
    return (
        f"{where}, {who(lead)} {verb(lead, 'lead')} with {percent(lead.equity, exact=exact)}, "
        f"then {who(second)} with {percent(second.equity, exact=exact)}."
    )
