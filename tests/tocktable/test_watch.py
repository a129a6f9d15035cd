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
