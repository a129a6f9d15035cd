"""The host's card entries as lessons for the camera's reader.

When the host corrects a card the camera read (:class:`table.steps.Correct`), or enters cards it
could not read (the board, a shown hand, the draw for the button), the service hands the cards to
the camera's teacher (:meth:`tocktable.service.Service.teacher`) as :class:`HostCard` lessons:
which card, at which place of the game, and what the game had there before. The camera side
(:class:`tocktable.camera.VisionWatcher`) finds the card on its own view of the table
(:func:`find_card`) and keeps the crop it read there as an example of that card
(:mod:`vision.deck_learning`). A lesson's ``key`` names its place in the hand, so a later
correction at the same place (the host undoing a wrong correction) replaces its example.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from table.steps import ChooseButton, Correct, DealBoard, Show, Step
from vision.view import SeenCard, TableView


@dataclass(frozen=True)
class HostCard:
    """One card the host put into the game: ``seat`` None for the board, ``index`` its position
    (on the board, or in the seat's hand), ``was`` the card the game had there before (a
    correction; None for an entry), ``key`` the place (``"4/12/board/2"``: session, hand, place)."""

    card: str
    seat: int | None
    index: int
    key: str
    was: str | None = None

    @property
    def corrected(self) -> bool:
        return self.was is not None


def host_cards(step: Step, before: Mapping[str, Any]) -> list[HostCard]:
    """The cards a host step puts into the game, from the game's snapshot before it (``board``,
    ``seats[i]["hole"]``, ``session``, ``hand_number``). Other steps: none."""
    prefix = f"{before.get('session', 0)}/{before.get('hand_number', 0)}"
    if isinstance(step, Correct):
        if step.seat is None:
            board = list(before.get("board") or [])
            was = board[step.index] if 0 <= step.index < len(board) else None
        else:
            seat: Mapping[str, Any] = next((p for p in before.get("seats", []) if p.get("seat") == step.seat), {})
            hole = list(seat.get("hole") or [])
            was = hole[step.index] if 0 <= step.index < len(hole) else None
        return [HostCard(step.card, step.seat, step.index, _key(prefix, step.seat, step.index), was or "")]
    if isinstance(step, DealBoard):
        start = len(before.get("board") or [])
        return [HostCard(card, None, start + k, _key(prefix, None, start + k)) for k, card in enumerate(step.cards)]
    if isinstance(step, Show):
        return [HostCard(card, step.seat, k, _key(prefix, step.seat, k)) for k, card in enumerate(step.cards)]
    if isinstance(step, ChooseButton):
        return [HostCard(card, seat, 0, f"{prefix}/button/{seat}") for seat, card in step.draws.items()]
    return []


def _key(prefix: str, seat: int | None, index: int) -> str:
    return f"{prefix}/board/{index}" if seat is None else f"{prefix}/seat{seat}/{index}"


def find_card(lesson: HostCard, view: TableView, others: Sequence[HostCard] = ()) -> SeenCard | None:
    """The face-up card of ``view`` a lesson is about, or None when it cannot be told surely.

    On the board, the card at the lesson's position. In a seat: the card the camera read as the
    game had it (a correction), else the one face-up card there the camera could not read,
    when the lesson and ``others`` (the same step's other lessons for that seat) leave exactly one
    such card for exactly one unread lesson (which of two unread cards is which is not guessed).
    """
    if lesson.seat is None:
        board = view.board
        seen = board[lesson.index] if lesson.index < len(board) else None
        return seen if seen is not None and seen.face_up else None
    cards = [c for c in view.seat_cards(lesson.seat) if c.face_up]
    if lesson.was:
        named = [c for c in cards if c.card == lesson.was]
        return named[0] if len(named) == 1 else None
    read = {c.card for c in cards if c.card is not None}
    unread = [c for c in cards if c.card is None]
    waiting = [o for o in (lesson, *others) if o.seat == lesson.seat and not o.was and o.card not in read]
    if lesson.card in read:
        return next(c for c in cards if c.card == lesson.card)  # read right: nothing to learn, but found
    return unread[0] if len(unread) == 1 and len({o.card for o in waiting}) == 1 else None
