"""One street's betting, apart from the chips: who must still act, the bet to match, the last
full raise and the raises made.

A :class:`BettingRound` is opened for each street by the hand (:class:`table.engine.Hand`),
which keeps the chips (stacks, bets, pots) and asks the round who acts next and whether a
raise is allowed. The round is thrown away when the street closes, so nothing of one street's
betting can leak into the next.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["BettingRound"]


class BettingRound:
    """The betting of one street at a table of ``seats`` seats; a raise must be at least
    ``last_raise`` (the big blind, or the draw game's small bet) until a bigger one is made."""

    def __init__(self, seats: int, last_raise: int, *, current_bet: int = 0) -> None:
        self.seats = seats
        self.needs_action = [False] * seats
        """Seats that still have to act on this street."""
        self.acted_to: list[int | None] = [None] * seats
        """The bet each seat last matched or made on this street (None: it has not acted)."""
        self.raises = 0
        """Full bets and raises after the first bet (what a fixed-limit raise cap counts)."""
        self.current_bet = current_bet
        """The street total every seat must match to stay in."""
        self.last_raise = last_raise
        """The size of the last full bet or raise: the least a no-limit raise adds."""

    def open(self, able: Sequence[int], first: int) -> int:
        """Every seat in ``able`` must act; returns the first of them at or after ``first``."""
        for s in able:
            self.needs_action[s] = True
        seat = first
        while not (self.needs_action[seat] and seat in able):
            seat = (seat + 1) % self.seats
        return seat

    def next_to_act(self, seat: int, able: Sequence[int]) -> int | None:
        """The next seat after ``seat`` in ``able`` that must still act, None if there is none."""
        if not any(self.needs_action[s] for s in able):
            return None
        nxt = (seat + 1) % self.seats
        while not (nxt in able and self.needs_action[nxt]):
            nxt = (nxt + 1) % self.seats
        return nxt

    def reopened(self, seat: int, reopening_raise: int) -> bool:
        """A seat may raise if it has not acted on this street, or if the bet has risen by
        ``reopening_raise`` since it did, counting several short all-ins together."""
        acted_to = self.acted_to[seat]
        return acted_to is None or self.current_bet - acted_to >= reopening_raise

    def capped(self, raise_cap: int | None) -> bool:
        """Whether a fixed-limit cap of ``raise_cap`` raises is reached on a bet."""
        return raise_cap is not None and self.current_bet > 0 and self.raises >= raise_cap

    def folded(self, seat: int) -> None:
        self.needs_action[seat] = False

    def acted(
        self, seat: int, to: int, *, full: bool, sizes_raises: bool, able: Sequence[int], bets: Sequence[int]
    ) -> None:
        """``seat`` called, bet or raised to the street total ``to``. A rise to ``to`` makes the
        others in ``able`` act again (all of them if ``full``, a reopening raise; else those
        whose ``bets`` are below ``to``); a full rise counts as a raise once there was a bet,
        and sets the raise size when ``sizes_raises`` (no-limit)."""
        if to > self.current_bet:
            if full:
                if self.current_bet > 0:
                    self.raises += 1
                if sizes_raises:
                    self.last_raise = to - self.current_bet
            self.current_bet = to
            for s in able:
                if s != seat and (full or bets[s] < to):
                    self.needs_action[s] = True
        self.needs_action[seat] = False
        self.acted_to[seat] = self.current_bet
