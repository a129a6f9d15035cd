"""Serving the app in production: waitress, in this process, on its own thread.

Why waitress: it is pure Python (installs on a Pi with no compiler), runs on Linux, macOS and
Windows, is a production WSGI server with a fixed pool of worker threads, and flushes each
chunk of a streamed response at once, which server-sent events need. One process matters: the
service and its snapshots live in this process, so every worker thread reads them directly
(gunicorn's pre-forked workers would each need their own copy of the game). And one event loop
reads every socket and hands a request to a thread only once it has arrived whole, so idle and
slow connections cost no thread; :mod:`web.connections` adds what a crowded network needs on
top (room made for new phones, a deadline per request, limits per client).

An SSE stream holds a worker thread for as long as the phone stays connected, so the pool is
sized for the phones: ``threads`` (default 64) serves 56 live streams and keeps 8 threads for
pages and API calls; past 56 streams ``/api/events`` answers 503 and those phones poll.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import socket
import threading
from typing import Any

from table.errors import TocktableError
from web.connections import CONNECTION_LIMIT, IDLE_TIMEOUT, PER_CLIENT, REQUEST_TIMEOUT, guarded_server
from web.join import Advertiser


class ServeError(TocktableError, OSError):
    """The dashboard cannot be served (port taken, address not available)."""


DEFAULT_THREADS = 64
RESERVED_THREADS = 8
"""Worker threads kept free of SSE streams, for pages, the API and the host's commands."""


def _bind(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (waitress listens on it), or a :class:`ServeError`."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (OSError, OverflowError, UnicodeError) as exc:
        raise ServeError(f"cannot serve on {host}:{port}: {exc} (check web.host in the config)") from None
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
    except OSError as exc:
        listener.close()
        hint = "choose another with --port" if exc.errno == errno.EADDRINUSE else "check web.host in the config"
        raise ServeError(f"cannot serve on {host}:{port}: {exc.strerror or exc} ({hint})") from None
    except OverflowError as exc:
        listener.close()
        raise ServeError(f"cannot serve on {host}:{port}: {exc}") from None
    return listener


class WebServer:
    """The app on ``host:port`` with waitress; ``start()`` runs it on a thread, ``stop()`` ends
    every stream and closes the port. ``port=0`` picks a free port (read ``.port``).
    ``advertise`` registers ``tocktable.local`` on mDNS when zeroconf is installed."""

    def __init__(self, app: Any, host: str, port: int, *, threads: int = DEFAULT_THREADS, advertise: bool = False,
                 connection_limit: int = CONNECTION_LIMIT, per_client: int = PER_CLIENT,
                 request_timeout: float = REQUEST_TIMEOUT, idle_timeout: float = IDLE_TIMEOUT):  # fmt: skip
        if threads < RESERVED_THREADS + 2:
            raise ServeError(f"threads must be at least {RESERVED_THREADS + 2}, got {threads}")
        self.app = app
        listener = _bind(host, port)
        try:
            self._server: Any = guarded_server(
                app, listener, threads=threads, connection_limit=connection_limit, per_client=per_client,
                request_timeout=request_timeout, idle_timeout=idle_timeout,
            )  # fmt: skip
        except Exception:
            listener.close()
            raise
        self.host = host
        self.port = int(self._server.effective_port)
        context = self._context()
        if context is not None:
            context.max_streams = threads - RESERVED_THREADS
            context.server_address = (host, self.port)
        self.advertiser: Any = None
        self._advertise = advertise
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tocktable-web", daemon=True)

    def _context(self) -> Any:
        extensions = getattr(self.app, "extensions", {})
        return extensions.get("tocktable.web")

    def _run(self) -> None:
        try:
            self._server.run()
        except Exception:
            if self._stopping.is_set():  # the sockets were closed under it by stop()
                logging.getLogger("tocktable.web").debug("waitress loop ended", exc_info=True)
            else:  # the web pages are gone while the table plays on: say so
                logging.getLogger("tocktable.web").warning("the web server stopped unexpectedly", exc_info=True)

    def start(self) -> WebServer:
        self._thread.start()
        if self._advertise and self.host in ("0.0.0.0", "::", ""):
            self.advertiser = Advertiser(self.port)
            context = self._context()
            if context is not None and self.advertiser.active:
                context.mdns_url = self.advertiser.url
        return self

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "", "::") else self.host
        return f"http://{host}:{self.port}/"

    def stop(self) -> None:
        """End the SSE streams, stop the worker threads, close every connection and the port."""
        self._stopping.set()
        if self.advertiser is not None:
            self.advertiser.close()
        context = self._context()
        if context is not None:
            context.closing.set()
        server = self._server
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
        for channel in list(server._map.values()):
            with contextlib.suppress(OSError):
                channel.close()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
