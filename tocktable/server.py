"""Serving the dashboard: the HTTP server thread, the admin PIN, the LAN address and its QR code."""

from __future__ import annotations

import os
import secrets
import socket
import sys
from pathlib import Path
from typing import Any, TextIO

from table.errors import TocktableError

PIN_FILE = "admin-pin"


class ServeError(TocktableError, OSError):
    """The dashboard cannot be served (port taken, address not available)."""


def admin_pin(configured: str, data_dir: Path) -> str:
    """The configured PIN, else the one kept in ``data_dir`` (made at random on first start)."""
    if configured:
        return configured
    path = data_dir / PIN_FILE
    try:
        text = path.read_text(encoding="utf-8").strip()
        if text.isdigit() and 4 <= len(text) <= 12:
            return text
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise ServeError(f"cannot read the admin PIN from {path}: {exc}") from None
    pin = f"{secrets.randbelow(10**6):06d}"
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(pin + "\n")
    except OSError as exc:
        raise ServeError(f"cannot store the admin PIN in {path}: {exc}") from None
    return pin


def lan_address() -> str:
    """This machine's address on the local network (127.0.0.1 when there is none).

    Connecting a UDP socket sends nothing; it only asks the kernel which interface would
    reach the outside, which is the one the phones on the same Wi-Fi can reach."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address: str = probe.getsockname()[0]
            return address
        except OSError:
            return "127.0.0.1"


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
        from web.serve import WebServer as Waitress

        self._server = Waitress(app, host, port, advertise=advertise)
        self.host, self.port = host, self._server.port

    def start(self) -> WebServer:
        self._server.start()
        return self

    def stop(self) -> None:
        self._server.stop()
