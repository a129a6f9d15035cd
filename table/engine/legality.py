"""What the seat to act may do, and why not: the legality of betting actions, read from a hand.

The hand (:class:`table.engine.betting.HandBetting`) keeps the chips and the flow; these
functions only read it, through :class:`BettingView`, and change nothing. ``verify_act`` is the
one gate every action passes before the hand changes: it returns the action normalised with
the street total it leads to, or raises :class:`IllegalActionError` saying what is wrong and
what is allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from table.engine.betting_round import BettingRound
from table.engine.rules import ActionKind, LegalAction, Rules, Street, is_seat
from table.errors import IllegalActionError
from table.wording import seat_word

__all__ = ["BettingView", "legal_actions", "reopening_raise", "verify_act"]


class BettingView(Protocol):
    """What the legality of an action reads of a hand."""

    @property
    def rules(self) -> Rules: ...
    @property
    def street(self) -> Street: ...
    @property
    def seats(self) -> int: ...
    @property
    def stacks(self) -> Sequence[int]: ...
    @property
    def bets(self) -> Sequence[int]: ...
    @property
    def betting(self) -> BettingRound: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def is_complete(self) -> bool: ...
    @property
    def awaiting_board(self) -> bool: ...
    @property
    def live(self) -> list[int]: ...


def reopening_raise(hand: BettingView) -> int:
    """How much the bet must rise to reopen the betting (TDA rule 43): a full raise in
    no-limit (the last full bet or raise), half a bet in fixed-limit."""
    if hand.rules.fixed_limit:
        return (hand.rules.bet_size(hand.street) + 1) // 2
    return hand.betting.last_raise


def _reopened(hand: BettingView, seat: int) -> bool:
    """A seat may raise if it has not acted on this street, or if the bet has risen by a
    reopening raise since it did (:meth:`BettingRound.reopened`)."""
    return hand.betting.reopened(seat, reopening_raise(hand))


def _can_raise(hand: BettingView, seat: int) -> bool:
    bet = hand.betting.current_bet
    reopened = _reopened(hand, seat)
    capped = hand.rules.fixed_limit and hand.betting.capped(hand.rules.raise_cap)
    someone_can_call = any(s != seat and hand.stacks[s] + hand.bets[s] > bet for s in hand.live)
    return reopened and not capped and someone_can_call and hand.stacks[seat] + hand.bets[seat] > bet


def legal_actions(hand: BettingView) -> list[LegalAction]:
    """What the seat to act may do now (empty when nobody is to act)."""
    seat = hand.to_act
    if seat is None:
        return []
    rules = hand.rules
    bet = hand.betting.current_bet
    most = hand.stacks[seat] + hand.bets[seat]
    to_call = bet - hand.bets[seat]
    out = [LegalAction(ActionKind.FOLD, hand.bets[seat], hand.bets[seat])]
    if to_call == 0:
        out.append(LegalAction(ActionKind.CHECK, hand.bets[seat], hand.bets[seat]))
    else:
        out.append(LegalAction(ActionKind.CALL, min(bet, most), min(bet, most)))
    if _can_raise(hand, seat):
        kind = ActionKind.BET if bet == 0 else ActionKind.RAISE
        if rules.fixed_limit:
            target = bet + rules.bet_size(hand.street)
            out.append(LegalAction(kind, min(target, most), min(target, most)))
        else:
            least = bet + hand.betting.last_raise
            out.append(LegalAction(kind, min(least, most), most))
    within_limit = not rules.fixed_limit or most <= bet + rules.bet_size(hand.street)
    if most > 0 and (most <= bet or (_can_raise(hand, seat) and within_limit)):
        out.append(LegalAction(ActionKind.ALL_IN, most, most))
    return out


def verify_act(
    hand: BettingView, seat: int, action: ActionKind | str, amount: int | None = None
) -> tuple[ActionKind, int]:
    """Check an action; return it normalised with the street total it leads to. Raises
    :class:`IllegalActionError` saying what is wrong and what is allowed."""
    try:
        kind = ActionKind(action)
    except ValueError:
        allowed = ", ".join(a.value for a in ActionKind)
        raise IllegalActionError(f"unknown action {action!r}: use one of {allowed}") from None
    if hand.is_complete:
        raise IllegalActionError("the hand is over: no more actions")
    if hand.to_act is None:
        what = "cards to be dealt" if hand.awaiting_board else "the showdown"
        raise IllegalActionError(f"nobody is to act now: the hand is waiting for {what}")
    if not is_seat(seat, hand.seats) or seat != hand.to_act:
        raise IllegalActionError(f"it is {seat_word(hand.to_act)}'s turn, not {seat_word(seat)}'s")
    legal = {a.action: a for a in legal_actions(hand)}
    allowed = ", ".join(a.describe() for a in legal.values())
    if kind not in legal:
        reason = {
            ActionKind.CHECK: f"there is a bet of {hand.betting.current_bet} to call",
            ActionKind.CALL: "there is nothing to call",
            ActionKind.BET: "there is already a bet: raise instead"
            if hand.betting.current_bet
            else "a bet is not possible now",
            ActionKind.RAISE: _why_no_raise(hand, seat),
            ActionKind.ALL_IN: _why_no_raise(hand, seat),
        }.get(kind, "")
        raise IllegalActionError(f"{seat_word(seat)} cannot {kind.value}: {reason}; allowed: {allowed}")
    option = legal[kind]
    if kind in (ActionKind.BET, ActionKind.RAISE):
        if amount is None:
            raise IllegalActionError(f"{kind.value} needs an amount (the street total): {option.describe()}")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise IllegalActionError(f"amounts are whole numbers of chips, got {amount!r}")
        if not option.min_to <= amount <= option.max_to:
            raise IllegalActionError(f"{seat_word(seat)} cannot {kind.value} to {amount}: {option.describe()}")
        return kind, amount
    if amount is not None and amount != option.min_to:
        raise IllegalActionError(f"{kind.value} takes no amount other than {option.min_to}, got {amount}")
    return kind, option.min_to


def _why_no_raise(hand: BettingView, seat: int) -> str:
    if hand.stacks[seat] + hand.bets[seat] <= hand.betting.current_bet:
        return "not enough chips to raise (all in is a call)"
    if not any(s != seat and hand.stacks[s] + hand.bets[s] > hand.betting.current_bet for s in hand.live):
        return "no other player has chips to call more than the current bet"
    if not _reopened(hand, seat):
        return (
            f"the betting was not reopened: since this seat acted the bet rose by less than "
            f"{reopening_raise(hand)} (short all-ins only)"
        )
    if hand.rules.fixed_limit:
        return f"the raise cap of {hand.rules.raise_cap} raises is reached, or all in exceeds the limit"
    return "raising is not possible now"
