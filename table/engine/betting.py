"""The chips of one hand: seats, blinds, the flow of the betting rounds, pots and settling.

:class:`HandBetting` is the base of :class:`table.engine.Hand`, which adds the cards (board,
hole cards, marks, mucks) and the record (replay, undo, snapshot); use :class:`Hand`. The two
share one state, set up here, so every check still happens before anything changes. What the
seat to act may do, and why not, is read from that state by :mod:`table.engine.legality`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from table.cards import Card
from table.engine.betting_round import BettingRound
from table.engine.events import (
    ActionTaken,
    BetReturned,
    BlindPosted,
    Event,
    HandEnded,
    HandMucked,
    PotAwarded,
    StreetStarted,
)
from table.engine.legality import legal_actions, reopening_raise, verify_act
from table.engine.pots import Pot, build_pots
from table.engine.rules import ActionKind, LegalAction, Rules, Street, is_seat
from table.engine.showdown import PotResult, award_pots
from table.errors import IllegalActionError, IllegalDealError, RulesError
from table.evaluate import evaluate
from table.phrases import N_, Number, Seat, Seats, given
from table.tock_marks import Mark

__all__ = ["HandBetting", "Input"]


Input = tuple[str, tuple[Any, ...]]
"""A recorded operation: (method name, arguments)."""


class HandBetting:
    """The betting and the pots of one hand (the base of :class:`table.engine.Hand`). Seats are
    0..n-1 clockwise; a stack of 0 is an empty or sitting-out seat that is dealt no cards."""

    def __init__(self, rules: Rules, stacks: Sequence[int], button: int) -> None:
        if not isinstance(rules, Rules):
            raise RulesError(N_("rules must be a table.engine.Rules"))
        self.rules = rules
        self.starting_stacks = tuple(stacks)
        if not 2 <= len(self.starting_stacks) <= 10:
            raise RulesError(
                N_("a table has 2 to 10 seats, got {seats}"),
                seats=Number(len(self.starting_stacks)),
            )
        if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in self.starting_stacks):
            raise RulesError(
                N_("stacks must be whole numbers of chips, 0 or more: {stacks}"),
                stacks=given(list(self.starting_stacks)),
            )
        seated = [s for s, chips in enumerate(self.starting_stacks) if chips > 0]
        if len(seated) < 2:
            raise RulesError(N_("a hand needs at least two seats with chips"))
        if not is_seat(button, len(self.starting_stacks)) or self.starting_stacks[button] == 0:
            raise RulesError(
                N_("the button must be on a seat with chips ({seats}), not on seat {seat}"),
                seats=Seats(seated),
                seat=Seat.of(button),
            )
        self.seats = len(self.starting_stacks)
        self.button = button
        self.stacks = list(self.starting_stacks)
        self.bets = [0] * self.seats
        self.committed = [0] * self.seats
        self.folded = [chips == 0 for chips in self.starting_stacks]
        self.in_hand = tuple(s for s in range(self.seats) if self.starting_stacks[s] > 0)
        self.street = Street.PREFLOP
        self.to_act: int | None = None
        self.board: list[Card] = []
        self.board_marks: list[Mark | None] = [None] * 5
        self.hole: dict[int, tuple[Card, ...]] = {}
        self.hole_marks: dict[int, list[Mark | None]] = {s: [None, None] for s in self.in_hand}
        self.mucked: set[int] = set()
        self.events: list[Event] = []
        self.inputs: list[Input] = []
        self.showdown: list[PotResult] | None = None
        self.betting = BettingRound(self.seats, rules.big_blind)
        """The betting of the current street (a new one for each street)."""
        self._awaiting_board = False
        self._post_blinds()

    # ----------------------------------------------------------------- positions
    def _next_seat(self, seat: int, *, acting: bool = False) -> int:
        """The next seat clockwise still in the hand (and, if ``acting``, able to act)."""
        for step in range(1, self.seats + 1):
            s = (seat + step) % self.seats
            if s in self.in_hand and not self.folded[s] and (not acting or self.stacks[s] > 0):
                return s
        raise AssertionError("no seat left")  # pragma: no cover - guarded by callers

    @property
    def heads_up(self) -> bool:
        return len(self.in_hand) == 2

    @property
    def small_blind_seat(self) -> int:
        return self.button if self.heads_up else self._next_seat(self.button)

    @property
    def big_blind_seat(self) -> int:
        return self._next_seat(self.small_blind_seat)

    # ----------------------------------------------------------------- chips
    def _pay(self, seat: int, amount: int, *, to_bet: bool = True) -> int:
        paid = min(amount, self.stacks[seat])
        self.stacks[seat] -= paid
        self.committed[seat] += paid
        if to_bet:
            self.bets[seat] += paid
        return paid

    def _post_blinds(self) -> None:
        if self.rules.ante:
            for s in self.in_hand:
                paid = self._pay(s, self.rules.ante, to_bet=False)
                self.events.append(BlindPosted(s, "ante", paid, self.stacks[s] == 0))
        for seat, kind, amount in (
            (self.small_blind_seat, "small", self.rules.small_blind),
            (self.big_blind_seat, "big", self.rules.big_blind),
        ):
            paid = self._pay(seat, amount)
            self.events.append(BlindPosted(seat, kind, paid, self.stacks[seat] == 0))
        self.betting.current_bet = self.rules.big_blind
        self.events.append(StreetStarted(Street.PREFLOP))
        self._open_round(first=self._next_seat(self.big_blind_seat, acting=False))

    # ----------------------------------------------------------------- rounds
    def _able(self) -> list[int]:
        """Seats still in the hand that have chips to act with."""
        return [s for s in self.in_hand if not self.folded[s] and self.stacks[s] > 0]

    @property
    def live(self) -> list[int]:
        """Seats still in the hand (not folded)."""
        return [s for s in self.in_hand if not self.folded[s]]

    def _open_round(self, *, first: int) -> None:
        able = self._able()
        if self._nothing_to_decide(able):
            self._close_round()
            return
        self.to_act = self.betting.open(able, first)

    def _nothing_to_decide(self, able: list[int]) -> bool:
        """Everyone else is all in or folded and the last seat with chips has matched every
        chip bet against it: betting would change nothing."""
        return not able or (len(able) == 1 and self.bets[able[0]] >= max(self.bets))

    def _close_round(self) -> None:
        self.to_act = None
        self._return_uncalled()
        self.bets = [0] * self.seats
        self.betting = BettingRound(self.seats, self.rules.big_blind)
        if len(self.live) == 1:
            self._award_to_last()
        elif self.street == Street.RIVER:
            self.street = Street.SHOWDOWN
            self.events.append(StreetStarted(Street.SHOWDOWN))
            self._maybe_settle()
        else:
            self._awaiting_board = True

    def _return_uncalled(self) -> None:
        top = max(self.bets)
        if top == 0:
            return
        leaders = [s for s in range(self.seats) if self.bets[s] == top]
        if len(leaders) > 1:
            return
        seat = leaders[0]
        second = max(b for s, b in enumerate(self.bets) if s != seat)
        excess = top - second
        if excess > 0:
            self.bets[seat] -= excess
            self.committed[seat] -= excess
            self.stacks[seat] += excess
            self.events.append(BetReturned(seat, excess))

    def _advance(self, seat: int) -> None:
        if len(self.live) == 1:
            self._close_round()
            return
        able = self._able()
        nxt = self.betting.next_to_act(seat, able)
        if nxt is None or self._nothing_to_decide(able):
            self._close_round()
            return
        self.to_act = nxt

    # ----------------------------------------------------------------- legality (table.engine.legality)
    @property
    def awaiting_board(self) -> bool:
        """Whether a street's betting is over and the hand waits for the next cards (in draw: the draws)."""
        return self._awaiting_board

    def legal_actions(self) -> list[LegalAction]:
        """What the seat to act may do now (empty when nobody is to act)."""
        return legal_actions(self)

    def can_act(self, seat: int, action: ActionKind | str, amount: int | None = None) -> bool:
        """Whether :meth:`act` would accept this, without raising."""
        try:
            self.verify_act(seat, action, amount)
        except IllegalActionError:
            return False
        return True

    def verify_act(self, seat: int, action: ActionKind | str, amount: int | None = None) -> tuple[ActionKind, int]:
        """Check an action; return it normalised with the street total it leads to. Raises
        :class:`IllegalActionError` saying what is wrong and what is allowed."""
        return verify_act(self, seat, action, amount)

    # ----------------------------------------------------------------- acting
    def act(self, seat: int, action: ActionKind | str, amount: int | None = None) -> None:
        """Take an action for the seat to act; ``amount`` is the seat's total for the street."""
        kind, to = self.verify_act(seat, action, amount)
        self.inputs.append(("act", (seat, kind.value, amount)))
        if kind == ActionKind.FOLD:
            self.folded[seat] = True
            self.betting.folded(seat)
            self.events.append(ActionTaken(seat, kind, self.bets[seat], 0, False))
            self._advance(seat)
            return
        full = to - self.betting.current_bet >= reopening_raise(self)
        added = self._pay(seat, to - self.bets[seat])
        self.betting.acted(
            seat, to, full=full, sizes_raises=not self.rules.fixed_limit, able=self._able(), bets=self.bets
        )
        self.events.append(ActionTaken(seat, kind, self.bets[seat], added, self.stacks[seat] == 0))
        self._advance(seat)

    # ----------------------------------------------------------------- settling
    @property
    def is_complete(self) -> bool:
        return self.showdown is not None

    @property
    def pots(self) -> list[Pot]:
        """Main pot first, then side pots, with the chips bet so far (settled: as they were)."""
        if self.showdown is not None:
            return [Pot(r.amount, r.eligible) for r in self.showdown]
        return build_pots(self.committed, self.folded)

    @property
    def pot_total(self) -> int:
        return sum(self.committed)

    @property
    def payoffs(self) -> list[int]:
        """Net chips won (+) or lost (-) per seat; meaningful once the hand is complete."""
        return [self.stacks[s] - self.starting_stacks[s] for s in range(self.seats)]

    def _contenders(self) -> list[int]:
        return [s for s in self.live if s not in self.mucked]

    def _maybe_settle(self) -> None:
        if self.street != Street.SHOWDOWN or self.is_complete:
            return
        contenders = self._contenders()
        if len(contenders) == 1 or all(s in self.hole for s in contenders):
            self._settle()

    def settle(self) -> None:
        """Settle now: seats whose cards are still unknown are treated as mucked."""
        if self.street != Street.SHOWDOWN or self.is_complete:
            raise IllegalDealError(N_("only a hand at the showdown can be settled"))
        winners = {s for result in self._award() for s in result.winners}  # raises if a pot has no winner
        self.inputs.append(("settle", ()))
        for s in self._contenders():
            if s not in self.hole and s not in winners:
                self.mucked.add(s)
                self.events.append(HandMucked(s))
        self._settle()

    def _award(self) -> list[PotResult]:
        values = {s: evaluate([*self.hole[s], *self.board]) for s in self._contenders() if s in self.hole}
        pots = build_pots(self.committed, self.folded)
        return award_pots(pots, values=values, mucked=self.mucked, seats=self.seats, button=self.button)

    def _settle(self) -> None:
        results = self._award()
        for result in results:
            for seat, amount in result.shares.items():
                self.stacks[seat] += amount
                value = result.values.get(seat)
                self.events.append(PotAwarded(result.index, seat, amount, value.describe() if value else None))
        self.showdown = results
        self.to_act = None
        self.events.append(HandEnded(tuple(self.stacks)))

    def _award_to_last(self) -> None:
        winner = self.live[0]
        total = sum(self.committed)
        self.stacks[winner] += total
        self.events.append(PotAwarded(0, winner, total, None))
        self.showdown = [PotResult(0, total, (winner,), (winner,), {winner: total})]
        self.events.append(HandEnded(tuple(self.stacks)))
