"""The whole product on one machine: dealer and players simulated, everything else real."""

import io
from dataclasses import replace
from pathlib import Path

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
    tabled = [
        (snap["hand_number"], seat["seat"], seat["hole"])
        for snap in snapshots
        if snap["status"] == "playing" and snap["street"] != "showdown"
        for seat in snap["seats"]
        if seat["hole"]
    ]
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


def applied_against_truth(commands, truth):
    """Every card the game took from a step (camera or host), compared with what the dealer dealt:
    the list of cards that differ (board cards by position, shown hands by seat)."""
    wrong, boards = [], {}
    for command in commands:
        dealt, step = truth.get(command.hand_number), command.payload["step"]
        if command.kind == "deal_board" and dealt is not None:
            board = boards.setdefault(command.hand_number, [])
            for card in step["cards"]:
                if len(board) >= len(dealt.board) or card != dealt.board[len(board)]:
                    wrong.append((command.hand_number, "board", card))
                board.append(card)
        elif command.kind == "show" and dealt is not None:
            hole = dealt.holes.get(step["seat"], [])
            wrong += [(command.hand_number, step["seat"], c) for c in step["cards"] if c not in hole]
        elif command.kind == "correct":
            wrong.append((command.hand_number, "corrected", step["card"]))
    return wrong


@pytest.mark.slow
def test_the_demo_plays_twenty_hands_through_the_real_card_reader(tmp_path):
    from hardware.table_model import TableModel

    model = TableModel(6)
    try:
        VisionWatcher.default(model.zones, size=model.size)
    except VisionUnavailable as exc:
        pytest.skip(f"the card reader is not there yet: {exc}")
    demo, snapshots, checks, out = play(tmp_path, hands=20, camera="auto")
    assert isinstance(demo.watcher, VisionWatcher) and not isinstance(demo.watcher.reader, TruthReader)
    check_game(demo, snapshots, checks, 20)
    truth = {dealt.number: dealt for dealt in demo.dealer.history}
    assert applied_against_truth(checks["commands"], truth) == []  # no card the camera misread got in
    counts = demo.counts
    print(f"\nreal reader: {counts.line().strip()}")
    assert counts.line() in out
    assert counts.camera + counts.host >= 20 * 3  # every hand has a flop at least, or shown hands
    assert counts.camera_fraction >= FLOOR, f"the camera read too few cards: {counts}"


def test_the_host_enters_what_the_camera_cannot_read(tmp_path):
    """A camera blind to some cards: the host waits, enters them through the admin step, says so."""
    from tocktable import camera as camera_module

    hidden = {"Kd", "Qs", "7h", "2c", "Ah", "9d", "Tc", "5s", "Jh", "3d"}
    watch = camera_module.TruthWatcher.watch

    def blind(self, image=None, *, index=0, timestamp=0.0):
        view = watch(self, image, index=index, timestamp=timestamp)

        def drop(cards):
            return tuple(replace(c, card=None) if c.card in hidden else c for c in cards)

        return replace(view, board=drop(view.board), seats={s: drop(c) for s, c in view.seats.items()})

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(camera_module.TruthWatcher, "watch", blind)
        demo, snapshots, checks, out = play(tmp_path, hands=12, camera="view", seed=5)
    check_game(demo, snapshots, checks, 12)
    truth = {dealt.number: dealt for dealt in demo.dealer.history}
    assert applied_against_truth(checks["commands"], truth) == []
    counts = demo.counts
    assert counts.host > 0 and counts.camera > 0 and counts.corrected == 0
    entered = [line for line in out.splitlines() if "host entered" in line and "could not read" in line]
    assert len(entered) > 0 and all(any(card in line for card in hidden) for line in entered)
    assert "the camera could not read" in entered[0]
    assert counts.line() in out


FLOOR = 0.80
"""The share of face-up cards the real reader must get into the game (measured: see the README)."""


def test_the_host_corrects_a_card_the_camera_read_wrong(tmp_path):
    """A camera that reads the first flop card as another card (one not on the table): the game
    takes it, the host corrects it on the admin step at once, says so, and every hand settles on
    the cards really dealt."""
    from tocktable import camera as camera_module
    from tocktable.demo import ALL_CARDS

    watch = camera_module.TruthWatcher.watch

    def misreading(self, image=None, *, index=0, timestamp=0.0):
        view = watch(self, image, index=index, timestamp=timestamp)
        if not view.board or view.board[0].card is None:
            return view
        on_table = {c.card for c in self.model.state().cards}
        wrong = next(c for c in ALL_CARDS if c not in on_table)
        return replace(view, board=(replace(view.board[0], card=wrong), *view.board[1:]))

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(camera_module.TruthWatcher, "watch", misreading)
        demo, snapshots, checks, out = play(tmp_path, hands=8, camera="view", seed=2)
    check_game(demo, snapshots, checks, 8)  # the settled boards equal what the dealer turned
    corrections = [c for c in checks["commands"] if c.kind == "correct"]
    flops = sum(1 for dealt in demo.dealer.history if any(c.kind == "deal_board" and c.hand_number == dealt.number
                                                         for c in checks["commands"]))  # fmt: skip
    assert flops > 0 and len(corrections) == demo.counts.corrected == flops
    assert all(c.payload["step"]["seat"] is None and c.payload["step"]["index"] == 0 for c in corrections)
    assert out.count("host corrected board card 1 to") == flops and "the camera read it as" in out


def test_the_host_waits_before_entering_a_card():
    from hardware.table_model import TableModel
    from tocktable.players import Patience, cards_to_enter

    model = TableModel(2, seed=1)
    model.deal_hole(0, ["Ah"], face_up=True)
    model.deal_hole(1, ["Kd"], face_up=True)
    seats = [{"seat": s, "name": n, "stack": 100, "sitting_out": False} for s, n in enumerate(("A", "B"))]
    snap = {"phase": "seating", "hand_number": 0, "seats": seats}
    entries = cards_to_enter(snap, model.state(), holes={}, board=[])
    assert [(e.kind, e.draws) for e in entries] == [("choose_button", ((0, "Ah"), (1, "Kd")))]
    patience = Patience(2.5)
    assert patience.due(entries, 100.0) is None and patience.due(entries, 102.0) is None
    assert patience.due(entries, 102.5) == entries[0]
    assert patience.due([], 103.0) is None and patience.due(entries, 103.0) is None  # gone, then back: wait again


def test_a_demo_asked_for_another_variant_or_seat_count_starts_a_new_session_and_says_so(tmp_path: Path) -> None:
    from tests.tocktable.helpers import run_cli

    data = tmp_path / "data"
    base = ("demo", "--fast", "--no-web", "--perfect-camera", "--hands", "1", "--data", str(data))
    first = run_cli(*base, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    same = run_cli(*base, cwd=tmp_path)
    assert same.returncode == 0, same.stderr
    assert "Resuming session 1" in same.stdout and "new session" not in same.stdout
    other = run_cli(*base, "--variant", "tock", "--seats", "4", cwd=tmp_path)
    assert other.returncode == 0, other.stderr
    assert "is holdem with 6 seats; starting a new session for tock with 4 seats" in other.stdout
    assert "Resuming" not in other.stdout


def test_export_finds_the_demo_s_games_with_demo_and_says_where_they_are_without(tmp_path: Path) -> None:
    from tests.tocktable.helpers import cli_env, run_cli

    env = cli_env(TOCKTABLE_DATA=str(tmp_path / "home-data"))
    played = run_cli("demo", "--fast", "--no-web", "--perfect-camera", "--hands", "1", cwd=tmp_path, env=env)
    assert played.returncode == 0, played.stderr
    plain = run_cli("export", "--list", cwd=tmp_path, env=env)
    assert plain.returncode == 2
    assert "the demo keeps its games apart" in plain.stderr and "--demo" in plain.stderr
    assert str(tmp_path / "home-data" / "demo") in plain.stderr
    listed = run_cli("export", "--demo", "--list", cwd=tmp_path, env=env)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith("session 1: started")
    both = run_cli("export", "--demo", "--data", str(tmp_path), "--list", cwd=tmp_path, env=env)
    assert both.returncode == 2 and "give one" in both.stderr


def test_the_demo_serves_this_machine_only_unless_asked_for_the_network_and_says_where(tmp_path: Path) -> None:
    from tests.tocktable.helpers import run_cli
    from tocktable.run import DemoOptions, _demo_host
    from tocktable.server import lan_address

    assert _demo_host(DemoOptions()) == "127.0.0.1" and _demo_host(DemoOptions(lan=True)) == "0.0.0.0"
    base = ("demo", "--fast", "--perfect-camera", "--hands", "1", "--port", "0", "--data", str(tmp_path / "d"))
    local = run_cli(*base, cwd=tmp_path)
    assert local.returncode == 0, local.stderr
    assert "Dashboard: http://127.0.0.1:" in local.stdout and "--lan for phones" in local.stdout
    lan = run_cli(*base, "--lan", cwd=tmp_path)
    assert lan.returncode == 0, lan.stderr
    assert f"Dashboard: http://{lan_address()}:" in lan.stdout and "phones join there" in lan.stdout


@pytest.mark.parametrize("seed", [0, 1, 3])
def test_the_demo_rebuys_when_one_player_holds_every_chip(tmp_path: Path, seed: int) -> None:
    """Heads-up with short stacks a player busts within a few hands: the settled hand leaves one
    player with chips, no hand can be dealt, and the host buys the busted player in again (the
    clock alone would wait for ever). These seeds bust a player in the first forty hands."""
    config = load_config(None, data_dir=tmp_path)
    config = replace(config, table=replace(config.table, seats=2, buy_in=100))
    with fast_demo(tmp_path, config, hands=40, seed=seed, camera="perfect") as (demo, snapshots, _):
        assert demo.played >= 40
        assert_chips_conserved(snapshots)
        rebuys = [c for c in demo.service.store.commands(demo.service.session_id) if c.kind == "rebuy"]
        assert rebuys, "no player busted: the seed no longer tests a rebuy"
        assert sum(line["bought_in"] for line in demo.service.snapshot().to_dict()["ledger"]) == 200 + 100 * len(rebuys)


def test_the_learning_count_sets_the_first_hands_against_the_last() -> None:
    from tocktable.demo import Demo

    demo = Demo.__new__(Demo)  # the count alone: no table needed
    demo.host_cards = [(1, 2), (5, 1), (20, 1), (21, 3), (41, 1), (59, 1), (60, 2)]
    demo._first_number, demo._last_number = 0, 60
    assert demo.learning_line() == ("Host corrections (cards corrected or entered): 4 in the first 20 hands, 4 in "
                                    "the last 20.\n")  # fmt: skip
    demo._last_number = 6  # fewer hands: halves
    assert demo.learning_line().endswith(": 2 in the first 3 hands, 1 in the last 3.\n")
    demo._last_number = 1
    assert demo.learning_line() == ""


def test_the_untrained_deck_is_a_hold_out_style_with_dutch_letters() -> None:
    from tocktable.run import demo_deck

    assert demo_deck("trained", 3) is None
    assert demo_deck("untrained", 3) == "holdout-nl-3"
    assert demo_deck("holdout-de-3", 3) == "holdout-de-3"  # a style of its own, checked when drawn


@pytest.mark.parametrize(("cards", "seats"), [(2, 2), (2, 6), (2, 10), (5, 2), (5, 4), (5, 8)])
def test_the_demo_camera_shows_cards_as_tall_as_the_set_up_page_asks(cards: int, seats: int) -> None:
    # Five cards a seat in a 1280x720 frame come out about 76 px tall, too small to read surely.
    from hardware.aim import BEST_CARD_PX
    from hardware.table_model import TableModel
    from tocktable.run import demo_frame_size

    model = TableModel(seats, hole_cards=cards, size=demo_frame_size(cards))
    assert BEST_CARD_PX[0] <= model.card_height * model.size[1] <= BEST_CARD_PX[1]


@pytest.mark.parametrize(("variant", "cards"), [("holdem", 2), ("draw", 5), ("lowball", 5)])
def test_the_demo_films_its_table_at_the_frame_made_for_its_cards(tmp_path: Path, variant: str, cards: int) -> None:
    from tocktable.run import demo_frame_size

    demo, _, _, _ = play(tmp_path, hands=1, variant=variant, camera="perfect")
    assert demo.model.size == demo_frame_size(cards) and demo.model.layout.hole_cards == cards
