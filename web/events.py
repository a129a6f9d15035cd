"""``GET /api/events``: the table as server-sent events, pushed to every phone.

Each stream is one subscription to the service's snapshot publication (its own small queue:
a slow phone loses old snapshots, never slows the game or the other phones). A message is
the whole presented state (the same JSON as ``GET /api/state``), so a phone that missed one
loses nothing. Idle streams get a comment line every ``heartbeat`` seconds so proxies and
phones keep the connection open, and a dead connection is noticed within that time.
When all SSE slots are taken the answer is 503 and the page polls ``/api/state`` instead.

The same stream carries the learning lens: a ``lens`` message (the JSON of ``GET /api/lens``)
each time the lens worker publishes one. It comes through the stream's one queue, so a phone
still costs one subscription and one thread; the page fetches ``/api/lens`` once on connecting.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, jsonify

from web.context import WebContext, context
from web.language import words
from web.lens import lens_worker
from web.protocols import LensFeed, Published, Subscription
from web.words import Words

events = Blueprint("events", __name__, url_prefix="/api")

RETRY_MS = 3000
"""How long a browser waits before reconnecting a cut stream."""
WAKE = 1.0
"""Seconds a waiting stream sleeps at most, to notice the server shutting down."""


@events.get("/events")
def stream() -> Response | tuple[Response, int]:
    """Server-sent events: one ``state`` message per published change, heartbeats between."""
    return open_stream(host=False)


def open_stream(*, host: bool) -> Response | tuple[Response, int]:
    """A live stream of the players' view of the table, or with ``host=True`` the host's (the
    same states plus the host's own warnings: ``/admin/events``, behind the login)."""
    ctx = context()
    if not ctx.open_stream():
        response = jsonify(ok=False, error=f"all {ctx.max_streams} live streams are in use: poll /api/state")
        response.headers["Retry-After"] = "10"
        return response, 503
    try:
        subscription = ctx.service.subscribe(maxsize=8)
    except Exception:
        ctx.close_stream()
        raise
    lens = lens_worker()
    if lens is not None:
        lens.attach(subscription)
    response = Response(_Stream(ctx, subscription, lens, host=host, words=words()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a reverse proxy must not hold the stream back
    return response


class _Stream:
    """The messages of one stream. ``close()`` (the client is gone, or the server stops) ends
    the subscription, even if the stream never started (a generator's ``finally`` would not run)."""

    def __init__(
        self,
        ctx: WebContext,
        subscription: Subscription,
        lens: LensFeed | None = None,
        *,
        host: bool = False,
        words: Words | None = None,
    ) -> None:
        self._ctx = ctx
        self._words = words
        self._host = host
        self._subscription = subscription
        self._lens = lens
        self._held: Published | None = None
        """A lens taken from the queue with a newer state: sent right after that state."""
        now = time.monotonic()
        self._deadline = now + ctx.stream_seconds if ctx.stream_seconds else None
        self._next_beat = now + ctx.heartbeat
        self._started = False
        self._closed = False

    def __iter__(self) -> _Stream:
        return self

    def __next__(self) -> str:
        if not self._started and not self._closed:
            self._started = True
            return f"retry: {RETRY_MS}\n\n"
        if self._held is not None and not self._closed:
            held, self._held = self._held, None
            return self._message(held)
        while not self._closed:
            now = time.monotonic()
            if self._ctx.closing.is_set() or (self._deadline is not None and now >= self._deadline):
                break
            # Wake at least every WAKE seconds to notice a server shutting down.
            wait = min(self._next_beat - now, WAKE, (self._deadline - now) if self._deadline is not None else WAKE)
            item = self._subscription.get(timeout=max(0.0, wait))
            if item is None:
                if time.monotonic() >= self._next_beat:  # idle: only a stream with nothing to send beats
                    self._next_beat = time.monotonic() + self._ctx.heartbeat
                    return ": keep-alive\n\n"
                continue
            newest: dict[str, Any] = {}
            while item is not None:  # several changes queued: only the newest state and lens matter
                newest[getattr(item, "event", "state")] = item
                item = self._subscription.get(timeout=0)
            self._next_beat = time.monotonic() + self._ctx.heartbeat
            if "state" in newest:
                self._held = newest.get("lens")
                return self._message(newest["state"])
            return self._message(newest["lens"])
        self.close()
        raise StopIteration

    def _message(self, item: Published) -> str:
        kind = getattr(item, "event", "state")
        if kind == "state":
            data = self._ctx.presenter.text(item, host=self._host, words=self._words)
        else:
            data = self._ctx.lens_texts.text(item, self._words)
        return f"id: {item.version}\nevent: {kind}\ndata: {data}\n\n"

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._lens is not None:
                self._lens.detach(self._subscription)
            self._subscription.close()
            self._ctx.close_stream()
