"""The dry run follows one dealt hand street by street, from the views the camera produces."""

from __future__ import annotations

from table.evaluate import Category, evaluate
from tests.tocktable.helpers import view
from tocktable.dry_run import DryRun


def test_a_hand_is_followed_street_by_street_and_ends_when_the_table_is_cleared() -> None:
    run = DryRun()
    run.observe(view(seats={0: ["As", "Kd"]}))  # before the start: not watched
    assert run.report() == {"state": "idle", "streets": []}
    run.start()
    run.observe(view(frame=1))
    assert run.report()["state"] == "waiting"
    run.observe(view(seats={0: ["As", "Kd"], 1: ["2c", "3c"]}, frame=2))
    run.observe(view(board=["7h", "8h"], seats={0: ["As", "Kd"], 1: ["2c", "3c"]}, frame=3))  # the flop going down
    run.observe(view(board=["7h", "8h", "9h"], seats={0: ["As", "Kd"], 1: ["2c", "3c"]}, frame=4))
    run.observe(view(board=["7h", "8h", "9h", "Tc"], seats={0: ["As", "Kd"]}, frame=5))
    run.observe(view(frame=6))  # the dealer takes every card back
    run.observe(view(seats={2: ["Qs", "Qd"]}, frame=7))  # the next hand is not watched
    report = run.report()
    assert report["state"] == "done"
    assert [s["street"] for s in report["streets"]] == ["preflop", "flop", "turn"]
    preflop, flop, turn = report["streets"]
    assert preflop["frame"] == 2 and preflop["board"] == []
    assert [(s["seat"], s["cards"]) for s in preflop["seats"]] == [(1, 2), (2, 2)]
    assert [c["card"] for c in flop["board"]] == ["7h", "8h", "9h"]
    assert [c["card"] for c in turn["board"]] == ["7h", "8h", "9h", "Tc"] and len(turn["seats"]) == 1
    assert "As" not in str(report)  # seat cards are counted, never named


def test_stopping_before_any_card_is_idle_again() -> None:
    run = DryRun()
    run.start()
    assert run.stop()["state"] == "idle"


def test_each_street_says_what_the_game_would_do_and_the_showdown_names_the_winner() -> None:
    run = DryRun(table=lambda: {"small_blind": 5, "big_blind": 10, "button": 2})
    run.start()
    holes = {0: ["As", "Kd"], 1: ["2c", "3c"], 2: ["7h", "7d"]}
    down = {seat: ["plain", "plain"] for seat in holes}
    board = ["Qs", "Jc", "2d", "Tc", "9s"]
    run.observe(view(face_down=down, frame=2))
    for frame, size in ((3, 3), (4, 4), (5, 5)):
        run.observe(view(board=board[:size], face_down=down, frame=frame))
    run.observe(view(board=board, seats={0: holes[0], 1: holes[1]}, face_down={2: down[2]}, frame=6))
    showdown = run.report()["streets"][-1]
    assert showdown["street"] == "showdown" and showdown["game"]["winners"] == []
    assert "seat 3 not shown" in showdown["game"]["waiting"]
    assert (showdown["game"]["waiting_kind"], showdown["game"]["waiting_values"]) == ("hands-hidden", {"seats": [3]})
    run.observe(view(board=board, seats=holes, frame=7))
    streets = {s["street"]: s["game"] for s in run.report()["streets"]}
    assert list(streets) == ["preflop", "flop", "turn", "river", "showdown"]
    preflop = streets["preflop"]
    # three-handed with the button on seat 3: seat 1 posts the small blind, seat 2 the big, seat 3 acts first
    assert preflop["blinds"] == [{"seat": "seat 1", "number": 1, "kind": "small", "amount": 5},
                                 {"seat": "seat 2", "number": 2, "kind": "big", "amount": 10}]  # fmt: skip
    assert (preflop["button"], preflop["acts_first"]) == ("seat 3", "seat 3")
    assert (preflop["button_number"], preflop["acts_first_number"]) == (3, 3)
    assert (preflop["pot"], preflop["pot_after"]) == (15, 30)
    for name, size in (("flop", 3), ("turn", 4), ("river", 5)):
        assert streets[name]["acts_first"] == "seat 1" and streets[name]["pot"] == 30
        assert streets[name]["board"] == board[:size]
    # the hand's key lets the pages name it in their own language
    key = evaluate([*holes[0], *board]).key
    assert key[0] == Category.STRAIGHT
    winner = {"seat": "seat 1", "number": 1, "amount": 30, "hand": "Straight, ace high", "hand_key": list(key)}
    assert streets["showdown"]["winners"] == [winner]
    assert "As" not in str(run.report()["streets"][-1]["seats"])  # seat cards are still only counted


def test_an_unread_board_card_holds_the_game_up_and_a_lone_seat_is_no_hand() -> None:
    run = DryRun()
    run.start()
    run.observe(view(face_down={0: ["plain", "plain"]}, frame=1))
    assert "two seats" in run.report()["streets"][0]["game"]["waiting"]
    assert run.report()["streets"][0]["game"]["waiting_kind"] == "cannot-follow"
    down = {0: ["plain", "plain"], 1: ["plain", "plain"]}
    run.observe(view(face_down=down, frame=2))
    preflop = run.report()["streets"][0]["game"]
    # no game known: blinds 1 and 2, the button on the last seat dealt in (heads up: it posts the small blind)
    assert preflop["blinds"][0] == {"seat": "seat 2", "number": 2, "kind": "small", "amount": 1}
    assert preflop["waiting"] is None
    flop = view(board=["Qs", "Jc", "2d"], face_down=down, frame=3)
    unread = flop.board[1].__class__(None, True, None, "board", 0.4, flop.board[1].corners)
    run.observe(flop.__class__(3, 3.0, (flop.board[0], unread, flop.board[2]), flop.seats))
    game = run.report()["streets"][1]["game"]
    assert "board card 2 is not read" in game["waiting"] and game["acts_first"] is None and game["board"] == []
    assert (game["waiting_kind"], game["waiting_values"]) == ("board-unread", {"cards": "2"})
    run.observe(view(board=["Qs", "Jc", "2d", "Tc"], face_down=down, frame=4))  # read again: the game goes on
    turn = run.report()["streets"][2]["game"]
    assert turn["board"] == ["Qs", "Jc", "2d", "Tc"] and turn["waiting"] is None
