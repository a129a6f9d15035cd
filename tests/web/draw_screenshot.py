"""The README's picture of a five-card draw showdown on the dashboard (Debian's chromium via
Playwright, as :mod:`tests.web.browser`). Regenerate it with::

    .venv/bin/python -m tests.web.draw_screenshot            # writes docs/draw-dashboard.png
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.web.browser import TABLET, available, chromium
from tests.web.helpers import make_app
from tests.web.test_draw_dashboard import draw_service, to_the_draw
from tocktable.steps import Act, Draw, Show
from web.serve import WebServer

OUT = Path(__file__).resolve().parents[2] / "docs" / "draw-dashboard.png"


def draw_screenshot(out: Path = OUT) -> Path:
    """A draw hand (one joker, threes wild) played to its showdown, on a landscape tablet."""
    from playwright.sync_api import expect

    data_dir = Path(tempfile.mkdtemp())
    service = draw_service(data_dir, jokers=1, wild_rank="3")
    server = WebServer(make_app(service, data_dir), "127.0.0.1", 0, threads=16).start()
    try:
        to_the_draw(service)
        for seat, count in ((1, 3), (2, 0), (0, 2)):
            service.call(Draw(seat, count))
        for seat in (1, 2, 0):
            service.call(Act(seat, "check"))
        service.call(Show(1, ("Kh", "Kd", "Ks", "Kc", "Jk")))
        service.call(Show(2, ("3h", "3d", "Ah", "Ad", "7c")))
        service.call(Show(0, ("5s", "4d", "6c", "8h", "7s")))
        with chromium() as browser:
            page = browser.new_context(viewport=TABLET).new_page()
            page.goto(server.url)
            expect(page.locator("#showdown")).to_be_visible()
            page.screenshot(path=str(out))
    finally:
        server.stop()
        service.stop()
        service.store.close()
    return out


if __name__ == "__main__":
    why = available()
    if why is not None:
        sys.exit(f"cannot take the screenshot: {why}")
    print(draw_screenshot())
