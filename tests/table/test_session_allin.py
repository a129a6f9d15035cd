"""A session where the hands are tabled at an all-in: refused while betting is open (the same
error as before), taken as soon as betting is closed, in the snapshot at once, in the log
before the board (and replayed), never taken back by an undo, and in the PHH export where shown."""

from __future__ import annotations

import json
import warnings

import pytest

from table.engine import BlindStructure, Street
from table.errors import IllegalActionError
from table.session import DrawOptions, Session, SessionError, SessionSettings


def heads_up(variant: str = "holdem") -> Session:
    session = Session(SessionSettings(seats=3, variant=variant, blinds=BlindStructure.fixed(5, 10)))
    session.seat_player(0, "Ann", 200)
    session.seat_player(1, "Bob", 500)
    session.seat_player(2, "Cy", 300)
    session.set_button(0)
    session.start_hand()  # Bob small blind, Cy big blind, Ann first
    return session


def holes(session: Session) -> dict[int, list[str]]:
    return {s["seat"]: s["hole"] for s in session.snapshot()["seats"] if s["hole"]}


def test_refused_while_betting_is_open_then_shown_at_the_all_in():
    session = heads_up()
    session.act(0, "all_in")
    session.act(1, "call")
    before = (json.dumps(session.snapshot()), len(session.log))
    with pytest.raises(SessionError, match="only at the showdown, or at an all-in once betting is closed"):
        session.deal_hole(0, "Ah Ad")  # Cy is still to act: a face-up card now is a peek
    assert (json.dumps(session.snapshot()), len(session.log)) == before
    assert session.snapshot()["hands_may_be_shown"] is False
    session.act(2, "fold")
    assert session.snapshot()["hands_may_be_shown"] is True
    # Bob has chips left but nobody to bet against: betting is closed for the rest of the hand.
    assert session.hand is not None and session.hand.hands_may_be_shown and session.hand.street == Street.PREFLOP
    with pytest.raises(SessionError, match="no live hand to show"):
        session.deal_hole(2, "Qh Qd")  # Cy folded
    session.deal_hole(1, "Kh Kd")
    assert holes(session) == {1: ["Kh", "Kd"]}  # on every phone at once, before the flop
    session.deal_hole(0, "Ah Ad")
    session.deal_board("2c 7d 9h")
    assert holes(session) == {0: ["Ah", "Ad"], 1: ["Kh", "Kd"]}
    session.deal_board("Jc")
    session.deal_board("3s")
    snap = session.snapshot()
    assert snap["status"] == "complete" and snap["hands_may_be_shown"] is False
    assert snap["last_hand"]["pots"][0]["winners"][0]["name"] == "Ann"
    ops = [c["op"] for c in session.log]
    assert ops[-5:] == ["deal_hole", "deal_hole", "deal_board", "deal_board", "deal_board"]
    replayed = Session.replay(session.settings, json.loads(json.dumps(session.log)))
    assert replayed.snapshot() == snap


def test_an_undo_of_the_closing_call_is_refused_once_a_hand_was_shown():
    session = heads_up()
    session.act(0, "all_in")
    session.act(1, "fold")
    session.act(2, "call")
    before = (json.dumps(session.snapshot()), len(session.log))
    session.undo()  # nothing shown yet: Cy's call is taken back, betting is open again
    assert session.hand is not None and session.hand.to_act == 2
    session.act(2, "call")
    session.deal_hole(2, "Qh Qd")
    assert holes(session) == {2: ["Qh", "Qd"]}
    shown = (json.dumps(session.snapshot()), len(session.log))
    with pytest.raises(IllegalActionError, match="the hands were shown: betting cannot reopen"):
        session.undo()  # everyone has seen Cy's queens: her call stands
    assert (json.dumps(session.snapshot()), len(session.log)) == shown != before
    replayed = Session.replay(session.settings, session.log)
    assert replayed.snapshot() == session.snapshot()


def test_the_export_shows_the_tabled_hands_before_the_run_out():
    pokerkit = pytest.importorskip("pokerkit")
    session = heads_up()
    session.act(0, "all_in")
    session.act(1, "call")
    session.act(2, "call")  # Bob and Cy both have chips left: betting goes on after the flop
    with pytest.raises(SessionError, match="only at the showdown"):
        session.deal_hole(0, "Ah Ad")
    session.deal_board("2c 7d 9h")
    session.act(1, "all_in")
    session.act(2, "call")  # Cy all in too: betting is closed
    for seat, cards in ((2, "Qh Qd"), (1, "Kh Kd"), (0, "Ah Ad")):
        session.deal_hole(seat, cards)
    session.deal_board("Jc")
    session.deal_board("3s")
    (text,) = session.hand_histories()
    actions = text.split("actions = ")[1].splitlines()[0]
    assert '"d db 2c7d9h", "p1 cbr 300", "p2 cc", "p2 sm QhQd", "p1 sm KhKd", "p3 sm AhAd", "d db Jc"' in actions
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, state = iter(pokerkit.HandHistory.loads(text))
    hand = session.hand
    assert hand is not None and hand.is_complete
    assert list(state.stacks) == [hand.stacks[s] for s in (1, 2, 0)]


def test_five_card_draw_shows_only_at_the_showdown():
    settings = SessionSettings(
        seats=2, variant="draw", blinds=BlindStructure.fixed(1, 2), draw=DrawOptions(two_players=True)
    )
    session = Session(settings)
    session.seat_player(0, "Ann", 20)
    session.seat_player(1, "Bob", 50)
    session.set_button(0)
    hand = session.start_hand()
    session.act(hand.to_act, "all_in")
    session.act(hand.to_act, "call")
    assert hand.betting_closed and not hand.hands_may_be_shown  # the draw is still to come
    with pytest.raises(SessionError, match="only at the showdown"):
        session.deal_hole(0, "Ah Ad Ac 7c 2s")
