"""The lens panel on a phone, for the browser test and the README's picture.

Regenerate ``docs/lens-panel.png`` (three phone-width panels side by side: a Tock hand at the
flop with one seat opened, the same hand over with its chart, a Hold'em all-in at the turn)::

    .venv/bin/python -m tests.web.lens_shots
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.tocktable.lens_hands import (
    ALLIN_HAND,
    ALLIN_SHOW,
    TOCK_FLOP,
    TOCK_PREFLOP,
    TOCK_RIVER,
    TOCK_SHOWDOWN,
    TOCK_TURN,
    tock_marks,
)
from tests.web.browser import ROOT, available, chromium, phone_page, served
from tests.web.helpers import play
from tocktable.steps import ChooseButton

NO_STICKY = "header.top { position: static !important; }"
"""The sticky top bar would cover the top of an element's screenshot."""


def tock_panels(browser: Any, out_dir: Path) -> list[Path]:
    """The Tock lens at the flop (Cleo's row opened), then after the hand with its chart."""
    from playwright.sync_api import expect

    with served("tock") as (service, url):
        page = phone_page(browser)
        page.goto(url)
        page.add_style_tag(content=NO_STICKY)
        play(service, [ChooseButton(seat=0), *tock_marks(), *TOCK_PREFLOP, *TOCK_FLOP[:5]])
        expect(page.locator("#lens h2")).to_contain_text("Flop")
        expect(page.locator("#lens .lens-badge")).to_have_count(0)
        page.locator("#lens .lens-seat[data-seat='2'] summary").click()
        flop = out_dir / "lens-flop.png"
        page.locator("#lens").screenshot(path=str(flop))
        play(service, [*TOCK_FLOP[5:], *TOCK_TURN, *TOCK_RIVER, *TOCK_SHOWDOWN])
        expect(page.locator("#lens .lens-chart")).to_be_visible()
        page.locator("#lens .lens-seat[data-seat='2'] summary").click()  # closed again
        over = out_dir / "lens-over.png"
        page.locator("#lens").screenshot(path=str(over))
    return [flop, over]


def allin_panel(browser: Any, out_dir: Path) -> Path:
    """The Hold'em all-in after the hands were turned, at the turn: Dan's outs."""
    from playwright.sync_api import expect

    with served("holdem") as (service, url):
        page = phone_page(browser)
        page.goto(url)
        page.add_style_tag(content=NO_STICKY)
        play(service, [*ALLIN_HAND, *ALLIN_SHOW])
        expect(page.locator("#lens h2")).to_contain_text("All in")
        page.locator("#lens .lens-stages [data-stage='turn']").click()
        expect(page.locator("#lens .outs")).to_contain_text("needs one of 7 cards")
        shot = out_dir / "lens-allin.png"
        page.locator("#lens").screenshot(path=str(shot))
    return shot


def side_by_side(paths: list[Path], out: Path, *, gap: int = 24) -> Path:
    """One picture of the panels, top-aligned, on the page's background."""
    from PIL import Image

    images = [Image.open(p).convert("RGB") for p in paths]
    width = sum(i.width for i in images) + gap * (len(images) + 1)
    height = max(i.height for i in images) + 2 * gap
    sheet = Image.new("RGB", (width, height), (13, 23, 19))
    x = gap
    for image in images:
        sheet.paste(image, (x, gap))
        x += image.width + gap
    sheet.save(out, optimize=True)
    return out


def make_lens_picture(out: Path) -> Path:
    with chromium() as browser, tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        panels = [*tock_panels(browser, folder), allin_panel(browser, folder)]
        return side_by_side(panels, out)


if __name__ == "__main__":
    why = available()
    if why:
        sys.exit(why)
    print(f"wrote {make_lens_picture(ROOT / 'docs' / 'lens-panel.png')}")
