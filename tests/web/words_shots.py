"""The pages in French on a phone (390x844), for the browser test and the pictures in ``docs/``.

Each page is checked for text that does not fit its box (French runs longer than English): an
element with text of its own whose content is wider than the element, unless the element
scrolls on purpose (SVG text, placed in a drawing rather than a box, is left out), and a page
wider than the phone.

Regenerate ``docs/dashboard-fr.png``, ``docs/host-fr.png``, ``docs/lens-fr.png`` and
``docs/dice-fr.png``::

    .venv/bin/python -m tests.web.words_shots
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from tests.tocktable.lens_hands import TOCK_FLOP, TOCK_PREFLOP, tock_marks
from tests.web.browser import PHONE, ROOT, available, chromium, served
from tests.web.helpers import DEMO_HAND, PIN, play
from tocktable.steps import ChooseButton

OVERFLOWING = """() => {
  const out = [];
  const wide = document.documentElement.scrollWidth - window.innerWidth;
  if (wide > 1) out.push(`the page is ${wide}px wider than the phone`);
  for (const node of document.body.querySelectorAll("*")) {
    const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!own || node.closest("[hidden]") || node.tagName === "OPTION" || node.tagName === "SCRIPT") continue;
    if (node instanceof SVGElement) continue;  // drawn in a viewBox (the zone editor's labels), not a text box
    const style = getComputedStyle(node);
    if (["inline", "none"].includes(style.display) || ["auto", "scroll"].includes(style.overflowX)) continue;
    if (node.clientWidth > 0 && node.scrollWidth > node.clientWidth + 1) {
      const name = `${node.tagName.toLowerCase()}${node.id ? "#" + node.id : ""}.${node.className}`;
      const text = node.textContent.trim().slice(0, 60);
      out.push(`${name}: "${text}" is ${node.scrollWidth}px in ${node.clientWidth}px`);
    }
  }
  return out;
}"""
"""What does not fit on the page: a list of readable lines, empty when everything fits."""


def french_phone(browser: Any) -> Any:
    """A phone whose browser asks for French (``Accept-Language: fr-FR``)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="fr-FR")
    return context.new_page()


def overflowing(page: Any) -> list[str]:
    found: list[str] = page.evaluate(OVERFLOWING)
    return found


def dashboard(browser: Any, out: Path | None = None) -> tuple[Any, list[str]]:
    """The dashboard after the demo hand's showdown; what overflows."""
    from playwright.sync_api import expect

    with served() as (service, url):
        page = french_phone(browser)
        page.goto(url)
        expect(page.locator("#live")).to_have_text("en direct")
        play(service, DEMO_HAND)
        expect(page.locator("#showdown")).to_contain_text("Brelan de rois")
        expect(page.locator("#showdown [data-pot='0'] .winner")).to_have_text("Cleo gagne 1\u202f230")
        expect(page.locator("#pot-amount")).to_have_text("1\u202f630")
        expect(page.locator("#hands li")).to_have_count(1)
        page.wait_for_timeout(300)
        if out is not None:
            page.screenshot(path=str(out), full_page=True, clip={"x": 0, "y": 0, "width": 390, "height": 1130})
        return page.evaluate("document.documentElement.lang"), overflowing(page)


def host(browser: Any, out: Path | None = None) -> tuple[str, list[str]]:
    """The host's page in the middle of a hand; what overflows (the login page's, then its own)."""
    from playwright.sync_api import expect

    with served() as (service, url):
        page = french_phone(browser)
        page.goto(url + "/admin")
        expect(page.locator("button[type=submit]")).to_have_text("Se connecter")
        problems = overflowing(page)
        page.fill("input[name=pin]", PIN)
        page.click("button[type=submit]")
        expect(page.locator("#live")).to_have_text("en direct")
        play(service, [ChooseButton(seat=0)])
        expect(page.locator("#now")).to_have_text("Dan a la parole")
        page.locator("[data-press=check_call]").click()
        expect(page.locator("#flash")).to_have_text("PAROLE/SUIVRE\u00a0: Dan suit à 10")
        page.wait_for_timeout(300)
        if out is not None:
            page.add_style_tag(content="header.top { position: static !important; }")
            page.screenshot(path=str(out), clip={"x": 0, "y": 0, "width": 390, "height": 844})
        return page.locator("#now").inner_text(), problems + overflowing(page)


def lens_panel(browser: Any, out: Path | None = None) -> tuple[str, list[str]]:
    """The Tock lens at the flop with a seat opened; what overflows."""
    from playwright.sync_api import expect

    with served("tock") as (service, url):
        page = french_phone(browser)
        page.goto(url)
        page.add_style_tag(content="header.top { position: static !important; }")
        play(service, [ChooseButton(seat=0), *tock_marks(), *TOCK_PREFLOP, *TOCK_FLOP[:5]])
        expect(page.locator("#lens h2")).to_contain_text("Flop")
        expect(page.locator("#lens .lens-badge")).to_have_count(0)
        page.locator("#lens .lens-seat[data-seat='2'] summary").click()
        expect(page.locator("#lens .lens-seat[data-seat='2'] .why li").first).to_contain_text("montre")
        if out is not None:
            page.locator("#lens").screenshot(path=str(out))
        return page.locator("#lens").inner_text(), overflowing(page)


def dice(browser: Any, out: Path | None = None) -> tuple[str, list[str]]:
    """The dice referee with a series under way; what overflows."""
    from playwright.sync_api import expect

    with served() as (_service, url):
        page = french_phone(browser)
        page.goto(url + "/dice")
        page.fill("#form-new input[name=players]", "Ana, Ben, Cyd")
        page.locator("#form-new button").click()
        expect(page.locator("#announce-title")).to_have_text("Ana annonce")
        page.fill("#announce-text", "Paire de Dames")
        page.locator("#form-announce button.btn:not(.primary)").last.click()
        expect(page.locator("#history li")).to_have_count(1)
        page.wait_for_timeout(200)
        if out is not None:
            page.add_style_tag(content="header.top { position: static !important; }")
            page.screenshot(path=str(out), clip={"x": 0, "y": 0, "width": 390, "height": 844})
        return page.locator("#history").inner_text(), overflowing(page)


def make_pictures(docs: Path) -> list[Path]:
    written = []
    with chromium() as browser:
        for name, shoot in (("dashboard-fr.png", dashboard), ("host-fr.png", host), ("lens-fr.png", lens_panel),
                            ("dice-fr.png", dice)):  # fmt: skip
            path = docs / name
            _text, problems = shoot(browser, path)
            if problems:
                print(f"{name}: " + "; ".join(problems), file=sys.stderr)
            written.append(path)
    return written


if __name__ == "__main__":
    why = available()
    if why:
        sys.exit(why)
    for path in make_pictures(ROOT / "docs"):
        print(f"wrote {path}")
