"""Waitress for a crowded network: connection limits per client, deadlines for requests, and
room made for a new phone by closing the oldest idle connection.

Waitress already keeps connections out of the worker threads until a whole request has
arrived (one event loop reads every socket), so idle or slow connections cost no thread. What
it lacks, and this module adds to its server and channel classes:

- **No stop to accepting.** Stock waitress stops accepting when ``connection_limit``
  connections are open, so 200 idle sockets lock every phone out. Here a new connection is
  always accepted; when its client already holds ``per_client`` connections, or the server
  holds ``connection_limit``, the oldest *idle* connection (no request being served, nothing
  left to send) of that client, or of the client holding the most, is closed to make room.
  Live SSE streams and requests being served are never closed for room.
- **A deadline per request.** A request must arrive whole (headers and body) within
  ``request_timeout`` seconds of its first byte: a client trickling header bytes is closed then,
  however often it sends. A connection with no request under way is closed after
  ``idle_timeout`` seconds of silence.
- **poll, not select**, so sockets numbered past 1024 work, and the process's limit of open
  files is raised toward ``connection_limit`` when the system allows it (:func:`open_files_for`).

Clients are counted by :func:`web.security.client_key` (an IPv4 address, an IPv6 /64).
"""

from __future__ import annotations

import logging
import socket
import time
from collections import OrderedDict
from typing import Any

from waitress.adjustments import Adjustments  # type: ignore[import-untyped]
from waitress.channel import HTTPChannel  # type: ignore[import-untyped]
from waitress.server import TcpWSGIServer  # type: ignore[import-untyped]
from waitress.task import ThreadedTaskDispatcher  # type: ignore[import-untyped]

from web.security import client_key

log = logging.getLogger("tocktable.web")

CONNECTION_LIMIT = 1000
"""Open connections at most (sockets are cheap to the event loop; threads are not used by idle ones)."""
PER_CLIENT = 32
"""Connections one client may hold (a browser opens about 6 per site, plus its live stream)."""
REQUEST_TIMEOUT = 10.0
"""Seconds from a request's first byte to its last (a phone sends a request in milliseconds)."""
IDLE_TIMEOUT = 30.0
"""Seconds a connection may stay open with no request under way."""


class GuardedChannel(HTTPChannel):  # type: ignore[misc]
    """One connection: knows its client and when the request being received began."""

    def __init__(self, server: GuardedServer, sock: socket.socket, addr: Any, adj: Any, map: Any = None) -> None:
        self.client = client_key(addr[0] if isinstance(addr, tuple) else str(addr))
        self.request_started: float | None = None
        self._counted = False
        super().__init__(server, sock, addr, adj, map=map)

    def add_channel(self, map: Any = None) -> None:
        super().add_channel(map)
        if not self._counted:
            self._counted = True
            self.server.count(self, +1)

    def del_channel(self, map: Any = None) -> None:
        super().del_channel(map)
        if self._counted:
            self._counted = False
            self.server.count(self, -1)

    def received(self, data: bytes) -> bool:
        if data and self.request is None:
            self.request_started = time.time()  # this data begins a request
        result: bool = super().received(data)
        if self.request is None:
            self.request_started = None  # no request left half-received
        return result

    @property
    def idle(self) -> bool:
        """Nothing being served or sent: closing it loses no answer (a browser reconnects)."""
        return not self.requests and not self.total_outbufs_len and not self.will_close and self.connected


class GuardedServer(TcpWSGIServer):  # type: ignore[misc]
    """Waitress's TCP server that never stops accepting: it makes room instead (see the module)."""

    channel_class = GuardedChannel
    next_channel_cleanup: float = 0.0

    def __init__(self, *args: Any, per_client: int = PER_CLIENT, request_timeout: float = REQUEST_TIMEOUT,
                 idle_timeout: float = IDLE_TIMEOUT, **kwargs: Any) -> None:  # fmt: skip
        self.per_client = per_client
        self.request_timeout = request_timeout
        self.idle_timeout = idle_timeout
        self.clients: dict[str, OrderedDict[int, GuardedChannel]] = {}
        self.evicted = 0
        self.timed_out = 0
        super().__init__(*args, **kwargs)

    def count(self, channel: GuardedChannel, change: int) -> None:
        held = self.clients.setdefault(channel.client, OrderedDict())
        if change > 0:
            held[id(channel)] = channel
        else:
            held.pop(id(channel), None)
            if not held:
                del self.clients[channel.client]

    def readable(self) -> bool:
        now = time.time()
        if now >= self.next_channel_cleanup:
            self.next_channel_cleanup = now + self.adj.cleanup_interval
            self.maintenance(now)
        return bool(self.accepting)

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
            if accepted is None:
                return
            conn, addr = accepted
            self.set_socket_options(conn)
        except OSError:
            return  # the client left before we took it; the server goes on
        addr = self.fix_addr(addr)
        client = client_key(addr[0] if isinstance(addr, tuple) else str(addr))
        if len(self.clients.get(client, ())) >= self.per_client and not self._make_room(client):
            conn.close()  # every connection of this client is busy being served
            return
        if len(self.active_channels) >= self.adj.connection_limit and not self._make_room(None):
            conn.close()
            return
        self.channel_class(self, conn, addr, self.adj, map=self._map)

    def _make_room(self, client: str | None) -> bool:
        """Close the oldest idle connection of ``client`` (None: of the client holding the most)."""
        owners = [client] if client is not None else sorted(self.clients, key=lambda c: -len(self.clients[c]))
        for owner in owners:
            for channel in list(self.clients.get(owner, {}).values()):
                if channel.idle:
                    channel.handle_close()
                    self.evicted += 1
                    return True
        return False

    def maintenance(self, now: float) -> None:
        """Close connections past their deadline: a request still arriving after
        ``request_timeout`` seconds, or silence after ``idle_timeout`` with no request under way."""
        for channel in list(self.active_channels.values()):
            if channel.requests or channel.will_close:
                continue
            started = getattr(channel, "request_started", None)
            if started is not None and now - started > self.request_timeout:
                channel.will_close = True
                self.timed_out += 1
            elif started is None and now - channel.last_activity > self.idle_timeout:
                channel.will_close = True


def open_files_for(connections: int) -> int:
    """Raise this process's limit of open files toward ``connections`` plus a margin, as far as
    the system allows; the number of connections that then fit (the margin kept for the
    database, the camera and the rest)."""
    margin = 256
    try:
        import resource
    except ImportError:  # not on Linux or macOS: the system's own limits apply
        return connections
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + margin
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (OSError, ValueError):
            pass
    if soft == resource.RLIM_INFINITY:
        return connections
    return max(16, min(connections, soft - margin))


def guarded_server(app: Any, listener: socket.socket, *, threads: int, connection_limit: int = CONNECTION_LIMIT,
                   per_client: int = PER_CLIENT, request_timeout: float = REQUEST_TIMEOUT,
                   idle_timeout: float = IDLE_TIMEOUT) -> GuardedServer:  # fmt: skip
    """A :class:`GuardedServer` for ``app`` on the bound socket ``listener`` (not yet running)."""
    limit = open_files_for(connection_limit)
    if limit < connection_limit:
        log.warning("only %d connections fit in this process's limit of open files (wanted %d)", limit,
                    connection_limit)  # fmt: skip
    adj = Adjustments(
        sockets=[listener],
        threads=threads,
        connection_limit=limit,
        cleanup_interval=1,
        channel_timeout=int(idle_timeout),
        asyncore_use_poll=True,
        ident="tocktable",
        clear_untrusted_proxy_headers=True,
    )
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(threads)
    sockinfo = (listener.family, listener.type, listener.proto, listener.getsockname())
    return GuardedServer(app, {}, True, listener, dispatcher=dispatcher, adj=adj, bind_socket=False, sockinfo=sockinfo,
                         per_client=per_client, request_timeout=request_timeout, idle_timeout=idle_timeout)  # fmt: skip
