"""Joining from a phone: the dashboard's LAN address, its QR code (SVG, drawn by segno), and
``tocktable.local`` advertised over mDNS (zeroconf) when that package is installed.
"""

from __future__ import annotations

import io
import logging
import socket
from typing import Any

log = logging.getLogger("tocktable.web")

MDNS_NAME = "tocktable"


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


WILDCARDS = ("", "0.0.0.0", "::")
"""Hosts that mean "every interface": phones are given this machine's LAN address instead."""


def join_url(host: str, port: int, *, configured: str | None = None) -> str:
    """The URL phones should open, from the server's own address, never from a request:
    ``configured`` when set, else ``host`` (the address the server listens on; this machine's
    LAN address when it listens on every interface) and ``port``.

    >>> join_url("192.168.1.7", 8000), join_url("pi.lan", 80), join_url("::1", 8000)
    ('http://192.168.1.7:8000/', 'http://pi.lan/', 'http://[::1]:8000/')
    """
    if configured:
        return configured
    address = lan_address() if host in WILDCARDS else host
    if ":" in address:
        address = f"[{address}]"
    return f"http://{address}{'' if port == 80 else f':{port}'}/"


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
