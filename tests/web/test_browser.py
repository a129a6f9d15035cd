"""Real-browser tests: chromium on a phone-size screen follows a demo hand to its showdown over
SSE (then the same page polling, as when SSE is cut), with a screenshot kept as an artifact in
``.ci-artifacts/``; the host's page confirms each console press and alone shows a refused
command. The layout on a phone and a TV is checked in ``test_layout.py``."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from tests.web.browser import chromium, needs_browser, phone_page
from tests.web.helpers import DEMO_FLOP, DEMO_PREFLOP, DEMO_RIVER, DEMO_SHOWDOWN, DEMO_TURN, PIN, play
from tocktable.steps import ChooseButton
from web.serve import WebServer

ARTIFACTS = Path(__file__).resolve().parents[2] / ".ci-artifacts"

pytestmark = needs_browser


def test_phone_follows_a_hand_to_the_showdown(app: Any, service: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    server = WebServer(app, "127.0.0.1", 0, threads=16).start()
    try:
        with chromium() as browser:
            page = phone_page(browser)
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(server.url)
            expect(page.locator("#live")).to_have_text("live")
            expect(page.locator("#phase")).to_contain_text("Waiting for the draw")

            play(service, [ChooseButton(seat=0)])
            expect(page.locator(".seat.to-act")).to_contain_text("Dan")
            expect(page.locator("#pot-amount")).to_have_text("15")  # the blinds

            play(service, DEMO_PREFLOP)
            expect(page.locator("#phase")).to_contain_text("waiting for the flop")
            expect(page.locator("#pot-amount")).to_have_text("120")

            play(service, DEMO_FLOP[:3])  # the flop, Bob checks, Cleo all-in
            expect(page.locator("#board .card.face")).to_have_count(3)
            expect(page.locator(".seat[data-seat='2'] .tag.allin")).to_have_text("ALL-IN")
            expect(page.locator("[data-bet='2']")).to_contain_text("370")

            play(service, [*DEMO_FLOP[3:], *DEMO_TURN, *DEMO_RIVER])
            cards = page.locator("#board .card.face")
            expect(cards).to_have_count(5)
            assert [cards.nth(i).get_attribute("data-card") for i in range(5)] == ["Ah", "Kd", "7c", "2s", "9h"]
            expect(page.locator("#pots li")).to_have_count(2)  # the main pot and Bob and Dan's side pot

            play(service, DEMO_SHOWDOWN)
            showdown = page.locator("#showdown")
            expect(showdown).to_be_visible()
            expect(showdown.locator("[data-pot='0'] .winner")).to_have_text("Cleo wins 1,230")
            expect(showdown.locator("[data-pot='1'] .winner")).to_have_text("Dan wins 400")
            expect(showdown).to_contain_text("Three of a kind, kings")
            expect(page.locator("#pot-amount")).to_have_text("1,630")
            expect(page.locator(".seat[data-seat='2'] .tag.win")).to_have_text("WINS 1,230")
            expect(page.locator("#hands li")).to_have_count(1)  # the history came after the hand
            # Last hands: one line per winner with the hand's net, the ledger's figure after one hand.
            expect(page.locator("#hands li .net")).to_have_text(["Cleo +830,", "Dan −200"])
            expect(page.locator("#ledger tr", has_text="Cleo").locator("td").last).to_have_text("+830")
            expect(page.locator("#ledger tr", has_text="Dan").locator("td").last).to_have_text("-200")
            expect(page.locator("#chart svg path")).to_have_count(6)  # one line per player
            shot = tmp_path / "dashboard-phone.png"
            page.screenshot(path=str(shot), full_page=True)
            ARTIFACTS.mkdir(exist_ok=True)
            shutil.copy(shot, ARTIFACTS / shot.name)
            assert shot.stat().st_size > 20_000

            polling = phone_page(browser)
            polling.goto(server.url + "?poll")  # the page as it runs when SSE is cut
            expect(polling.locator("#live")).to_have_text("polling")
            expect(polling.locator("#pot-amount")).to_have_text("1,630")
            expect(polling.locator("#showdown [data-pot='0'] .winner")).to_have_text("Cleo wins 1,230")
            assert errors == []
    finally:
        server.stop()


def test_the_host_page_confirms_each_press_and_alone_shows_a_refusal(app: Any, service: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    server = WebServer(app, "127.0.0.1", 0, threads=16).start()
    try:
        with chromium() as browser:
            player = phone_page(browser)
            host = phone_page(browser)
            errors: list[str] = []
            for page in (player, host):
                page.on("pageerror", lambda exc: errors.append(str(exc)))
            player.goto(server.url)
            host.goto(server.url + "/admin")
            host.fill("input[name=pin]", PIN)
            host.click("button[type=submit]")
            expect(host.locator("#live")).to_have_text("live")

            play(service, [ChooseButton(seat=0)])  # Dan (seat 3) is first to act
            expect(host.locator("#now")).to_have_text("Dan to act")
            fold = host.locator("[data-press=fold]")
            before = fold.bounding_box()
            fold.click()
            flash = host.locator("#flash")
            expect(flash).to_be_visible()
            expect(flash).to_have_text("FOLD: Dan folds")
            assert fold.bounding_box() == before  # the confirmation floats: no button moved under the thumb
            host.locator("[data-press=check_call]").click()
            expect(flash).to_have_text("CHECK/CALL: Eve calls 10")
            host.locator("[data-press=plus]").click()
            expect(flash).to_have_text("+: bet or raise amount: 30")
            host.locator("[data-press=bet_raise]").click()
            expect(flash).to_have_text("BET/RAISE: Finn raises to 30")

            # A mistyped correction: no board card is dealt yet.
            host.fill("#form-correct input[name=card]", "7d")
            host.locator("#form-correct button").click()
            refusal = "there is no board card 1 to correct: no board card is dealt yet"
            expect(flash).to_have_text(refusal)
            expect(host.locator("#warnings li")).to_have_text([f"✖ refused: {refusal}"])
            version = service.snapshot().version
            player.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)
            expect(player.locator("#warnings li")).to_have_count(0)
            assert refusal not in player.content()
            assert errors == []
    finally:
        server.stop()


def test_the_dice_page_follows_the_throws_and_shows_a_forbidden_move(app: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    server = WebServer(app, "127.0.0.1", 0, threads=16).start()
    try:
        with chromium() as browser:
            page = phone_page(browser)
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(server.url + "/dice")
            page.fill("#form-new input[name=players]", "Ana, Ben")
            page.check("#track-throws")
            page.locator("#form-new button").click()
            expect(page.locator("#throws-title")).to_have_text("Ana throws")
            flash = page.locator("#flash")

            page.fill("#announce-text", "Paire de Dames")  # before any throw: refused
            page.locator("#form-announce button:has-text('Announce')").click()
            expect(flash).to_contain_text("all five dice are thrown first")
            for n in range(5):
                page.locator("#dice-numbers button").nth(n).click()
            page.locator("#btn-throw-cup").click()
            expect(flash).to_have_text("thrown under the cup: 0, 1, 2, 3, 4")
            page.locator("#form-announce button:has-text('Announce')").click()
            expect(page.locator("#throws-title")).to_have_text("Ben throws")

            page.locator("#btn-look").click()
            expect(page.locator("#phases li").last).to_have_text("Ben looked under the cup")
            page.locator("#btn-superieur").click()  # looked, not thrown: refused, with the rule
            expect(flash).to_contain_text("at least one die is thrown before announcing")
            assert page.locator("#dice-numbers button").first.get_attribute("title") == "die 0: under the cup"
            assert errors == []
    finally:
        server.stop()
