"""The dashboard's layout on a phone (390x844) and a TV (1920x1080), read from the boxes chromium
lays out: no table piece covers another (seats, board cards, the dealer button, the pot, the
status line), no page block covers another (bars, the table, the panels), nothing sticks out
sideways (see :mod:`tests.web.layout`). The tables played: 2, 4, 6, 9 and 10 seats with the
button on every seat, the demo hand to its showdown, a ten-seat showdown with every hand shown
and long names. Screenshots of both screens go to ``.ci-artifacts/``.

The first tests check the checker itself, without a browser."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from table.engine import BlindStructure
from table.session import SessionSettings
from tests.web.browser import PHONE, TV, chromium, needs_browser, phone_page
from tests.web.helpers import DEMO_FLOP, DEMO_PREFLOP, DEMO_RIVER, DEMO_SHOWDOWN, DEMO_TURN, make_app, play
from tests.web.layout import Box, Layout, below, boxes, overlaps, sideways
from tocktable.service import Service
from tocktable.steps import Act, ChooseButton, Confirm, DealBoard, Settle, Show
from tocktable.store import Store
from web.serve import WebServer

ARTIFACTS = Path(__file__).resolve().parents[2] / ".ci-artifacts"

# Without chromium (a developer's machine) the browser tests are skipped, saying why; in CI
# (.ci/run installs chromium) a missing browser fails them instead.

# Long names on purpose: a seat box must stay its size whatever the name (24 characters at most).
LONG_NAMES = ["Ann", "Bartholomew Fitzwilliam", "Cleo", "Maximiliana Wolkenstein", "Eve", "Finn", "Gus",
              "Hortensia Q. Abernathy", "Ivo", "Jo"]  # fmt: skip
DECK = [rank + suit for rank in "AKQJT98765432" for suit in "shdc"]
random.Random(21).shuffle(DECK)  # a board of all four nines would make every hand the same


# ------------------------------------------------------------------ the checker, without a browser
def box(kind: str, i: int, left: float, top: float, w: float, h: float, *, group: str = "piece",
        inside: tuple[str, ...] = ()) -> Box:  # fmt: skip
    return Box(group, kind, f"{group}:{kind}:{i}", f"{kind} {i + 1}", left, top, left + w, top + h, inside)


def test_the_checker_finds_a_dealer_button_on_a_board_card() -> None:
    card = box("board", 0, 100, 300, 36, 50)
    dealer = box("dealer", 0, 90, 310, 20, 20)
    found = overlaps(Layout((card, dealer), 390, 844, 390))
    assert found == ["board 1 covers dealer 1 by 10x20 px"]


def test_the_checker_allows_touching_nesting_and_other_groups() -> None:
    seat = box("seat", 0, 0, 0, 90, 80)
    dealer = box("dealer", 0, 4, 20, 16, 16, inside=(seat.id,))  # the button in its own seat's box
    neighbour = box("seat", 1, 90, 0, 90, 80)  # edge to edge: not covering
    table = box("table", 0, 0, 0, 390, 600, group="block")  # a block holds pieces: another group
    rounding = box("seat", 2, 179.6, 0, 90, 80)  # 0.4 px: sub-pixel rounding
    assert overlaps(Layout((seat, dealer, neighbour, table, rounding), 390, 844, 390)) == []


def test_the_checker_finds_a_page_that_scrolls_sideways_and_a_seat_below_the_tv() -> None:
    wide = box("seat", 0, 330, 0, 90, 80)
    assert sideways(Layout((wide,), 390, 844, 420)) == [
        "seat 1 ends at x=420, past the screen's 390 px", "the page is 420 px wide on a 390 px screen"]  # fmt: skip
    low = box("seat", 0, 900, 1000, 200, 100)
    panel = box("panel", 0, 1300, 900, 500, 400, group="block")  # panels may go on below
    assert below(Layout((low, panel), 1920, 1080, 1920)) == ["seat 1 ends at y=1100, below the screen's 1080 px"]


# ------------------------------------------------------------------ the tables, in chromium
def state(service: Service) -> dict[str, Any]:
    data: dict[str, Any] = service.snapshot().to_dict()
    return data


def betting_round(service: Service, action: str = "call") -> None:
    """Everyone to act calls (or checks), or with ``action="fold"`` folds, until the round closes."""
    while (s := state(service))["phase"] == "playing" and s["to_act"] is not None:
        legal = {a["action"] for a in s["legal_actions"]}
        move = "fold" if action == "fold" else "check" if "check" in legal else "call"
        service.call(Act(s["to_act"], move))


def show_down(service: Service, seats: int) -> None:
    """Call every round, deal the board, every seat shows, the hand is settled."""
    betting_round(service)
    k = 2 * seats
    for count in (3, 1, 1):
        service.call(DealBoard(tuple(DECK[k : k + count])))
        k += count
        betting_round(service)
    for seat in range(seats):
        service.call(Show(seat, (DECK[2 * seat], DECK[2 * seat + 1])))
    if state(service)["phase"] == "playing":
        service.call(Settle())


class Screens:
    """A phone and a TV showing the same dashboard; ``check`` reads both once they have drawn
    the service's newest state, and collects what breaks the layout rule."""

    def __init__(self, browser: Any, service: Service, url: str) -> None:
        self.service = service
        tv = browser.new_context(viewport=TV).new_page()
        self.pages = {"phone": phone_page(browser), "tv": tv}
        for page in self.pages.values():
            page.goto(url)
        self.problems: list[str] = []
        self.checked = 0

    def check(self, moment: str) -> None:
        s = state(self.service)
        for name, page in self.pages.items():
            page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=s["version"])
            layout = boxes(page)
            assert layout.of("seat") and len(layout.of("board")) == 5, f"{name}: no table drawn at {moment}"
            dealers = 0 if s["phase"] == "seating" else 1
            assert len(layout.of("dealer")) == dealers, f"{name}: dealer buttons at {moment}"
            self.checked += 1
            found = overlaps(layout) + sideways(layout) + (below(layout) if name == "tv" else [])
            for problem in found:
                self.problems.append(f"{name}, {len(s['seats'])} seats, {moment}, hand {s['hand_number']}: {problem}")

    def shoot(self, stem: str) -> list[Path]:
        ARTIFACTS.mkdir(exist_ok=True)
        shots = []
        for name, page in self.pages.items():
            size = PHONE if name == "phone" else TV
            path = ARTIFACTS / f"{stem}-{name}-{size['width']}x{size['height']}.png"
            page.screenshot(path=str(path))
            shots.append(path)
        return shots

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One chromium for the module (the tests that use it are marked ``needs_browser``)."""
    with chromium() as opened:
        yield opened


def table(tmp_path: Path, seats: int, names: list[str]) -> tuple[Service, WebServer]:
    settings = SessionSettings(seats=seats, blinds=BlindStructure.fixed(5, 10))
    players = [(names[i], 1000) for i in range(seats)]
    service = Service(Store(tmp_path / f"t{seats}.sqlite"), settings, players=players, confirm_seconds=None).start()
    return service, WebServer(make_app(service, tmp_path), "127.0.0.1", 0, threads=16).start()


@needs_browser
@pytest.mark.slow
def test_the_demo_hand_on_a_phone_and_a_tv(browser: Any, app: Any, service: Any) -> None:
    """The six-seat demo hand from the blinds to its showdown (bets, an all-in, side pots, shown
    hands, the status line, the result panel, the last hands); screenshots of both screens."""
    server = WebServer(app, "127.0.0.1", 0, threads=16).start()
    screens = Screens(browser, service, server.url)
    try:
        play(service, [ChooseButton(seat=0)])
        screens.check("the blinds")
        play(service, DEMO_PREFLOP[:3])
        screens.check("bets before the flop")
        play(service, [*DEMO_PREFLOP[3:], *DEMO_FLOP[:3]])
        screens.check("the flop, an all-in")
        play(service, [*DEMO_FLOP[3:], *DEMO_TURN, *DEMO_RIVER])
        screens.check("the river, side pots")
        play(service, DEMO_SHOWDOWN)
        for page in screens.pages.values():  # the result and the history after it
            page.locator("#hands li[data-hand]").wait_for()
        screens.check("the showdown")
        shots = screens.shoot("dashboard")
        assert all(shot.stat().st_size > 20_000 for shot in shots)
    finally:
        screens.close()
        server.stop()
    assert screens.checked == 10
    assert screens.problems == []


@needs_browser
@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 4, 6, 9, 10])
def test_the_button_goes_round_without_covering_anything(browser: Any, tmp_path: Path, seats: int) -> None:
    """One folded hand per seat, so the dealer button stops at every seat, bets out; then a
    showdown with every hand shown (the tallest seat boxes) and the longest names."""
    service, server = table(tmp_path, seats, LONG_NAMES)
    screens = Screens(browser, service, server.url)
    try:
        screens.check("before the first dealer")
        service.call(ChooseButton(seat=0))
        for _ in range(seats):
            screens.check("the blinds")
            betting_round(service, "fold")
            service.call(Confirm())
        show_down(service, seats)
        screens.check("every hand shown")
        if seats == 10:
            screens.shoot("dashboard-10-seats")
    finally:
        screens.close()
        server.stop()
        service.stop()
        service.store.close()
    assert screens.checked == 2 * (seats + 2)
    assert screens.problems == []

