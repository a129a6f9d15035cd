"""What the console's buttons mean for the game now.

A press is a step for the seat to act (FOLD, CHECK/CALL, BET/RAISE, ALL-IN), UNDO or
NEXT/CONFIRM, or a change of the amount BET/RAISE will bet (+/-). During a five-card draw, +/-
choose how many cards the seat to draw exchanges and CHECK/CALL (or NEXT/CONFIRM) records it.

:class:`ConsoleButtons` holds what +/- have set (the pending amount and draw count) and decides;
the service commits the steps, keeps the pending values in the store before it shows them, and
publishes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass
from typing import Any

from hardware.pins import ConsoleButton
from table.engine import ActionKind, Street
from table.engine.draw import DrawHand
from table.steps import Act, ChooseButton, CommandError, Confirm, Draw, Settle, Step, Undo
from table.wording import seat_word
from tocktable.game import Game, Phase

__all__ = ["BET_CLEARED_BY", "DRAW_CLEARED_BY", "ConsoleButtons", "Pending", "raise_range"]

BET_CLEARED_BY = frozenset({"act", "undo", "confirm", "choose_button"})
"""Kinds of step after which the amount set with +/- no longer applies (the decision it was for is gone)."""
DRAW_CLEARED_BY = BET_CLEARED_BY | {"draw"}
"""Kinds of step after which a draw count set with +/- no longer applies."""


@dataclass(frozen=True)
class Pending:
    """What +/- set once a press is taken: the amount BET/RAISE will bet, the draw count."""

    bet: int | None
    draw: int | None


def raise_range(game: Game) -> tuple[int, int]:
    """The lowest and highest total the seat to act may bet or raise to; (0, 0) when it may not."""
    hand = game.hand
    if hand is None or game.phase != Phase.PLAYING:
        return (0, 0)
    for option in hand.legal_actions():
        if option.action in (ActionKind.BET, ActionKind.RAISE):
            return option.min_to, option.max_to
    return (0, 0)


def _next_step(game: Game) -> Step:
    phase, hand = game.phase, game.hand
    if phase in (Phase.SETTLED, Phase.READY):
        return Confirm()
    if phase == Phase.SEATING and game.settings.first_dealer == "croupier":
        return ChooseButton()
    if phase == Phase.PLAYING and hand is not None and hand.street == Street.SHOWDOWN:
        return Settle()
    raise CommandError(f"NEXT/CONFIRM: nothing to confirm now ({game.describe_phase()})")


class ConsoleButtons:
    """The console's pending amount and draw count (None: not set), and what a press means."""

    def __init__(self) -> None:
        self.bet: int | None = None
        self.draw: int | None = None

    def press(self, game: Game, button: ConsoleButton) -> Step | Pending:
        """The step ``button`` asks for now, or the pending values it sets (+/-, clamped to what
        is allowed); a :class:`table.steps.CommandError` when it means nothing now."""
        hand = game.hand
        if isinstance(hand, DrawHand) and game.phase == Phase.PLAYING and hand.to_draw is not None:
            return self._press_in_draw(game, button, hand, hand.to_draw)
        if button in (ConsoleButton.PLUS, ConsoleButton.MINUS):
            step = hand.rules.big_blind if hand is not None and not hand.rules.fixed_limit else 0
            current = self.bet or raise_range(game)[0]
            return self.set_bet(game, current + (step if button == ConsoleButton.PLUS else -step), clamp=True)
        if button == ConsoleButton.UNDO:
            return Undo()
        if button == ConsoleButton.NEXT:
            return _next_step(game)
        if hand is None or game.phase != Phase.PLAYING or hand.to_act is None:
            raise CommandError(f"{button.label}: nobody is to act now ({game.describe_phase()})")
        seat = hand.to_act
        legal = {a.action: a for a in hand.legal_actions()}
        if button == ConsoleButton.FOLD:
            return Act(seat, "fold")
        if button == ConsoleButton.CHECK_CALL:
            return Act(seat, "check" if ActionKind.CHECK in legal else "call")
        if button == ConsoleButton.ALL_IN:
            return Act(seat, "all_in")
        kind = ActionKind.BET if ActionKind.BET in legal else ActionKind.RAISE
        if kind not in legal:
            raise CommandError(f"{seat_word(seat)} cannot bet or raise now")
        low, high = legal[kind].min_to, legal[kind].max_to
        amount = self.bet if self.bet is not None and low <= self.bet <= high else low
        return Act(seat, kind.value, amount)

    def _press_in_draw(self, game: Game, button: ConsoleButton, hand: DrawHand, seat: int) -> Step | Pending:
        """The console during the draw: +/- choose how many cards the seat to draw exchanges
        (0 to the rules' limit), CHECK/CALL or NEXT/CONFIRM records it, UNDO takes back the
        last draw or action."""
        count = self.draw or 0
        if button in (ConsoleButton.PLUS, ConsoleButton.MINUS):
            return self.set_draw(game, count + (1 if button == ConsoleButton.PLUS else -1), clamp=True)
        if button in (ConsoleButton.CHECK_CALL, ConsoleButton.NEXT):
            return Draw(seat, count)
        if button == ConsoleButton.UNDO:
            return Undo()
        raise CommandError(
            f"{button.label}: betting is closed during the draw; {seat_word(seat)} draws: choose 0 to "
            f"{hand.draw_rules.max_draw} cards with +/-, then CHECK/CALL (or NEXT/CONFIRM) records it"
        )

    def set_bet(self, game: Game, amount: int, *, clamp: bool = False) -> Pending:
        """The pending values with the amount BET/RAISE will bet set to ``amount`` (``clamp``: brought
        within what is allowed; else refused outside it)."""
        low, high = raise_range(game)
        if high == 0:
            raise CommandError(f"no bet or raise is possible now ({game.describe_phase()})")
        if clamp:
            amount = min(max(amount, low), high)
        elif not low <= amount <= high:
            raise CommandError(f"a bet of {amount} is not allowed: {low}..{high}")
        return Pending(amount, self.draw)

    def set_draw(self, game: Game, count: int, *, clamp: bool = False) -> Pending:
        """The pending values with the draw count set to ``count`` (``clamp`` as for :meth:`set_bet`)."""
        hand = game.hand
        if not isinstance(hand, DrawHand) or game.phase != Phase.PLAYING or hand.to_draw is None:
            raise CommandError(f"no draw to count now ({game.describe_phase()})")
        most = hand.draw_rules.max_draw
        if clamp:
            count = min(max(count, 0), most)
        elif isinstance(count, bool) or not 0 <= count <= most:
            raise CommandError(f"{seat_word(hand.to_draw)} may exchange 0 (stand pat) to {most} cards, not {count}")
        return Pending(self.bet, count)

    @property
    def pending(self) -> Pending:
        return Pending(self.bet, self.draw)

    def keep(self, pending: Pending) -> None:
        self.bet, self.draw = pending.bet, pending.draw

    def after(self, kind: str) -> None:
        """Forget what the step of ``kind`` made stale (the decision it was set for is gone)."""
        if kind in BET_CLEARED_BY:
            self.bet = None
        if kind in DRAW_CLEARED_BY:
            self.draw = None

    def clear(self) -> None:
        self.bet = self.draw = None

    def restore(self, game: Game, saved: Mapping[str, Any], later: Set[str]) -> None:
        """Take back the values saved before a stop, unless a step of ``later`` kinds cleared them
        (the same rule as :meth:`after`) or they no longer fit the game."""
        bet, draw = saved.get("bet"), saved.get("draw")
        low, high = raise_range(game)
        if isinstance(bet, int) and not later & BET_CLEARED_BY and high and low <= bet <= high:
            self.bet = bet
        hand = game.hand
        if (isinstance(draw, int) and not later & DRAW_CLEARED_BY and isinstance(hand, DrawHand)
                and game.phase == Phase.PLAYING and hand.to_draw is not None
                and 0 <= draw <= hand.draw_rules.max_draw):  # fmt: skip
            self.draw = draw
