"""The set-up page on the demo (Flask client): the aim advice measured on the demo camera's
picture, and the demo's camera moved from the page."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from typing import Any

import pytest

from tocktable.config import load_config
from tocktable.run import DemoOptions, open_demo

PIN = "135790"


def login(client: Any, pin: str = PIN) -> str:
    html = client.get("/admin").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert token is not None
    assert client.post("/admin/login", data={"pin": pin, "csrf_token": token.group(1)}).status_code == 302
    page = client.get("/admin/setup").get_data(as_text=True)
    csrf = re.search(r'<meta name="csrf-token" content="([^"]+)">', page)
    assert csrf is not None
    return csrf.group(1)


@pytest.fixture
def demo(tmp_path: Any) -> Any:
    config = load_config(None, data_dir=tmp_path)
    config = replace(config, web=replace(config.web, admin_pin=PIN))
    options = DemoOptions(data_dir=tmp_path / "demo", fast=True, seed=11, web=True, port=0, camera="perfect")
    with open_demo(config, options, out=io.StringIO()) as running:
        running.app.config["TESTING"] = True
        for seat in range(running.model.seats):  # the host lays a card face up in front of every seat
            running.model.deal(["2c", "5d", "8h", "Js", "Kc", "4s", "9d", "Qh", "6c", "Td"][seat], zone=seat,
                               face_up=True)  # fmt: skip
        running.model.deal_board(["Ah", "7s", "3d"])
        running.feed_camera()
        yield running


def topics(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {item["topic"]: item for item in data["advice"]}


def test_the_page_is_behind_the_pin_and_linked_from_the_host_page(demo: Any) -> None:
    client = demo.app.test_client()
    assert client.get("/admin/setup/aim.json").status_code == 401
    assert client.post("/admin/setup/camera", json={"lift": 0.1}).status_code == 403  # no CSRF token
    login(client)
    assert 'href="/admin/setup"' in client.get("/admin").get_data(as_text=True)
    page = client.get("/admin/setup").get_data(as_text=True)
    assert "Aim the camera" in page and 'data-move="lift"' in page


def test_advice_follows_the_demo_camera_as_it_is_moved(demo: Any) -> None:
    client = demo.app.test_client()
    csrf = login(client)
    headers = {"X-CSRF-Token": csrf}
    mounted = client.get("/admin/setup/aim.json").get_json()
    assert mounted["camera"] and mounted["movable"] and mounted["frame"] is not None
    assert mounted["position"] == {"lift": 0.0, "tilt": 0.0, "blur": 0.0}
    assert topics(mounted)["cards"]["value"] >= 8
    assert all(item["ok"] for item in mounted["advice"]), mounted["advice"]

    moved = client.post("/admin/setup/camera", json={"lift": 0.4}, headers=headers)
    assert moved.status_code == 200 and moved.get_json()["position"]["lift"] == 0.4
    high = topics(client.get("/admin/setup/aim.json").get_json())
    assert not high["height"]["ok"] and high["height"]["text"].startswith("Lower the camera by about")

    client.post("/admin/setup/camera", json={"lift": -0.25}, headers=headers)
    low = topics(client.get("/admin/setup/aim.json").get_json())
    assert not low["height"]["ok"] and low["height"]["text"].startswith("Raise the camera by about")

    client.post("/admin/setup/camera", json={"lift": 0, "blur": 3}, headers=headers)
    blurred = topics(client.get("/admin/setup/aim.json").get_json())
    assert blurred["height"]["ok"] and not blurred["focus"]["ok"]
    assert blurred["focus"]["value"] < topics(mounted)["focus"]["value"] / 5


@pytest.mark.parametrize(("body", "says"), [
    ({"lift": 3}, "lift must be -0.4..0.6 metres"),
    ({"tilt": "left"}, "tilt must be a number of degrees"),
    ({"zoom": 2}, "unknown field(s) zoom: use lift, tilt, blur"),
    ({}, "send a JSON object with any of lift, tilt, blur"),
])  # fmt: skip
def test_a_position_the_camera_cannot_take_is_refused_and_changes_nothing(demo: Any, body: Any, says: str) -> None:
    client = demo.app.test_client()
    csrf = login(client)
    client.post("/admin/setup/camera", json={"blur": 1.0}, headers={"X-CSRF-Token": csrf})
    response = client.post("/admin/setup/camera", json=body, headers={"X-CSRF-Token": csrf})
    assert response.status_code == 400
    assert says in response.get_json()["error"]
    assert demo.rig.settings.to_dict() == {"lift": 0.0, "tilt": 0.0, "blur": 1.0}


def test_zones_saved_from_the_page_are_used_at_once_and_kept_across_a_restart(demo: Any, tmp_path: Any) -> None:
    client = demo.app.test_client()
    csrf = login(client)
    shown = client.get("/admin/setup/zones.json").get_json()
    assert shown["source"] == "default" and not shown["locked"] and shown["seats"] == demo.model.seats
    assert shown["zones"]["board"] == [list(p) for p in demo.model.zones["board"]]
    new = dict(shown["zones"], board=[[0.3, 0.3], [0.7, 0.3], [0.7, 0.6], [0.3, 0.6]])
    saved = client.post("/admin/setup/zones", json={"zones": new}, headers={"X-CSRF-Token": csrf})
    assert saved.status_code == 200 and saved.get_json()["source"] == "saved"
    on_disk = json.loads((tmp_path / "demo" / "zones.json").read_text())
    assert on_disk["zones"]["board"] == new["board"]
    assert demo.tap.zones["board"] == new["board"]  # the camera page draws and masks by them
    tracker = demo.watcher.tracker
    assert tracker.zones.zone_of((0.32, 0.32)) == "board"  # inside the new board only
    camera = client.get("/admin/camera/view.json").get_json()
    assert camera["zones"]["board"] == new["board"]

    refused = client.post("/admin/setup/zones", json={"zones": dict(new, board=[[0, 0], [1, 0]])},
                          headers={"X-CSRF-Token": csrf})  # fmt: skip
    assert refused.status_code == 400 and "board: a zone is a list of 3 to 32 points" in refused.get_json()["error"]
    shape = client.post("/admin/setup/zones", json={"board": new["board"]}, headers={"X-CSRF-Token": csrf})
    assert shape.status_code == 400 and 'send {"zones":' in shape.get_json()["error"]
    assert demo.tap.zones["board"] == new["board"]


def test_a_restarted_demo_uses_the_saved_zones(tmp_path: Any) -> None:
    config = load_config(None, data_dir=tmp_path)
    config = replace(config, web=replace(config.web, admin_pin=PIN))
    options = DemoOptions(data_dir=tmp_path / "demo", fast=True, seed=11, web=False, camera="perfect")
    board = [[0.35, 0.35], [0.65, 0.35], [0.65, 0.65], [0.35, 0.65]]
    with open_demo(config, options, out=io.StringIO()) as first:
        zones = dict(first.zones.current()["zones"], board=board)
        first.zones.save(zones)
    with open_demo(config, options, out=io.StringIO()) as second:
        assert second.zones.current()["source"] == "saved"
        assert second.tap.zones["board"] == board
        assert second.watcher.tracker.zones.zone_of((0.36, 0.36)) == "board"


def test_zones_set_in_the_configuration_file_win_on_the_page(tmp_path: Any) -> None:
    from tests.web.helpers import PIN as APP_PIN
    from tests.web.helpers import make_app, make_service
    from tocktable.table_zones import ZoneKeeper

    seats = {f"seat:{i}": [[0.1 * i, 0.85], [0.1 * i + 0.08, 0.85], [0.1 * i + 0.08, 0.95]]
             for i in range(6)}  # fmt: skip
    configured = {"board": [[0.2, 0.2], [0.8, 0.2], [0.8, 0.8]], **seats}
    service = make_service(tmp_path)
    try:
        keeper = ZoneKeeper(tmp_path, 6, default=configured, configured=configured)
        app = make_app(service, tmp_path)
        app.extensions["tocktable.web"].zone_editor = keeper
        client = app.test_client()
        csrf = login(client, APP_PIN)
        shown = client.get("/admin/setup/zones.json").get_json()
        assert shown["locked"] and shown["source"] == "config"
        refused = client.post("/admin/setup/zones", json={"zones": configured}, headers={"X-CSRF-Token": csrf})
        assert refused.status_code == 409 and "configuration file sets the zones" in refused.get_json()["error"]
        assert "configuration file" in client.get("/admin/setup").get_data(as_text=True)
    finally:
        service.stop()
        service.store.close()


def test_calibrated_zones_put_the_cards_in_the_right_seats(demo: Any) -> None:
    client = demo.app.test_client()
    csrf = login(client)
    headers = {"X-CSRF-Token": csrf}
    too_many = client.post("/admin/setup/zones/calibrate", headers=headers)  # a card per seat and three on the board
    assert too_many.status_code == 400
    says = f"lay exactly one card face up in front of each of the {demo.model.seats} seats"
    assert says in too_many.get_json()["error"]
    demo.model.gather()
    demo.watcher.tracker.reset()  # a table cleared for the set-up: nothing remembered from the cards before
    deck = ["2c", "5d", "8h", "Js", "Kc", "4s"]
    for seat in range(demo.model.seats):
        demo.model.deal(deck[seat], zone=seat, face_up=True)
    demo.model.deal("Ah", zone="board", slot=2, face_up=True)
    demo.zones.save({name: [[0.0, 0.0], [0.05, 0.0], [0.05, 0.05]] if name != "board" else zone
                     for name, zone in demo.zones.current()["zones"].items()})  # zones nowhere near the seats
    proposal = client.post("/admin/setup/zones/calibrate", headers=headers)
    assert proposal.status_code == 200, proposal.get_json()
    body = proposal.get_json()
    assert len(body["ring"]) == demo.model.seats and len(body["cards"]) == demo.model.seats + 1
    assert demo.zones.current()["zones"]["seat:0"] == [[0.0, 0.0], [0.05, 0.0], [0.05, 0.05]]  # not saved yet
    # the host taps the zone in front of the first seat: the page numbers the ring from it
    first_card = demo.model.state().find(deck[0]).center
    import cv2
    import numpy as np

    def holds(polygon: list[list[float]], point: tuple[float, float]) -> bool:
        return cv2.pointPolygonTest(np.array(polygon, np.float32).reshape(-1, 1, 2), point, False) >= 0

    first = next(k for k, polygon in enumerate(body["ring"]) if holds(polygon, first_card))
    zones = {"board": body["board"], **{f"seat:{k}": body["ring"][(first + k) % len(body["ring"])]
                                        for k in range(len(body["ring"]))}}  # fmt: skip
    assert client.post("/admin/setup/zones", json={"zones": zones}, headers=headers).status_code == 200
    demo.feed_camera()
    view = demo.service.view
    assert view is not None
    assert {seat: [c.card for c in cards] for seat, cards in view.seats.items()} == {
        seat: [deck[seat]] for seat in range(demo.model.seats)
    }
    assert [c.card for c in view.board] == ["Ah"], view.conflicts


def test_a_dry_run_shows_each_street_the_demo_dealer_deals(demo: Any) -> None:
    client = demo.app.test_client()
    csrf = login(client)
    headers = {"X-CSRF-Token": csrf}
    demo.model.gather()
    demo.watcher.tracker.reset()  # a table cleared before the dry run: nothing remembered from the cards before
    demo.feed_camera()
    started = client.post("/admin/setup/dry-run/start", headers=headers)
    assert started.status_code == 200 and started.get_json()["state"] == "waiting"
    hands = [["2c", "3c"], ["4d", "5d"], ["6h", "7h"], ["8s", "9s"], ["Tc", "Jc"], ["Qd", "Kd"]]
    for seat, cards in enumerate(hands):
        demo.model.deal_hole(seat, cards)
    demo.feed_camera()
    for street in (["Ah", "As", "Ad"], ["Ac"], ["Kh"]):
        demo.model.deal_board(street)
        demo.feed_camera()
    demo.model.gather()
    demo.clock.advance(5.0)  # the tracker lets cards go some frames and seconds after they leave the picture
    for _ in range(40):
        demo.feed_camera()
        if demo.dry_run.report()["state"] == "done":
            break
    report = client.get("/admin/setup/dry-run.json").get_json()
    assert report["state"] == "done"
    assert [s["street"] for s in report["streets"]] == ["preflop", "flop", "turn", "river"], report
    assert [c["card"] for c in report["streets"][-1]["board"]] == ["Ah", "As", "Ad", "Ac", "Kh"]
    for street in report["streets"]:
        assert [(s["seat"], s["cards"], s["face_up"]) for s in street["seats"]] == [(k, 2, 0) for k in range(1, 7)]
    assert client.post("/admin/setup/dry-run/stop", headers=headers).get_json()["state"] == "done"
