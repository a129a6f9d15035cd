"""Driving Debian's chromium with Playwright (no browser download), for the browser test and
the README's screenshots.

Regenerate the screenshots in ``docs/``::

    .venv/bin/python -m tests.web.browser
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]  # fmt: skip
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1280, "height": 800}
TV = {"width": 1920, "height": 1080}


def available() -> str | None:
    """None when a browser test can run here, else why not."""
    if shutil.which(CHROMIUM) is None:
        return f"no chromium at {CHROMIUM} (.ci/apt-packages.txt installs it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (the test extra)"
    return None


@contextmanager
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def phone_page(browser: Any) -> Any:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    return context.new_page()


def make_screenshots(out_dir: Path) -> list[Path]:
    """The dashboard after the demo hand's showdown, on a phone and on a landscape tablet."""
    from playwright.sync_api import expect

    from tests.web.helpers import DEMO_HAND, make_app, make_service, play
    from web.serve import WebServer

    data_dir = Path(tempfile.mkdtemp(prefix="tocktable-shot-"))
    service = make_service(data_dir)
    server = WebServer(make_app(service, data_dir), "127.0.0.1", 0, threads=16).start()
    written = []
    try:
        play(service, DEMO_HAND)
        with chromium() as browser:
            for name, page in (("dashboard.png", phone_page(browser)),
                               ("dashboard-landscape.png", browser.new_page(viewport=TABLET))):  # fmt: skip
                page.goto(server.url)
                expect(page.locator("#showdown")).to_be_visible()
                expect(page.locator("#hands li")).to_have_count(1)
                page.wait_for_timeout(300)
                path = out_dir / name
                if name == "dashboard.png":  # the table and the showdown result, the top of the page
                    page.screenshot(path=str(path), full_page=True, clip={"x": 0, "y": 0, "width": 390, "height": 1130})
                else:
                    page.screenshot(path=str(path))
                written.append(path)
    finally:
        server.stop()
        service.stop()
        service.store.close()
        shutil.rmtree(data_dir, ignore_errors=True)
    return written


if __name__ == "__main__":
    why = available()
    if why:
        sys.exit(why)
    for written_path in make_screenshots(Path(__file__).resolve().parents[2] / "docs"):
        print(f"wrote {written_path}")
