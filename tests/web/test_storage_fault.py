"""A storage fault on the web: the state's ``storage_fault``, "not saving: ..." on the phones' and
the host's pages, the refused command (503), and a history whose stored steps were changed under
the running service (a JSON 503 saying where, never a 500; the service stops taking steps)."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

import pytest

from tests.web.helpers import DEMO_HAND, PIN, play
from tests.web.test_admin import login
from tocktable.faults import storage_fault
from tocktable.steps import ChooseButton, Confirm


def full_disk(store: Any) -> Any:
    """The store's writes failing as SQLite fails on a full disk."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        error = sqlite3.OperationalError("database or disk is full")
        error.sqlite_errorcode = 13  # SQLITE_FULL
        raise storage_fault(error, store.path)

    return refuse


def banner(html: str) -> re.Match[str] | None:
    return re.search(r'<div id="not-saving" class="not-saving" role="alert"( hidden)?>([^<]*)</div>', html)


def command(client: Any, body: dict[str, Any]) -> Any:
    return client.post("/api/command", json=body, headers={"X-Admin-Pin": PIN})


def test_a_full_disk_is_in_the_state_and_on_every_page(service: Any, client: Any, monkeypatch: Any) -> None:
    service.call(ChooseButton(seat=0))
    login(client)
    for page in ("/", "/admin"):
        found = banner(client.get(page).get_data(as_text=True))
        assert found is not None and found.group(1) == " hidden" and found.group(2) == "", page
    assert client.get("/api/state").get_json()["storage_fault"] is None

    monkeypatch.setattr(service.store, "append", full_disk(service.store))
    refused = command(client, {"kind": "press", "button": "check_call"})
    assert refused.status_code == 503
    error = refused.get_json()
    assert error["ok"] is False and error["error"].startswith("not saving: the disk holding ")
    assert "is full" in error["error"] and "free some space" in error["error"]
    again = command(client, {"kind": "press", "button": "fold"})
    assert again.status_code == 503 and again.get_json()["error"] == error["error"]

    state = client.get("/api/state").get_json()
    fault = state["storage_fault"]
    assert fault == {"kind": "disk_full", "message": error["error"], "refused": 1}
    assert state["version"] > 0 and state["to_act"] is not None  # the table is still shown as it was

    for page in ("/", "/admin"):
        html = client.get(page).get_data(as_text=True)
        found = banner(html)
        assert found is not None and found.group(1) is None, page  # shown, not hidden
        shown = found.group(2).replace("&#39;", "'").replace("&amp;", "&")
        assert shown == f"⚠ {error['error']}", page
        assert html.index('id="not-saving"') < html.index("<main"), page  # above everything else
    admin_state = client.get("/admin").get_data(as_text=True)
    assert "not saving: the disk holding" in admin_state


def test_the_login_page_says_not_saving_too(service: Any, client: Any, monkeypatch: Any) -> None:
    """The host sees it before typing the PIN."""
    monkeypatch.setattr(service.store, "append", full_disk(service.store))
    assert command(client, {"kind": "choose_button", "seat": 0}).status_code == 503
    found = banner(client.get("/admin").get_data(as_text=True))
    assert found is not None and found.group(1) is None and "not saving: the disk holding" in found.group(2)


def alter_a_stored_card(path: Any, old: str, new: str) -> None:
    """Another program changes a card in the stored steps while the service runs."""
    db = sqlite3.connect(path)
    try:
        changed = db.execute(
            "UPDATE commands SET payload = replace(payload, ?, ?) WHERE payload LIKE ?", (old, new, f"%{old}%")
        ).rowcount
        db.commit()
    finally:
        db.close()
    assert changed > 0


@pytest.mark.parametrize("url", ["/api/history", "/api/export/phh", "/api/export/ledger.json",
                                 "/api/export/ledger.csv"])  # fmt: skip
def test_a_step_changed_under_the_service_answers_a_json_error_and_stops_it(
    service: Any, client: Any, url: str
) -> None:
    play(service, [*DEMO_HAND, Confirm()])
    alter_a_stored_card(service.store.path, '"7c"', '"7h"')

    response = client.get(url)
    assert response.status_code == 503 and response.is_json
    error = response.get_json()
    assert error["ok"] is False and error["status"] == 503
    message = error["error"]
    assert message.startswith("the history cannot be read: ") and "does not match its checksum" in message
    assert f"session {service.session_id}: step " in message and "Traceback" not in message

    service.sync()  # the fault was handed to the service: it takes no further step
    fault = client.get("/api/state").get_json()["storage_fault"]
    assert fault is not None and fault["kind"] == "altered"
    assert fault["message"].startswith("not saving: ") and "does not match its checksum" in fault["message"]
    assert "every step acknowledged before is kept" not in fault["message"]
    refused = command(client, {"kind": "press", "button": "check_call"})
    assert refused.status_code == 503 and refused.get_json()["error"] == fault["message"]
    assert client.get(url).status_code == 503  # asked again: the same answer, never a replay


def test_an_unaltered_history_is_served(service: Any, client: Any) -> None:
    """The same hand without the change: the history answers, the service keeps saving."""
    play(service, [*DEMO_HAND, Confirm()])
    history = client.get("/api/history")
    assert history.status_code == 200 and history.get_json()["hands_played"] == 1
    assert client.get("/api/state").get_json()["storage_fault"] is None
