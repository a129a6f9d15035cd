"""The table as plain JSON-ready data for the dashboard (:meth:`table.session.Session.snapshot`).

A helper of the session: it reads what :class:`SessionState` lists of the session (a
:class:`table.session.Session` has it all), and is told the hand still open and how many seats
the next hand would deal in."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from table.cards import Card
from table.engine import BlindLevel, Hand, LevelClock
from table.engine.draw import DrawHand
from table.session_draw import draw_state
from table.session_records import HandRecord, LedgerLine, Player
from table.session_settings import SessionSettings

__all__ = ["SessionState", "snapshot_of"]


class SessionState(Protocol):
    """What a snapshot reads of the session."""

    @property
    def settings(self) -> SessionSettings: ...
    @property
    def clock(self) -> Callable[[], float] | None: ...
    @property
    def levels(self) -> LevelClock: ...
    @property
    def players(self) -> Mapping[int, Player]: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def hand_level(self) -> BlindLevel | None: ...
    @property
    def button(self) -> int | None: ...
    @property
    def next_button(self) -> int | None: ...
    @property
    def draw(self) -> Mapping[int, Card]: ...
    @property
    def eliminated(self) -> Sequence[str]: ...
    @property
    def last_record(self) -> HandRecord | None: ...
    def stack(self, seat: int) -> int: ...
    def ledger(self) -> list[LedgerLine]: ...


def _either(first: int | None, second: int | None) -> int | None:
    return first if first is not None else second


def _level_dict(level: BlindLevel | None) -> dict[str, int] | None:
    return None if level is None else level.to_dict()


def snapshot_of(session: SessionState, now: float | None, *, hand: Hand | None, dealt_in: int) -> dict[str, Any]:
    """See :meth:`table.session.Session.snapshot`: ``hand`` is the hand still open (None between
    hands), ``dealt_in`` the number of seats the next hand would deal in."""
    when = now if now is not None else (float(session.clock()) if session.clock is not None else None)
    # Shown hands: at the showdown, or tabled at an all-in (the engine takes none before).
    showing = hand is not None and hand.betting_closed
    clock = session.levels
    index = clock.level_index(now=when if when is not None else 0.0)
    structure = session.settings.blinds
    running = hand is not None and not hand.is_complete
    seats: list[dict[str, Any]] = []
    for seat in range(session.settings.seats):
        player = session.players.get(seat)
        in_hand = hand is not None and player is not None and seat in hand.in_hand
        stack = session.stack(seat) if player is not None else 0
        folded = hand is not None and in_hand and hand.folded[seat]
        entry: dict[str, Any] = {
            "seat": seat,
            "name": player.name if player is not None else None,
            "stack": stack,
            "bet": hand.bets[seat] if hand is not None and in_hand else 0,
            "in_hand": in_hand,
            "folded": folded,
            "all_in": running and in_hand and not folded and stack == 0,
            "sitting_out": player is not None and player.sitting_out,
            "busted": player is not None and stack == 0 and not (running and in_hand),
            "dealer": hand is not None and hand.button == seat,
            "hole": [],
            "marks": [],
            "mucked": False,
        }
        if hand is not None and in_hand:
            if showing and seat in hand.hole and not folded:
                entry["hole"] = [str(c) for c in hand.hole[seat]]
            entry["marks"] = [str(m) if m else None for m in hand.hole_marks[seat]]
            entry["mucked"] = seat in hand.mucked
        if session.settings.is_draw:
            entry["drew"] = hand.draws.get(seat) if isinstance(hand, DrawHand) and in_hand else None
        entry["state"] = _seat_state(entry, occupied=player is not None)
        seats.append(entry)
    legal = hand.legal_actions() if hand is not None else []
    record = session.last_record
    state = {
        "hand_number": session.hand_number,
        "betting": session.settings.betting,
        "variant": session.settings.variant,
        "status": "waiting" if hand is None else ("complete" if hand.is_complete else "playing"),
        "button": hand.button if hand is not None else _either(session.next_button, session.button),
        "small_blind_seat": hand.small_blind_seat if hand is not None else None,
        "big_blind_seat": hand.big_blind_seat if hand is not None else None,
        "to_act": hand.to_act if hand is not None else None,
        "hands_may_be_shown": hand is not None and hand.hands_may_be_shown,
        "street": hand.street.name.lower() if hand is not None else None,
        "board": [str(c) for c in hand.board] if hand is not None else [],
        "board_marks": [str(m) if m else None for m in hand.board_marks] if hand is not None else [],
        "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in hand.pots] if hand is not None else [],
        "pot_total": (0 if hand.is_complete else hand.pot_total) if hand is not None else 0,
        "legal_actions": [{"action": a.action.value, "min_to": a.min_to, "max_to": a.max_to} for a in legal],
        "blinds": {
            "hand_level": _level_dict(session.hand_level if hand is not None else None),
            "level": index,
            "levels": len(structure.levels),
            **structure.levels[index].to_dict(),
            "next": _level_dict(structure.levels[index + 1]) if index + 1 < len(structure.levels) else None,
            "seconds_left": clock.seconds_left(now=when) if when is not None else None,
            "level_seconds": structure.level_seconds,
            "clock": "paused" if clock.paused_at is not None else ("running" if clock.running else "stopped"),
        },
        "seats": seats,
        "last_hand": record.to_dict() if record is not None else None,
        "draw": [{"seat": s, "card": str(c)} for s, c in session.draw.items()],
        "eliminated": list(session.eliminated),
        "ledger": [line.to_dict() for line in session.ledger()],
    }
    if session.settings.is_draw:
        _add_draw_state(session, state, hand, structure.levels[index], dealt_in=dealt_in)
    return state


def _add_draw_state(
    session: SessionState, state: dict[str, Any], hand: Hand | None, level: BlindLevel, *, dealt_in: int
) -> None:
    """The five-card draw parts of a snapshot: the game, the phase, the draws; a draw hand has
    no blinds (the seat that opened, if any, is shown as ``opening_seat``)."""
    draw_hand = hand if isinstance(hand, DrawHand) else None
    rules = draw_hand.draw_rules if draw_hand is not None else session.settings.draw_rules_for(level)
    dealt = len(draw_hand.in_hand) if draw_hand is not None else dealt_in
    state["draw_game"] = draw_state(session.settings.variant, draw_hand, rules, dealt=dealt)
    state["small_blind_seat"] = state["big_blind_seat"] = None


def _seat_state(entry: dict[str, Any], *, occupied: bool) -> str:
    """One word for the dashboard: empty, busted, folded, all_in, playing, sitting_out, waiting."""
    if not occupied:
        return "empty"
    if entry["busted"]:
        return "busted"
    if entry["in_hand"]:
        if entry["folded"]:
            return "folded"
        return "all_in" if entry["all_in"] else "playing"
    return "sitting_out" if entry["sitting_out"] else "waiting"
