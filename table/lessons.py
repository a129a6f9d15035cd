"""The lens's lessons for players who are learning, as values: what each seat shows, what it can
still make and why, the nuts, its chances, its outs; who leads; what the board shows.

A :class:`Lesson` is a kind and the cards, hands and figures it speaks of, never a sentence:
the dashboard puts it into each phone's language (``web/words/lens.py``). Cards are their codes
(``"Kh"``), Tock marks theirs (``"h:large"``), an unseen card ``None``, a hand its key (the
category, then the ranks that decide ties, as :attr:`table.evaluate.HandValue.key`).

>>> lesson = Lesson("shows", seat=2, shows=("h:large", "h:large"))
>>> lesson.to_json()
{'kind': 'shows', 'seat': 2, 'shows': ['h:large', 'h:large']}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from table.cards import Card, Suit
from table.evaluate import Category, evaluate
from table.tock_marks import Mark

if TYPE_CHECKING:
    from table.reach import Reach

__all__ = ["BASES", "Lesson", "board_lesson", "explain", "summary"]

Item = Card | Mark | None
BASES = ("public", "face_up", "own")
"""What a lens's chances are worked out from: what the table can see, the hands face up (an
all-in), or also the viewer's own cards."""


class Lesson:
    """One thing the lens teaches: its ``kind`` and what it speaks of (plain data, JSON-ready)."""

    __slots__ = ("fields", "kind")

    def __init__(self, kind: str, **fields: Any) -> None:
        self.kind = kind
        self.fields = {name: _plain(value) for name, value in fields.items()}

    def to_json(self) -> dict[str, Any]:
        """``{"kind": ..., **fields}``."""
        return {"kind": self.kind, **self.fields}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Lesson) and (self.kind, self.fields) == (other.kind, other.fields)

    def __hash__(self) -> int:
        return hash((self.kind, repr(sorted(self.fields.items()))))

    def __repr__(self) -> str:
        return f"Lesson({self.kind!r}, {self.fields!r})"


def _plain(value: Any) -> Any:
    if isinstance(value, Card | Mark):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Category | Suit):
        return int(value)
    return value


class SeatFigures(Protocol):
    """What the lessons say of one seat (a :class:`table.lens.SeatLens` has it all)."""

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
    def outs(self) -> tuple[Card, ...] | None: ...


def board_lesson(board: Sequence[Item]) -> Lesson:
    """The board: the cards face up, the marks face down, how many are unseen, and the suit that
    could make a flush (``flush_suit``, with ``flush_count`` of that suit on the board)."""
    counts = {suit: sum(1 for c in board if c is not None and c.suit == suit) for suit in Suit}
    suit, most = max(counts.items(), key=lambda kv: kv[1])
    return Lesson(
        "board",
        up=[c for c in board if isinstance(c, Card)],
        down=[m for m in board if isinstance(m, Mark)],
        unseen=sum(1 for c in board if c is None),
        flush_suit=suit.char if most >= 3 else None,
        flush_count=most if most >= 3 else 0,
    )


def _best_key(possible: Reach | None) -> list[int] | None:
    if possible is None or possible.best_cards is None:
        return None
    return list(evaluate(possible.best_cards).key)


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
) -> tuple[Lesson, ...]:
    """The lessons about one seat: what it shows, the best it can make and why, the nuts, its
    chances, its outs. Each names the seat (``seat``) and whether it is the viewer's (``you``).

    ``face_up``: every live hand is shown (Hold'em all-in); then the nuts are mentioned only
    once the board is complete, and nothing is said of what a wholly unseen board could make.
    """
    who = {"seat": seat.seat, "you": seat.seat == viewer}
    if seat.folded:
        return (Lesson("folded", **who),)
    if alone:
        return (Lesson("alone", **who),)
    first, second = seat.shows
    lessons = []
    known_hand = isinstance(first, Card) and isinstance(second, Card)
    all_known = known_hand and all(isinstance(c, Card) for c in board)
    up = [c for c in board if isinstance(c, Card)]
    suit = possible.example[0].suit if possible is not None and possible.example else None
    flushing = possible is not None and possible.best in (Category.FLUSH, Category.STRAIGHT_FLUSH)
    mine = sum(1 for c in seat.shows if c is not None and c.suit == suit) if flushing else 0
    best_key = _best_key(possible)
    if all_known and possible is not None and best_key is not None:
        lessons.append(Lesson("shows_hand", **who, shows=seat.shows, hand=best_key))
    elif possible is not None and suit is not None and mine:
        theirs = sum(1 for c in board if c is not None and c.suit == suit)
        unseen = sum(1 for c in board if c is None) if mine + theirs < 5 else 0
        lessons.append(
            Lesson(
                "shows_flush_draw",
                **who,
                shows=seat.shows,
                suit=suit.char,
                board_count=theirs,
                unseen=unseen,
                category=possible.best,
            )
        )
    else:
        lessons.append(Lesson("shows", **who, shows=seat.shows))
    if known_hand and len(up) >= 3 and not all_known:
        now = evaluate([first, second, *up])  # type: ignore[list-item]
        lessons.append(Lesson("has_now", **who, hand=list(now.key)))
    if possible is not None and not all_known and not mine and not all(c is None for c in board):
        if best_key is not None:
            lessons.append(Lesson("at_best", **who, hand=best_key))
        else:
            example = {"ranks": [int(c.rank) for c in possible.example], "suit": possible.example[0].suit.char}
            lessons.append(Lesson("at_best", **who, category=possible.best, example=example))
    if possible is not None and possible.nuts is not None and (all_known or not face_up):
        if all_known:
            lessons.append(Lesson("is_nuts" if possible.nuts else "not_nuts", **who))
        else:
            lessons.append(Lesson("could_hold_nuts" if possible.nuts else "cannot_hold_nuts", **who))
    lessons.append(Lesson("chances", **who, basis=basis, win=round(seat.win, 4), tie=round(seat.tie, 4), exact=exact))
    if seat.outs is not None and seat.equity < 0.5:
        lessons.append(Lesson("outs", **who, cards=seat.outs) if seat.outs else Lesson("drawing_dead", **who))
    return tuple(lessons)


def summary(seats: Sequence[SeatFigures], *, viewer: int | None, exact: bool, basis: str) -> Lesson:
    """Who leads: ``alone`` (everyone else folded), ``sure`` (cannot lose), ``level`` (several
    seats level) or ``leads`` (the leader and the next), with the seats, their equities and the
    ``basis`` of the figures."""
    live = sorted((s for s in seats if not s.folded), key=lambda s: -s.equity)
    lead = live[0]
    common = {"viewer": viewer, "basis": basis, "exact": exact}
    if len(live) == 1:
        return Lesson("alone", seat=lead.seat, you=lead.seat == viewer)
    if lead.equity >= 1:
        return Lesson("sure", seat=lead.seat, you=lead.seat == viewer, **common)
    level = [s for s in live if abs(s.equity - lead.equity) < 0.01]
    if len(level) > 1:
        return Lesson("level", seats=[s.seat for s in level], equity=round(lead.equity, 4), **common)
    second = live[1]
    return Lesson("leads", seats=[lead.seat, second.seat], equities=[round(lead.equity, 4), round(second.equity, 4)],
                  **common)  # fmt: skip
