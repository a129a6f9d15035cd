"""Bad input answered as JSON: deep JSON, too-large bodies, unknown routes and methods, a failing
route, names with control characters, formula-like names in the CSV, a forged ``Host``."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import PIN, make_app, make_service
from tests.web.test_admin import login
from web.context import EXTENSION
from web.errors import MAX_DEPTH, check_depth, json_depth

DEEP = "[" * 30_000 + "]" * 30_000
"""60,000 bytes: under the 64 KiB body limit, far deeper than Python's parser can recurse."""


@pytest.fixture
def roomy(tmp_path: Path) -> Any:
    """A service with 8 seats and 6 players: seats 6 and 7 are free for a Seat command."""
    running = make_service(tmp_path, seats=8)
    yield running
    running.stop()
    running.store.close()


@pytest.fixture
def roomy_client(roomy: Any, tmp_path: Path) -> Any:
    return make_app(roomy, tmp_path).test_client()


def _token(client: Any) -> str:
    """Log in (the admin routes need it) and return the session's CSRF token (the dice page's too)."""
    return login(client)


def _assert_json_error(response: Any, status: int, words: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/json"
    body: dict[str, Any] = response.get_json()
    assert body["ok"] is False and words in body["error"], body
    assert "Traceback" not in body["error"]
    return body


JSON_POSTS = ["/api/command", "/api/dice/new", "/api/dice/announce", "/api/dice/challenge", "/api/dice/roll-off",
              "/api/dice/throw", "/api/dice/look", "/api/dice/show", "/api/dice/tour-de-poker",
              "/api/dice/undo", "/admin/command", "/admin/game", "/admin/chip-set", "/admin/setup/camera",
              "/admin/setup/zones", "/admin/setup/deck/redo"]  # fmt: skip


DECK_STEPS = {f"/admin/setup/deck/{step}" for step in ("start", "stop", "restart", "capture", "keep", "retake", "lay",
                                                       "lay-check", "check")}  # fmt: skip


def test_every_json_route_is_in_the_list_above(app: Any) -> None:
    posts = {r.rule for r in app.url_map.iter_rules() if "POST" in (r.methods or ())}
    assert posts - set(JSON_POSTS) == {"/admin/login", "/admin/logout", "/admin/end",
                                       "/admin/setup/zones/calibrate", "/admin/setup/dry-run/start",
                                       "/admin/setup/dry-run/stop", *DECK_STEPS}  # forms, or no body


@pytest.mark.parametrize("path", JSON_POSTS)
def test_json_nested_30000_deep_is_a_json_400_on_every_route(client: Any, path: str) -> None:
    token = _token(client)
    response = client.post(path, data=DEEP, content_type="application/json",
                           headers={"X-CSRF-Token": token, "X-Admin-Pin": PIN})  # fmt: skip
    _assert_json_error(response, 400, f"nested more than {MAX_DEPTH} levels deep")


def test_deep_json_inside_a_field_and_just_under_the_limit(client: Any) -> None:
    token = _token(client)
    headers = {"X-CSRF-Token": token}
    deep_field = '{"players": ' + DEEP + "}"
    _assert_json_error(client.post("/api/dice/new", data=deep_field, content_type="application/json",
                                   headers=headers), 400, "nested")  # fmt: skip
    shallow = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)  # in an object: the deepest allowed, the wrong shape
    response = client.post("/api/dice/new", data='{"players": ' + shallow + "}", content_type="application/json",
                           headers=headers)  # fmt: skip
    _assert_json_error(response, 400, "players must be names")


def test_json_depth_ignores_brackets_inside_strings() -> None:
    assert json_depth('{"a": "[[[[{{{{"}') == 1
    assert json_depth(r'["\"[[[", [[]]]') == 3
    check_depth('"' + "[" * 1000 + '"')  # one string: depth 0
    assert json_depth(DEEP) == 30_000


def test_invalid_json_is_a_json_400(client: Any) -> None:
    response = client.post("/api/command", data="{not json", content_type="application/json",
                           headers={"X-Admin-Pin": PIN})  # fmt: skip
    _assert_json_error(response, 400, "not valid JSON")


@pytest.mark.parametrize("body", ["[1, 2]", '"throw"', "3"])
def test_json_that_is_not_an_object_is_a_400_saying_what_to_send(client: Any, body: str) -> None:
    token = _token(client)
    response = client.post("/api/dice/throw", data=body, content_type="application/json",
                           headers={"X-CSRF-Token": token})  # fmt: skip
    assert _assert_json_error(response, 400, "send the move as a JSON object") == {
        "ok": False, "error": "send the move as a JSON object"}  # fmt: skip


@pytest.mark.parametrize("path", ["/api/command", "/api/dice/new", "/admin/command"])
def test_a_body_over_the_limit_is_a_json_413(client: Any, path: str) -> None:
    token = _token(client)
    body = '{"kind": "' + "x" * 70_000 + '"}'
    response = client.post(path, data=body, content_type="application/json",
                           headers={"X-CSRF-Token": token, "X-Admin-Pin": PIN})  # fmt: skip
    _assert_json_error(response, 413, "larger than 64 KiB")


def test_unknown_routes_and_methods_on_the_api_are_json(client: Any) -> None:
    _assert_json_error(client.get("/api/nothing-here"), 404, "nothing at /api/nothing-here")
    wrong = client.post("/api/state")
    _assert_json_error(wrong, 405, "use GET")
    assert "GET" in wrong.headers["Allow"]
    _assert_json_error(client.delete("/api/command"), 405, "use POST")
    page = client.get("/no-such-page", headers={"Accept": "text/html"})  # a browser's page keeps HTML
    assert page.status_code == 404 and page.mimetype == "text/html"
    asked = client.get("/no-such-page", headers={"Accept": "application/json"})
    _assert_json_error(asked, 404, "nothing at")


def test_a_failing_route_answers_a_json_500_without_the_traceback(app: Any, client: Any,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    app.config["TESTING"] = False  # as in production: the error is answered, not raised into the test
    app.config["PROPAGATE_EXCEPTIONS"] = False

    def broken(*_: Any, **__: Any) -> str:
        raise RuntimeError("secret detail")

    app.extensions[EXTENSION].presenter.text = broken
    body = _assert_json_error(client.get("/api/state"), 500, "failed")
    assert "secret detail" not in body["error"]
    assert "secret detail" in caplog.text  # the host's log has it


def test_429_is_json_with_retry_after(client: Any) -> None:
    codes = []
    for _ in range(7):
        response = client.post("/api/command", json={"kind": "undo"}, headers={"X-Admin-Pin": "000000"})
        codes.append(response.status_code)
    assert codes[-1] == 429
    assert response.mimetype == "application/json" and int(response.headers["Retry-After"]) > 0


# ----------------------------------------------------------------------------- names
BAD_NAMES = [("Ann\x00", "U+0000"), ("Ann\x1b[31m", "U+001B"), ("A\tB", "U+0009"), ("A\nB", "U+000A"),
             ("Zoe\u200b", "U+200B"), ("x" * 25, "is 25 characters long"), ("   ", "must not be empty"),
             ("N\x00" + "x" * 60_000, "U+0000")]  # fmt: skip


@pytest.mark.parametrize(("name", "words"), BAD_NAMES)
def test_seat_names_follow_one_rule_on_the_api_and_the_admin_page(roomy_client: Any, roomy: Any, name: str,
                                                                   words: str) -> None:  # fmt: skip
    token = _token(roomy_client)
    body = {"kind": "seat", "seat": 6, "name": name, "chips": 500}
    for response in (roomy_client.post("/api/command", json=body, headers={"X-Admin-Pin": PIN}),
                     roomy_client.post("/admin/command", json=body, headers={"X-CSRF-Token": token})):  # fmt: skip
        error = _assert_json_error(response, 400, words)["error"]
        assert "1 to 24 printable characters" in error  # says what is allowed
        assert len(error) < 300  # a 60,000-character name is not echoed back
    assert roomy.snapshot().to_dict()["seats"][6]["name"] in (None, "")  # nothing written


def test_a_good_name_is_trimmed_and_kept(roomy_client: Any, roomy: Any) -> None:
    body = {"kind": "seat", "seat": 6, "name": "  Zoë  🂡 Lee ", "chips": 500}
    response = roomy_client.post("/api/command", json=body, headers={"X-Admin-Pin": PIN})
    assert response.status_code == 200, response.get_json()
    assert roomy.snapshot().to_dict()["seats"][6]["name"] == "Zoë 🂡 Lee"


@pytest.mark.parametrize(("name", "words"), BAD_NAMES[:6])
def test_the_new_game_form_and_the_dice_players_follow_the_same_rule(client: Any, name: str, words: str) -> None:
    token = _token(client)
    headers = {"X-CSRF-Token": token}
    game = client.post("/admin/game", json={"players": ["Ann", name], "seats": 4}, headers=headers)
    assert "1 to 24 printable characters" in _assert_json_error(game, 400, words)["error"]
    dice = client.post("/api/dice/new", json={"players": ["Ann", name]}, headers=headers)
    assert "1 to 24 printable characters" in _assert_json_error(dice, 400, words)["error"]
    first = client.post("/api/dice/new", json={"players": ["Ann", "Bob"], "first": name}, headers=headers)
    _assert_json_error(first, 400, words)
    assert client.post("/api/dice/new", json={"players": ["Ann", "Bob"]}, headers=headers).status_code == 200
    roll = client.post("/api/dice/roll-off", json={"dice": {name: "K", "Bob": "A"}}, headers=headers)
    _assert_json_error(roll, 400, words)


def test_a_formula_like_name_is_text_in_the_ledger_csv(roomy_client: Any) -> None:
    body = {"kind": "seat", "seat": 6, "name": "=HYPERLINK(1)", "chips": 500}
    assert roomy_client.post("/api/command", json=body, headers={"X-Admin-Pin": PIN}).status_code == 200
    text = roomy_client.get("/api/export/ledger.csv").get_data(as_text=True)
    names = [row["name"] for row in csv.DictReader(io.StringIO(text, newline=""))]
    assert "'=HYPERLINK(1)" in names and "=HYPERLINK(1)" not in names
    assert not any(n.startswith(("=", "+", "-", "@", "\t", "\r")) for n in names)


# ----------------------------------------------------------------------------- the join address
def _forged_get(app: Any, client: Any, path: str, host: str) -> Any:
    """GET ``path`` with the logged-in session of ``client`` and a forged ``Host`` (a client
    without its own cookie jar, which would leave out a cookie set for another host)."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    bare = app.test_client(use_cookies=False)
    return bare.get(path, headers={"Host": host, "Cookie": f"session={cookie.value}"})


def test_a_forged_host_never_reaches_the_admin_page_or_its_qr_code(service: Any, tmp_path: Path) -> None:
    from dataclasses import replace

    from tocktable.config import Config, WebConfig

    config = replace(Config(), data_dir=tmp_path, web=WebConfig(host="192.168.7.9", port=8123))
    from web import create_app

    app = create_app(config, service, admin_pin=PIN)
    app.config["TESTING"] = True
    client = app.test_client()
    login(client)
    page = _forged_get(app, client, "/admin", "evil.example:666").get_data(as_text=True)
    assert 'id="join-url"' in page and "evil.example" not in page
    assert "http://192.168.7.9:8123/" in page  # the configured address
    honest = client.get("/admin/join.svg").data
    assert _forged_get(app, client, "/admin/join.svg", "evil.example:666").data == honest  # whatever the Host


def test_the_join_address_is_the_bound_servers(app: Any, client: Any) -> None:
    from web.serve import WebServer

    server = WebServer(app, "127.0.0.1", 0, threads=12)
    try:
        login(client)
        page = _forged_get(app, client, "/admin", "evil.example").get_data(as_text=True)
        assert 'id="join-url"' in page and "evil.example" not in page
        assert f"http://127.0.0.1:{server.port}/" in page
    finally:
        server.stop()
