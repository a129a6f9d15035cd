"""The host's key: the admin PIN, slowed guessing, the login cookie and CSRF tokens.

- **PIN attempts** go through one :class:`PinGuard` per app (the admin login form and the
  ``X-Admin-Pin`` header of ``POST /api/command`` alike). Each client (an IPv4 address, or an
  IPv6 /64 network, which one device can fill with addresses) gets five free tries; after that
  each failure locks that client alone for twice as long as the one before (30 s ... 15 min).
  Wrong PINs from everywhere together are limited too (20 at once, then one every 30 s), so many
  addresses guess no faster than that; this slows PIN checks, it never locks anyone out for
  long, and a phone already logged in is never asked for the PIN at all.
- **The login cookie** holds a random session id and a MAC of it under a key derived from the
  server's secret (``web-secret`` in the data directory, mode 0600) and the PIN: nothing in it
  depends on the PIN alone, so it tells nothing about the PIN to whoever sees it. Changing the
  PIN changes every MAC, which ends every session; logging out ends that session on the server.
  Flask signs the cookie with the same secret, so a restart does not log the host out.
- **CSRF**: every admin form and every admin POST carries the session's token (a hidden field
  ``csrf_token`` or the header ``X-CSRF-Token``); a POST without the right one is refused.

How long guessing takes with these limits (a six-digit PIN, 1,000,000 possibilities; the
attacker simulated on a fake clock in ``tests/web/test_security.py``): from one address, 13
guesses in the first hour, then one every 15 minutes (96 a day): half the PINs take about 14
years. From any number of addresses together, 20 at once, then one every 30 seconds (2,880 a
day): half the PINs take about 174 days, all of them 347.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from table.errors import TocktableError

SECRET_FILE = "web-secret"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
SESSION_HOURS = 16
"""How long a login lasts (the cookie's lifetime, and how long an ended session is remembered)."""


class LoginLocked(TocktableError, PermissionError):
    """Too many wrong PINs: no attempt is checked until ``retry_after`` seconds have passed."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class PinFormatError(TocktableError, ValueError):
    """A PIN that is not 4 to 12 digits."""


def client_key(address: str | None) -> str:
    """Whose tries an address spends: an IPv4 address itself, an IPv6 address's /64 network
    (one device can take any number of addresses in it), an IPv4-mapped IPv6 address as IPv4.

    >>> client_key("192.168.1.7"), client_key("2001:db8:1:2:aaaa::1"), client_key("::ffff:10.0.0.3")
    ('192.168.1.7', '2001:db8:1:2::/64', '10.0.0.3')
    """
    try:
        parsed = ipaddress.ip_address((address or "").split("%")[0])
    except ValueError:
        return address or "?"
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


@dataclass
class _Record:
    failures: int = 0
    locked_until: float = 0.0
    last: float = 0.0


class PinGuard:
    """Checks PINs in constant time, slows down guessing, and seals the host's sessions.

    Per client (:func:`client_key`): ``free_tries`` failures are allowed back to back; failure
    ``free_tries + k`` locks that client for ``base_delay * 2**(k-1)`` seconds (at most
    ``max_delay``). A right PIN clears the client's record. Together: wrong PINs spend a shared
    allowance of ``global_burst`` that grows back by one every ``global_every`` seconds; while it
    is spent, PIN checks from any client wait for it (``retry_after`` is at most
    ``global_every``). Logged-in sessions never pass through here. ``clock`` gives seconds
    (tests pass a fake one).
    """

    def __init__(
        self,
        pin: str,
        *,
        free_tries: int = 5,
        base_delay: float = 30.0,
        max_delay: float = 900.0,
        global_burst: int = 20,
        global_every: float = 30.0,
        max_clients: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._pin = pin
        self.free_tries = free_tries
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.global_burst = global_burst
        self.global_every = global_every
        self.max_clients = max_clients
        self.clock = clock
        self._lock = threading.Lock()
        self._clients: dict[str, _Record] = {}
        self._allowance = float(global_burst)
        self._allowance_at = clock()
        self._ended: dict[str, float] = {}

    @property
    def configured(self) -> bool:
        """False when no PIN is set: nobody can log in (never an open admin)."""
        return bool(self._pin)

    def set_pin(self, pin: str) -> None:
        """Replace the PIN (4 to 12 digits); every session sealed with the old one ends."""
        check_pin_format(pin)
        with self._lock:
            self._pin = pin

    # ------------------------------------------------------------------ guessing
    def retry_after(self, address: str | None) -> float:
        """Seconds until ``address`` may try a PIN again (0 when it may now)."""
        with self._lock:
            return self._wait(client_key(address), self.clock())[0]

    def _refill(self, now: float) -> None:
        grown = (now - self._allowance_at) / self.global_every
        self._allowance = min(float(self.global_burst), self._allowance + grown)
        self._allowance_at = now

    def _wait(self, key: str, now: float) -> tuple[float, str]:
        record = self._clients.get(key)
        mine = record.locked_until - now if record is not None else 0.0
        if mine > 0:
            return mine, (f"too many wrong PINs from this device: try again in {mine:.0f} s "
                          "(each further mistake doubles the wait)")  # fmt: skip
        self._refill(now)
        if self._allowance < 1:
            wait = (1 - self._allowance) * self.global_every
            return wait, (f"many wrong PINs from several devices: PINs are checked once every "
                          f"{self.global_every:.0f} s for now; try again in {wait:.0f} s "
                          "(phones already logged in are not affected)")  # fmt: skip
        return 0.0, ""

    def check(self, given: str, address: str | None) -> bool:
        """Whether ``given`` is the PIN. Raises :class:`LoginLocked` (without looking at the
        PIN) while this client waits; a wrong PIN counts against it and against the allowance."""
        key = client_key(address)
        with self._lock:
            now = self.clock()
            wait, why = self._wait(key, now)
            if wait > 0:
                raise LoginLocked(why, wait)
            ok = bool(self._pin) and hmac.compare_digest(given.encode(), self._pin.encode())
            if ok:
                self._clients.pop(key, None)
                return True
            self._allowance -= 1
            record = self._clients.pop(key, None) or _Record()
            self._clients[key] = record  # newest last: the oldest are forgotten first
            record.failures += 1
            record.last = now
            over = record.failures - self.free_tries
            if over > 0:
                record.locked_until = now + min(self.max_delay, self.base_delay * 2 ** min(over - 1, 30))
            if len(self._clients) > self.max_clients:
                self._forget(now)
            return False

    def _forget(self, now: float) -> None:
        """Keep memory bounded: drop clients that are not locked, oldest first, then the oldest.
        (Forgetting a client gives it its free tries back, which the shared allowance still limits.)"""
        for key in [k for k, r in self._clients.items() if r.locked_until <= now]:
            if len(self._clients) <= self.max_clients * 9 // 10:
                return
            del self._clients[key]
        while len(self._clients) > self.max_clients:
            del self._clients[next(iter(self._clients))]

    # ------------------------------------------------------------------ the login cookie
    def _seal(self, key: bytes, session_id: str) -> str:
        mac_key = hmac.new(key, b"tocktable admin session", hashlib.sha256).digest()
        message = b"%s\x00%s" % (session_id.encode(), self._pin.encode())
        return hmac.new(mac_key, message, hashlib.sha256).hexdigest()

    def open_session(self, key: bytes) -> str:
        """A new login: a random session id and its MAC under ``key`` (the server's secret) and the PIN."""
        session_id = secrets.token_urlsafe(18)
        with self._lock:
            return f"{session_id}.{self._seal(key, session_id)}"

    def holds_session(self, token: object, key: bytes) -> bool:
        """Whether ``token`` (from the cookie) is a session opened with the current PIN and not ended."""
        if not isinstance(token, str) or not self._pin:
            return False
        session_id, _, mac = token.partition(".")
        with self._lock:
            if not session_id or session_id in self._ended:
                return False
            return hmac.compare_digest(mac.encode(), self._seal(key, session_id).encode())

    def end_session(self, token: object) -> None:
        """Log this session out on the server too (a copy of its cookie no longer works)."""
        if not isinstance(token, str):
            return
        with self._lock:
            now = self.clock()
            self._ended = {k: t for k, t in self._ended.items() if t > now}
            self._ended[token.partition(".")[0]] = now + SESSION_HOURS * 3600


def check_pin_format(pin: str) -> str:
    """``pin`` if it is 4 to 12 digits; else a :class:`PinFormatError` saying so."""
    if not isinstance(pin, str) or not pin.isdigit() or not 4 <= len(pin) <= 12 or not pin.isascii():
        raise PinFormatError("the admin PIN must be 4 to 12 digits (0-9)")
    return pin


PIN_FILE = "admin-pin"


class PinStoreError(TocktableError, OSError):
    """The admin PIN kept in the data directory can be neither read nor stored."""


def admin_pin(configured: str, data_dir: Path) -> str:
    """The configured PIN, else the one kept in ``data_dir`` (made at random on first start)."""
    if configured:
        return configured
    path = data_dir / PIN_FILE
    try:
        text = path.read_text(encoding="utf-8").strip()
        if text.isdigit() and 4 <= len(text) <= 12:
            return text
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise PinStoreError(f"cannot read the admin PIN from {path}: {exc}") from None
    pin = f"{secrets.randbelow(10**6):06d}"
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(pin + "\n")
    except OSError as exc:
        raise PinStoreError(f"cannot store the admin PIN in {path}: {exc}") from None
    return pin


def secret_key(data_dir: Path | None) -> bytes:
    """The key that signs session cookies: kept in ``data_dir/web-secret`` (made on first use);
    a fresh random key when there is no data directory or it cannot be written."""
    if data_dir is None:
        return secrets.token_bytes(32)
    path = Path(data_dir) / SECRET_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
        if len(text) == 64:
            return bytes.fromhex(text)
    except (OSError, ValueError):
        pass
    key = secrets.token_bytes(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(key.hex() + "\n")
    except OSError:
        pass  # a read-only data directory: sessions just do not survive a restart
    return key


def new_csrf_token() -> str:
    return secrets.token_urlsafe(32)


def session_csrf_token() -> str:
    """The current browser session's CSRF token (made on first use)."""
    from flask import session

    token = session.get("csrf")
    if not isinstance(token, str):
        token = new_csrf_token()
        session["csrf"] = token
    return token


def same_token(given: str | None, expected: str | None) -> bool:
    """Constant-time comparison; False when either is missing."""
    if not given or not expected:
        return False
    return hmac.compare_digest(given.encode(), expected.encode())
