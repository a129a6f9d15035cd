"""The whole product on one machine: dealer and players simulated, everything else real."""

import io
from dataclasses import replace

import pytest

from tocktable.camera import TruthReader, VisionUnavailable, VisionWatcher, _tracker_factory
from tocktable.config import load_config
from tocktable.run import DemoOptions, run_demo
from tocktable.service import replay_session
from tocktable.snapshot import game_state

from .helpers import assert_chips_conserved, fast_demo


def play(tmp_path, *, hands, variant="holdem", camera="view", seed=7):
    config = load_config(None, data_dir=tmp_path)
    config = replace(config, table=replace(config.table, variant=variant))
    with fast_demo(tmp_path, config, hands=hands, seed=seed, camera=camera) as (demo, snapshots, out):
        final = demo.service.snapshot().to_dict()
        checks = {"dealer": demo.lights.dealer, "to_act": demo.lights.to_act, "final": final,
                  "commands": demo.service.store.commands(demo.service.session_id),
                  "dealt_in": [len(hand.in_hand) for hand in demo.service.game.session.hands]}  # fmt: skip
        return demo, snapshots, checks, out.getvalue()


def check_game(demo, snapshots, checks, hands):
    assert len(demo.service.game.session.records) >= hands
    assert_chips_conserved(snapshots)
    truth = {dealt.number: dealt for dealt in demo.dealer.history}
    showdowns = 0
    for snap in demo.snapshots:  # every settled hand shows what the dealer really put down
        dealt = truth[snap["hand_number"]]
        assert snap["board"] == dealt.board[: len(snap["board"])]
        for seat in snap["seats"]:
            if seat["hole"]:
                showdowns += 1
                assert sorted(seat["hole"]) == sorted(dealt.holes[seat["seat"]])
    assert len(demo.snapshots) >= hands and showdowns >= 4
    final = checks["final"]
    assert (checks["dealer"], checks["to_act"]) == (final["button"], final["to_act"])


@pytest.mark.parametrize("camera", ["view", "perfect"])
def test_the_demo_plays_twenty_hands_with_a_perfect_camera(tmp_path, camera):
    demo, snapshots, checks, out = play(tmp_path, hands=20, camera=camera)
    if camera == "perfect" and _tracker_factory() is not None:  # the real tracker between reader and game
        assert isinstance(demo.watcher, VisionWatcher) and isinstance(demo.watcher.reader, TruthReader)
    check_game(demo, snapshots, checks, 20)
    assert "hand  20:" in out
    # An all-in in these twenty hands: the players table their hands before the board runs out,
    # and every phone has them while the hand is still playing (the lens then shows the chances).
    truth = {dealt.number: dealt for dealt in demo.dealer.history}
    tabled = [(snap["hand_number"], seat["seat"], seat["hole"]) for snap in snapshots
              if snap["status"] == "playing" and snap["street"] != "showdown" for seat in snap["seats"] if seat["hole"]]
    assert tabled, "no hand was tabled at an all-in"
    for number, seat, hole in tabled:
        assert sorted(hole) == sorted(truth[number].holes[seat])
    game, _ = replay_session(demo.service.store.__class__(tmp_path / "demo" / "tocktable.sqlite"), 1)
    assert game_state(game.snapshot(now=0)) == game_state(checks["final"])


def test_the_tock_demo_reads_every_mark_before_the_first_bet(tmp_path):
    demo, snapshots, checks, _ = play(tmp_path, hands=6, variant="tock", seed=11, camera="perfect")
    check_game(demo, snapshots, checks, 6)
    hands, current = [], None
    for command in checks["commands"]:
        if command.kind in ("choose_button", "confirm"):
            current = []
            hands.append(current)
        elif current is not None:
            current.append(command.kind)
    finished = hands[:-1]
    assert len(finished) >= 6
    for kinds, dealt in zip(finished, checks["dealt_in"], strict=False):
        first_act = kinds.index("act")  # the marks of the 5 board cards and of every hole card come before it
        assert kinds[:first_act].count("mark") == 5 + 2 * dealt, kinds[:first_act]


def test_a_demo_started_again_on_the_same_data_resumes(tmp_path):
    config = load_config(None, data_dir=tmp_path)
    options = DemoOptions(data_dir=tmp_path / "demo", fast=True, hands=3, seed=3, web=False, camera="view")
    assert run_demo(config, options, out=io.StringIO()) == 0
    out = io.StringIO()
    assert run_demo(config, replace(options, seed=4), out=out) == 0
    assert "Resuming session 1 at hand 4" in out.getvalue() and "6 hands played in session 1" in out.getvalue()
    assert "all accounted for" in out.getvalue()


@pytest.mark.slow
def test_the_demo_plays_twenty_hands_through_the_real_card_reader(tmp_path):
    from hardware.table_model import TableModel

    model = TableModel(6)
    try:
        VisionWatcher.default(model.zones, size=model.size)
    except VisionUnavailable as exc:
        pytest.skip(f"the card reader is not there yet: {exc}")
    demo, snapshots, checks, _ = play(tmp_path, hands=20, camera="auto")
    assert isinstance(demo.watcher, VisionWatcher) and not isinstance(demo.watcher.reader, TruthReader)
    check_game(demo, snapshots, checks, 20)
