"""A joker the camera reads in a Hold'em game (a card its deck does not hold) is never applied:
the camera's warning says why, nothing is written, and the game goes on."""

from __future__ import annotations

from typing import Any

from tocktable.steps import ChooseButton

from .helpers import FakeClock, make_service, view
from .test_service import call_round_closed, play_to_showdown, state, steps_written


def test_a_joker_on_the_board_or_in_a_shown_hand_is_not_applied_in_holdem(tmp_path: Any) -> None:
    svc = make_service(tmp_path / "t.sqlite", clock=FakeClock(), confirm_seconds=8.0).start()
    try:
        svc.call(ChooseButton(seat=0))
        call_round_closed(svc)
        before = steps_written(svc)
        assert svc.call(view(board=["2c", "Jk", "9h"])).steps == ()
        assert steps_written(svc) == before and state(svc)["board"] == []
        assert any("reads a joker on the board, but this game is played without jokers" in w["message"]
                   for w in state(svc)["warnings"])  # fmt: skip
        play_to_showdown(svc)
        before = steps_written(svc)
        svc.call(view(board=["2c", "7d", "9h", "Tc", "Jd"], seats={0: ["Jk", "Ad"]}))
        assert steps_written(svc) == before and state(svc)["seats"][0]["hole"] in ([], None)
        assert any("the camera reads a joker, but this game is played without jokers" in w["message"]
                   for w in state(svc)["warnings"] if w["seat"] == 0)  # fmt: skip
    finally:
        svc.stop()
        svc.store.close()
