"""Driving Debian's chromium with Playwright (no browser download), for the browser test and
the README's screenshots.

Regenerate the screenshots in ``docs/``::

    .venv/bin/python -m tests.web.browser
"""

from __future__ import annotations

import io
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / ".ci-artifacts"
"""Where the browser tests leave their screenshots (CI keeps them)."""
HOST_PIN = "246802"
"""The admin PIN of the demo that :func:`running_demo` starts."""
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


needs_browser = pytest.mark.skipif(
    available() is not None and os.environ.get("CI", "").lower() != "true", reason=available() or ""
)
"""A browser test's mark: skipped on a developer's machine without chromium; in CI (.ci/run
installs chromium) a missing browser fails loudly rather than hide a broken install step."""


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


@contextmanager
def running_demo(data_dir: Path, *, deck: str | None = None, lay: Callable[[Any], None] | None = None) -> Iterator[Any]:
    """The fast demo (seed 11, the perfect card reader) in ``data_dir``, its dashboard served on a
    free port (``running.url``) with the admin PIN :data:`HOST_PIN`, and its camera reading the
    synthetic table. ``deck``: the cards' look (``DemoOptions.deck``; the demo's own when None);
    ``lay(table_model)`` lays cards on the table before the camera starts."""
    from tocktable.camera import ModelCamera
    from tocktable.config import load_config
    from tocktable.run import DemoOptions, open_demo

    config = load_config(None, data_dir=data_dir)
    config = replace(config, web=replace(config.web, admin_pin=HOST_PIN))
    out = io.StringIO()
    options = DemoOptions(data_dir=data_dir / "demo", fast=True, seed=11, web=True, port=0, camera="perfect")
    if deck is not None:
        options = replace(options, deck=deck)
    with open_demo(config, options, out=out) as running:
        if lay is not None:
            lay(running.model)
        match = re.search(r"Dashboard: (http://\S+)", out.getvalue())
        assert match is not None, out.getvalue()
        running.url = match.group(1)
        camera = ModelCamera(running.watcher, running.service.submit, tap=running.tap).start()
        try:
            yield running
        finally:
            camera.stop()


def host_logged_in(page: Any, url: str) -> list[str]:
    """Log ``page`` in on the host's page of the server at ``url`` (PIN :data:`HOST_PIN`); the
    page's script errors from then on, for the test to check there were none."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "/admin")
    page.fill("input[name=pin]", HOST_PIN)
    page.click("button[type=submit]")
    return errors


def keep_shot(locator: Any, name: str) -> Path:
    """A screenshot of ``locator`` in :data:`ARTIFACTS` (the page's header not over it);
    ``TOCKTABLE_DOCS_SHOTS=1`` also copies it into docs/."""
    locator.page.add_style_tag(content=".top { position: static; }")
    path = ARTIFACTS / name
    path.parent.mkdir(exist_ok=True)
    locator.screenshot(path=str(path))
    if os.environ.get("TOCKTABLE_DOCS_SHOTS") == "1":
        shutil.copyfile(path, ROOT / "docs" / name)
    return path


@contextmanager
def served(variant: str = "holdem") -> Iterator[tuple[Any, str]]:
    """A started six-player service of ``variant`` (``tests.web.helpers``) in a temporary data
    directory, and the URL of its dashboard."""
    from tests.web.helpers import make_app, make_service
    from web.serve import WebServer

    data_dir = Path(tempfile.mkdtemp(prefix="tocktable-shot-"))
    service = make_service(data_dir, variant=variant)
    server = WebServer(make_app(service, data_dir), "127.0.0.1", 0, threads=16).start()
    try:
        yield service, server.url
    finally:
        server.stop()
        service.stop()
        service.store.close()
        shutil.rmtree(data_dir, ignore_errors=True)


def make_screenshots(out_dir: Path) -> list[Path]:
    """The dashboard after the demo hand's showdown, on a phone and on a landscape tablet."""
    from playwright.sync_api import expect

    from tests.web.helpers import DEMO_HAND, play

    written = []
    with served() as (service, url):
        play(service, DEMO_HAND)
        with chromium() as browser:
            for name, page in (("dashboard.png", phone_page(browser)),
                               ("dashboard-landscape.png", browser.new_page(viewport=TABLET))):  # fmt: skip
                page.goto(url)
                expect(page.locator("#showdown")).to_be_visible()
                expect(page.locator("#hands li")).to_have_count(1)
                page.wait_for_timeout(300)
                path = out_dir / name
                if name == "dashboard.png":  # the table and the showdown result, the top of the page
                    page.screenshot(path=str(path), full_page=True, clip={"x": 0, "y": 0, "width": 390, "height": 1130})
                else:
                    page.screenshot(path=str(path))
                written.append(path)
    return written


if __name__ == "__main__":
    why = available()
    if why:
        sys.exit(why)
    for written_path in make_screenshots(ROOT / "docs"):
        print(f"wrote {written_path}")
