"""A command the game refuses (a mistyped correction, a console button pressed when nobody is
to act) is the host's business: the host's page shows it, the players' phones never do. Warnings
about the table itself (a card lying face up in a seat) still reach every phone."""

from __future__ import annotations

import json
from typing import Any

from hardware.console import ButtonPressed
from hardware.pins import ConsoleButton
from tests.web.helpers import DEMO_PREFLOP, PIN, play
from tests.web.test_admin import login, post
from tests.web.test_events import EventReader, states
from tests.web.test_privacy import peek_view
from tocktable.steps import ChooseButton
from web.present import HOST_NOTICES, present
from web.present import chip_set_named as chip_set

REFUSED = "there is no board card 2 to correct: no board card is dealt yet"


def first_state(client: Any, url: str) -> dict[str, Any]:
    """The first state a live stream sends."""
    reader = EventReader(client.get(url, buffered=False), until=lambda events: bool(states(events)))
    return states(reader.wait())[0]


def players_see(client: Any) -> list[str]:
    """Every text a player's phone can get that carries the table's warnings."""
    return [client.get("/").get_data(as_text=True), client.get("/api/state").get_data(as_text=True),
            json.dumps(first_state(client, "/api/events"))]  # fmt: skip


def test_a_refused_host_command_shows_on_the_host_page_only(app: Any, client: Any, service: Any) -> None:
    token = login(client)
    play(service, [ChooseButton(seat=0)])
    refused = post(client, "/admin/command", token, {"kind": "correct", "seat": None, "index": 1, "card": "7d"})
    assert refused.status_code == 409 and refused.get_json()["error"] == REFUSED

    host = client.get("/admin/state").get_json()
    assert [(w["kind"], w["message"]) for w in host["warnings"]] == [("rejected", REFUSED)]
    assert first_state(client, "/admin/events")["warnings"] == host["warnings"]

    phone = app.test_client()  # a player: no login
    assert phone.get("/api/state").get_json()["warnings"] == []
    for text in players_see(phone):
        assert "no board card" not in text and "rejected" not in text
    for text in players_see(client):  # the host's own phone on the players' dashboard: the same
        assert "no board card" not in text
    # Nothing else differs: the host's view is the players' view plus the host's warnings.
    assert {**host, "warnings": []} == phone.get("/api/state").get_json()


def test_a_refused_console_press_and_a_refused_script_command_stay_with_the_host(client: Any, service: Any) -> None:
    login(client)
    service.inbox.put(ButtonPressed(ConsoleButton.FOLD, 0.0))  # the dealer's console: nobody is to act yet
    scripted = client.post("/api/command", json={"kind": "press", "button": "check_call"}, headers={"X-Admin-Pin": PIN})
    assert scripted.status_code == 409
    service.call(ChooseButton(seat=0))  # after both presses (the queue is handled in order)
    host = [w["message"] for w in client.get("/admin/state").get_json()["warnings"]]
    assert len(host) == 2 and host[0].startswith("FOLD: nobody is to act now")
    assert host[1].startswith("CHECK/CALL: nobody is to act now")
    assert client.get("/api/state").get_json()["warnings"] == []


def test_warnings_about_the_table_still_reach_every_phone(client: Any, service: Any) -> None:
    play(service, [ChooseButton(seat=0), *DEMO_PREFLOP])
    service.call(peek_view())  # Bob's cards lie face up in his zone: everyone should hear "turn it down"
    phone = client.get("/api/state").get_json()
    assert [w["kind"] for w in phone["warnings"]] == ["peek"]
    assert "turn it down" in phone["warnings"][0]["message"]
    login(client)
    assert client.get("/admin/state").get_json()["warnings"] == phone["warnings"]


def test_present_leaves_out_exactly_the_host_notices() -> None:
    kinds = ["rejected", "peek", "store", "board-early", "error", "camera", "conflict"]
    state = {"warnings": [{"kind": k, "message": f"about {k}", "seat": None} for k in kinds]}
    tock = chip_set("tock")
    players = [w["kind"] for w in present(state, tock)["warnings"]]
    host = [w["kind"] for w in present(state, tock, host=True)["warnings"]]
    assert players == [k for k in kinds if k not in HOST_NOTICES] == ["peek", "board-early", "camera", "conflict"]
    assert host == kinds
    assert len(state["warnings"]) == len(kinds)  # the snapshot itself is not changed
