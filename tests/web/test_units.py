"""The web layer's pure parts: presenting a snapshot, reading the new-game form, the join URL."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from table.chips import DEALER, TOCK, WHITE_RED_BLUE_GREEN
from table.errors import TocktableError
from tocktable.snapshot import Snapshot
from web.gameform import GameFormError, read_blinds, read_game
from web.join import join_url, qr_svg
from web.present import ChipSetError, Presenter, chip_set_named, chips_for, describe_shown, present, present_hand
from web.security import PinFormatError, check_pin_format, same_token


# ----------------------------------------------------------------------------- presenting
@pytest.mark.parametrize(("chip_set", "amount", "chips"), [
    (TOCK, 0, []), (TOCK, 175, [[100, 1], [50, 1], [20, 1], [5, 1]]),
    (WHITE_RED_BLUE_GREEN, 30, [[10, 3]]), (DEALER, 138, [[100, 1], [25, 1], [10, 1], [1, 3]]),
    (TOCK, 7, []),  # no 1 or 2 chip in the Tock box: the amount is shown as a number only
])  # fmt: skip
def test_chips_for_an_amount(chip_set: Any, amount: int, chips: list[list[int]]) -> None:
    assert chips_for(chip_set, amount) == chips
    assert sum(v * n for v, n in chips) in (0, amount)


def test_describe_shown_needs_a_flop() -> None:
    assert describe_shown(["Ah", "Ad"], []) == {}
    assert describe_shown(["Ah", "Ad"], ["Ac", "7d", "2s"]) == {
        "hand": "Three of a kind, aces", "best_five": ["Ah", "Ad", "Ac", "7d", "2s"]}  # fmt: skip
    assert describe_shown(["Ah", "Ah"], ["Ac", "7d", "2s"]) == {}  # a duplicate card is not named


def test_present_adds_drawing_aids_without_changing_the_snapshot() -> None:
    state = {
        "board": ["Ah", "Kd", "7c", "2s", "9h"], "pot_total": 60, "pots": [{"amount": 60, "eligible": [0, 1]}],
        "seats": [{"seat": 0, "bet": 20, "hole": ["Kh", "Kc"]}, {"seat": 1, "bet": 0, "hole": []}],
        "last_hand": {"board": ["Ah", "Kd", "7c", "2s", "9h"],
                      "shown": [{"seat": 0, "name": "A", "cards": ["Kh", "Kc"]}],
                      "pots": [{"amount": 60, "winners": [{"seat": 0, "name": "A", "amount": 60, "hand": "x"}]}]},
    }  # fmt: skip
    before = json.dumps(state, sort_keys=True)
    out = present(state, TOCK)
    assert json.dumps(state, sort_keys=True) == before
    assert out["pot_chips"] == [[20, 3]] and out["pots"][0]["chips"] == [[20, 3]]  # three chips either way
    assert out["seats"][0]["bet_chips"] == [[20, 1]] and out["seats"][1]["bet_chips"] == []
    assert out["seats"][0]["hand"] == "Three of a kind, kings" and "hand" not in out["seats"][1]
    assert out["last_hand"]["pots"][0]["winners"][0]["best_five"] == ["Kh", "Kd", "Kc", "Ah", "9h"]
    assert out["chip_set"]["name"] == "tock"
    assert present_hand({"board": [], "shown": [], "pots": []}) == {"board": [], "shown": [], "pots": [], "winners": []}


def test_presenter_converts_each_snapshot_once() -> None:
    presenter = Presenter(TOCK)
    snapshot = Snapshot(3, json.dumps({"pots": [], "seats": [], "pot_total": 0}))
    first = presenter.text(snapshot)
    assert presenter.text(snapshot) is first
    assert presenter.state(snapshot)["chip_set"]["name"] == "tock"
    presenter.chip_set = DEALER
    assert json.loads(presenter.text(snapshot))["chip_set"]["name"] == "dealer"
    other = Snapshot(3, json.dumps({"pots": [], "seats": [], "pot_total": 5}))  # same version, another object
    assert json.loads(presenter.text(other))["pot_total"] == 5


def test_unknown_chip_set() -> None:
    with pytest.raises(ChipSetError, match="choose one of tock, white-red-blue-green, dealer") as error:
        chip_set_named("gold")
    assert isinstance(error.value, ValueError) and isinstance(error.value, TocktableError)


# ----------------------------------------------------------------------------- the game form
def test_read_game_defaults_and_fields() -> None:
    game = read_game({})
    assert game.settings.seats == 6 and game.players == () and game.chip_set == "tock"
    assert game.settings.blinds.levels[0].big_blind == 10 and not game.settings.blinds.timed_levels
    game = read_game({"variant": "tock", "betting": "fixed-limit", "seats": "4", "players": ["Ann", " Bob  Lee "],
                      "buy_in": "750", "blinds": [[5, 10], [10, 20, 2]], "level_minutes": "12.5",
                      "chip_set": "dealer", "rebuys": "off", "csrf_token": "x"})  # fmt: skip
    assert game.settings.variant == "tock" and game.settings.betting == "fixed-limit"
    assert game.players == (("Ann", 750), ("Bob Lee", 750))
    assert game.settings.blinds.level_seconds == 750 and game.settings.blinds.levels[1].ante == 2
    assert game.settings.rebuys is False and game.chip_set == "dealer"


def test_read_game_takes_the_house_options() -> None:
    heads_up = read_game({"variant": "draw", "seats": 2, "players": "Ann, Bob", "two_players": "on",
                          "first_dealer": "croupier"})  # fmt: skip
    assert heads_up.settings.first_dealer == "croupier"
    assert heads_up.settings.draw is not None and heads_up.settings.draw.two_players is True
    plain = read_game({"variant": "draw", "players": "Ann, Bob, Cy"})
    assert plain.settings.first_dealer == "draw" and plain.settings.draw is not None
    assert plain.settings.draw.two_players is False
    assert read_game({"first_dealer": "croupier"}).settings.first_dealer == "croupier"  # Hold'em too


@pytest.mark.parametrize(("form", "message"), [
    ({"seats": 11}, "seats must be a whole number from 2 to 10"),
    ({"seats": True}, "seats must be a whole number"),
    ({"variant": "omaha"}, "variant must be one of holdem, tock"),
    ({"players": "Ann, ann"}, "two players have the same name"),
    ({"players": "x" * 30}, f"1 to 24 printable characters (letters, digits, spaces, punctuation): {'x' * 30!r} is 30"),
    ({"players": "Ann, B\x1bob"}, "has U+001B at position 2"),
    ({"players": 5}, "players must be names"),
    ({"buy_in": 0}, "buy_in must be a whole number from 1"),
    ({"blinds": "5/10, 10/15"}, "level 2 '10/15'"),
    ({"blinds": "5/ten"}, "'ten' is not a whole number"),
    ({"blinds": ""}, "at least one level"),
    ({"blinds": "5/10/1/1"}, "write small/big or small/big/ante"),
    ({"level_minutes": "soon"}, "level_minutes must be a number"),
    ({"level_minutes": 601}, "from 0 (no clock) to 600"),
    ({"rebuys": 3}, "rebuys must be true or false"),
    ({"chip_set": "gold"}, "chip_set must be one of"),
    ({"colour": "red"}, "unknown field 'colour'"),
    ({"first_dealer": "highest"}, "first_dealer must be one of draw, croupier, got 'highest'"),
    ({"variant": "draw", "players": "Ann, Bob"}, "five-card draw is played by 3 to 6 players, got 2 names: add a "
                                                 "player, or tick the house option two_players"),
    ({"variant": "draw", "two_players": 2}, "two_players must be true or false"),
    ({"variant": "draw", "seats": 10, "players": ",".join("ABCDEFGHI"), "two_players": True},
     "five-card draw deals 2 to 8 players, got 9 names"),
])  # fmt: skip
def test_read_game_refuses_with_a_message(form: dict[str, Any], message: str) -> None:
    with pytest.raises(GameFormError, match=re.escape(message)):
        read_game(form)


def test_read_blinds_from_text() -> None:
    levels = read_blinds("5/10; 10/20\n25/50/5")
    assert [(lv.small_blind, lv.big_blind, lv.ante) for lv in levels] == [(5, 10, 0), (10, 20, 0), (25, 50, 5)]


# ----------------------------------------------------------------------------- joining, PINs
def test_join_url_is_the_servers_own_address(monkeypatch: pytest.MonkeyPatch) -> None:
    import web.join

    assert join_url("192.168.1.7", 8000) == "http://192.168.1.7:8000/"
    assert join_url("pi.lan", 80) == "http://pi.lan/"
    assert join_url("fe80::1", 8000) == "http://[fe80::1]:8000/"
    assert join_url("x", 1, configured="http://tocktable.local:8000/") == "http://tocktable.local:8000/"
    monkeypatch.setattr(web.join, "lan_address", lambda: "10.1.2.3")
    assert join_url("0.0.0.0", 8000) == join_url("::", 8000) == "http://10.1.2.3:8000/"  # every interface: the LAN


def test_qr_code_is_svg() -> None:
    svg = qr_svg("http://192.168.1.7:8000/")
    assert svg.startswith("<svg") and "<path" in svg and svg.rstrip().endswith("</svg>")


def test_pin_format_and_token_comparison() -> None:
    assert check_pin_format("0042") == "0042"
    for bad in ("123", "1234567890123", "12a4", "١٢٣٤", ""):
        with pytest.raises(PinFormatError, match="4 to 12 digits"):
            check_pin_format(bad)
    assert same_token("abc", "abc") and not same_token("abc", "abd")
    assert not same_token(None, "abc") and not same_token("", "")


def test_mdns_stays_off_without_a_network_address(monkeypatch: pytest.MonkeyPatch) -> None:
    import web.join

    monkeypatch.setattr(web.join, "lan_address", lambda: "127.0.0.1")
    advertiser = web.join.Advertiser(8000)
    assert not advertiser.active and advertiser.url is None
    assert advertiser.reason in ("no local network address", "zeroconf is not installed (pip install zeroconf)")
    advertiser.close()
