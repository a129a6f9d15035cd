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
from table.engine.rules import ActionKind, LegalAction, Rules, Street, action_word, allowed_actions, is_seat
from table.errors import IllegalActionError
from table.phrases import N_, Chips, Listed, Number, Phrase, Seat, Verbatim, given

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
        allowed = Listed([Verbatim(a.value) for a in ActionKind], "or")
        raise IllegalActionError(
            N_("unknown action {action}: use one of {allowed}"), action=given(action), allowed=allowed
        ) from None
    if hand.is_complete:
        raise IllegalActionError(N_("the hand is over: no more actions"))
    if hand.to_act is None:
        if hand.awaiting_board:
            raise IllegalActionError(N_("nobody is to act now: the hand is waiting for cards to be dealt"))
        raise IllegalActionError(N_("nobody is to act now: the hand is waiting for the showdown"))
    if not is_seat(seat, hand.seats) or seat != hand.to_act:
        raise IllegalActionError(
            N_("it is seat {seat}'s turn, not seat {tried}'s"), seat=Seat.of(hand.to_act), tried=Seat.of(seat)
        )
    legal = {a.action: a for a in legal_actions(hand)}
    allowed = allowed_actions(legal.values())
    if kind not in legal:
        reason = {
            ActionKind.CHECK: Phrase(N_("there is a bet of {amount} to call"), amount=Chips(hand.betting.current_bet)),
            ActionKind.CALL: Phrase(N_("there is nothing to call")),
            ActionKind.BET: Phrase(N_("there is already a bet: raise instead"))
            if hand.betting.current_bet
            else Phrase(N_("a bet is not possible now")),
            ActionKind.RAISE: _why_no_raise(hand, seat),
            ActionKind.ALL_IN: _why_no_raise(hand, seat),
        }.get(kind, Phrase(N_("not allowed now")))
        raise IllegalActionError(
            N_("seat {seat} cannot {action}: {reason}; allowed: {allowed}"),
            seat=Seat.of(seat),
            action=action_word(kind),
            reason=reason,
            allowed=allowed,
        )
    option = legal[kind]
    if kind in (ActionKind.BET, ActionKind.RAISE):
        if amount is None:
            raise IllegalActionError(
                N_("{action} needs an amount (the street total): {allowed}"),
                action=action_word(kind),
                allowed=option.phrase(),
            )
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise IllegalActionError(N_("amounts are whole numbers of chips, got {amount}"), amount=given(amount))
        if not option.min_to <= amount <= option.max_to:
            raise IllegalActionError(
                N_("seat {seat} cannot {action} to {amount}: {allowed}"),
                seat=Seat.of(seat),
                action=action_word(kind),
                amount=Chips(amount),
                allowed=option.phrase(),
            )
        return kind, amount
    if amount is not None and amount != option.min_to:
        raise IllegalActionError(
            N_("{action} takes no amount other than {min_to}, got {amount}"),
            action=action_word(kind),
            min_to=Chips(option.min_to),
            amount=Chips(amount),
        )
    return kind, option.min_to


def _why_no_raise(hand: BettingView, seat: int) -> Phrase:
    if hand.stacks[seat] + hand.bets[seat] <= hand.betting.current_bet:
        return Phrase(N_("not enough chips to raise (all in is a call)"))
    if not any(s != seat and hand.stacks[s] + hand.bets[s] > hand.betting.current_bet for s in hand.live):
        return Phrase(N_("no other player has chips to call more than the current bet"))
    if not _reopened(hand, seat):
        return Phrase(
            N_(
                "the betting was not reopened: since this seat acted the bet rose by less than {amount} "
                "(short all-ins only)"
            ),
            amount=Chips(reopening_raise(hand)),
        )
    if hand.rules.fixed_limit:
        return Phrase(
            N_("the raise cap of {cap} raises is reached, or all in exceeds the limit"),
            cap=Number(hand.rules.raise_cap or 0),
        )
    return Phrase(N_("raising is not possible now"))
