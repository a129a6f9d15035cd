"""The host's key: the admin PIN, slowed brute force, the session secret and CSRF tokens.

- **PIN attempts** go through one :class:`PinGuard` per app (the admin login form and the
  ``X-Admin-Pin`` header of ``POST /api/command`` alike). Each client gets a few free tries;
  after that every failure locks it out for twice as long as the one before (up to 15 minutes),
  and many failures from anywhere lock the PIN for everyone for a while, so guessing a
  six-digit PIN from a phone, or from many, takes months rather than minutes.
- **The session cookie** is Flask's signed cookie; the signing key is kept in the data
  directory (``web-secret``, mode 0600) so a restart does not log the host out.
- **CSRF**: every admin form and every admin POST carries the session's token (a hidden field
  ``csrf_token`` or the header ``X-CSRF-Token``); a POST without the right one is refused.
"""

from __future__ import annotations

import hashlib
import hmac
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


class LoginLocked(TocktableError, PermissionError):
    """Too many wrong PINs: no attempt is checked until ``retry_after`` seconds have passed."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class PinFormatError(TocktableError, ValueError):
    """A PIN that is not 4 to 12 digits."""


@dataclass
class _Record:
    failures: int = 0
    locked_until: float = 0.0


class PinGuard:
    """Checks PINs in constant time and slows down guessing.

    ``free_tries`` failures per client are allowed back to back; failure number
    ``free_tries + k`` locks that client for ``base_delay * 2**(k-1)`` seconds (at most
    ``max_delay``). When more than ``global_limit`` failures (from any client) fall within
    ``global_window`` seconds, every client is locked for ``global_lock`` seconds. A right PIN
    clears the client's record. ``clock`` gives seconds (tests pass a fake one).
    """

    def __init__(
        self,
        pin: str,
        *,
        free_tries: int = 5,
        base_delay: float = 30.0,
        max_delay: float = 900.0,
        global_limit: int = 30,
        global_window: float = 600.0,
        global_lock: float = 300.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._pin = pin
        self.free_tries = free_tries
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.global_limit = global_limit
        self.global_window = global_window
        self.global_lock = global_lock
        self.clock = clock
        self._lock = threading.Lock()
        self._clients: dict[str, _Record] = {}
        self._recent: list[float] = []
        self._global_until = 0.0

    @property
    def configured(self) -> bool:
        """False when no PIN is set: nobody can log in (never an open admin)."""
        return bool(self._pin)

    def fingerprint(self) -> str:
        """A short digest of the PIN: sessions remember it, so changing the PIN logs everyone out."""
        return hashlib.sha256(("tocktable-pin:" + self._pin).encode()).hexdigest()[:16]

    def set_pin(self, pin: str) -> None:
        """Replace the PIN (4 to 12 digits)."""
        check_pin_format(pin)
        with self._lock:
            self._pin = pin

    def retry_after(self, client: str) -> float:
        """Seconds until ``client`` may try again (0 when it may now)."""
        with self._lock:
            return self._wait(client, self.clock())

    def _wait(self, client: str, now: float) -> float:
        record = self._clients.get(client)
        mine = record.locked_until - now if record is not None else 0.0
        return max(0.0, mine, self._global_until - now)

    def check(self, given: str, client: str) -> bool:
        """Whether ``given`` is the PIN. Raises :class:`LoginLocked` (without looking at the
        PIN) while ``client`` is locked out; a wrong PIN counts against it."""
        with self._lock:
            now = self.clock()
            wait = self._wait(client, now)
            if wait > 0:
                raise LoginLocked(
                    f"too many wrong PINs: try again in {wait:.0f} s (each further mistake doubles the wait)", wait
                )
            ok = bool(self._pin) and hmac.compare_digest(given.encode(), self._pin.encode())
            if ok:
                self._clients.pop(client, None)
                return True
            record = self._clients.setdefault(client, _Record())
            record.failures += 1
            over = record.failures - self.free_tries
            if over > 0:
                record.locked_until = now + min(self.max_delay, self.base_delay * 2 ** (over - 1))
            self._recent = [t for t in self._recent if now - t < self.global_window]
            self._recent.append(now)
            if len(self._recent) > self.global_limit:
                self._global_until = now + self.global_lock
                self._recent.clear()
            if len(self._clients) > 10_000:  # a flood of addresses must not grow memory without end
                self._clients = {k: v for k, v in self._clients.items() if v.locked_until > now}
            return False


def check_pin_format(pin: str) -> str:
    """``pin`` if it is 4 to 12 digits; else a :class:`PinFormatError` saying so."""
    if not isinstance(pin, str) or not pin.isdigit() or not 4 <= len(pin) <= 12 or not pin.isascii():
        raise PinFormatError("the admin PIN must be 4 to 12 digits (0-9)")
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
