"""What every blueprint shares: the service, the presenter, the PIN guard, the history cache.

One :class:`WebContext` per app, kept in ``app.extensions["tocktable.web"]``; no globals, so
two apps (two tests) never share state.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import current_app

from table.errors import TocktableError
from table.session import SessionSettings
from table.steps import NewSession
from web.history import History
from web.join import join_url
from web.lens_texts import LensTexts
from web.present import Presenter, chip_set_named
from web.protocols import AimAdvisor, Camera, DeckTutor, DryRunner, TableService, WebConfig, ZoneEditor
from web.security import PinGuard

EXTENSION = "tocktable.web"


@dataclass
class WebContext:
    """The app's shared parts. ``camera`` is anything with ``read(newer_than=, timeout=)``
    returning a frame with ``.image`` (BGR) and ``.index``: a ``hardware`` frame source."""

    config: WebConfig
    service: TableService
    presenter: Presenter
    guard: PinGuard
    history: History
    data_dir: Path | None
    camera: Camera | None = None
    aim: AimAdvisor | None = None
    """The set-up page's camera advice (None: the page says there is no camera to aim)."""
    dry_run: DryRunner | None = None
    """The set-up page's dry run (None: the page has none: no camera)."""
    zone_editor: ZoneEditor | None = None
    """The zones drawn on the set-up page (None: the page cannot change them)."""
    deck: DeckTutor | None = None
    """The set-up page's deck teaching (None: no camera, nothing to teach with)."""
    heartbeat: float = 15.0
    """Seconds between SSE comment lines on an idle stream (keeps proxies and phones connected)."""
    max_streams: int = 56
    """SSE streams served at once; beyond, ``/api/events`` answers 503 and the page polls."""
    stream_seconds: float | None = None
    """End each SSE stream after this long (the browser reconnects); None: never."""
    public_url: str | None = None
    """The dashboard URL phones should open, when given (else :meth:`join_url` works it out)."""
    server_address: tuple[str, int] | None = None
    """The host and port the server listens on (set by :class:`web.serve.WebServer`)."""
    mdns_url: str | None = None
    """``http://tocktable.local:port/`` while advertised on mDNS."""
    settings_file: Path | None = None
    dice: Any = None
    """The poker dice referee page's state (web.dice.DiceTable)."""
    lens_texts: LensTexts = field(default_factory=LensTexts)
    """The published lens in each phone's language."""
    closing: threading.Event = field(default_factory=threading.Event)
    """Set when the server stops: every SSE stream ends within a second."""
    _streams: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def open_stream(self) -> bool:
        """Count one more SSE stream; False when the limit is reached."""
        with self._lock:
            if self._streams >= self.max_streams:
                return False
            self._streams += 1
            return True

    def close_stream(self) -> None:
        with self._lock:
            self._streams = max(0, self._streams - 1)

    @property
    def streams(self) -> int:
        return self._streams


    def join_url(self) -> str:
        """The dashboard's address for phones: ``public_url``, else the server's own host and port
        (the configured ``web.host``/``web.port`` before a server is bound). Never the request's
        ``Host`` header, which any client can forge."""
        if self.server_address is not None:
            host, port = self.server_address
        else:
            host, port = self.config.web.host, self.config.web.port
        return join_url(host, port, configured=self.public_url)

    # ------------------------------------------------------------------ game and chips
    def set_chip_set(self, name: str) -> None:
        """Draw chips in the colours of the set ``name`` from now on (kept in the data directory;
        :class:`SettingsSaveError` when it cannot be kept there, the set is used all the same)."""
        self.presenter.chip_set = chip_set_named(name)
        if self.settings_file is not None:
            save_dashboard_settings(self.settings_file, {"chip_set": name})

    def new_game(self, settings: SessionSettings, players: Sequence[tuple[str, int]]) -> NewSession:
        """The service input that closes the session and opens a new one."""
        return NewSession(settings, tuple(players))

    def end_session(self) -> NewSession:
        """The service input that closes the session and opens an empty one with the same settings."""
        return NewSession(self.service.game.settings, ())


def load_dashboard_settings(path: Path | None) -> dict[str, Any]:
    """The dashboard's own settings (the chip set chosen on the admin page), {} when none."""
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class SettingsSaveError(TocktableError, OSError):
    """The dashboard settings could not be written (the change lasts until the restart)."""


def save_dashboard_settings(path: Path, changes: dict[str, Any]) -> None:
    """Merge ``changes`` into the settings file; :class:`SettingsSaveError` when it cannot be written."""
    data = {**load_dashboard_settings(path), **changes}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError as error:
        raise SettingsSaveError(f"used until the table restarts, but cannot be kept: cannot write {path} "
                                f"({error.strerror or error}); check the data directory") from None  # fmt: skip


def context() -> WebContext:
    """The current app's :class:`WebContext`."""
    found: WebContext = current_app.extensions[EXTENSION]
    return found
