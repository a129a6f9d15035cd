"""Turning what the camera sees (a :class:`vision.view.TableView`) into game steps.

The rules, from DESIGN.md §1:

- Before the first hand, one face-up card per seat playing is the draw for the first dealer.
- Board cards turned face up become the next street only when the betting round is closed and
  they extend the board the game already has; otherwise a notice is shown and nothing is
  applied (they are applied once the round closes, if they are still there).
- At the showdown, two face-up cards in a live seat's zone are that seat's hand; and at an
  all-in as soon as betting is closed for the rest of the hand (everyone still in but at most
  one is all in, nobody to act), before the rest of the board: every hand is tabled then (TDA),
  so the phones and the lens have the hands while the board runs out, as on television.
- In Tock-Poker, the mark of every face-down card is recorded as soon as it is read.
- In five-card draw there is no board: at the showdown, five face-up cards in a live seat's
  zone are that seat's hand, jokers read as ``"Jk"`` among them. A hand with a card the reader
  is unsure of is announced (without naming any card) for the host to enter on the admin page.

Privacy: while betting is open (before the showdown, and before an all-in closes the betting)
a face-up card in a seat's zone is a peek. Its face never leaves this module: the notice says
only that a card lies face up, and the tracker's own conflict texts (which may name cards) are
replaced by ones that name none. The line is :attr:`table.engine.Hand.hands_may_be_shown`,
the engine's own rule for taking a hand, so a card the camera reads early can never get in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from table.cards import Card
from table.engine import Hand, Street
from table.engine.draw import DrawHand
from table.phrases import Phrase
from table.steps import ChooseButton, DealBoard, MarkRead, Show, Step
from table.tock import mark_of
from table.wording import seat_word, seats
from tocktable.game import Game, Phase
from vision.view import BOARD, SeenCard, TableView

JOKER = str(Card.JOKER)
"""How the camera names a joker (``"Jk"``): only five-card draw deals them."""


@dataclass(frozen=True)
class Notice:
    """Something the host should see (a warning on the dashboard and the status LED).

    ``message`` is English (the log's words); ``phrase``, when the notice reports a refusal, is
    the refusal's own words as a value (:mod:`table.phrases`), for each phone to say in its language."""

    kind: str
    message: str
    seat: int | None = None
    phrase: Phrase | None = None

    def to_dict(self) -> dict[str, Any]:
        """The notice as the snapshot's ``warnings`` hold it (``phrase`` only when there is one)."""
        out: dict[str, Any] = {"kind": self.kind, "message": self.message, "seat": self.seat}
        if self.phrase is not None:
            out["phrase"] = self.phrase.to_data()
        return out


@dataclass(frozen=True)
class Reading:
    """The steps a view leads to, and the notices it raises."""

    steps: tuple[Step, ...] = ()
    notices: tuple[Notice, ...] = ()


class ViewInterpreter:
    """Reads views against the game. Keeps one fact across views: whether the board has been
    seen cleared since the hand started, so the last hand's board is never dealt again."""

    def __init__(self) -> None:
        self._cleared_in_hand: int | None = None

    def read(self, game: Game, view: TableView) -> Reading:
        """The steps and notices for ``view`` given the game as it is now."""
        steps: list[Step] = []
        notices = [self._conflict_notice(game, c.kind, c.zone) for c in view.conflicts]
        phase = game.phase
        if phase == Phase.SEATING:
            step, notice = self._draw(game, view)
            steps += [step] if step else []
            notices += [notice] if notice else []
        elif phase == Phase.PLAYING and isinstance(game.hand, DrawHand):
            notices += self._peeks(game.hand, view)
            if game.hand.street == Street.SHOWDOWN:
                shows, show_notices = _draw_shows(game.hand, view)
                steps += shows
                notices += show_notices
        elif phase == Phase.PLAYING and game.hand is not None:
            hand = game.hand
            if not view.face_up_board():
                self._cleared_in_hand = game.hand_number
            notices += self._peeks(hand, view)
            if hand.rules.variant == "tock":
                marks, mark_notices = _marks(hand, view)
                steps += marks
                notices += mark_notices
            if hand.hands_may_be_shown:  # the showdown, or an all-in: hands first, then the board
                shows, show_notices = _shows(hand, view)
                steps += shows
                notices += show_notices
            board, board_notices = self._board(game, hand, view)
            steps += board
            notices += board_notices
        return Reading(tuple(steps), tuple(notices))

    # ------------------------------------------------------------------ the draw
    @staticmethod
    def _draw(game: Game, view: TableView) -> tuple[Step | None, Notice | None]:
        if game.settings.first_dealer == "croupier":  # no cards are drawn: the puck is placed on NEXT
            return None, None
        active = game.dealt_in()
        draws: dict[int, str] = {}
        for seat in active:
            faces = [c for c in view.seat_cards(seat) if c.face_up]
            if len(faces) == 1 and faces[0].card is not None:
                draws[seat] = faces[0].card
        if len(draws) == len(active) and len(set(draws.values())) == len(draws):
            return ChooseButton(draws=draws), None
        if not draws:
            return None, None
        missing = [s for s in active if s not in draws]
        return None, Notice("draw", f"draw for the dealer: {len(draws)} of {len(active)} seats have turned a card "
                                    f"(waiting for {seats(missing)})")  # fmt: skip

    # ------------------------------------------------------------------ privacy
    @staticmethod
    def _conflict_notice(game: Game, kind: str, zone: str) -> Notice:
        kind_of_zone, _, number = zone.partition(":")
        if zone == BOARD:
            where = "on the board"
        elif kind_of_zone == "seat" and number.isdigit():
            where = f"at {seat_word(int(number))}"
        else:
            where = f"at {zone.replace(':', ' ')}" if zone else "on the table"
        return Notice("conflict", f"the camera is unsure about a card {where} ({kind}); nothing was applied")

    @staticmethod
    def _peeks(hand: Hand, view: TableView) -> list[Notice]:
        if hand.hands_may_be_shown:
            return []
        out = []
        for seat in sorted(view.seats):
            if seat in hand.in_hand and any(c.face_up for c in view.seat_cards(seat)):
                out.append(Notice("peek", f"{seat_word(seat)}: a card lies face up; turn it down (it stays private "
                                          "until the showdown)", seat))  # fmt: skip
        return out

    # ------------------------------------------------------------------ the board
    def _board(self, game: Game, hand: Hand, view: TableView) -> tuple[list[Step], list[Notice]]:
        faces = list(view.face_up_board())
        known = [str(c) for c in hand.board]
        overlap = min(len(faces), len(known))
        wrong = [i for i in range(overlap) if faces[i] != known[i]]
        if wrong:
            i = wrong[0]
            return [], [Notice("board-mismatch", f"board card {i + 1} reads {faces[i]} but the game has {known[i]}: "
                                                 "correct it on the admin page if the game is wrong")]  # fmt: skip
        new = faces[len(known):]
        if not new:
            return [], []
        if JOKER in new:
            return [], [Notice("joker", "the camera reads a joker on the board, but this game is played without "
                                        "jokers: take it off the table (nothing was applied)")]  # fmt: skip
        if not known and self._cleared_in_hand != game.hand_number and _is_last_board(game, faces):
            return [], [Notice("stale-board", "the last hand's board is still face up: gather it")]
        if hand.street == Street.SHOWDOWN or hand.is_complete:
            return [], [Notice("board-extra", "more board cards are face up than a hand has")]
        if hand.to_act is not None:
            turned = "a board card was" if len(new) == 1 else f"{len(new)} board cards were"
            message = (f"{turned} turned while betting is open on the {hand.street.name.lower()} "
                       f"({seat_word(hand.to_act)} to act): applied once the round closes")  # fmt: skip
            return [], [Notice("board-early", message)]
        need = Street(hand.street + 1).board_size - len(hand.board)
        no_more_betting = len([s for s in hand.in_hand if not hand.folded[s] and hand.stacks[s] > 0]) <= 1
        if no_more_betting and len(new) == 5 - len(hand.board):
            return [DealBoard(tuple(new))], []
        if len(new) < need:
            return [], []  # the dealer is still turning this street's cards
        notices = []
        if len(new) > need:
            early = "a board card was" if len(new) - need == 1 else f"{len(new) - need} board cards were"
            notices.append(Notice("board-early", f"{early} turned before their street: "
                                                 "applied when their betting round comes"))  # fmt: skip
        return [DealBoard(tuple(new[:need]))], notices


def _is_last_board(game: Game, faces: list[str]) -> bool:
    last = {str(c) for c in game.last_board()}
    return bool(last) and set(faces) <= last


def _ordered(cards: tuple[SeenCard, ...]) -> list[SeenCard]:
    """Cards of one zone left to right (by the mean x of their corners)."""
    return sorted(cards, key=lambda c: sum(x for x, _ in c.corners))


def _marks(hand: Hand, view: TableView) -> tuple[list[Step], list[Notice]]:
    steps: list[Step] = []
    notices: list[Notice] = []
    for position, seen in enumerate(view.board[:5]):
        if seen.face_up or seen.mark in (None, "plain") or position < len(hand.board):
            continue
        known = hand.board_marks[position]
        if known is None:
            steps.append(MarkRead(None, position, seen.mark))
        elif str(known) != seen.mark:
            notices.append(Notice("mark-mismatch", f"board position {position + 1} was marked {known}, "
                                                   f"now reads {seen.mark}: not applied"))  # fmt: skip
    for seat in sorted(view.seats):
        if seat not in hand.in_hand or seat in hand.hole:
            continue
        read = [c.mark for c in _ordered(view.seat_cards(seat)) if not c.face_up and c.mark not in (None, "plain")]
        before = [str(m) if m is not None else None for m in hand.hole_marks[seat]]
        if len(read) != 2 or sorted(m for m in before if m) == sorted(read):
            continue
        if before == [None, None]:
            steps += [MarkRead(seat, i, m) for i, m in enumerate(read) if m is not None]
        elif None in before and (have := next(m for m in before if m)) in read:
            rest = list(read)
            rest.remove(have)
            steps.append(MarkRead(seat, before.index(None), str(rest[0])))
        else:
            notices.append(Notice("mark-mismatch",
                                  f"{seat_word(seat)}'s marks read differently than before: not applied",
                                  seat))  # fmt: skip
    return steps, notices


def _turned(hand: Hand, view: TableView) -> list[tuple[int, list[SeenCard]]]:
    """Each live seat whose hand is not known yet, with its face-up cards left to right."""
    out = []
    for seat in hand.in_hand:
        if not (hand.folded[seat] or seat in hand.mucked or seat in hand.hole):
            out.append((seat, [c for c in _ordered(view.seat_cards(seat)) if c.face_up]))
    return out


def _shows(hand: Hand, view: TableView) -> tuple[list[Step], list[Notice]]:
    steps: list[Step] = []
    notices: list[Notice] = []
    for seat, faces in _turned(hand, view):
        if len(faces) < 2:
            continue
        if any(c.card == JOKER for c in faces):
            notices.append(Notice("show", f"{seat_word(seat)}: the camera reads a joker, but this game is played "
                                          "without jokers: enter the hand on the admin page", seat))  # fmt: skip
            continue
        if len(faces) > 2 or any(c.card is None for c in faces):
            notices.append(Notice("show",
                                  f"{seat_word(seat)}: {len(faces)} face-up cards, two readable ones are needed",
                                  seat))  # fmt: skip
            continue
        cards = [str(c.card) for c in faces]
        steps.append(Show(seat, tuple(_match_marks(cards, hand.hole_marks.get(seat, [None, None])))))
    return steps, notices


def _draw_shows(hand: DrawHand, view: TableView) -> tuple[list[Step], list[Notice]]:
    """Five-card draw at the showdown: five readable face-up cards in a live seat's zone are its hand."""
    steps: list[Step] = []
    notices: list[Notice] = []
    for seat, faces in _turned(hand, view):
        if len(faces) < 5:
            continue  # still turning them (or a card the reader did not take for a face)
        unread = sum(1 for c in faces if c.card is None)
        if len(faces) > 5:
            notices.append(Notice("show", f"{seat_word(seat)}: {len(faces)} face-up cards, a draw hand has five", seat))
        elif unread:
            notices.append(Notice("show", f"{seat_word(seat)}: {unread} of the five cards cannot be read: "
                                          "enter the hand on the admin page (Show; a joker is Jk)", seat))  # fmt: skip
        else:
            steps.append(Show(seat, tuple(str(c.card) for c in faces)))
    return steps, notices


def _match_marks(cards: list[str], marks: Sequence[object]) -> list[str]:
    """Put the shown cards in the order of their marks (a player may turn them over swapped)."""

    def fits(order: list[str]) -> bool:
        return all(m is None or str(mark_of(Card.parse(c))) == str(m) for c, m in zip(order, marks, strict=False))

    return cards if fits(cards) or not fits(cards[::-1]) else cards[::-1]
