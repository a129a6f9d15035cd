"""The set-up page on the demo (Flask client): the aim advice measured on the demo camera's
picture, and the demo's camera moved from the page."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from typing import Any

import pytest

from tocktable.config import load_config
from tocktable.run import DemoOptions, open_demo

PIN = "135790"


def login(client: Any) -> str:
    html = client.get("/admin").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert token is not None
    assert client.post("/admin/login", data={"pin": PIN, "csrf_token": token.group(1)}).status_code == 302
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
