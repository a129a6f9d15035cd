"""The set-up page in chromium at phone size (390 x 844) on the demo: the host logs in, opens
"Set up the table", the aim advice changes as the demo's camera is raised, lowered and blurred
from the page, the board zone is dragged and saved, zones calibrated from laid cards put each
card in its seat, the zones are said not to match once the camera is raised, and a dry run shows
a dealt hand street by street, with what the game would do. ``TOCKTABLE_DOCS_SHOTS=1`` also writes
the screenshots in docs/."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import chromium, host_logged_in, keep_shot, needs_browser, phone_page, running_demo

pytestmark = needs_browser


def one_card_a_seat(table: Any) -> None:
    """One card face up in front of every seat, three in the middle."""
    for seat in range(table.seats):
        table.deal(["2c", "5d", "8h", "Js", "Kc", "4s"][seat], zone=seat, face_up=True)
    table.deal_board(["Ah", "7s", "3d"])


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Any]:
    with running_demo(tmp_path, lay=one_card_a_seat) as running:
        yield running


def test_the_aim_advice_follows_the_camera_moved_from_a_phone(demo: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=20_000)
    with chromium() as browser:
        page = phone_page(browser)
        errors = host_logged_in(page, demo.url)
        page.click("text=Set up the table")
        page.add_style_tag(content=".top { position: static; }")  # the screenshots without the page's header over them
        height = page.locator("#advice li[data-topic=height]")
        focus = page.locator("#advice li[data-topic=focus]")
        expect(height).to_contain_text("Height is right")
        expect(height).to_have_class("ok")
        expect(page.locator("#frame")).to_have_attribute("src", re.compile(r"frame\.jpg"))

        for lift in (10, 20, 30, 40):
            page.click("text=Raise 10 cm")
            expect(page.locator("#rig-position")).to_contain_text(f"raised {lift} cm")
        expect(height).to_contain_text("Lower the camera by about")
        expect(height).to_have_class("fix")
        page.wait_for_timeout(800)  # a picture of the raised camera
        keep_shot(page.locator("main section.panel").first, "setup-aim.png")

        page.click("text=As mounted")
        expect(height).to_contain_text("Height is right")
        for lift in (10, 20, 30):
            page.click("text=Lower 10 cm")
            expect(page.locator("#rig-position")).to_contain_text(f"lowered {lift} cm")
        expect(height).to_contain_text("Raise the camera by about")

        page.click("text=As mounted")
        expect(height).to_contain_text("Height is right")
        expect(focus).to_have_class("ok")
        page.click("text=Blur")
        expect(page.locator("#rig-position")).to_contain_text("blur 1.5 px")
        page.click("text=Blur")
        expect(page.locator("#rig-position")).to_contain_text("blur 3 px")
        expect(focus).to_contain_text("Focus the lens")
        expect(focus).to_have_class("fix")
        assert demo.rig.settings.blur == 3.0
        page.click("text=As mounted")

        # 2. the board zone dragged with a finger (pointer events), then saved
        before = demo.zones.current()["zones"]["board"]
        board = page.locator("#zone-editor polygon[data-zone=board]")
        board.scroll_into_view_if_needed()
        box = board.bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        for step in range(1, 6):
            page.mouse.move(x + 8 * step, y + 4 * step)
        page.mouse.up()
        expect(page.locator("#zones-status")).to_contain_text("Not saved yet")
        page.click("#zones-save")
        expect(page.locator("#zones-status")).to_contain_text("Saved: the camera uses these zones now")
        after = demo.zones.current()["zones"]["board"]
        assert demo.zones.current()["source"] == "saved"
        shown = [[float(v) for v in p.split(",")] for p in (board.get_attribute("points") or "").split()]
        # what was saved is what the page showed
        assert [v for p in after for v in p] == pytest.approx([v for p in shown for v in p], abs=1e-4)
        # moved right and down, the whole zone alike (a drag of the body, not of a corner); the
        # distance is not checked: chromium's phone emulation may zoom the page out while it loads
        dx, dy = after[0][0] - before[0][0], after[0][1] - before[0][1]
        assert dx > 0.05 and dy > 0.05
        for (x0, y0), (x1, y1) in zip(before, after, strict=True):
            assert (x1 - x0, y1 - y0) == pytest.approx((dx, dy), abs=1e-3)
        assert demo.tap.zones["board"] == after
        saved = json.loads((demo.zones.data_dir / "zones.json").read_text())["zones"]["board"]
        assert saved == after
        page.wait_for_timeout(1200)  # the picture again, with the new zone drawn by the camera page
        keep_shot(page.locator("#zones-panel"), "setup-zones.png")

        # 3. calibrate: one card in front of each seat and one in the middle; seat 1 tapped; saved
        demo.model.gather()
        demo.watcher.tracker.reset()
        deck = ["2c", "5d", "8h", "Js", "Kc", "4s"]
        for seat in range(demo.model.seats):
            demo.model.deal(deck[seat], zone=seat, face_up=True)
        demo.model.deal("Ah", zone="board", slot=2, face_up=True)
        page.click("#zones-calibrate")
        expect(page.locator("#zones-status")).to_contain_text("Found 7 cards. Tap the zone of seat 1")
        cx, cy = demo.model.state().find(deck[0]).center
        stage = page.locator("#zone-stage").bounding_box()
        assert stage is not None
        page.mouse.click(stage["x"] + cx * stage["width"], stage["y"] + cy * stage["height"])
        expect(page.locator("#zones-status")).to_contain_text("Seat 1 is the zone you tapped")
        page.wait_for_timeout(1200)
        keep_shot(page.locator("#zones-panel"), "setup-calibrated.png")
        page.click("#zones-save")
        expect(page.locator("#zones-status")).to_contain_text("Saved: the camera uses these zones now")

        def seats_seen() -> dict[int, list[str | None]]:
            view = demo.service.view
            return {} if view is None else {s: [c.card for c in cards] for s, cards in view.seats.items()}

        wanted = {seat: [deck[seat]] for seat in range(demo.model.seats)}
        for _ in range(100):  # the live camera (10 frames a second) confirms the cards in their new zones
            if seats_seen() == wanted:
                break
            page.wait_for_timeout(100)
        assert seats_seen() == wanted
        expect(page.locator("#zones-match-ok")).to_contain_text("The zones match the picture")

        # the camera raised after the zones were drawn: the page says they no longer match
        for lift in (10, 20, 30):
            page.click("text=Raise 10 cm")
            expect(page.locator("#rig-position")).to_contain_text(f"raised {lift} cm")
        expect(page.locator("#zones-match")).to_be_visible()
        expect(page.locator("#zones-match-text")).to_contain_text("The zones no longer match")
        expect(page.locator("#zones-recalibrate")).to_be_visible()
        page.wait_for_timeout(1200)  # the raised camera's picture behind the zones
        keep_shot(page.locator("#zones-panel"), "setup-zones-moved.png")
        page.click("text=As mounted")
        expect(page.locator("#zones-match")).to_be_hidden()

        # 4. a dry run: one hand dealt with nobody betting, shown street by street
        demo.model.gather()
        demo.watcher.tracker.reset()
        page.click("#dry-start")
        expect(page.locator("#dry-status")).to_contain_text("Watching")
        hands = [["2c", "3c"], ["4d", "5d"], ["6h", "7h"], ["8s", "9s"], ["Tc", "Jc"], ["Qd", "Kd"]]
        for seat, cards in enumerate(hands):
            demo.model.deal_hole(seat, cards)
        expect(page.locator(".dry-street[data-street=preflop] .dry-seats")).to_contain_text("Seat 6: 2 cards")
        preflop = page.locator(".dry-street[data-street=preflop]")
        expect(preflop).to_contain_text("Blinds posted:")
        expect(preflop).to_contain_text("acts first; pot")
        for street, board in (("flop", ["Ah", "As", "Ad"]), ("turn", ["Ac"]), ("river", ["2h"])):
            demo.model.deal_board(board)
            expect(page.locator(f".dry-street[data-street={street}]")).to_be_visible()
        for seat in range(demo.model.seats):  # the showdown: every hand turned face up
            demo.model.show(seat)
        showdown = page.locator(".dry-street[data-street=showdown]")
        # four aces on the board: the king of seat 6 is the best kicker (the engine says so)
        expect(showdown.locator(".dry-game")).to_contain_text("Seat 6 wins")
        expect(showdown.locator(".dry-game")).to_contain_text("Four of a kind")
        demo.model.gather()
        expect(page.locator("#dry-status")).to_contain_text("The hand is over")
        expect(page.locator(".dry-street[data-street=river] .dry-board")).to_have_text("Board: Ah As Ad Ac 2h")
        keep_shot(page.locator("#dry-panel"), "setup-dry-run.png")
        assert not errors, errors


def test_the_set_up_page_in_french_fits_a_phone(demo: Any) -> None:
    """The set-up page on a 390x844 phone asking for French: its steps, the zone check, the deck
    teaching and the dry run's game lines read in French, and no text overflows its box."""
    from playwright.sync_api import expect

    from tests.web.words_shots import french_phone, overflowing

    expect.set_options(timeout=20_000)
    with chromium() as browser:
        page = french_phone(browser)
        errors = host_logged_in(page, demo.url)
        page.goto(demo.url + "/admin/setup")
        expect(page.locator("#deck-panel h2")).to_have_text("3. Apprendre le jeu de cartes")
        expect(page.locator("#dry-panel h2")).to_have_text("4. Répétition")
        expect(page.locator("#zones-match-ok")).to_contain_text("Les zones correspondent à l’image")
        expect(page.locator("#deck-progress")).to_contain_text("0 carte apprise sur 52.")
        page.click("#deck-start")
        expect(page.locator("#deck-ask")).to_contain_text("Posez l’as de pique (As) face visible")
        problems = overflowing(page)
        page.click("#deck-stop")

        demo.model.gather()
        demo.watcher.tracker.reset()
        page.click("#dry-start")
        expect(page.locator("#dry-status")).to_contain_text("En observation")
        hands = [["2c", "3c"], ["4d", "5d"], ["6h", "7h"], ["8s", "9s"], ["Tc", "Jc"], ["Qd", "Kd"]]
        for seat, cards in enumerate(hands):
            demo.model.deal_hole(seat, cards)
        preflop = page.locator(".dry-street[data-street=preflop]")
        expect(preflop.locator(".dry-seats")).to_contain_text("Siège 6\u00a0: 2 cartes")
        expect(preflop).to_contain_text("Blindes posées\u00a0: Siège 6 petite blinde 5, Siège 1 grosse blinde 10.")
        expect(preflop).to_contain_text("parle en premier\u202f; pot")
        page.wait_for_timeout(300)
        assert problems + overflowing(page) == []
        assert errors == []
