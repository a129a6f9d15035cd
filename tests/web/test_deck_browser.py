"""Teaching the deck from a phone (chromium at 390 x 844) on the demo, whose synthetic cards are
drawn in a deck style the models were not trained on (hold-out fonts, German index letters K D B):
the host lays every card the page asks for (the demo's hands lay it), sees the camera's crop and
keeps it, reloads the page halfway and goes on, redoes a card, then lays ten cards and sees each
read with its name. ``TOCKTABLE_DOCS_SHOTS=1`` also writes the screenshots in docs/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import chromium, host_logged_in, keep_shot, needs_browser, phone_page, running_demo
from tocktable.deck_teacher import PROFILE_NAME
from vision.enroll import DECK_ORDER

DECK = "holdout-de-3"

pytestmark = needs_browser


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Any]:
    with running_demo(tmp_path, deck=DECK) as running:
        yield running


def test_a_deck_the_models_never_saw_is_taught_from_a_phone_and_read(demo: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=20_000)
    with chromium() as browser:
        page = phone_page(browser)
        errors = host_logged_in(page, demo.url)
        page.click("text=Set up the table")
        panel = page.locator("#deck-panel")
        progress = page.locator("#deck-progress")
        ask = page.locator("#deck-ask")
        expect(progress).to_contain_text("0 of 52 cards taught")
        panel.scroll_into_view_if_needed()
        page.click("#deck-start")

        def teach_one(done: int) -> str:
            card = ask.get_attribute("data-card") or ""
            assert card, "the page asks for no card"
            page.click("#deck-lay")
            expect(page.locator("#deck-capture")).to_be_enabled()
            page.click("#deck-capture")
            expect(page.locator("#deck-verdict")).to_contain_text("The camera took")
            expect(ask).to_contain_text("Is this the")
            if done == 11:  # the queen of spades: a German deck prints D (Dame) on it
                expect(page.locator("#deck-crop")).to_have_js_property("complete", True)
                page.wait_for_timeout(300)
                keep_shot(page.locator("#deck-teach-part"), "setup-deck.png")
            page.click("#deck-keep")
            expect(progress).to_contain_text(f"{done + 1} of 52")
            return card

        expect(ask).to_contain_text("Lay the ace of spades (As)")
        taught = [teach_one(done) for done in range(20)]
        assert taught[:3] == ["As", "2s", "3s"]

        page.reload()  # the progress is the table's: a reload picks up where it stood
        expect(progress).to_contain_text("20 of 52 cards taught")
        assert taught == list(DECK_ORDER[:20])
        expect(ask).to_have_attribute("data-card", DECK_ORDER[20])
        page.click("#deck-kept summary")
        page.click("#deck-cards [data-redo='2s']")
        expect(ask).to_contain_text("Lay the two of spades (2s)")
        expect(progress).to_contain_text("19 of 52")
        taught.append(teach_one(19))
        assert taught[-1] == "2s"
        for done in range(20, 52):
            teach_one(done)
        expect(progress).to_contain_text("The whole deck is taught (52 of 52)")
        expect(progress).to_contain_text("The saved deck of 52 cards is in use")
        assert (Path(demo.zones.data_dir) / PROFILE_NAME).is_file()

        page.click("#deck-kept summary")  # folded again
        page.click("#deck-lay-check")
        expect(page.locator("#flash")).to_contain_text("on the demo's table: tap Read them")
        page.click("#deck-check")
        rows = page.locator("#deck-check-cards li")
        expect(rows).to_have_count(10)
        expect(page.locator("#deck-check-status")).to_contain_text(
            "10 cards face up, 10 read, with the deck taught (52 cards)")
        laid = sorted(c.card for c in demo.model.state().cards)
        read = sorted(r.get_attribute("data-card") or "" for r in rows.all())
        assert read == laid
        page.evaluate("document.getElementById('flash').hidden = true")
        keep_shot(page.locator("#deck-check-part"), "setup-deck-check.png")
        assert demo.teacher.reader().profile is not None and len(demo.teacher.reader().profile.cards) == 52
        assert not errors, errors
