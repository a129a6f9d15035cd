"""A crowded network against the real server on a free port: idle sockets by the hundred,
clients trickling header bytes, one client hoarding connections. A new phone must still get the
dashboard and the state (each socket here gives up after 5 s: a server that stopped accepting,
as stock waitress does at its connection limit, fails these tests by timing out).
How fast it gets them is measured by ``python -m bench.web --flood-only``, not here."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from web.connections import GuardedServer
from web.serve import WebServer

PATIENCE = 5.0
"""Seconds a phone's socket waits for an answer before the test fails."""


def get(port: int, path: str, *, source: str = "127.0.0.1") -> tuple[int, bytes]:
    """One HTTP/1.1 GET from ``source`` (status, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE, source_address=(source, 0)) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: table\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def phone_loads(port: int) -> dict[str, Any]:
    """What a new phone does: the dashboard page, then the state."""
    status, page = get(port, "/")
    assert status == 200 and b"initial-state" in page
    status, body = get(port, "/api/state")
    assert status == 200
    state: dict[str, Any] = json.loads(body)
    return state


def idle_sockets(port: int, count: int, sources: list[str]) -> list[socket.socket]:
    """``count`` connections that send nothing, spread over the ``sources`` addresses."""
    out = []
    for i in range(count):
        out.append(socket.create_connection(("127.0.0.1", port), timeout=PATIENCE,
                                            source_address=(sources[i % len(sources)], 0)))  # fmt: skip
    return out


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes ``sock`` within ``within`` seconds (nothing is ever answered)."""
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


@pytest.fixture
def serve(app: Any) -> Iterator[Any]:
    """Start the app on a free port with the given limits: ``serve(**limits)`` -> WebServer."""
    servers: list[WebServer] = []

    def start(**limits: Any) -> WebServer:
        server = WebServer(app, "127.0.0.1", 0, threads=12, **limits).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def guarded(server: WebServer) -> GuardedServer:
    inner: GuardedServer = server._server
    return inner


def test_500_idle_connections_from_one_address_leave_room_for_a_new_phone(serve: Any) -> None:
    server = serve()
    flood = idle_sockets(server.port, 500, ["127.0.0.1"])  # the phone's own address, even
    try:
        assert phone_loads(server.port)["seats"]
        assert len(guarded(server).clients.get("127.0.0.1", ())) <= guarded(server).per_client
    finally:
        for sock in flood:
            sock.close()


def test_500_idle_connections_from_many_addresses_leave_room_for_a_new_phone(serve: Any) -> None:
    server = serve()
    flood = idle_sockets(server.port, 500, [f"127.0.0.{n}" for n in range(2, 52)])  # 10 from each of 50
    try:
        assert phone_loads(server.port)["seats"]
        assert phone_loads(server.port)["seats"]  # and again: the flood is still open
        assert sum(not closed_by_server(sock, 0.01) for sock in flood[-50:]) == 50  # nobody had to make room
    finally:
        for sock in flood:
            sock.close()


def test_at_the_connection_limit_the_biggest_holders_idle_connection_makes_room(serve: Any) -> None:
    server = serve(connection_limit=60, per_client=1000)
    hoarder = idle_sockets(server.port, 50, ["127.0.0.2"])
    others = idle_sockets(server.port, 10, [f"127.0.0.{n}" for n in range(3, 13)])
    try:
        assert phone_loads(server.port)["seats"]
        assert closed_by_server(hoarder[0], PATIENCE)  # the oldest of the client holding the most
        assert not any(closed_by_server(sock, 0.01) for sock in others)  # one each: left alone
    finally:
        for sock in hoarder + others:
            sock.close()


def test_one_client_holds_at_most_its_share_and_a_live_stream_is_never_closed_for_room(serve: Any) -> None:
    server = serve(per_client=8)
    source = "127.0.0.7"
    stream = socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE, source_address=(source, 0))
    stream.sendall(b"GET /api/events HTTP/1.1\r\nHost: table\r\nAccept: text/event-stream\r\n\r\n")
    assert b"200" in stream.recv(4096).split(b"\r\n")[0]
    flood = idle_sockets(server.port, 40, [source])
    try:
        open_now = [sock for sock in flood if not closed_by_server(sock, 0.05)]
        assert len(open_now) <= 7  # the stream and at most 7 idle ones
        assert open_now and open_now[-1] is flood[-1]  # the newest stayed, the oldest made room
        stream.settimeout(0.3)
        try:
            while stream.recv(4096):  # the first state, then nothing until the next change...
                pass
            closed = True  # ...b"": the server closed it
        except TimeoutError:
            closed = False
        assert not closed
    finally:
        stream.close()
        for sock in flood:
            sock.close()


def test_trickling_header_bytes_are_cut_at_the_request_deadline(serve: Any) -> None:
    server = serve(request_timeout=1.0)
    ended: dict[int, float] = {}
    answered: list[bytes] = []
    stop = threading.Event()

    def trickle(index: int) -> None:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE,
                                        source_address=(f"127.0.1.{index % 50 + 1}", 0))  # fmt: skip
        started = time.monotonic()
        try:
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: table\r\nX-Slow: ")
            sock.settimeout(0.2)
            while not stop.is_set():
                sock.sendall(b"a")  # one byte every 0.2 s: never idle, never done
                try:
                    data = sock.recv(4096)
                except TimeoutError:
                    continue
                if data:
                    answered.append(data)
                break
        except OSError:
            pass
        finally:
            ended[index] = time.monotonic() - started
            sock.close()

    threads = [threading.Thread(target=trickle, args=(i,), daemon=True) for i in range(200)]
    for thread in threads:
        thread.start()
    try:
        assert phone_loads(server.port)["seats"]  # while 200 clients trickle
        for thread in threads:
            thread.join(timeout=30)
    finally:
        stop.set()
    assert len(ended) == 200 and answered == []  # every trickler cut by the server, none answered
    assert max(ended.values()) < 15  # the deadline (1 s, checked every second), not the trickle, ended them


def test_a_silent_connection_is_closed_after_the_idle_timeout(serve: Any) -> None:
    server = serve(idle_timeout=1.0)
    sock = idle_sockets(server.port, 1, ["127.0.0.1"])[0]
    try:
        assert closed_by_server(sock, 10)
    finally:
        sock.close()
    status, _ = get(server.port, "/api/state")
    assert status == 200
