"""The set-up page's deck teaching on the demo (Flask client): behind the PIN, the demo's hands
lay the card asked for, the camera's crop, keep and redo, progress kept across a restarted demo,
a check of ten cards laid by the demo, and the refusals."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.tocktable.test_setup_page import PIN, login
from tocktable.config import load_config
from tocktable.deck_teacher import PROGRESS_NAME
from tocktable.run import DemoOptions, open_demo

DECK = "holdout-de-3"


def demo_options(tmp_path: Path) -> DemoOptions:
    return DemoOptions(data_dir=tmp_path / "demo", fast=True, seed=11, web=True, port=0, camera="perfect", deck=DECK)


@pytest.fixture
def config(tmp_path: Path) -> Any:
    config = load_config(None, data_dir=tmp_path)
    return replace(config, web=replace(config.web, admin_pin=PIN))


def test_cards_are_laid_captured_kept_and_redone_from_the_page(tmp_path: Path, config: Any) -> None:
    with open_demo(config, demo_options(tmp_path), out=io.StringIO()) as demo:
        demo.app.config["TESTING"] = True
        demo.teacher.wait = 0.0  # no camera thread here: the demo films the table when told (feed_camera)
        demo.feed_camera()
        client = demo.app.test_client()
        assert client.get("/admin/setup/deck.json").status_code == 401
        assert client.post("/admin/setup/deck/start").status_code == 403  # no CSRF token
        headers = {"X-CSRF-Token": login(client)}
        page = client.get("/admin/setup").get_data(as_text=True)
        assert "Teach the deck" in page and 'id="deck-capture"' in page and "deck.js" in page

        status = client.get("/admin/setup/deck.json").get_json()
        assert status["ok"] and status["demo"] and status["state"] == "idle" and status["done"] == 0
        assert client.get("/admin/setup/deck/crop.jpg").status_code == 404
        refused = client.post("/admin/setup/deck/capture", headers=headers)
        assert refused.status_code == 400 and "Teach the deck first" in refused.get_json()["error"]

        assert client.post("/admin/setup/deck/start", headers=headers).get_json()["state"] == "teaching"
        for asked in ("As", "2s", "3s"):
            laid = client.post("/admin/setup/deck/lay", headers=headers).get_json()
            assert laid["next"]["card"] == asked
            assert [c.card for c in demo.model.state().cards] == [asked]
            demo.feed_camera()
            captured = client.post("/admin/setup/deck/capture", headers=headers).get_json()
            assert captured.get("pending") and captured["pending"]["card"] == asked, captured
            assert captured["pending"]["agrees"], captured
            crop = client.get("/admin/setup/deck/crop.jpg")
            assert crop.status_code == 200 and crop.mimetype == "image/jpeg" and crop.data[:2] == b"\xff\xd8"
            kept = client.post("/admin/setup/deck/keep", headers=headers).get_json()
            assert kept["pending"] is None
        assert kept["done"] == 3 and kept["next"]["card"] == "4s"
        assert (Path(demo.zones.data_dir) / PROGRESS_NAME).is_file()

        bad = client.post("/admin/setup/deck/redo", json={}, headers=headers)
        assert bad.status_code == 400 and '{"card": "Ah"}' in bad.get_json()["error"]
        bad = client.post("/admin/setup/deck/redo", json={"card": "Kh"}, headers=headers)
        assert bad.status_code == 400 and "not taught yet" in bad.get_json()["error"]
        redone = client.post("/admin/setup/deck/redo", json={"card": "2s"}, headers=headers).get_json()
        assert redone["next"]["card"] == "2s" and redone["enrolled"] == ["As", "3s"]

        laid = client.post("/admin/setup/deck/lay-check", headers=headers).get_json()["laid"]
        assert len(laid) == 10 and sorted(c.card for c in demo.model.state().cards) == sorted(laid)
        demo.feed_camera()
        check = client.post("/admin/setup/deck/check", headers=headers).get_json()
        assert check["seen"] == 10 and check["profile"] == 0  # no deck taught yet: the models alone read
        assert sorted(c["card"] or "?" for c in check["cards"]) == sorted(laid)

    with open_demo(config, demo_options(tmp_path), out=io.StringIO()) as demo:  # the demo restarted
        demo.app.config["TESTING"] = True
        client = demo.app.test_client()
        login(client)
        status = client.get("/admin/setup/deck.json").get_json()
        assert status["done"] == 2 and status["enrolled"] == ["As", "3s"] and status["next"]["card"] == "2s"


def test_a_deck_style_that_does_not_exist_is_refused_before_the_demo_starts(tmp_path: Path, config: Any) -> None:
    from tocktable.config import ConfigError

    options = replace(demo_options(tmp_path), deck="holdout-xx-3")
    with pytest.raises(ConfigError, match="--deck holdout-xx-3: deck style must look like"), open_demo(
        config, options, out=io.StringIO()
    ):
        pass


def test_the_live_demo_s_players_wait_while_the_table_is_lent_and_play_on_after(tmp_path: Path, config: Any) -> None:
    import time

    from tocktable.run import playing_live

    options = replace(demo_options(tmp_path), fast=False, web=False, camera="view", pace=0.05, confirm_seconds=0.2)
    with open_demo(config, options, out=io.StringIO()) as demo, playing_live(demo, options):

        def wait_for(condition: Any, what: str) -> None:
            deadline = time.monotonic() + 30
            while not condition():
                assert time.monotonic() < deadline, what
                time.sleep(0.05)

        wait_for(lambda: demo.model.state().cards, "the dealer deals")
        demo.teacher.start()  # the table is the teacher's: the players stop once the move under way is done
        demo.teacher.lay()
        laid = demo.model.state()
        assert [c.card for c in laid.cards] == ["As"]
        time.sleep(1.0)  # twenty of the demo's paces: nobody touches the table meanwhile
        assert demo.model.state().version == laid.version
        demo.teacher.stop()  # given back: the dealer lays out the hand the game is at, and play goes on
        assert demo.model.state().find("As") is None
        played = demo.played
        wait_for(lambda: demo.played > played, "another hand is played")
