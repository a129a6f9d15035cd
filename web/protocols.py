"""What the web layer asks of the application it serves, as typing Protocols: the service
(snapshots, commands, the session read back from the store, the lens), the configuration, the
camera and the table view it shows.

web imports no module of :mod:`tocktable`: ``tocktable.service.Service``, ``tocktable.config.Config``,
``tocktable.tap.CameraTap`` and ``tocktable.lens_worker.LensWorker`` satisfy these, and mypy checks
it where tocktable hands them to :func:`web.create_app`. What the two sides must agree on beyond
method calls is defined here, on the side that reads it: the error a service raises when it
cannot take a command (answered 503), the error a history that cannot be read back raises, and
the kinds of storage fault the API documents.

At run time this module imports only :mod:`table.errors`: the service's modules import it
without loading Flask, numpy or the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from table.errors import TocktableError

if TYPE_CHECKING:  # names for the type checker alone: the service's modules import this one early
    import threading
    from pathlib import Path

    import numpy as np

    from table.session import Session, SessionSettings

__all__ = [
    "STORAGE_FAULT_KINDS",
    "Ack",
    "AimAdvisor",
    "Camera",
    "CameraFrame",
    "DeckTutor",
    "DryRunner",
    "HistoryUnavailable",
    "LensFeed",
    "Published",
    "ReplayedSession",
    "ServiceUnavailable",
    "SessionRecords",
    "Subscription",
    "TableService",
    "TableView",
    "WebConfig",
    "ZoneEditor",
]

Point = tuple[float, float]

STORAGE_FAULT_KINDS = ("disk_full", "read_only", "no_permission", "damaged", "empty", "altered", "in_use", "io_error")
"""Why the data directory cannot keep the game, as the snapshot's ``storage_fault.kind`` names it."""


class ServiceUnavailable(TocktableError, RuntimeError):
    """The service cannot take a command now (stopped, not saving, or no answer in time): the web
    answers 503, where a command the game refuses is a 409."""


class HistoryUnavailable(TocktableError, OSError):
    """The session's history cannot be read back from the store (the message says why)."""


# ---------------------------------------------------------------------------- the service
class Published(Protocol):
    """One published state (a snapshot) or lens: a version and its JSON text."""

    @property
    def version(self) -> int: ...
    @property
    def json(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...


class Ack(Protocol):
    """A command accepted: the last step written (None when none) and the state's version."""

    @property
    def seq(self) -> int | None: ...
    @property
    def version(self) -> int: ...
    @property
    def steps(self) -> tuple[str, ...]: ...


class Subscription(Protocol):
    """The snapshots (and, attached to a lens, the lenses) published from now on."""

    def get(self, timeout: float | None = None) -> Published | None: ...
    def close(self) -> None: ...


class ReplayedSession(Protocol):
    """The open session rebuilt from the store: its game, its number and its exports."""

    @property
    def id(self) -> int: ...
    @property
    def session(self) -> Session: ...
    def ledger(self) -> dict[str, Any]: ...
    def ledger_csv(self) -> str: ...
    def phh(self) -> str: ...


class SessionRecords(Protocol):
    """The open session as the store holds it."""

    def replay(self) -> ReplayedSession:
        """The session rebuilt from its stored steps; :class:`HistoryUnavailable` saying why it
        cannot be (a storage fault found this way also stops the service taking steps)."""
        ...


class LensFeed(Protocol):
    """The learning lens, worked out on a thread of its own from the service's snapshots."""

    def start(self) -> LensFeed: ...
    def latest(self) -> Published: ...
    def attach(self, subscriber: Any, *, current: bool = False) -> None: ...
    def detach(self, subscriber: Any) -> None: ...


class SeenCard(Protocol):
    """One card the camera saw."""

    @property
    def card(self) -> str | None: ...
    @property
    def face_up(self) -> bool: ...
    @property
    def mark(self) -> str | None: ...
    @property
    def zone(self) -> str: ...
    @property
    def confidence(self) -> float: ...
    @property
    def corners(self) -> Sequence[Point]: ...


class Conflict(Protocol):
    """Something the camera saw that does not fit the game."""

    @property
    def kind(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def zone(self) -> str: ...
    @property
    def card(self) -> str | None: ...


class TableView(Protocol):
    """What the camera saw on one frame, by zone."""

    @property
    def frame_index(self) -> int: ...
    @property
    def board(self) -> Sequence[SeenCard]: ...
    @property
    def seats(self) -> Mapping[int, Sequence[SeenCard]]: ...
    @property
    def conflicts(self) -> Sequence[Conflict]: ...


class GameSettings(Protocol):
    """The game the service runs: its settings."""

    @property
    def settings(self) -> SessionSettings: ...


class TableService(Protocol):
    """The running service, as the web calls it. A command (a step or an input of
    :mod:`table.steps`) goes through :meth:`call`; the web never touches the game itself."""

    @property
    def session_id(self) -> int: ...
    @property
    def game(self) -> GameSettings: ...
    @property
    def fault(self) -> BaseException | None:
        """Why the service stopped taking steps (None while every step is kept)."""
        ...

    @property
    def view(self) -> TableView | None:
        """The table view last taken from the camera (None before the first)."""
        ...

    @property
    def records(self) -> SessionRecords: ...
    def snapshot(self) -> Published: ...
    def call(self, item: Any, *, timeout: float = 10.0) -> Ack:
        """Run one command and wait for it: the game's refusal as its typed error,
        :class:`ServiceUnavailable` when the service cannot take it."""
        ...

    def subscribe(self, *, maxsize: int = 16) -> Subscription: ...
    def lens_feed(self, *, stop_when: threading.Event) -> LensFeed:
        """A lens worker following this service's snapshots (not started)."""
        ...


# ---------------------------------------------------------------------------- configuration and camera
class WebSettings(Protocol):
    @property
    def host(self) -> str: ...
    @property
    def port(self) -> int: ...
    @property
    def admin_pin(self) -> str: ...
    @property
    def language(self) -> str:
        """The pages' language for a phone that asks for none the pages speak (``web.words.languages()``)."""


class TableSettings(Protocol):
    @property
    def chip_set(self) -> str: ...


class ZoneSettings(Protocol):
    @property
    def board(self) -> Sequence[Point]: ...


class WebConfig(Protocol):
    """What the web reads of the configuration."""

    @property
    def data_dir(self) -> Path: ...
    @property
    def web(self) -> WebSettings: ...
    @property
    def table(self) -> TableSettings: ...
    @property
    def zones(self) -> ZoneSettings: ...
    def seat_zones(self) -> Sequence[Sequence[Point]]: ...


class CameraFrame(Protocol):
    """A frame: a BGR image and its number in capture order."""

    @property
    def image(self) -> np.ndarray[Any, Any]: ...
    @property
    def index(self) -> int: ...


class Camera(Protocol):
    """A frame source the camera page reads (a hardware source, or the service's tap that draws
    on the frames); one that knows its own zones has a ``zones`` mapping too."""

    def read(self, *, newer_than: int = 0, timeout: float = 0.0) -> CameraFrame | None: ...


class AimAdvisor(Protocol):
    """The set-up page's camera advice (``tocktable.aim.AimCheck``): worked out on the Pi from the
    camera's latest picture; the page gets words and numbers only."""

    @property
    def movable(self) -> bool:
        """Whether the page may move the camera (the demo's synthetic one)."""
        ...

    def advice(self) -> dict[str, Any]:
        """``{"frame": index or None, "advice": [{"topic", "ok", "value", "text"}, ...]}``."""
        ...

    def camera(self) -> dict[str, float] | None:
        """Where the movable camera is (``lift`` m, ``tilt`` degrees, ``blur`` px), else None."""
        ...

    def move(self, **settings: Any) -> dict[str, float]:
        """Move the movable camera: a ``ValueError`` saying the allowed ranges for a position it
        cannot take, a ``LookupError`` when the camera is a real one."""
        ...


class ZoneEditor(Protocol):
    """The zones the table uses, and new ones drawn on the set-up page
    (``tocktable.table_zones.ZoneKeeper``)."""

    def current(self) -> dict[str, Any]:
        """``{"zones": {"board": [[x, y], ...], "seat:0": ...}, "source": "config" | "saved" |
        "default", "locked": bool, "seats": int, "note": str | None}``."""
        ...

    def save(self, data: Any) -> dict[str, Any]:
        """Check, keep and use new zones (then as :meth:`current`): a ``ValueError`` saying what is
        wrong and what is allowed, a ``PermissionError`` when the configuration file sets the zones."""
        ...

    def calibrate(self) -> dict[str, Any]:
        """Zones proposed from the cards laid on the table (not saved): ``{"zones", "ring": [seat
        polygons clockwise], "board", "cards"}``; a ``ValueError`` saying what to lay down, a
        ``PermissionError`` when the configuration sets the zones, a ``LookupError`` with no picture."""
        ...

    def check(self) -> dict[str, Any]:
        """Whether the zones still match the camera's picture: ``{"ok", "cards", "outside", "text"}``
        (a camera moved after the zones were drawn leaves cards outside every zone); a
        ``LookupError`` with no picture."""
        ...


class DryRunner(Protocol):
    """A dry run (``tocktable.dry_run.DryRun``): what the camera saw, street by street, while the
    host deals one hand. Each method returns ``{"state", "streets": [...]}``."""

    def start(self) -> dict[str, Any]: ...
    def stop(self) -> dict[str, Any]: ...
    def report(self) -> dict[str, Any]: ...


class DeckTutor(Protocol):
    """The set-up page's deck teaching (``tocktable.deck_teacher.DeckTeacher``). Every step returns
    the status (``{"state", "total", "done", "enrolled", "next", "pending", "complete", "saved",
    "in_use", "check", "demo", "note"}``); a step that cannot be taken now raises a ``ValueError``
    saying what to do instead, one that needs what the table lacks (a picture, the demo's hands) a
    ``LookupError``."""

    def status(self) -> dict[str, Any]: ...
    def start(self) -> dict[str, Any]: ...
    def stop(self) -> dict[str, Any]: ...
    def restart(self) -> dict[str, Any]: ...
    def capture(self) -> dict[str, Any]: ...
    def keep(self) -> dict[str, Any]: ...
    def retake(self) -> dict[str, Any]: ...
    def redo(self, card: Any) -> dict[str, Any]: ...
    def lay(self) -> dict[str, Any]: ...
    def lay_check(self, count: int = 10) -> list[str]: ...
    def check(self) -> dict[str, Any]:
        """``{"frame", "cards": [{"card", "name", "confidence"}], "seen", "read", "face_down", "profile"}``."""
        ...

    def crop(self) -> bytes | None:
        """The JPEG of the card last captured (None before the first)."""
        ...
