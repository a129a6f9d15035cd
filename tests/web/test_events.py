"""Server-sent events: read the stream while a hand is played."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from tests.web.helpers import DEMO_HAND, DEMO_HOLE, play
from web.context import EXTENSION


class EventReader:
    """Reads an SSE response on a thread; ``events`` are (kind, data) pairs, comments included."""

    def __init__(self, response: Any, *, until: Any) -> None:
        self.response = response
        self.until = until
        self.events: list[tuple[str, Any]] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        buffer = ""
        try:
            for chunk in self.response.response:
                buffer += chunk.decode("utf-8") if isinstance(chunk, bytes) else chunk
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    self.events.append(parse(block))
                    if self.until(self.events):
                        return
        finally:
            self.done.set()

    def wait_for(self, condition: Any, timeout: float = 20.0) -> None:
        """Until ``condition(events)`` holds: a reader thread may start late on a loaded machine,
        and the stream sends only the newest state, so a test that acts before the reader has
        its first state may never see that state."""
        deadline = time.monotonic() + timeout
        while not condition(self.events):
            assert not self.done.is_set() and time.monotonic() < deadline, f"not seen: {self.events}"
            time.sleep(0.005)

    def wait(self, timeout: float = 20.0) -> list[tuple[str, Any]]:
        assert self.done.wait(timeout), f"the stream stopped short: {[k for k, _ in self.events]}"
        self.response.close()
        return self.events


def parse(block: str) -> tuple[str, Any]:
    fields: dict[str, str] = {}
    for line in block.split("\n"):
        if line.startswith(":"):
            return ("comment", line[1:].strip())
        name, _, value = line.partition(":")
        fields[name] = value.lstrip(" ")
    if "retry" in fields:
        return ("retry", int(fields["retry"]))
    data = json.loads(fields["data"])
    assert int(fields["id"]) == data["version"]
    return (fields.get("event", "message"), data)


def states(events: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    return [data for kind, data in events if kind == "state"]


def settled(events: list[tuple[str, Any]]) -> bool:
    return any(kind == "state" and data["phase"] == "settled" for kind, data in events)


def test_the_stream_follows_a_hand_to_its_showdown(client: Any, service: Any) -> None:
    response = client.get("/api/events", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    reader = EventReader(response, until=settled)
    reader.wait_for(states)  # the state at connection is read before the hand starts
    play(service, DEMO_HAND)
    events = reader.wait()
    assert events[0] == ("retry", 3000)
    seen = states(events)
    assert seen[0]["hand_number"] == 0 and seen[0]["phase"] == "seating"  # the state at connection first
    versions = [s["version"] for s in seen]
    assert versions == sorted(set(versions))
    boards = [len(s["board"]) for s in seen if s["hand_number"] == 1]
    assert boards == sorted(boards) and boards[-1] == 5
    last = seen[-1]
    assert last == client.get("/api/state").get_json()  # the same presented state as the API
    winners = [(w["name"], w["amount"]) for pot in last["last_hand"]["pots"] for w in pot["winners"]]
    assert winners == [("Cleo", 1230), ("Dan", 400)]
    for state in seen:  # no hole card in any message before the showdown
        if state["street"] != "showdown":
            shown = [c for seat in state["seats"] for c in seat["hole"]]
            assert shown == [], state["street"]
    hole_cards = {c for cards in DEMO_HOLE.values() for c in cards}
    early = [s for s in seen if s["street"] != "showdown"]
    assert not any(card in json.dumps(s) for s in early for card in hole_cards)


def test_idle_streams_get_heartbeats(app: Any, client: Any) -> None:
    app.extensions[EXTENSION].heartbeat = 0.05
    response = client.get("/api/events", buffered=False)
    reader = EventReader(response, until=lambda events: sum(kind == "comment" for kind, _ in events) >= 2)
    events = reader.wait()
    assert [kind for kind, _ in events[:2]] == ["retry", "state"]
    assert ("comment", "keep-alive") in events


def test_streams_beyond_the_limit_are_refused_and_slots_come_back(app: Any, client: Any) -> None:
    ctx = app.extensions[EXTENSION]
    ctx.max_streams = 1
    first = client.get("/api/events", buffered=False)
    assert first.status_code == 200 and ctx.streams == 1
    second = client.get("/api/events", buffered=False)
    assert second.status_code == 503
    assert second.headers["Retry-After"] == "10"
    assert "poll /api/state" in second.get_json()["error"]
    first.close()  # a phone that goes away (even before reading anything) frees its slot
    assert ctx.streams == 0
    third = client.get("/api/events", buffered=False)
    assert third.status_code == 200
    third.close()
    assert ctx.streams == 0


def test_a_stream_ends_when_the_server_closes(app: Any, client: Any) -> None:
    ctx = app.extensions[EXTENSION]
    response = client.get("/api/events", buffered=False)
    reader = EventReader(response, until=lambda events: False)
    reader.wait_for(states)
    ctx.closing.set()
    events = reader.wait(timeout=10)
    assert [kind for kind, _ in events] == ["retry", "state"]
    assert ctx.streams == 0
