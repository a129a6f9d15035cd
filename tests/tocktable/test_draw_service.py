"""Five-card draw through the service: the console records draws, illegal draws write nothing,
the camera reads five-card hands at the showdown (jokers as "Jk"), a card it cannot read is entered by the host,
the store replays the night, the configuration takes the draw options."""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from typing import Any

import pytest

from table.engine import BlindStructure
from table.engine.draw import IllegalDrawError
from table.errors import TocktableError
from table.session import DrawOptions, SessionSettings
from tocktable.config import ConfigError, load_config, parse_config
from tocktable.export import export_session, ledger_data
from tocktable.run import game_settings
from tocktable.service import Service, replay_session
from tocktable.snapshot import game_state
from tocktable.steps import ChooseButton, CommandError, Correct, Draw, Press, SetDraw, Show, step_from_json
from tocktable.store import Store
from vision.view import TableView

from .helpers import FakeClock, assert_chips_conserved, fast_demo, seen


class Lights:
    """Records what the service shows on the seat LEDs."""

    def __init__(self) -> None:
        self.shown: list[tuple[int | None, int | None]] = []

    def show(self, *, dealer: int | None, to_act: int | None) -> None:
        self.shown.append((dealer, to_act))

    def set_status(self, ok: bool) -> None:
        pass

    def beep(self) -> None:
        pass


def draw_service(path: Any, *, variant: str = "draw", lights: Any = None, **options: Any) -> Service:
    settings = SessionSettings(seats=3, variant=variant, blinds=BlindStructure.fixed(5, 10),
                               draw=DrawOptions(**options))  # fmt: skip
    clock = FakeClock()
    return Service(Store(path, clock=clock), settings, players=[("Ann", 500), ("Bob", 500), ("Cy", 500)],
                   clock=clock, confirm_seconds=None, lights=lights)  # fmt: skip


@pytest.fixture
def lights() -> Lights:
    return Lights()


@pytest.fixture
def service(tmp_path: Any, lights: Lights) -> Any:
    svc = draw_service(tmp_path / "d.sqlite", jokers=1, lights=lights).start()
    yield svc
    svc.stop()
    svc.store.close()


def state(svc: Service) -> dict[str, Any]:
    return svc.snapshot().to_dict()


def written(svc: Service) -> list[str]:
    return [c.kind for c in svc.store.commands(svc.session_id)]


def to_the_draw(svc: Service) -> None:
    svc.call(ChooseButton(seat=0))  # seat 1 acts first, left of the dealer
    while state(svc)["to_act"] is not None:
        svc.call(Press("check_call"))


def five_up(seat: int, cards: list[str | None]) -> TableView:
    """A view with ``cards`` face up in ``seat``'s zone (None: a card the reader cannot read)."""
    faces = tuple(seen(c, zone=f"seat:{seat}", x=0.1 * i) for i, c in enumerate(cards))
    return TableView(1, 1.0, (), {seat: faces})


# ----------------------------------------------------------------------------- the console
def test_the_console_counts_a_draw_with_plus_and_minus_and_records_it(service: Service, lights: Lights) -> None:
    to_the_draw(service)
    s = state(service)
    assert s["draw_game"]["phase"] == "draw" and s["draw_game"]["to_draw"] == 1 and s["pending_draw"] is None
    assert lights.shown[-1] == (0, 1)  # the seat to draw lights up like the seat to act
    for button in ("plus", "plus", "plus", "plus", "minus"):
        service.call(Press(button))
    assert state(service)["pending_draw"] == 2  # four steps up stop at the limit of 3, then one down
    service.call(Press("check_call"))
    s = state(service)
    assert s["seats"][1]["drew"] == 2 and s["draw_game"]["to_draw"] == 2 and s["pending_draw"] is None
    assert written(service)[-1] == "draw" and lights.shown[-1] == (0, 2)
    service.call(Press("next"))  # NEXT/CONFIRM records too: 0 cards, Cy stands pat
    service.call(SetDraw(3))
    service.call(Press("check_call"))
    s = state(service)
    assert [p["drew"] for p in s["seats"]] == [3, 2, 0]
    assert s["draw_game"]["phase"] == "second betting" and s["to_act"] == 1
    assert s["draw_game"]["draws"] == [{"seat": 0, "count": 3}, {"seat": 1, "count": 2}, {"seat": 2, "count": 0}]
    service.call(Press("undo"))  # takes back the last draw
    assert state(service)["draw_game"]["to_draw"] == 0 and state(service)["seats"][0]["drew"] is None


def test_an_illegal_draw_is_refused_and_nothing_is_written(service: Service) -> None:
    to_the_draw(service)
    before, rows = game_state(state(service)), written(service)
    with pytest.raises(IllegalDrawError, match="it is seat 2's turn to draw, not seat 3's"):
        service.call(Draw(2, 1))
    with pytest.raises(IllegalDrawError, match=r"0 \(stands pat\) to 3 cards"):
        service.call(Draw(1, 4))
    with pytest.raises(CommandError, match="0 \\(stand pat\\) to 3 cards, not 5"):
        service.call(SetDraw(5))
    with pytest.raises(CommandError, match="betting is closed during the draw"):
        service.call(Press("bet_raise"))
    with pytest.raises(CommandError, match="count must be a whole number"):
        step_from_json({"kind": "draw", "seat": 1, "count": "two"})
    assert written(service) == rows and game_state(state(service)) == before
    assert any("not seat 3's" in w["message"] for w in state(service)["warnings"])


def test_a_draw_before_the_draw_or_in_holdem_is_refused(tmp_path: Any, service: Service) -> None:
    service.call(ChooseButton(seat=0))
    with pytest.raises(IllegalDrawError, match="first betting round is still open"):
        service.call(Draw(1, 2))
    with pytest.raises(CommandError, match="no draw to count now"):
        service.call(SetDraw(1))
    from .helpers import make_service

    holdem = make_service(tmp_path / "h.sqlite")
    holdem.handle(ChooseButton(seat=0))
    with pytest.raises(TocktableError, match="only in five-card draw"):
        holdem.game.apply(Draw(0, 1))
    holdem.store.close()


# ----------------------------------------------------------------------------- the showdown
def finish_draw(svc: Service) -> None:
    to_the_draw(svc)
    for count in (3, 0, 1):
        svc.call(Draw(state(svc)["draw_game"]["to_draw"], count))
    while state(svc)["to_act"] is not None:
        svc.call(Press("check_call"))
    assert state(svc)["draw_game"]["phase"] == "showdown"


def test_the_camera_reads_five_card_hands_and_leaves_a_card_it_cannot_read_to_the_host(service: Service) -> None:
    finish_draw(service)
    assert service.call(five_up(1, ["Ah", "Ad", "7c", "2s"])).steps == ()  # four: still turning
    ack = service.call(five_up(1, ["Ah", "Ad", "7c", "2s", None]))
    assert ack.steps == ()
    notes = [w["message"] for w in state(service)["warnings"] if w["seat"] == 1]
    assert any("1 of the five cards cannot be read" in n and "admin page" in n for n in notes)
    assert not any("Ah" in n for n in notes)  # a notice never names a card
    service.call(Show(1, ("Jk", "Ah", "Ad", "7c", "2s")))  # the host enters it
    assert service.call(five_up(2, ["Kh", "Kd", "Ks", "9c", "4h"])).steps == ("show",)
    assert service.call(five_up(0, ["Qh", "Jh", "9h", "5h", "3h"])).steps == ("show",)
    s = state(service)
    assert s["phase"] == "settled" and s["seats"][1]["hole"] == ["Jk", "Ah", "Ad", "7c", "2s"]
    last = s["last_hand"]
    assert last["pots"][0]["winners"][0]["name"] == "Ann" and last["pots"][0]["winners"][0]["hand"].startswith("Flush")
    assert {x["seat"]: x["hand"] for x in last["shown"]}[1] == "Three of a kind, aces (with a joker)"
    assert [d["count"] for d in last["draws"]] == [1, 3, 0]


def test_a_hand_with_a_joker_read_by_the_camera_settles_with_the_joker_wild(service: Service) -> None:
    finish_draw(service)
    assert service.call(five_up(1, ["Jk", "Ah", "Ad", "7c", "2s"])).steps == ("show",)
    assert service.call(five_up(2, ["Kh", "Kd", "Ks", "9c", "4h"])).steps == ("show",)
    assert service.call(five_up(0, ["Qh", "Jh", "9h", "5h", "2h"])).steps == ("show",)
    s = state(service)
    assert s["phase"] == "settled" and s["seats"][1]["hole"] == ["Jk", "Ah", "Ad", "7c", "2s"]
    shown = {x["seat"]: x["hand"] for x in s["last_hand"]["shown"]}
    assert shown[1] == "Three of a kind, aces (with a joker)"
    assert s["last_hand"]["pots"][0]["winners"][0]["name"] == "Ann"  # the flush beats both
    assert [c.kind for c in service.store.commands(service.session_id)].count("show") == 3


@pytest.mark.parametrize("seed", [21, 34])
def test_a_joker_the_card_reader_reads_on_a_rendered_table_settles_the_hand(service: Service, seed: int) -> None:
    from hardware.table_model import TableModel
    from tocktable.camera import VisionWatcher

    finish_draw(service)
    hands = {0: ["Qh", "Jh", "9h", "5h", "2h"], 1: ["Jk2", "Ac", "Ad", "7c", "2s"], 2: ["Kh", "Kd", "Ks", "9c", "4h"]}
    model = TableModel(3, seed=seed, deck=f"holdout-{seed}", hole_cards=5, size=(1920, 1080))  # cards 114 px tall
    for seat, cards in hands.items():
        model.deal_hole(seat, cards, face_up=True)
    watcher = VisionWatcher.default(model.zones, size=model.size)  # the shipped card reader and the tracker
    image = model.frame()
    for frame in range(3):
        service.call(watcher.watch(image, index=frame, timestamp=0.2 * frame))
    s = state(service)
    assert s["phase"] == "settled", s["warnings"]
    assert sorted(s["seats"][1]["hole"]) == sorted(["Jk", "Ac", "Ad", "7c", "2s"])
    assert {x["seat"]: x["hand"] for x in s["last_hand"]["shown"]}[1] == "Three of a kind, aces (with a joker)"
    assert s["last_hand"]["pots"][0]["winners"][0]["name"] == "Ann"


def test_a_second_joker_read_in_a_one_joker_game_is_not_applied_and_said(service: Service) -> None:
    finish_draw(service)
    service.call(five_up(1, ["Jk", "Ah", "Ad", "7c", "2s"]))
    before = written(service)
    assert service.call(five_up(2, ["Jk", "Kd", "Ks", "9c", "4h"])).steps == ()
    assert written(service) == before and state(service)["seats"][2]["hole"] == []
    notes = [w["message"] for w in state(service)["warnings"]]
    assert any("the deck has 1 joker; 2 would be on the table" in n for n in notes)


def test_the_host_corrects_a_misread_card_into_a_joker_and_the_store_replays_it(service: Service) -> None:
    finish_draw(service)
    service.call(five_up(1, ["Ah", "Ad", "7c", "2s", "3d"]))
    service.call(Correct(1, 4, "Jk"))
    with pytest.raises(CommandError, match="seat 2 showed cards 1 to 5, not 6"):
        service.call(Correct(1, 5, "Kc"))
    assert state(service)["seats"][1]["hole"] == ["Ah", "Ad", "7c", "2s", "Jk"]
    service.call(Press("next"))  # settle: the others' hands are mucked
    live = game_state(state(service))
    game, _ = replay_session(service.store, service.session_id)
    assert game_state(game.snapshot(now=service.clock())) == {k: v for k, v in live.items() if k != "phase"} | {
        "phase": game.phase.value
    }


# ----------------------------------------------------------------------------- configuration
def test_the_configuration_takes_the_draw_variants_and_options() -> None:
    config = parse_config({"table": {"variant": "lowball", "seats": 5},
                           "draw": {"jokers": 2, "wild_rank": "3", "low_rule": "deuce-to-seven", "max_draw": 5,
                                    "opening_bet": True}})  # fmt: skip
    settings, players = game_settings(config)
    assert settings.variant == "lowball" and len(players) == 5
    assert settings.draw == DrawOptions(jokers=2, wild_rank="3", low_rule="deuce-to-seven", max_draw=5,
                                        opening_bet=True)  # fmt: skip
    assert game_settings(parse_config({}))[0].draw is None  # Hold'em as before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"draw": {"jokers": 3}}, "draw.jokers = 3 is not allowed: use 0..2"),
        ({"draw": {"wild_rank": "Z"}}, r"draw.wild_rank = 'Z' is not allowed: a rank \(2..9, T, J, Q, K, A\)"),
        ({"draw": {"low_rule": "ace-to-six"}}, "choose one of ace-to-five, deuce-to-seven"),
        ({"draw": {"max_draw": 0}}, "draw.max_draw = 0 is not allowed: use 1..5"),
        ({"draw": {"opening_bet": 1}}, "expected true or false"),
        ({"draw": {"fools": 1}}, "draw.fools is not a known setting"),
        ({"table": {"variant": "draw", "seats": 9}}, "five-card draw deals 3 to 8 players"),
        ({"table": {"variant": "razz"}}, "choose one of holdem, tock, draw, lowball"),
    ],
)
def test_bad_draw_configuration_names_the_key_and_what_is_allowed(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config(data)


# ----------------------------------------------------------------------------- the demo
def play_demo(tmp_path: Any, *, hands: int, seed: int, camera: str = "view", **draw: Any) -> dict[str, Any]:
    config = load_config(None, data_dir=tmp_path)
    variant = draw.pop("variant", "draw")
    config = replace(config, table=replace(config.table, variant=variant, seats=4),
                     draw=replace(config.draw, **draw))  # fmt: skip
    with fast_demo(tmp_path, config, hands=hands, seed=seed, camera=camera) as (demo, published, out):
        return {"demo": demo, "published": published, "final": demo.service.snapshot().to_dict(),
                "out": out.getvalue(), "db": tmp_path / "demo" / "tocktable.sqlite",
                "session": demo.service.session_id}  # fmt: skip


def check_draw_night(run: dict[str, Any], hands: int) -> None:
    demo = run["demo"]
    session = demo.service.game.session
    assert len(session.records) >= hands
    assert_chips_conserved(run["published"])
    for snap in run["published"]:
        if snap["hand_number"]:
            assert snap["variant"] in ("draw", "lowball") and "draw_game" in snap
    truth = {dealt.number: dealt for dealt in demo.dealer.history}
    shown = drew = 0
    for snap in demo.snapshots:  # settled hands show what the dealer really gave after the draw
        assert snap["board"] == [] and snap["draw_game"]["phase"] == "complete"
        for seat in snap["seats"]:
            drew += seat["drew"] is not None
            if seat["hole"]:
                shown += 1
                assert len(seat["hole"]) == 5 and sorted(seat["hole"]) == sorted(truth[snap["hand_number"]].holes[
                    seat["seat"]])  # fmt: skip
    assert shown >= 4 and drew >= 4
    assert any(d["count"] > 0 for r in session.records if r.draws for d in r.to_dict()["draws"])
    assert "draws:" in run["out"]


def test_a_draw_night_runs_end_to_end_and_replays_from_the_store(tmp_path: Any) -> None:
    run = play_demo(tmp_path, hands=6, seed=3, jokers=1)
    check_draw_night(run, 6)
    jokers = [s for r in run["demo"].service.game.session.records for s in r.shown.values() if "Jk" in map(str, s)]
    store = Store(run["db"])
    commands = store.commands(run["session"])
    assert "draw" in {c.kind for c in commands}
    game, _ = replay_session(store, run["session"])
    assert game_state(game.snapshot(now=0)) == game_state(run["final"])
    assert jokers and any(c.kind == "show" for c in commands)  # a joker hand, read by the camera
    store.close()


def test_the_demo_deals_both_jokers_and_counts_those_the_camera_read(tmp_path: Any) -> None:
    run = play_demo(tmp_path, hands=8, seed=5, camera="perfect", jokers=2)  # the real tracker between
    check_draw_night(run, 8)
    shown = [str(c) for r in run["demo"].service.game.session.records for s in r.shown.values() for c in s]
    dealt = [c for d in run["demo"].dealer.history for cards in d.holes.values() for c in cards]
    counts = run["demo"].counts
    assert dealt.count("Jk") >= 2 and shown.count("Jk") >= 1
    assert counts.jokers == shown.count("Jk") and counts.jokers_by_host == 0
    assert f"Jokers: {counts.jokers} read by the camera, 0 entered or corrected by the host." in run["out"]


def test_a_petite_misere_night_with_the_real_tracker_exports_its_phh(tmp_path: Any) -> None:
    run = play_demo(tmp_path, hands=5, seed=8, camera="perfect", variant="lowball", low_rule="deuce-to-seven",
                    max_draw=5)  # fmt: skip
    check_draw_night(run, 5)
    store = Store(run["db"])
    paths = export_session(store, session_id=run["session"], out_dir=tmp_path / "out")
    phh = next(p for p in paths if p.suffix == ".phhs").read_text()
    assert phh.count('variant = "N2L1D"') == len(run["demo"].service.game.session.records)
    data = json.loads(next(p for p in paths if p.suffix == ".json").read_text())
    assert data["game"]["variant"] == "lowball" and data["game"]["draw"]["low_rule"] == "deuce-to-seven"
    assert all("draws" in result for result in data["results"])
    info = next(s for s in store.sessions() if s.id == run["session"])
    assert ledger_data(run["demo"].service.game.session, info)["game"]["name"] == "Petite Misère (lowball)"
    store.close()
    pokerkit = pytest.importorskip("pokerkit")
    hands = tomllib.loads(phh)
    assert len(hands) == len(run["demo"].service.game.session.records)
    for table in hands.values():
        body = "".join(f"{key} = {json.dumps(value)}\n" for key, value in table.items())
        states = list(pokerkit.HandHistory.loads(body))
        assert list(states[-1].stacks) == table["finishing_stacks"]
