"""The host's pages: PIN login, session, CSRF, slowed brute force, and every admin command."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import DEMO_FLOP, DEMO_PREFLOP, PIN, make_app, play
from tocktable.config import Config
from tocktable.steps import ChooseButton
from web.context import EXTENSION
from web.security import LoginLocked, PinGuard


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def pre_login_token(client: Any) -> str:
    html = client.get("/admin").get_data(as_text=True)
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match is not None
    return match.group(1)


def login(client: Any, pin: str = PIN) -> str:
    """Log in; the logged-in page's CSRF token."""
    token = pre_login_token(client)
    response = client.post("/admin/login", data={"pin": pin, "csrf_token": token})
    assert response.status_code == 302, response.get_data(as_text=True)
    html = client.get("/admin").get_data(as_text=True)
    match = re.search(r'<meta name="csrf-token" content="([^"]+)">', html)
    assert match is not None
    assert match.group(1) != token  # a token seen before login is worthless after
    return match.group(1)


def post(client: Any, url: str, token: str, body: Any = None) -> Any:
    return client.post(url, json=body if body is not None else {}, headers={"X-CSRF-Token": token})


def state(client: Any) -> dict[str, Any]:
    data: dict[str, Any] = client.get("/api/state").get_json()
    return data


ADMIN_POSTS = ["/admin/command", "/admin/game", "/admin/end", "/admin/chip-set", "/admin/logout",
               "/admin/setup/camera", "/admin/setup/zones", "/admin/setup/zones/calibrate",
               "/admin/setup/dry-run/start", "/admin/setup/dry-run/stop", "/admin/setup/deck/start",
               "/admin/setup/deck/stop", "/admin/setup/deck/restart", "/admin/setup/deck/capture",
               "/admin/setup/deck/keep", "/admin/setup/deck/retake", "/admin/setup/deck/redo", "/admin/setup/deck/lay",
               "/admin/setup/deck/lay-check", "/admin/setup/deck/check"]
ADMIN_GETS = ["/admin/camera", "/admin/camera/frame.jpg", "/admin/camera/view.json", "/admin/join.svg",
              "/admin/state", "/admin/events", "/admin/setup", "/admin/setup/aim.json",
              "/admin/setup/zones.json", "/admin/setup/zones/check.json", "/admin/setup/dry-run.json",
              "/admin/setup/deck.json", "/admin/setup/deck/crop.jpg"]


def test_every_admin_route_is_in_the_lists_below(app: Any) -> None:
    routes = {(r.rule, m) for r in app.url_map.iter_rules() if r.rule.startswith("/admin")
              for m in (r.methods or ()) if m in ("GET", "POST")}  # fmt: skip
    listed = {(u, "POST") for u in ADMIN_POSTS} | {(u, "GET") for u in ADMIN_GETS}
    public = {("/admin", "GET"), ("/admin/login", "POST")}
    assert routes == listed | public


@pytest.mark.parametrize("url", ADMIN_GETS)
def test_admin_pages_refuse_without_a_session(client: Any, url: str) -> None:
    response = client.get(url, headers={"Accept": "application/json"})
    assert response.status_code == 401
    assert "log in" in response.get_json()["error"]
    page = client.get(url, headers={"Accept": "text/html"})
    assert page.status_code == 302 and page.headers["Location"].endswith("/admin")


@pytest.mark.parametrize("url", ADMIN_POSTS)
def test_admin_posts_refuse_without_a_session(client: Any, service: Any, url: str) -> None:
    token = pre_login_token(client)  # a valid CSRF token, but nobody logged in
    before = service.snapshot().version
    response = post(client, url, token, {"kind": "press", "button": "next"})
    assert response.status_code == 401
    assert service.snapshot().version == before


@pytest.mark.parametrize("url", [*ADMIN_POSTS, "/admin/login"])
def test_every_post_refuses_a_bad_or_missing_csrf_token(client: Any, service: Any, url: str) -> None:
    login(client)
    before = service.snapshot().version
    for headers in ({}, {"X-CSRF-Token": "forged"}):
        response = client.post(url, json={"kind": "press", "button": "next"}, headers=headers)
        assert response.status_code == 403, (url, headers)
        assert "CSRF" in response.get_json()["error"]
    form = client.post(url, data={"pin": PIN, "csrf_token": "forged"})
    assert form.status_code == 403
    assert service.snapshot().version == before


def test_login_with_the_right_pin_and_out_again(client: Any) -> None:
    page = client.get("/admin")
    assert page.status_code == 200 and b'name="pin"' in page.data
    token = login(client)
    assert client.get("/admin/camera").status_code == 200
    response = client.post("/admin/logout", data={"csrf_token": token})
    assert response.status_code == 302
    assert client.get("/admin/camera", headers={"Accept": "application/json"}).status_code == 401


def test_a_wrong_pin_is_refused(client: Any) -> None:
    token = pre_login_token(client)
    response = client.post("/admin/login", data={"pin": "000000", "csrf_token": token})
    assert response.status_code == 401
    assert b"wrong PIN" in response.data
    assert client.get("/admin/join.svg", headers={"Accept": "application/json"}).status_code == 401


def test_pin_guessing_is_slowed_then_locked(service: Any, tmp_path: Path) -> None:
    clock = FakeClock()
    guard = PinGuard(PIN, free_tries=3, base_delay=30, clock=clock)
    client = make_app(service, tmp_path, guard=guard).test_client()
    token = pre_login_token(client)
    codes = [client.post("/admin/login", data={"pin": f"{i:06d}", "csrf_token": token}).status_code
             for i in range(4)]  # fmt: skip
    assert codes == [401, 401, 401, 401]  # the fourth mistake starts a lock
    locked = client.post("/admin/login", data={"pin": PIN, "csrf_token": token})
    assert locked.status_code == 429  # even the right PIN is not looked at while locked
    assert int(locked.headers["Retry-After"]) == 31
    assert b"try again in 30 s" in locked.data
    clock.now += 31
    assert client.post("/admin/login", data={"pin": "111111", "csrf_token": token}).status_code == 401
    clock.now += 1
    assert client.post("/admin/login", data={"pin": PIN, "csrf_token": token}).status_code == 429  # 60 s now
    clock.now += 61
    assert client.post("/admin/login", data={"pin": PIN, "csrf_token": token}).status_code == 302


def test_the_scripting_api_shares_the_pin_guard(service: Any, tmp_path: Path) -> None:
    clock = FakeClock()
    client = make_app(service, tmp_path, guard=PinGuard(PIN, free_tries=2, clock=clock)).test_client()
    body = {"kind": "choose_button", "seat": 0}
    codes = [client.post("/api/command", json=body, headers={"X-Admin-Pin": "9999"}).status_code for _ in range(4)]
    assert codes == [403, 403, 403, 429]
    assert client.post("/api/command", json=body, headers={"X-Admin-Pin": PIN}).status_code == 429
    clock.now += 10_000
    ok = client.post("/api/command", json=body, headers={"X-Admin-Pin": PIN})
    assert ok.status_code == 200 and ok.get_json()["steps"] == ["choose_button"]


def test_pin_guard_rules() -> None:
    clock = FakeClock()
    guard = PinGuard("1234", free_tries=2, base_delay=10, max_delay=25, global_burst=4, global_every=50, clock=clock)
    assert guard.check("1234", "10.0.0.1")
    assert not guard.check("0000", "10.0.0.1") and not guard.check("0001", "10.0.0.1")
    assert guard.retry_after("10.0.0.1") == 0
    assert not guard.check("0002", "10.0.0.1")
    assert guard.retry_after("10.0.0.1") == 10
    assert guard.retry_after("10.0.0.2") == 0  # another device keeps its own tries
    clock.now += 10
    assert not guard.check("0003", "10.0.0.1")  # the fourth wrong PIN spends the shared allowance of 4
    assert guard.retry_after("10.0.0.1") == 20
    # Wrong PINs from everywhere are now checked one per 50 s (a fifth of one grew back in the 10 s).
    assert guard.retry_after("10.0.0.2") == pytest.approx(40)
    with pytest.raises(LoginLocked) as locked:
        guard.check("1234", "10.0.0.2")
    assert locked.value.retry_after == pytest.approx(40) and isinstance(locked.value, PermissionError)
    assert "several devices" in str(locked.value)
    clock.now += 40
    assert guard.check("1234", "10.0.0.2")  # a slow-down, never a long lock
    assert not PinGuard("", clock=clock).check("", "a")  # no PIN: nobody gets in
    capped = PinGuard("1234", free_tries=2, base_delay=10, max_delay=25, global_burst=99, clock=clock)
    assert not capped.check("0000", "c") and not capped.check("0001", "c")
    for expected in (10, 20, 25, 25):
        assert not capped.check("0002", "c")
        assert capped.retry_after("c") == expected
        clock.now += expected


def test_pin_made_at_random_on_first_start_kept_and_overridden_by_config(service: Any, tmp_path: Path) -> None:
    from web import create_app

    config = replace(Config(), data_dir=tmp_path / "data")
    first = create_app(config, service).config["TOCKTABLE_ADMIN_PIN"]
    assert first.isdigit() and len(first) == 6
    assert (tmp_path / "data" / "admin-pin").read_text().strip() == first
    assert create_app(config, service).config["TOCKTABLE_ADMIN_PIN"] == first
    configured = replace(config, web=replace(config.web, admin_pin="97531"))
    assert create_app(configured, service).config["TOCKTABLE_ADMIN_PIN"] == "97531"


# ----------------------------------------------------------------------------- commands
def test_virtual_console_presses_the_buttons_with_amounts(client: Any, service: Any) -> None:
    token = login(client)
    assert post(client, "/admin/command", token, {"kind": "choose_button", "seat": 0}).status_code == 200
    assert state(client)["to_act"] == 3
    assert post(client, "/admin/command", token, {"kind": "bet_amount", "amount": 40}).status_code == 200
    assert state(client)["pending_bet"] == 40
    assert post(client, "/admin/command", token, {"kind": "press", "button": "bet_raise"}).status_code == 200
    now = state(client)
    assert now["seats"][3]["bet"] == 40 and now["to_act"] == 4
    assert post(client, "/admin/command", token, {"kind": "press", "button": "fold"}).status_code == 200
    assert state(client)["seats"][4]["state"] == "folded"
    assert post(client, "/admin/command", token, {"kind": "press", "button": "undo"}).status_code == 200
    assert state(client)["seats"][4]["state"] == "playing"
    refused = post(client, "/admin/command", token, {"kind": "bet_amount", "amount": 5})
    assert refused.status_code == 409 and "not allowed" in refused.get_json()["error"]
    malformed = post(client, "/admin/command", token, {"kind": "jump"})
    assert malformed.status_code == 400 and "unknown command kind" in malformed.get_json()["error"]
    assert post(client, "/admin/command", token, "not an object").status_code == 400


def test_correct_a_card_the_camera_read(client: Any, service: Any) -> None:
    token = login(client)
    play(service, [ChooseButton(seat=0), *DEMO_PREFLOP, DEMO_FLOP[0]])
    response = post(client, "/admin/command", token, {"kind": "correct", "seat": None, "index": 2, "card": "7d"})
    assert response.status_code == 200
    assert state(client)["board"] == ["Ah", "Kd", "7d"]
    bad = post(client, "/admin/command", token, {"kind": "correct", "seat": None, "index": 4, "card": "2c"})
    assert bad.status_code == 409
    assert bad.get_json()["error"] == "there is no board card 5 to correct: only 3 board cards are dealt"


def test_new_game_and_end_of_session(client: Any, service: Any) -> None:
    token = login(client)
    old = service.session_id
    game = {"variant": "tock", "seats": 4, "players": "Zoe, Yan\nXia", "buy_in": 500, "blinds": "10/20, 20/40/5",
            "level_minutes": 20, "chip_set": "dealer"}  # fmt: skip
    response = post(client, "/admin/game", token, game)
    assert response.status_code == 200, response.get_json()
    now = state(client)
    assert now["session"] == service.session_id != old
    assert now["variant"] == "tock" and len(now["seats"]) == 4
    assert [s["name"] for s in now["seats"]] == ["Zoe", "Yan", "Xia", None]
    assert [s["stack"] for s in now["seats"][:3]] == [500, 500, 500]
    assert now["blinds"]["levels"] == 2 and now["blinds"]["next"] == {"small_blind": 20, "big_blind": 40, "ante": 5}
    assert now["chip_set"]["name"] == "dealer"
    assert [s.closed_at is not None for s in service.store.sessions()] == [True, False]
    bad = post(client, "/admin/game", token, {"seats": 2, "players": "A, B, C"})
    assert bad.status_code == 400 and "3 players for 2 seats" in bad.get_json()["error"]
    assert state(client)["session"] == now["session"]  # nothing changed
    ended = post(client, "/admin/end", token)
    assert ended.status_code == 200
    data = ended.get_json()
    assert data["ended"] == now["session"] and data["session"] == service.session_id
    after = state(client)
    assert after["variant"] == "tock" and all(s["name"] is None for s in after["seats"])


def test_chip_set_choice_is_drawn_and_kept(client: Any, service: Any, tmp_path: Path) -> None:
    token = login(client)
    response = post(client, "/admin/chip-set", token, {"name": "white-red-blue-green"})
    assert response.status_code == 200
    play(service, [ChooseButton(seat=0)])
    now = state(client)
    assert now["chip_set"]["name"] == "white-red-blue-green"
    assert now["seats"][2]["bet_chips"] == [[10, 1]]  # the big blind, one blue chip
    assert post(client, "/admin/chip-set", token, {"name": "gold"}).status_code == 400
    again = make_app(service, tmp_path).test_client()
    assert again.get("/api/state").get_json()["chip_set"]["name"] == "white-red-blue-green"


def test_a_chip_set_that_cannot_be_kept_is_an_error_to_the_admin(app: Any, client: Any, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    app.extensions[EXTENSION].settings_file = blocker / "dashboard.json"
    token = login(client)
    response = post(client, "/admin/chip-set", token, {"name": "white-red-blue-green"})
    data = response.get_json()
    assert response.status_code == 500 and data["ok"] is False
    assert "cannot be kept" in data["error"] and "a-file" in data["error"]
    assert state(client)["chip_set"]["name"] == "white-red-blue-green"  # used until the restart all the same


def test_join_qr_code_is_an_svg_of_the_lan_url(client: Any, app: Any) -> None:
    app.extensions[EXTENSION].public_url = "http://192.168.1.20:8000/"
    login(client)
    page = client.get("/admin").get_data(as_text=True)
    assert "http://192.168.1.20:8000/" in page
    svg = client.get("/admin/join.svg")
    assert svg.mimetype == "image/svg+xml"
    assert svg.data.lstrip().startswith(b"<svg") and b"<path" in svg.data
