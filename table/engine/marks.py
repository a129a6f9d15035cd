"""Tock marks against the cards they stand for: a mark names a pool of 4 cards (1 for an ace),
so no more than that many positions on the table can carry it.

>>> from table.tock_marks import Mark
>>> check_mark_pools(Mark.parse("s:ace"), at=(None, 1), board=[], board_marks=[Mark.parse("s:ace"), None],
...                  hole={}, hole_marks={})
Traceback (most recent call last):
    ...
table.errors.IllegalDealError: mark s:ace stands for 1 card (As), and another position already carries it
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from table.cards import Card
from table.errors import IllegalDealError
from table.phrases import N_, Number, Phrase, Verbatim, card_text
from table.tock_marks import Mark, mark_of


def check_mark_pools(
    mark: Mark,
    *,
    at: tuple[int | None, int],
    board: Sequence[Card],
    board_marks: Sequence[Mark | None],
    hole: Mapping[int, Sequence[Card]],
    hole_marks: Mapping[int, Sequence[Mark | None]],
) -> None:
    """Raise :class:`IllegalDealError` if putting ``mark`` at ``at`` (``(None, board position)``
    or ``(seat, hole index)``) would make more positions carry it than it has cards. Face-up
    cards count by the mark on their back; a position being re-read replaces its old mark."""
    carried: list[Mark] = [mark]
    for position, board_mark in enumerate(board_marks):
        if position >= len(board) and board_mark is not None and at != (None, position):
            carried.append(board_mark)
    for seat, marks in hole_marks.items():
        for index, hole_mark in enumerate(marks):
            if hole_mark is not None and seat not in hole and at != (seat, index):
                carried.append(hole_mark)
    carried += [mark_of(c) for c in board]
    carried += [mark_of(c) for cards in hole.values() for c in cards]
    pool = mark.cards()
    if carried.count(mark) > len(pool):
        if len(pool) == 1:
            raise IllegalDealError(
                N_("mark {mark} stands for 1 card ({cards}), and another position already carries it"),
                mark=Verbatim(str(mark)),
                cards=card_text(pool),
            )
        raise IllegalDealError(
            N_("mark {mark} stands for {n} cards ({cards}), and {n} other positions already do"),
            mark=Verbatim(str(mark)),
            n=Number(len(pool)),
            cards=card_text(pool),
        )


def check_marked_cards(cards: Sequence[Card], marks: Sequence[Mark | None], *, where: Callable[[int], Phrase]) -> None:
    """Raise :class:`IllegalDealError` if a card turned face up does not carry the mark read
    on its back before (``where(i)`` names position ``i`` in the message)."""
    for i, (card, mark) in enumerate(zip(cards, marks, strict=False)):
        if mark is not None and mark_of(card) != mark:
            raise IllegalDealError(
                N_("{where} was marked {mark} but {card} carries {mark_of}"),
                where=where(i),
                mark=Verbatim(str(mark)),
                card=Verbatim(str(card)),
                mark_of=Verbatim(str(mark_of(card))),
            )
