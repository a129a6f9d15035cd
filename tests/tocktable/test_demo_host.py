"""The live demo survives every host action the admin page offers: after each one the table
keeps playing (a hand is finished), or, for a game the synthetic table cannot lay out, the demo
says so and plays again as soon as the host starts one it can."""

from __future__ import annotations

import io
import re
import threading
import time
from dataclasses import replace
from typing import Any

import pytest

from tocktable.config import load_config
from tocktable.run import DemoOptions, open_demo, playing_live

PIN = "97531"
PATIENCE = 240.0
"""Seconds before a wait gives up: only a stopped table gets there, however loaded the machine."""

BUTTONS = ("plus", "minus", "check_call", "bet_raise", "fold", "all_in", "undo", "next")
COMMANDS: list[dict[str, Any]] = [
    *({"kind": "press", "button": b} for b in BUTTONS),
    {"kind": "bet_amount", "amount": 40},
    {"kind": "deal_board", "cards": ["2c", "3d", "4h"]},
    {"kind": "show", "seat": 0, "cards": ["As", "Ks"]},
    {"kind": "muck", "seat": 1},
    {"kind": "correct", "seat": None, "index": 0, "card": "5c"},
    {"kind": "correct", "seat": 2, "index": 1, "card": "9d"},
    {"kind": "mark", "seat": None, "index": 0, "mark": "h:large"},
    {"kind": "choose_button", "seat": 0},
    {"kind": "set_level", "index": 1},
    {"kind": "pause_clock"},
    {"kind": "pause_clock", "resume": True},
    {"kind": "draw", "seat": 0, "count": 2},
    {"kind": "settle"},
    {"kind": "confirm"},
    {"kind": "rebuy", "seat": 1, "amount": 500},
    {"kind": "sit_out", "seat": 2},
    {"kind": "sit_out", "seat": 2, "back": True},
    {"kind": "leave", "seat": 3},
    {"kind": "seat", "seat": 3, "name": "Zed", "chips": 800},
]
"""Every command of the host's page (admin.js), some allowed now, some refused: either way the
table must play on."""

GAMES: list[tuple[dict[str, Any], str | None]] = [
    ({"seats": 6, "players": "Ann, Bob, Cleo, Dan, Eve, Finn", "chip_set": "dealer"}, None),
    ({"seats": 4, "players": "Ann, Bob, Cleo", "blinds": "10/20, 20/40", "level_minutes": 1}, None),
    ({"seats": 8, "players": "A, B, C, D, E, F, G, H"}, "cannot deal 8"),
    ({"variant": "tock", "seats": 4, "players": "A, B, C"}, "Tock needs marked backs"),
    ({"variant": "draw", "seats": 4, "players": "A, B, C"}, "deals five cards a seat"),
    ({"betting": "fixed-limit", "seats": 5, "players": "Ann, Bob, Cleo, Dan, Eve"}, None),
]
"""New games from the host's page, and what the demo says of those its table cannot lay out."""


class Host:
    """The host's phone: logged in to the admin page of the running demo."""

    def __init__(self, app: Any) -> None:
        self.client = app.test_client()
        form = self.client.get("/admin").get_data(as_text=True)
        token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
        page = self.client.post("/admin/login", data={"pin": PIN, "csrf_token": token}, follow_redirects=True)
        self.token = re.search(r'<meta name="csrf-token" content="([^"]+)">', page.get_data(as_text=True)).group(1)

    def post(self, url: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        response = self.client.post(url, json=body or {}, headers={"X-CSRF-Token": self.token})
        assert response.status_code != 500, response.get_data(as_text=True)
        return response.status_code, response.get_json()


def play_thread() -> threading.Thread | None:
    return next((t for t in threading.enumerate() if t.name == "tocktable-demo"), None)


def keeps_playing(demo: Any, what: str, hands: int = 1) -> None:
    """Wait until ``hands`` more hands are finished, the play thread alive all along."""
    goal = demo.played + hands
    deadline = time.monotonic() + PATIENCE
    while demo.played < goal:
        thread = play_thread()
        assert thread is not None and thread.is_alive(), f"the demo stopped playing after {what}"
        assert demo.service.fault is None
        if time.monotonic() > deadline:
            raise AssertionError(f"no hand finished for {PATIENCE:g} s after {what}: "
                                 f"{demo.service.game.describe_phase()}")  # fmt: skip
        time.sleep(0.05)


def says(out: io.StringIO, words: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while words not in out.getvalue():
        thread = play_thread()
        assert thread is not None and thread.is_alive(), f"the demo stopped before saying {words!r}"
        assert time.monotonic() < deadline, f"the demo never said {words!r}"
        time.sleep(0.05)


@pytest.mark.slow
def test_the_live_demo_plays_on_through_every_host_action(tmp_path):
    config = load_config(None, data_dir=tmp_path)
    config = replace(config, web=replace(config.web, admin_pin=PIN))
    options = DemoOptions(data_dir=tmp_path / "demo", port=0, seed=4, camera="view", confirm_seconds=0.2, pace=0.0)
    out = io.StringIO()
    with open_demo(config, options, out=out) as demo, playing_live(demo, options):
        host = Host(demo.app)
        keeps_playing(demo, "the start")
        for command in COMMANDS:
            host.post("/admin/command", command)
            keeps_playing(demo, f"the host's {command}")
        status, _ = host.post("/admin/chip-set", {"name": "tock"})
        assert status == 200
        keeps_playing(demo, "a change of chip set")
        for game, unplayable in GAMES:
            status, answer = host.post("/admin/game", game)
            assert status == 200, answer
            if unplayable is None:
                keeps_playing(demo, f"the new game {game}", hands=2)
            else:
                says(out, unplayable)
        status, _ = host.post("/admin/end")
        assert status == 200
        says(out, f"new game (session {demo.service.session_id}")
        status, _ = host.post("/admin/game", GAMES[0][0])
        assert status == 200
        keeps_playing(demo, "a new game after the end of the session", hands=2)
    text = out.getvalue()
    assert "Traceback" not in text and "IndexError" not in text
    assert demo.failures == 0, [line for line in text.splitlines() if "a move failed" in line]
