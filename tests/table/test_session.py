"""Scenario tests for a whole game: seats, the button, stacks carried over, levels, the log."""

from __future__ import annotations

import json

import pytest

from table.cards import parse_cards
from table.engine import BlindLevel, BlindStructure, Street
from table.errors import IllegalActionError, RulesError, TocktableError
from table.session import Session, SessionError, SessionSettings


def table(*stacks: int, seats: int = 6, **settings: object) -> Session:
    """A session with players "P0".. at seats 0.. holding ``stacks`` (0 leaves the seat empty)."""
    session = Session(SessionSettings(seats=seats, blinds=BlindStructure.fixed(5, 10), **settings))  # type: ignore[arg-type]
    for seat, chips in enumerate(stacks):
        if chips:
            session.seat_player(seat, f"P{seat}", chips)
    return session


def fold_round(session: Session) -> None:
    """Everyone folds to the big blind."""
    hand = session.hand
    assert hand is not None
    while hand.to_act is not None:
        session.act(hand.to_act, "fold")


def check_down(session: Session, board: str = "2c 7d 9h Js 3c") -> None:
    """Call/check every round and turn the board; stops at the showdown."""
    hand = session.hand
    assert hand is not None
    cards = parse_cards(board)
    while hand.street != Street.SHOWDOWN:
        if hand.to_act is None:
            size = 3 if not hand.board else 1
            session.deal_board(cards[len(hand.board) : len(hand.board) + size])
            continue
        kinds = {a.action.value for a in hand.legal_actions()}
        session.act(hand.to_act, "check" if "check" in kinds else "call")


def stacks(session: Session) -> dict[int, int]:
    return {s["seat"]: s["stack"] for s in session.snapshot()["seats"] if s["name"]}


# -- players and seats ---------------------------------------------------------------------
def test_seating_rules():
    session = table(100, 0, 100)
    with pytest.raises(SessionError, match="seat 1 is taken by P0"):
        session.seat_player(0, "Zoe", 100)
    with pytest.raises(SessionError, match="already at the table"):
        session.seat_player(1, "p0", 100)
    with pytest.raises(SessionError, match=r"there is no seat 7: seats are 1\.\.6"):
        session.seat_player(6, "Zoe", 100)
    with pytest.raises(SessionError, match="above 0"):
        session.seat_player(1, "Zoe", 0)
    with pytest.raises(SessionError, match="needs a name"):
        session.seat_player(1, "  ", 10)
    assert isinstance(SessionError("x"), ValueError) and isinstance(SessionError("x"), TocktableError)
    session.seat_player(1, " Zoe ", 50)
    assert session.players[1].name == "Zoe" and session.stack(1) == 50


def test_settings_are_validated():
    with pytest.raises(RulesError, match="2 to 10 seats"):
        SessionSettings(seats=11)
    with pytest.raises(RulesError, match="betting"):
        SessionSettings(betting="pot-limit")
    with pytest.raises(RulesError, match="twice the small blind"):
        BlindLevel(5, 9)
    with pytest.raises(RulesError, match="unknown session settings"):
        SessionSettings.from_dict({"seats": 4, "colour": "red"})
    settings = SessionSettings(seats=4, betting="fixed-limit", variant="tock", rebuys=False,
                               blinds=BlindStructure.timed([(5, 10), (10, 20, 2)], minutes=12))  # fmt: skip
    assert SessionSettings.from_dict(json.loads(json.dumps(settings.to_dict()))) == settings


# -- the first dealer and the button -------------------------------------------------------
def test_draw_for_the_button_highest_card_then_suit():
    session = table(100, 100, 100, 100)
    assert session.draw_for_button({0: "Qh", 1: "Ad", 2: "Ac", 3: "Ks"}) == 1  # aces tie: diamonds beat clubs
    assert session.draw_for_button({0: "Ah", 1: "As", 2: "2c"}) == 1  # spades beat hearts
    assert session.draw_for_button({0: "2s", 1: "2h", 2: "2d", 3: "2c"}) == 0
    assert session.start_hand().button == 0


def test_draw_rejects_bad_input_and_changes_nothing():
    session = table(100, 100, 0, 100)
    before = session.snapshot(), list(session.log)
    for draws in ({0: "Ah", 1: "Ah"}, {0: "Ah", 2: "Kd"}, {0: "Ah"}, {0: "Ah", 1: "Xx"}, {9: "Ah", 0: "Kd"}):
        with pytest.raises(SessionError):
            session.draw_for_button(draws)
        assert (session.snapshot(), session.log) == before


def test_button_moves_clockwise_skipping_empty_sitting_out_and_busted_seats():
    session = table(100, 0, 100, 100, 20)  # seat 1 empty
    assert session.start_hand().button == 0  # no draw: the first seat dealt in
    fold_round(session)
    session.sit_out(2)
    hand = session.start_hand()
    assert hand.button == 3 and 2 not in hand.in_hand and 1 not in hand.in_hand
    assert session.snapshot()["seats"][2]["state"] == "sitting_out"
    session.sit_in(2)  # from the next hand
    assert 2 not in hand.in_hand
    fold_round(session)
    assert [session.start_hand().button for _ in range(1)] == [4]
    fold_round(session)
    assert session.start_hand().button == 0  # round the table: past seat 5 (empty) to seat 0


def test_button_skips_a_busted_player():
    session = table(100, 30, 100)
    hand = session.start_hand()  # button 0, small blind 1, big blind 2
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (0, 1, 2)
    session.act(0, "fold")
    session.act(1, "all_in")
    session.act(2, "call")
    session.deal_board("2c 7d 9h Js 3c")
    assert hand.street == Street.SHOWDOWN
    session.deal_hole(1, "4c 5d")
    session.deal_hole(2, "As Ad")
    assert hand.is_complete and hand.stacks[1] == 0
    assert session.snapshot()["seats"][1]["state"] == "busted"
    hand = session.start_hand()
    assert 1 not in hand.in_hand and hand.button == 2  # seat 1 would have been next: skipped
    assert hand.heads_up and hand.small_blind_seat == 2  # heads-up: the button posts the small blind


def test_stacks_carry_over_between_hands():
    session = table(100, 100, 100)
    session.start_hand()
    check_down(session)
    session.deal_hole(1, "Ah Ad")
    session.deal_hole(2, "3s 4s")
    session.deal_hole(0, "Kh Kd")
    assert stacks(session) == {0: 90, 1: 120, 2: 90}
    hand = session.start_hand()
    assert hand.starting_stacks[:3] == (90, 120, 90)
    assert session.records[-1].payoffs == {0: -10, 1: 20, 2: -10}


def test_a_new_hand_waits_for_the_last_to_finish():
    session = table(100, 100)
    session.start_hand()
    with pytest.raises(SessionError, match="hand 1 is not finished"):
        session.start_hand()
    lonely = table(100)
    with pytest.raises(SessionError, match="at least two players"):
        lonely.start_hand()


# -- joining, leaving, rebuys --------------------------------------------------------------
def test_join_during_a_hand_is_dealt_in_next_hand():
    session = table(100, 100)
    session.start_hand()
    session.seat_player(3, "Late", 80)
    assert 3 not in session.hand.in_hand
    assert session.snapshot()["seats"][3]["state"] == "waiting"
    fold_round(session)
    assert 3 in session.start_hand().in_hand


def test_leave_and_rebuy_only_between_own_hands():
    session = table(100, 100, 100)
    session.start_hand()
    with pytest.raises(SessionError, match="cannot leave now: seat 1 is in hand 1"):
        session.leave(0)
    with pytest.raises(SessionError, match="cannot rebuy now: seat 2 is in hand 1"):
        session.rebuy(1, 50)
    fold_round(session)  # 0 and 1 fold: the big blind (2) wins 5
    assert session.leave(0) == 100
    session.rebuy(1, 50)
    assert stacks(session) == {1: 145, 2: 105}
    lines = {line.name: line for line in session.ledger()}
    assert (lines["P0"].bought_in, lines["P0"].cashed_out) == (100, 100)
    assert (lines["P1"].bought_in, lines["P1"].cashed_out) == (150, 145)
    assert sum(line.cashed_out - line.bought_in for line in lines.values()) == 0
    with pytest.raises(SessionError, match="seat 1 is empty"):
        session.rebuy(0, 10)


def test_tournament_has_no_rebuys_and_records_eliminations():
    session = table(100, 10, 20, rebuys=False)
    with pytest.raises(SessionError, match="no rebuys"):
        session.rebuy(0, 10)
    session.start_hand()  # button 0, small blind 1 (10 chips), big blind 2 (20)
    session.act(0, "raise", 100)
    session.act(1, "call")  # all in for 10
    session.act(2, "call")  # all in for 20
    session.deal_board("2c 7d 9h Js 3c")
    session.deal_hole(0, "Ah Ad")
    session.deal_hole(1, "4c 5d")
    session.deal_hole(2, "Kc 8d")
    session.set_button(0)  # closes the hand
    assert session.eliminated == ["P1", "P2"]  # fewer chips at the start of the hand: out first
    with pytest.raises(SessionError, match="at least two players"):
        session.start_hand()


def test_sit_out_and_in_are_checked():
    session = table(100, 100, 100)
    with pytest.raises(SessionError, match="not sitting out"):
        session.sit_in(0)
    session.sit_out(0)
    with pytest.raises(SessionError, match="already sitting out"):
        session.sit_out(0)
    assert 0 not in session.start_hand().in_hand


# -- blind levels --------------------------------------------------------------------------
def test_fixed_blinds_need_no_clock():
    session = table(100, 100)
    hand = session.start_hand()
    assert (hand.rules.small_blind, hand.rules.big_blind) == (5, 10)
    assert session.snapshot()["blinds"]["seconds_left"] is None


def test_timed_levels_follow_the_injected_clock():
    now = [1000.0]
    structure = BlindStructure.timed([(5, 10), (10, 20), (25, 50, 5)], minutes=10)
    session = Session(SessionSettings(seats=3, blinds=structure), clock=lambda: now[0])
    for seat in range(3):
        session.seat_player(seat, f"P{seat}", 1000)
    assert session.start_hand().rules.big_blind == 10  # the first hand starts the clock
    fold_round(session)
    now[0] += 599
    assert session.snapshot()["blinds"]["seconds_left"] == 1
    assert session.start_hand().rules.big_blind == 10
    fold_round(session)
    now[0] += 1
    snap = session.snapshot()["blinds"]
    assert (snap["level"], snap["big_blind"], snap["next"]["ante"]) == (1, 20, 5)
    assert session.start_hand().rules.big_blind == 20
    assert session.snapshot()["blinds"]["hand_level"]["big_blind"] == 20
    fold_round(session)
    session.pause_clock()
    now[0] += 5000  # a long break does not count
    session.resume_clock()
    assert session.start_hand().rules.big_blind == 20
    fold_round(session)
    session.set_level(2)
    hand = session.start_hand()
    assert (hand.rules.big_blind, hand.rules.ante) == (50, 5)
    assert session.snapshot()["blinds"]["seconds_left"] is None  # the last level lasts
    replayed = Session.replay(session.settings, json.loads(json.dumps(session.log)))
    assert replayed.snapshot(now=now[0]) == session.snapshot(now=now[0])


def test_timed_levels_without_a_clock_need_now():
    structure = BlindStructure.timed([(5, 10), (10, 20)], minutes=10)
    session = Session(SessionSettings(seats=2, blinds=structure))
    session.seat_player(0, "A", 100)
    session.seat_player(1, "B", 100)
    with pytest.raises(SessionError, match="needs the time"):
        session.start_hand()
    session.start_hand(now=50.0)
    with pytest.raises(SessionError):
        session.pause_clock()
    session.pause_clock(now=60.0)
    with pytest.raises(RulesError, match="time runs forward"):
        session.resume_clock(now=59.0)


# -- privacy, the log, snapshots ---------------------------------------------------------
def test_hole_cards_only_at_the_showdown():
    session = table(100, 100)
    session.start_hand()
    with pytest.raises(SessionError, match="only at the showdown"):
        session.deal_hole(0, "Ah Kh")
    check_down(session)
    snap = session.snapshot()
    assert all(seat["hole"] == [] for seat in snap["seats"])
    session.deal_hole(1, "Ah Kh")
    assert session.snapshot()["seats"][1]["hole"] == ["Ah", "Kh"]


def test_snapshot_is_plain_json():
    session = table(100, 100, 100)
    session.draw_for_button({0: "Ah", 1: "Kh", 2: "Qh"})
    session.start_hand()
    check_down(session)
    session.deal_hole(0, "As Ad")
    session.muck(1)
    session.deal_hole(2, "4s 4d")
    snap = session.snapshot()
    assert json.loads(json.dumps(snap)) == snap  # no tuples, no integer keys, no objects
    last = snap["last_hand"]
    assert last["pots"][0]["winners"] == [{"seat": 0, "name": "P0", "amount": 30, "hand": "Pair of aces"}]
    assert snap["status"] == "complete" and snap["seats"][1]["mucked"]


def test_illegal_commands_change_nothing():
    session = table(100, 100, 100)
    session.start_hand()
    bad = [
        {"op": "act", "seat": 1, "action": "call"},
        {"op": "act", "seat": 0, "action": "raise", "amount": 3},
        {"op": "deal_board", "cards": ["Ah", "Kd", "2c"]},
        {"op": "leave", "seat": 2},
        {"op": "start_hand"},
        {"op": "dance"},
        {"op": "act", "seat": 0},
        {"op": "act", "seat": 0, "action": "fold", "colour": 1},
        {"op": "mark", "seat": 0, "index": 0, "mark": "h:large"},
        "act",
    ]
    for command in bad:
        before = json.dumps(session.snapshot()), json.dumps(session.log)
        with pytest.raises(TocktableError):
            session.apply(command)  # type: ignore[arg-type]
        assert (json.dumps(session.snapshot()), json.dumps(session.log)) == before, command


def test_undo_is_logged_and_replays():
    session = table(100, 100, 100)
    session.start_hand()
    session.act(0, "raise", 30)
    session.undo()
    assert session.hand.to_act == 0 and session.log[-1] == {"op": "undo"}
    session.act(0, "call")
    replayed = Session.replay(session.settings, session.log)
    assert replayed.snapshot() == session.snapshot() and replayed.log == session.log
    fold_round(session)
    session.start_hand()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        session.undo()


def test_tock_marks_are_public_in_the_snapshot():
    session = table(100, 100, variant="tock")
    session.start_hand()
    session.mark(None, 0, "h:large")
    session.mark(1, 0, "s:ace")
    snap = session.snapshot()
    assert snap["board_marks"][0] == "h:large" and snap["seats"][1]["marks"] == ["s:ace", None]


def test_hand_histories_for_the_night():
    from table.history import from_phhs, to_phhs

    session = table(100, 100, 100)
    session.start_hand()
    fold_round(session)
    session.start_hand()
    check_down(session)
    session.deal_hole(0, "Ah Ad")
    session.deal_hole(1, "Kh Kd")
    session.muck(2)
    texts = session.hand_histories(event="Friday")
    assert len(texts) == 2 and 'players = ["P1", "P2", "P0"]' in texts[0] and "hand = 2" in texts[1]
    hands = from_phhs(to_phhs(texts))
    assert [h.payoffs[:3] for h, _ in hands] == [[0, -5, 5], [20, -10, -10]]
    assert hands[1][0].stacks[:3] == [session.stack(s) for s in range(3)] == [120, 85, 95]
    assert hands[1][1].players == ("P2", "P0", "P1") and hands[1][1].event == "Friday"
