"""The minimal JSON API the service serves: the state, and PIN-guarded commands."""

import pytest

from tocktable.config import load_config
from web import create_app

from ..tocktable.helpers import FakeClock, make_service

PIN = "13579"


@pytest.fixture
def service(tmp_path):
    svc = make_service(tmp_path / "t.sqlite", clock=FakeClock()).start()
    yield svc
    svc.stop()
    svc.store.close()


@pytest.fixture
def client(tmp_path, service):
    app = create_app(load_config(None, data_dir=tmp_path), service, admin_pin=PIN)
    app.config["TESTING"] = True
    return app.test_client()


def command(client, body, pin=PIN):
    return client.post("/api/command", json=body, headers={"X-Admin-Pin": pin})


def test_state_has_the_promised_keys(client):
    state = client.get("/api/state").get_json()
    assert {"hand_number", "street", "seats", "board", "pots", "to_act", "blinds", "phase"} <= set(state)
    assert [s["name"] for s in state["seats"]] == ["Ann", "Bob", "Cy"]


def test_commands_need_the_pin_and_answer_once_written(client, service):
    assert command(client, {"kind": "choose_button", "seat": 0}, pin="0000").status_code == 403
    assert client.get("/api/state").get_json()["phase"] == "seating"
    answer = command(client, {"kind": "choose_button", "seat": 0})
    assert answer.status_code == 200 and answer.get_json()["ok"]
    assert service.store.commands(service.session_id)[-1].seq == answer.get_json()["seq"]
    state = client.get("/api/state").get_json()
    assert state["phase"] == "playing" and state["to_act"] == 0


def test_a_command_for_a_seat_not_to_act_is_refused_and_nothing_is_written(client, service):
    command(client, {"kind": "choose_button", "seat": 0})
    rows = len(service.store.commands(service.session_id))
    answer = command(client, {"kind": "act", "seat": 2, "action": "call"})
    assert answer.status_code == 409 and answer.get_json()["error"] == "it is seat 1's turn, not seat 3's"
    assert len(service.store.commands(service.session_id)) == rows


@pytest.mark.parametrize(
    ("body", "message"),
    [({"kind": "dance"}, "unknown command kind"), ({"kind": "act", "seat": "x", "action": "call"}, "whole number")],
)
def test_malformed_commands_are_400(client, body, message):
    answer = command(client, body)
    assert answer.status_code == 400 and message in answer.get_json()["error"]
