"""The production server: waitress on a real port, SSE over a socket, a clean stop."""

from __future__ import annotations

import json
import socket
import threading
import urllib.request
from typing import Any

import pytest

from tests.web.helpers import DEMO_HAND, play
from web.context import EXTENSION
from web.serve import RESERVED_THREADS, ServeError, WebServer


def read_stream(url: str, lines: list[str], ended: threading.Event) -> None:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            for raw in response:
                lines.append(raw.decode("utf-8").rstrip("\n"))
    except OSError:
        pass
    finally:
        ended.set()


def test_waitress_serves_pages_and_streams_then_stops_cleanly(app: Any, service: Any) -> None:
    server = WebServer(app, "127.0.0.1", 0, threads=12).start()
    try:
        assert app.extensions[EXTENSION].max_streams == 12 - RESERVED_THREADS
        with urllib.request.urlopen(server.url, timeout=10) as page:
            assert page.status == 200 and b"initial-state" in page.read()
        lines: list[str] = []
        ended = threading.Event()
        reader = threading.Thread(target=read_stream, args=(server.url + "api/events", lines, ended), daemon=True)
        reader.start()
        play(service, DEMO_HAND)
        with urllib.request.urlopen(server.url + "api/state", timeout=10) as state:
            final = json.loads(state.read())
        assert final["phase"] == "settled"
        for _ in range(100):  # the stream delivers the settled state (no fixed sleep: poll what arrived)
            data = [json.loads(line[6:]) for line in list(lines) if line.startswith("data: ")]
            if data and data[-1]["version"] == final["version"]:
                break
            ended.wait(0.1)
        assert data[-1]["phase"] == "settled"
    finally:
        server.stop()
    assert ended.wait(10), "the stream must end when the server stops"
    assert app.extensions[EXTENSION].streams == 0


def test_a_server_loop_that_dies_is_logged_as_a_warning(app: Any, caplog: pytest.LogCaptureFixture,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    import logging

    server = WebServer(app, "127.0.0.1", 0, threads=12)

    def crash() -> None:
        raise RuntimeError("select failed")

    monkeypatch.setattr(server._server, "run", crash)
    with caplog.at_level(logging.DEBUG, logger="tocktable.web"):
        server._run()  # the loop dies on its own
        assert [r.levelno for r in caplog.records] == [logging.WARNING]
        server.stop()
        caplog.clear()
        server._run()  # the loop ends because stop() closed its sockets: not a warning
        assert [r.levelno for r in caplog.records] == [logging.DEBUG]


def test_a_taken_port_is_a_clear_error(app: Any) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ServeError, match=f"cannot serve on 127.0.0.1:{port}.*--port"):
            WebServer(app, "127.0.0.1", port)


def test_too_few_threads_is_refused(app: Any) -> None:
    with pytest.raises(ServeError, match="threads must be at least"):
        WebServer(app, "127.0.0.1", 0, threads=4)
