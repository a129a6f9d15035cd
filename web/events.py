"""``GET /api/events``: the table as server-sent events, pushed to every phone.

Each stream is one subscription to the service's snapshot publication (its own small queue:
a slow phone loses old snapshots, never slows the game or the other phones). A message is
the whole presented state (the same JSON as ``GET /api/state``), so a phone that missed one
loses nothing. Idle streams get a comment line every ``heartbeat`` seconds so proxies and
phones keep the connection open, and a dead connection is noticed within that time.
When all SSE slots are taken the answer is 503 and the page polls ``/api/state`` instead.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, jsonify

from web.context import WebContext, context

events = Blueprint("events", __name__, url_prefix="/api")

RETRY_MS = 3000
"""How long a browser waits before reconnecting a cut stream."""
WAKE = 1.0
"""Seconds a waiting stream sleeps at most, to notice the server shutting down."""


@events.get("/events")
def stream() -> Response | tuple[Response, int]:
    """Server-sent events: one ``state`` message per published change, heartbeats between."""
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
    response = Response(_Stream(ctx, subscription), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a reverse proxy must not hold the stream back
    return response


class _Stream:
    """The messages of one stream. ``close()`` (the client is gone, or the server stops) ends
    the subscription, even if the stream never started (a generator's ``finally`` would not run)."""

    def __init__(self, ctx: WebContext, subscription: Any) -> None:
        self._ctx = ctx
        self._subscription = subscription
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
        while not self._closed:
            now = time.monotonic()
            if self._ctx.closing.is_set() or (self._deadline is not None and now >= self._deadline):
                break
            if now >= self._next_beat:
                self._next_beat = now + self._ctx.heartbeat
                return ": keep-alive\n\n"
            # Wake at least every WAKE seconds to notice a server shutting down.
            wait = min(self._next_beat - now, WAKE, (self._deadline - now) if self._deadline is not None else WAKE)
            snapshot = self._subscription.get(timeout=max(0.0, wait))
            if snapshot is None:
                continue
            while True:  # several changes queued: only the newest matters
                newer = self._subscription.get(timeout=0)
                if newer is None:
                    break
                snapshot = newer
            self._next_beat = time.monotonic() + self._ctx.heartbeat
            return f"id: {snapshot.version}\nevent: state\ndata: {self._ctx.presenter.text(snapshot)}\n\n"
        self.close()
        raise StopIteration

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._subscription.close()
            self._ctx.close_stream()
