"""The host's key: a login cookie that tells nothing about the PIN, and wrong PINs slowed per
device and together without locking out the host's phone."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import zlib
from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import PIN, make_app
from tests.web.test_admin import FakeClock
from web.context import EXTENSION
from web.security import PinGuard, client_key

HOST = "192.168.1.10"
GUEST = "192.168.1.66"


def pre_login_token(client: Any) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/admin").get_data(as_text=True))
    assert match is not None
    return match.group(1)


def try_pin(client: Any, pin: str) -> Any:
    return client.post("/admin/login", data={"pin": pin, "csrf_token": pre_login_token(client)})


def logged_in_token(client: Any) -> str:
    """The CSRF token of the logged-in admin page (asserts the client is logged in)."""
    page = client.get("/admin").get_data(as_text=True)
    match = re.search(r'<meta name="csrf-token" content="([^"]+)">', page)
    assert match is not None, "not logged in"
    return match.group(1)


def can_command(client: Any) -> bool:
    """Whether the host's page can still run a command (the logged-in session works)."""
    token = logged_in_token(client)
    response = client.post("/admin/command", json={"kind": "bet_amount", "amount": 0}, headers={"X-CSRF-Token": token})
    return response.status_code in (200, 409)  # 409: the game refused it, the session was let through


def on(app: Any, address: str) -> Any:
    """A test client that comes from ``address``."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def cookie_payload(client: Any) -> str:
    """The session cookie's readable content (Flask signs it, it does not hide it)."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    data = cookie.value.split(".")
    compressed = data[0] == ""
    body = data[1] if compressed else data[0]
    raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    return (zlib.decompress(raw) if compressed else raw).decode("utf-8")


def pin_digests(pin: str) -> set[str]:
    """Every digest of ``pin`` a careless cookie might carry (the PIN alone or with a fixed prefix)."""
    out = set()
    for text in (pin, "tocktable-pin:" + pin, "tocktable:" + pin):
        for name in ("md5", "sha1", "sha256", "sha512", "blake2b"):
            digest = hashlib.new(name, text.encode()).hexdigest()
            out.update({digest, digest[:16], digest[:12]})
    return out


# ----------------------------------------------------------------------------- the cookie
def test_the_login_cookie_holds_no_digest_of_any_pin(service: Any, tmp_path: Path) -> None:
    app = make_app(service, tmp_path, admin_pin="4071")
    client = app.test_client()
    assert try_pin(client, "4071").status_code == 302
    payload = cookie_payload(client)
    session = json.loads(payload)
    assert session["admin"]  # the login is in the cookie...
    for candidate in (f"{n:04d}" for n in range(10_000)):  # ...and no digest of any 4-digit PIN is
        for digest in pin_digests(candidate):
            assert digest not in payload, (candidate, digest)
    session_id, _, mac = session["admin"].partition(".")
    for candidate in (f"{n:04d}" for n in range(10_000)):  # nor a MAC keyed with a PIN alone
        assert hashlib.sha256((session_id + candidate).encode()).hexdigest() != mac
        assert hashlib.sha256((candidate + session_id).encode()).hexdigest() != mac


def test_a_long_pin_does_not_appear_in_the_cookie_and_two_logins_differ(service: Any, tmp_path: Path) -> None:
    pin = "824193650271"
    app = make_app(service, tmp_path, admin_pin=pin)
    first, second = app.test_client(), app.test_client()
    assert try_pin(first, pin).status_code == 302 and try_pin(second, pin).status_code == 302
    one, two = json.loads(cookie_payload(first)), json.loads(cookie_payload(second))
    assert pin not in cookie_payload(first)
    assert one["admin"] != two["admin"]  # a random session id each time: nothing fixed to recognise
    assert one["admin"].partition(".")[0] != two["admin"].partition(".")[0]
    assert first.get_cookie("session").value != second.get_cookie("session").value
    assert can_command(first) and can_command(second)


def test_changing_the_pin_ends_every_session(service: Any, tmp_path: Path) -> None:
    app = make_app(service, tmp_path)
    host, other = app.test_client(), app.test_client()
    assert try_pin(host, PIN).status_code == 302 and try_pin(other, PIN).status_code == 302
    old_cookie = host.get_cookie("session").value
    app.extensions[EXTENSION].guard.set_pin("135790")
    for client in (host, other):
        assert client.get("/admin/camera/view.json").status_code == 401
        assert b'name="pin"' in client.get("/admin").data  # back to the login form
    replay = app.test_client(use_cookies=False)
    assert replay.get("/admin/camera/view.json", headers={"Cookie": f"session={old_cookie}"}).status_code == 401
    assert try_pin(host, "135790").status_code == 302 and can_command(host)


def test_a_session_survives_a_restart_with_the_same_pin_not_with_another(service: Any, tmp_path: Path) -> None:
    client = make_app(service, tmp_path).test_client()
    assert try_pin(client, PIN).status_code == 302
    cookie = client.get_cookie("session").value
    again = make_app(service, tmp_path).test_client(use_cookies=False)  # the same data directory, a new app
    assert again.get("/admin/camera/view.json", headers={"Cookie": f"session={cookie}"}).status_code == 200
    changed = make_app(service, tmp_path, admin_pin="97531").test_client(use_cookies=False)
    assert changed.get("/admin/camera/view.json", headers={"Cookie": f"session={cookie}"}).status_code == 401


def test_logging_out_ends_the_session_on_the_server(app: Any) -> None:
    client = app.test_client()
    assert try_pin(client, PIN).status_code == 302
    copied = client.get_cookie("session").value
    client.post("/admin/logout", data={"csrf_token": logged_in_token(client)})
    thief = app.test_client(use_cookies=False)
    assert thief.get("/admin/camera/view.json", headers={"Cookie": f"session={copied}"}).status_code == 401


# ----------------------------------------------------------------------------- wrong PINs
@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def guarded(service: Any, tmp_path: Path, clock: FakeClock) -> Any:
    """An app whose guard has the production limits and a fake clock."""
    return make_app(service, tmp_path, guard=PinGuard(PIN, clock=clock))


def test_a_guests_guesses_never_lock_out_the_hosts_logged_in_phone(guarded: Any, clock: FakeClock) -> None:
    host = on(guarded, HOST)
    assert try_pin(host, PIN).status_code == 302
    guest = on(guarded, GUEST)
    codes = [try_pin(guest, f"{n:06d}").status_code for n in range(8)]
    assert codes[:6] == [401] * 6 and codes[-1] == 429  # the guest is locked out...
    assert can_command(host)  # ...the host's phone is not
    for n in range(40):  # the guest on many addresses, until the shared allowance is spent
        try_pin(on(guarded, f"10.9.{n}.1"), "000000")
    assert guarded.extensions[EXTENSION].guard.retry_after("10.200.0.1") > 0
    assert can_command(host)  # still not: a logged-in session never asks for the PIN
    same_address = on(guarded, GUEST)  # even a login made from the guest's own address keeps working
    clock.now += 10_000
    assert try_pin(same_address, PIN).status_code == 302
    for n in range(10):
        try_pin(on(guarded, GUEST), f"{n:06d}")
    assert can_command(same_address)


def test_a_login_from_another_address_keeps_its_own_tries(guarded: Any) -> None:
    guest = on(guarded, GUEST)
    codes = [try_pin(guest, f"{n:06d}").status_code for n in range(7)]
    assert codes[-1] == 429
    assert try_pin(guest, PIN).status_code == 429  # the right PIN is not even looked at while locked
    other = on(guarded, HOST)
    assert try_pin(other, "999999").status_code == 401  # a mistake of the host's own...
    assert try_pin(other, PIN).status_code == 302  # ...then the right PIN: in


def test_many_addresses_slow_pin_checks_down_but_never_lock_anyone_for_long(guarded: Any, clock: FakeClock) -> None:
    guard = guarded.extensions[EXTENSION].guard
    for n in range(10):  # ten addresses, five wrong PINs each, at once
        guest = on(guarded, f"192.168.1.{100 + n}")
        for k in range(5):
            try_pin(guest, f"{n}{k}0000")
    host = on(guarded, HOST)
    slowed = try_pin(host, PIN)
    assert slowed.status_code == 429
    wait = int(slowed.headers["Retry-After"])
    assert 0 < wait <= guard.global_every + 1  # one check every 30 s, not a lock of minutes
    assert b"several devices" in slowed.data
    api = host.post("/api/command", json={"kind": "undo"}, headers={"X-Admin-Pin": PIN})
    assert api.status_code == 429 and api.get_json()["ok"] is False
    clock.now += wait
    assert try_pin(host, PIN).status_code == 302


def test_ipv6_addresses_of_one_network_share_their_tries() -> None:
    clock = FakeClock()
    guard = PinGuard(PIN, free_tries=3, clock=clock)
    for n in range(3):
        assert not guard.check("000000", f"2001:db8:5:6::{n + 1:x}")
    assert guard.retry_after("2001:db8:5:6:ffff::9") == 0  # three free tries spent, no lock yet
    assert not guard.check("000000", "2001:db8:5:6:ffff::9")
    assert guard.retry_after("2001:db8:5:6::1234") > 0  # a new address in the same /64: the same lock
    assert guard.retry_after("2001:db8:5:7::1") == 0  # another network: its own tries
    assert client_key("::ffff:192.168.1.7") == "192.168.1.7" and client_key(None) == "?"


def test_memory_stays_bounded_under_a_flood_of_addresses() -> None:
    clock = FakeClock()
    guard = PinGuard(PIN, global_burst=10**9, max_clients=500, clock=clock)
    for n in range(5000):
        guard.check("000000", f"2001:db8:{n:x}::1")
    assert len(guard._clients) <= 500


# ----------------------------------------------------------------------------- how long guessing takes
def guesses_in(seconds: float, guard: PinGuard, clock: FakeClock, addresses: int) -> int:
    """How many PINs an attacker checks in ``seconds`` with ``addresses`` addresses, each time
    the guard lets one of them (the fake clock jumps to the next such moment)."""
    start, checked, turn = clock.now, 0, 0
    names = [f"10.{n // 250}.{n % 250}.1" for n in range(addresses)]
    while clock.now - start < seconds:
        shared = guard.retry_after("203.0.113.1")  # an address that never guessed: the shared wait alone
        if shared > 0:
            clock.now += shared
            continue
        waits = []
        for _ in range(addresses):  # the next address (round robin) that is not locked itself
            name = names[turn % addresses]
            turn += 1
            wait = guard.retry_after(name)
            if wait == 0:
                guard.check("000000", name)
                checked += 1
                break
            waits.append(wait)
        else:
            clock.now += min(waits)
    return checked


def test_one_address_guesses_96_pins_a_day_after_the_first_hour() -> None:
    clock = FakeClock()
    guard = PinGuard(PIN, clock=clock)
    first_hour = guesses_in(3600, guard, clock, addresses=1)
    assert first_hour <= 13  # 5 free, then after 30 s, 1 min, 2 min, 4 min, 8 min, 15 min, 15 min...
    day = guesses_in(86_400, guard, clock, addresses=1)
    assert day <= 96
    years = 500_000 / day / 365  # half the 1,000,000 six-digit PINs, on average
    assert years > 14  # docs/architecture.md: about 14 years


def test_many_addresses_together_guess_one_pin_every_30_s() -> None:
    clock = FakeClock()
    guard = PinGuard(PIN, clock=clock)
    first = guesses_in(3600, guard, clock, addresses=300)
    assert first <= guard.global_burst + 3600 / guard.global_every + 1
    day = guesses_in(86_400, guard, clock, addresses=300)
    assert day <= 86_400 / guard.global_every + 1  # 2,880 a day, whatever the number of addresses
    days = 500_000 / day
    assert days > 170  # docs/architecture.md: about 174 days for half the PINs, 347 for all


def near_misses(pin: str) -> list[str]:
    """Wrong PINs that share the right one's leading digits: every shorter prefix of 4 digits or
    more, the PIN with a digit added, and the PIN with any one digit changed."""
    prefixes = [pin[:n] for n in range(4, len(pin))]
    longer = [pin + "0", pin + pin[-1], pin + "9"]
    changed = [pin[:i] + str((int(pin[i]) + 1) % 10) + pin[i + 1 :] for i in range(len(pin))]
    return prefixes + longer + changed


@pytest.mark.parametrize("pin", [PIN, "1234", "908172635401"])
def test_a_wrong_pin_sharing_the_right_ones_leading_digits_is_refused(pin: str) -> None:
    guard = PinGuard(pin, free_tries=100, global_burst=100, clock=FakeClock())
    misses = near_misses(pin)
    assert pin not in misses and len(misses) == 2 * len(pin) - 4 + 3
    assert [guard.check(wrong, HOST) for wrong in misses] == [False] * len(misses)
    assert guard.check(pin, HOST)


def test_the_login_form_refuses_a_pin_sharing_the_right_ones_first_digits(guarded: Any, clock: FakeClock) -> None:
    host = on(guarded, HOST)
    for wrong in (PIN[:4], PIN[:5] + str((int(PIN[5]) + 1) % 10), PIN + "0"):
        assert try_pin(host, wrong).status_code == 401
        clock.now += 10_000  # past any wait, so each try is really checked
    assert try_pin(host, PIN).status_code == 302
