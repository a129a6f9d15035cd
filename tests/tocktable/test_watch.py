from table.engine import BlindStructure
from table.session import SessionSettings
from tocktable.game import Game
from tocktable.steps import Act, ChooseButton, DealBoard, MarkRead, Seat, Show
from tocktable.watch import ViewInterpreter

from .helpers import view


def game(variant="holdem", chips=(500, 500, 500)):
    g = Game(SessionSettings(seats=len(chips), variant=variant, blinds=BlindStructure.fixed(5, 10)))
    for seat, stack in enumerate(chips):
        g.apply(Seat(seat, f"P{seat}", stack))
    g.apply(ChooseButton(seat=0))
    return g


def close_preflop(g):
    g.apply(Act(0, "call"))
    g.apply(Act(1, "call"))
    g.apply(Act(2, "check"))


def test_flop_and_turn_turned_together_deal_the_flop_and_warn_about_the_turn():
    g = game()
    close_preflop(g)
    reading = ViewInterpreter().read(g, view(board=["2c", "7d", "9h", "Kd"]))
    assert reading.steps == (DealBoard(("2c", "7d", "9h")),)
    assert [n.kind for n in reading.notices] == ["board-early"]


def test_a_flop_still_being_turned_is_waited_for_silently():
    g = game()
    close_preflop(g)
    assert ViewInterpreter().read(g, view(board=["2c", "7d"])) == ViewInterpreter().read(g, view())


def test_everyone_all_in_runs_the_whole_board_at_once():
    g = game(chips=(100, 100, 100))
    g.apply(Act(0, "all_in"))
    g.apply(Act(1, "call"))
    g.apply(Act(2, "call"))
    reading = ViewInterpreter().read(g, view(board=["2c", "7d", "9h", "Tc", "Jd"]))
    assert reading.steps == (DealBoard(("2c", "7d", "9h", "Tc", "Jd")),)


def test_showdown_needs_two_readable_face_up_cards_per_seat():
    g = game()
    close_preflop(g)
    for cards in (("2c", "7d", "9h"), ("Tc",), ("Jd",)):
        g.apply(DealBoard(cards))
        for seat in (1, 2, 0):
            g.apply(Act(seat, "check"))
    board = ["2c", "7d", "9h", "Tc", "Jd"]
    reading = ViewInterpreter().read(g, view(board=board, seats={0: ["Ah", "Ad", "As"], 1: ["3c", "4c"], 2: ["Qs"]}))
    assert reading.steps == (Show(1, ("3c", "4c")),)
    assert [(n.kind, n.seat) for n in reading.notices] == [("show", 0)]


def test_tock_hole_marks_complete_a_half_read_seat_and_shown_cards_follow_their_marks():
    g = game(variant="tock")
    g.apply(MarkRead(1, 0, "d:large"))
    reading = ViewInterpreter().read(g, view(face_down={1: ["c:small", "d:large"]}))
    assert reading.steps == (MarkRead(1, 1, "c:small"),)
    g.apply(reading.steps[0])
    changed = ViewInterpreter().read(g, view(face_down={1: ["c:small", "h:ace"]}))
    assert changed.steps == () and [n.kind for n in changed.notices] == ["mark-mismatch"]


def test_a_peek_notice_names_the_seat_but_never_the_card():
    g = game()
    reading = ViewInterpreter().read(g, view(seats={2: ["Qs", "Jh"]}))
    assert reading.steps == ()
    (notice,) = reading.notices
    assert notice.kind == "peek" and notice.seat == 2
    assert "Qs" not in notice.message and "Jh" not in notice.message


def test_at_an_all_in_the_hands_turned_face_up_are_shown_before_the_board_runs_out():
    g = game(chips=(100, 100, 100))  # button 0: seat 1 small blind, seat 2 big blind, seat 0 first
    g.apply(Act(0, "all_in"))
    turned = {0: ["Ah", "Ad"], 1: ["Kh", "Kd"]}
    early = ViewInterpreter().read(g, view(seats=turned))  # seats 1 and 2 still to act: peeks
    assert early.steps == ()
    assert [(n.kind, n.seat) for n in early.notices] == [("peek", 0), ("peek", 1)]
    assert not any(c in n.message for n in early.notices for cards in turned.values() for c in cards)
    g.apply(Act(1, "call"))
    g.apply(Act(2, "fold"))  # betting is closed for the rest of the hand
    reading = ViewInterpreter().read(g, view(board=["2c", "7d", "9h"], seats={**turned, 2: ["Qs"]}))
    assert reading.steps == (Show(0, ("Ah", "Ad")), Show(1, ("Kh", "Kd")), DealBoard(("2c", "7d", "9h")))
    assert reading.notices == ()  # tabled hands are no peeks (the folded seat's card plays no part)
    for step in reading.steps:
        g.apply(step)
    shown = {s["seat"]: s["hole"] for s in g.snapshot()["seats"] if s["hole"]}
    assert shown == {0: ["Ah", "Ad"], 1: ["Kh", "Kd"]} and g.snapshot()["street"] == "flop"


def test_an_all_in_with_betting_still_to_come_keeps_the_cards_private():
    g = game(chips=(100, 500, 500))
    g.apply(Act(0, "all_in"))
    g.apply(Act(1, "call"))
    g.apply(Act(2, "call"))  # the flop is awaited, and seats 1 and 2 bet on after it
    reading = ViewInterpreter().read(g, view(board=["2c", "7d", "9h"], seats={0: ["Ah", "Ad"]}))
    assert reading.steps == (DealBoard(("2c", "7d", "9h")),)
    assert [(n.kind, n.seat) for n in reading.notices] == [("peek", 0)]
    assert "Ah" not in reading.notices[0].message and "Ad" not in reading.notices[0].message
    g.apply(reading.steps[0])
    assert all(s["hole"] == [] for s in g.snapshot()["seats"])
