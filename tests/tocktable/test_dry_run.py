"""The dry run follows one dealt hand street by street, from the views the camera produces."""

from __future__ import annotations

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
