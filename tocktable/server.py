"""Serving the dashboard from the command line: the port checked before anything is written, the
server on its own thread, and the banner (the URL as text and as a QR code, the admin PIN). The
admin PIN kept in the data directory, the LAN address and the server itself are the web layer's
(:mod:`web.security`, :mod:`web.join`, :mod:`web.serve`)."""

from __future__ import annotations

import socket
import sys
from typing import Any, TextIO

from web.join import lan_address
from web.security import PIN_FILE, admin_pin
from web.serve import ServeError
from web.serve import WebServer as Waitress

__all__ = ["PIN_FILE", "ServeError", "WebServer", "admin_pin", "check_port", "lan_address", "print_banner"]


def print_banner(url: str, pin: str, *, out: TextIO = sys.stdout, qr: bool = True, note: str = "") -> None:
    """The dashboard URL as text and (``qr``) as a QR code for phones, and the admin PIN."""
    out.write(f"\nDashboard: {url}\n")
    if qr:
        try:
            import segno

            segno.make(url, error="m").terminal(out=out, compact=True)
        except Exception as exc:  # a terminal that cannot draw it still has the text URL
            out.write(f"(no QR code: {exc})\n")
    out.write(f"Admin PIN: {pin}\n")
    if note:
        out.write(note + "\n")
    out.flush()


def check_port(host: str, port: int) -> None:
    """Raise :class:`ServeError` now if ``host:port`` cannot be served (before anything is written)."""
    if not 0 <= port <= 65535:
        raise ServeError(f"port {port} is not allowed: use 1..65535")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        hint = "choose another with --port" if "in use" in str(exc).lower() else "check web.host in the config"
        raise ServeError(f"cannot serve on {host}:{port}: {exc.strerror or exc} ({hint})") from None


class WebServer:
    """The dashboard's production server: waitress on its own thread (:class:`web.serve.WebServer`,
    threads sized for 50 phones on SSE); ``tocktable.local`` on mDNS when serving the whole
    network and zeroconf is installed. stop() ends the streams and closes the port."""

    def __init__(self, app: Any, host: str, port: int, *, advertise: bool = True) -> None:
        self._server = Waitress(app, host, port, advertise=advertise)
        self.host, self.port = host, self._server.port

    def start(self) -> WebServer:
        self._server.start()
        return self

    def stop(self) -> None:
        self._server.stop()
