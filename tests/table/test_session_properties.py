"""Property tests for sessions: random nights of several hands with players coming and going.

Whatever happens: chips are conserved (what is on the table equals what was bought in minus
what left), the snapshot is plain JSON with no hole card before betting is closed (the
showdown, or an all-in where the hands are tabled before the board runs out), rejected
commands change nothing, and replaying the log gives the same session.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from table.cards import Deck
from table.engine import ActionKind, BlindStructure, Street
from table.errors import TocktableError
from table.session import Session, SessionSettings
from tests.table.fixed_settings import fixed_settings

SETTINGS = fixed_settings(60)


def on_table(session: Session) -> int:
    return sum(session.stack(s) for s in session.players) + (
        session.hand.pot_total if session.hand is not None and session._hand_open and not session.hand.is_complete
        else 0
    )  # fmt: skip


def check(session: Session) -> None:
    lines = session.ledger()
    assert on_table(session) == sum(line.bought_in for line in lines) - sum(
        line.cashed_out for line in session.departed
    )
    snap = session.snapshot()
    assert json.loads(json.dumps(snap)) == snap
    hand = session.hand
    if hand is None or not hand.betting_closed:  # shown at the showdown, or tabled at an all-in
        assert all(seat["hole"] == [] for seat in snap["seats"])


def between_hands(session: Session, data: st.DataObject) -> None:
    """A few random table changes, some of them illegal (they must change nothing)."""
    for _ in range(data.draw(st.integers(0, 3))):
        seat = data.draw(st.integers(0, session.settings.seats - 1))
        command = data.draw(
            st.sampled_from(
                [
                    {"op": "seat_player", "seat": seat, "name": f"N{seat}", "chips": data.draw(st.integers(0, 300))},
                    {"op": "leave", "seat": seat},
                    {"op": "sit_out", "seat": seat},
                    {"op": "sit_in", "seat": seat},
                    {"op": "rebuy", "seat": seat, "chips": data.draw(st.integers(-5, 100))},
                    {"op": "set_button", "seat": seat},
                ]
            )
        )
        before = json.dumps(session.snapshot()), len(session.log)
        try:
            session.apply(command)
        except TocktableError:
            assert (json.dumps(session.snapshot()), len(session.log)) == before
        check(session)


def play_hand(session: Session, data: st.DataObject, deck: Deck) -> None:
    hand = session.hand
    assert hand is not None
    for _ in range(300):
        check(session)
        if hand.is_complete:
            return
        if hand.to_act is not None:
            option = data.draw(st.sampled_from(hand.legal_actions()))
            amount = None
            if option.action in (ActionKind.BET, ActionKind.RAISE):
                amount = data.draw(st.integers(option.min_to, option.max_to))
            if data.draw(st.integers(0, 9)) == 0 and hand.inputs:
                session.undo()
            else:
                session.act(hand.to_act, option.action, amount)
        elif hand.street == Street.SHOWDOWN:
            seat = next(s for s in hand.in_hand if not hand.folded[s] and s not in hand.hole and s not in hand.mucked)
            session.deal_hole(seat, deck.draw(2))
        else:
            for seat in hand.in_hand:  # at an all-in some hands are turned before the board runs out
                shown = hand.hands_may_be_shown and not hand.folded[seat] and seat not in hand.hole
                if shown and data.draw(st.booleans()):
                    session.deal_hole(seat, deck.draw(2))
            session.deal_board(deck.draw(3 if not hand.board else 1))
    raise AssertionError("the hand did not finish")


@SETTINGS
@given(st.data())
def test_random_nights_conserve_chips_and_replay(data):
    seats = data.draw(st.integers(2, 10))
    structure = BlindStructure.timed([(1, 2), (2, 4), (5, 10, 1)], minutes=1)
    session = Session(
        SessionSettings(seats=seats, blinds=structure, betting=data.draw(st.sampled_from(["no-limit", "fixed-limit"])),
                        rebuys=data.draw(st.booleans())),
    )  # fmt: skip
    for seat in range(seats):
        if data.draw(st.booleans()) or seat < 2:
            session.seat_player(seat, f"P{seat}", data.draw(st.sampled_from([3, 20, 60, 200])))
    now = 0.0
    for _ in range(data.draw(st.integers(1, 6))):
        between_hands(session, data)
        now += data.draw(st.sampled_from([0.0, 10.0, 45.0]))
        try:
            session.start_hand(now=now)
        except TocktableError:
            break  # fewer than two players can play
        deck = Deck(rng=data.draw(st.randoms(use_true_random=False)))
        play_hand(session, data, deck)
    replayed = Session.replay(session.settings, json.loads(json.dumps(session.log)))
    assert replayed.snapshot(now=now) == session.snapshot(now=now)
    assert replayed.log == session.log
