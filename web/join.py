"""Joining from a phone: the dashboard's LAN address, its QR code (SVG, drawn by segno), and
``tocktable.local`` advertised over mDNS (zeroconf) when that package is installed.
"""

from __future__ import annotations

import io
import logging
import socket
from typing import Any

from tocktable.server import lan_address

log = logging.getLogger("tocktable.web")

MDNS_NAME = "tocktable"


def join_url(request_host: str, *, configured: str | None = None) -> str:
    """The URL phones should open: ``configured`` when the server set it, else this machine's
    LAN address with the port the request came in on."""
    if configured:
        return configured
    host, _, port = request_host.rpartition(":") if request_host.count(":") == 1 else (request_host, "", "")
    port = port if port.isdigit() else "80"
    address = host if host and host not in ("localhost", "127.0.0.1", "0.0.0.0") else lan_address()
    return f"http://{address}{'' if port == '80' else ':' + port}/"


def qr_svg(text: str, *, scale: int = 6) -> str:
    """A QR code of ``text`` as an SVG document (dark on white, with the quiet zone)."""
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=scale, dark="#000", light="#fff", xmldecl=False)
    return out.getvalue().decode("utf-8")


class Advertiser:
    """``tocktable.local`` and an ``_http._tcp`` service on mDNS while open; does nothing
    (``active`` False) when zeroconf is not installed or the network refuses it."""

    def __init__(self, port: int, *, address: str | None = None, name: str = MDNS_NAME) -> None:
        self.port = port
        self.name = name
        self.active = False
        self.reason = ""
        self._zeroconf: Any = None
        self._info: Any = None
        try:
            from zeroconf import ServiceInfo, Zeroconf
        except ImportError:
            self.reason = "zeroconf is not installed (pip install zeroconf)"
            return
        address = address or lan_address()
        if address.startswith("127."):
            self.reason = "no local network address"
            return
        try:
            self._info = ServiceInfo(
                "_http._tcp.local.",
                f"{name}._http._tcp.local.",
                addresses=[socket.inet_aton(address)],
                port=port,
                properties={"path": "/"},
                server=f"{name}.local.",
            )
            self._zeroconf = Zeroconf()
            self._zeroconf.register_service(self._info, allow_name_change=True)
            self.active = True
        except Exception as exc:  # mDNS is a convenience: never stop the table for it
            self.reason = f"mDNS not available: {exc}"
            log.warning("mDNS: %s", exc)
            self.close()

    @property
    def url(self) -> str | None:
        return f"http://{self.name}.local:{self.port}/" if self.active else None

    def close(self) -> None:
        if self._zeroconf is not None:
            try:
                if self._info is not None and self.active:
                    self._zeroconf.unregister_service(self._info)
                self._zeroconf.close()
            finally:
                self._zeroconf = None
                self.active = False
