"""What the game would do with a dry-run hand, nobody betting: the engine (:class:`table.engine.Hand`)
follows the cards the camera sees, street by street. The blinds are posted, everyone calls the
big blind and then checks; each street says who acts first and the pot; the board is dealt to the
engine as read (a card the reader could not name holds the game up, as at a real table); at the
showdown the hands turned face up are shown to the engine, which names the winner and the hand.

The seats dealt in are the seats that hold cards when the flop comes (chips: 100 big blinds each,
which nobody bets). The button is the game's (``button``) when that seat is dealt in, else the
nearest dealt seat before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from table.cards import Card
from table.engine import BlindPosted, Hand, PotAwarded, Rules, Street
from table.errors import TocktableError
from table.evaluate import evaluate
from table.wording import seat_word

STREET_OF = {"preflop": Street.PREFLOP, "flop": Street.FLOP, "turn": Street.TURN, "river": Street.RIVER}
BOARD_SIZE = {"flop": 3, "turn": 4, "river": 5}


class DryGame:
    """The engine's hand for the table seats ``seats`` (clockwise), nobody betting."""

    def __init__(self, seats: Sequence[int], *, small_blind: int, big_blind: int, button: int | None) -> None:
        self.seats = sorted(int(s) for s in seats)
        if len(self.seats) < 2:
            raise ValueError("a hand needs two seats dealt in")
        index = len(self.seats) - 1
        if button is not None:
            before = [k for k, s in enumerate(self.seats) if s <= button]
            index = before[-1] if before else len(self.seats) - 1
        stacks = [100 * big_blind] * len(self.seats)
        self.hand = Hand(Rules(small_blind=small_blind, big_blind=big_blind), stacks=stacks, button=index)
        self.blinds = [{"seat": self._label(e.seat), "number": self.seats[e.seat] + 1, "kind": e.kind,
                        "amount": e.amount}
                       for e in self.hand.events if isinstance(e, BlindPosted)]  # fmt: skip
        self.streets: dict[str, dict[str, Any]] = {}
        self._open("preflop")

    def _label(self, index: int) -> str:
        return seat_word(self.seats[index])

    def _open(self, street: str) -> None:
        """Record who acts first and the pot, then let everyone call or check."""
        first = self.hand.to_act
        pot = self.hand.pot_total
        while self.hand.to_act is not None:
            seat = self.hand.to_act
            self.hand.act(seat, "check" if self.hand.can_act(seat, "check") else "call")
        self.streets[street] = {"button": self._label(self.hand.button), "acts_first": self._label(first)
                                if first is not None else None,
                                **self._numbers(first), "pot": pot, "pot_after": self.hand.pot_total,
                                "board": [str(c) for c in self.hand.board], "waiting": None, "winners": []}  # fmt: skip
        if street == "preflop":
            self.streets[street]["blinds"] = list(self.blinds)

    def street(self, name: str, board: Sequence[Any], seats: Mapping[int, Sequence[Any]]) -> dict[str, Any]:
        """What the game does on street ``name`` (``preflop``, ``flop``, ``turn``, ``river`` or
        ``showdown``) for the board cards seen (``.face_up``, ``.card``) and each seat's cards."""
        if name in BOARD_SIZE and name not in self.streets:
            self._deal(name, board)
        if name == "showdown":
            if "river" not in self.streets:
                self._deal("river", board)
            return self._showdown(seats)
        return dict(self.streets.get(name) or self._waiting(name))

    def _numbers(self, first: int | None) -> dict[str, Any]:
        """The button's and the first to act's table seat numbers (1..), for the pages' own words."""
        return {"button_number": self.seats[self.hand.button] + 1,
                "acts_first_number": self.seats[first] + 1 if first is not None else None}  # fmt: skip

    def _waiting(self, name: str) -> dict[str, Any]:
        return {"button": self._label(self.hand.button), "acts_first": None,
                **self._numbers(None), "pot": self.hand.pot_total,
                "pot_after": self.hand.pot_total, "board": [str(c) for c in self.hand.board],
                "waiting": self._why_waiting, "waiting_kind": self._waiting_kind,
                "waiting_values": dict(self._waiting_values or {}),
                "winners": []}  # fmt: skip

    _why_waiting: str | None = None
    _waiting_kind: str | None = None
    """Why the game waits, for the pages' own words: ``"board-unread"`` (``{"cards"}``: the board
    cards' numbers), ``"board-refused"``, ``"hand-refused"`` (``{"seat"}``, the English ``detail``),
    ``"hands-hidden"`` (``{"seats"}``); ``waiting`` says the same in English."""
    _waiting_values: dict[str, Any] | None = None

    def _deal(self, name: str, board: Sequence[Any]) -> None:
        """Deal the board up to street ``name`` to the engine, street by street, as read."""
        for street in ("flop", "turn", "river"):
            if street in self.streets:
                continue
            size = BOARD_SIZE[street]
            cards = list(board)[len(self.hand.board) : size]
            unread = [len(self.hand.board) + k + 1 for k, c in enumerate(cards)
                      if not getattr(c, "face_up", False) or not getattr(c, "card", None)]  # fmt: skip
            if len(cards) < size - len(self.hand.board) or unread:
                which = ", ".join(str(n) for n in unread) or str(size)
                self._why_waiting = (f"board card {which} is not read: the game waits for it (the host can enter "
                                     "it on the host page)")  # fmt: skip
                self._waiting_kind, self._waiting_values = "board-unread", {"cards": which}
                return
            try:
                self.hand.deal_board([Card.parse(str(c.card)) for c in cards])
            except TocktableError as error:
                self._why_waiting = f"the game refuses the board: {error}"
                self._waiting_kind, self._waiting_values = "board-refused", {"detail": str(error)}
                return
            self._why_waiting, self._waiting_kind, self._waiting_values = None, None, {}
            self._open(street)
            if street == name:
                return

    def _key(self, index: int) -> list[int]:
        """The hand's key (:attr:`table.evaluate.HandValue.key`) of the seat of ``index``, for the
        pages to name it in their language."""
        return list(evaluate([*self.hand.hole[index], *self.hand.board]).key)

    def _showdown(self, seats: Mapping[int, Sequence[Any]]) -> dict[str, Any]:
        """Show the engine every hand turned face up and read; the winners once all are known."""
        report = self._waiting("showdown")
        if self.hand.street != Street.SHOWDOWN:
            return report
        for k, seat in enumerate(self.seats):
            cards = list(seats.get(seat, ()))
            if k in self.hand.hole or len(cards) != 2:
                continue
            if all(getattr(c, "face_up", False) and getattr(c, "card", None) for c in cards):
                try:
                    self.hand.deal_hole(k, [Card.parse(str(c.card)) for c in cards])
                except TocktableError as error:
                    report["waiting"] = f"the game refuses {seat_word(seat)}'s hand: {error}"
                    report["waiting_kind"] = "hand-refused"
                    report["waiting_values"] = {"seat": seat + 1, "detail": str(error)}
                    return report
        if not self.hand.is_complete:
            hidden = [seat_word(s) for k, s in enumerate(self.seats) if k not in self.hand.hole]
            report["waiting"] = f"turn every hand face up: {', '.join(hidden)} not shown (or not read) yet"
            report["waiting_kind"] = "hands-hidden"
            report["waiting_values"] = {"seats": [s + 1 for k, s in enumerate(self.seats) if k not in self.hand.hole]}
            return report
        report["winners"] = [{"seat": self._label(e.seat), "number": self.seats[e.seat] + 1, "amount": e.amount,
                              "hand": e.hand, "hand_key": self._key(e.seat) if e.hand else None}
                             for e in self.hand.events if isinstance(e, PotAwarded)]  # fmt: skip
        report["pot"] = sum(w["amount"] for w in report["winners"])
        return report
