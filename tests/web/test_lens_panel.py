"""The lens on the dashboard: ``GET /api/lens`` and the ``lens`` event carry table.lens of the
public table (table seats mapped), nothing private, as the OpenAPI document says; the page has
the panel; a phone follows a Tock hand and a Hold'em all-in in chromium."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis

from table.lens import LENS_PRECISION, lens
from tests.tocktable.helpers import view
from tests.tocktable.lens_hands import (
    ALLIN_HAND,
    ALLIN_SHOW,
    TOCK_BOARD,
    TOCK_FLOP,
    TOCK_HOLES,
    TOCK_PREFLOP,
    TOCK_RIVER,
    TOCK_SHOWDOWN,
    TOCK_TURN,
    tock_marks,
)
from tests.web.browser import available, chromium, phone_page, served
from tests.web.helpers import make_app, make_service, play
from tests.web.test_events import EventReader
from tocktable.steps import ChooseButton, Confirm
from web.lens import LENS_EXTENSION
from web.words import words_for
from web.words.lens import lens_words, view_words

ARTIFACTS = Path(__file__).resolve().parents[2] / ".ci-artifacts"
no_browser = pytest.mark.skipif(available() is not None, reason=available() or "")


@pytest.fixture
def tock_app(tock_service: Any, tmp_path: Path) -> Iterator[Any]:
    app = make_app(tock_service, tmp_path)
    yield app
    app.extensions[LENS_EXTENSION].stop()


def worker(app: Any) -> Any:
    return app.extensions[LENS_EXTENSION]


def settled_on(app: Any, stage: str, version: int | None = None) -> dict[str, Any]:
    """The lens once it is computed for ``stage`` (and for the state ``version``, when given: the
    worker may settle on an earlier state of the same street before it catches up)."""
    found: dict[str, Any] = worker(app).wait_until(
        lambda d: d["stage"] == stage and not d["pending"] and version in (None, d["state_version"]), timeout=30)
    return found


def lens_of_state(state: dict[str, Any]) -> dict[str, Any]:
    """table.lens of the public table as /api/state shows it, seats numbered as at the table."""
    dealt = [s for s in state["seats"] if s["in_hand"]]
    hands = [s["hole"] or s["marks"] for s in dealt]
    board = [*state["board"], *state["board_marks"][len(state["board"]) :]]
    folded = [i for i, s in enumerate(dealt) if s["folded"] or s["mucked"]]
    names = [s["name"] for s in dealt]
    data = lens(hands, board, folded=folded, names=names, precision=LENS_PRECISION, seed=0).to_json()
    for entry in data["seats"]:
        entry["index"], entry["seat"] = entry["seat"], dealt[entry["seat"]]["seat"]
    return view_words(words_for("en"), data)


def test_api_lens_is_table_lens_of_the_public_state(tock_app: Any, tock_service: Any) -> None:
    client = tock_app.test_client()
    play(tock_service, [ChooseButton(seat=0), *tock_marks(), *TOCK_PREFLOP, *TOCK_FLOP[:5]])
    settled_on(tock_app, "flop", client.get("/api/state").get_json()["version"])
    response = client.get("/api/lens")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    got = response.get_json()
    assert got == lens_words(words_for("en"), worker(tock_app).latest().to_dict())  # the worker's, in words
    state = client.get("/api/state").get_json()
    assert got["mode"] == "tock" and got["hand_number"] == state["hand_number"] == 1
    assert got["state_version"] == state["version"] and got["stage"] == state["street"] == "flop"
    assert got["lens"] == lens_of_state(state)
    assert [s["seat"] for s in got["lens"]["seats"]] == [0, 1, 2, 3, 4, 5]
    assert [s["folded"] for s in got["lens"]["seats"]] == [False, False, False, False, True, True]
    assert got["lens"]["seats"][0]["name"] == "Ann" and got["lens"]["seats"][0]["best"] == "Flush"


def test_the_event_stream_carries_the_lens_and_never_a_peeked_card(tock_app: Any, tock_service: Any) -> None:
    client = tock_app.test_client()
    play(tock_service, [ChooseButton(seat=0), *tock_marks(), *TOCK_PREFLOP])
    settled_on(tock_app, "preflop")

    def flop_lens(events: list[tuple[str, Any]]) -> bool:
        return any(kind == "lens" and data["stage"] == "flop" and not data["pending"] for kind, data in events)

    reader = EventReader(client.get("/api/events", buffered=False), until=flop_lens)
    tock_service.call(view(board=list(TOCK_BOARD[:3]), seats={1: list(TOCK_HOLES[1])}))  # the flop, and Bob peeks
    events = reader.wait(timeout=30)
    kinds = [kind for kind, _ in events]
    assert kinds[:2] == ["retry", "state"] and "lens" in kinds
    lenses = [data for kind, data in events if kind == "lens"]
    assert [d["version"] for d in lenses] == sorted({d["version"] for d in lenses})
    assert lenses[-1] == client.get("/api/lens").get_json()
    assert any(w["kind"] == "peek" for w in client.get("/api/state").get_json()["warnings"])
    texts = [repr(events), client.get("/api/lens").get_data(as_text=True)]
    for card in (*TOCK_HOLES[1], *TOCK_HOLES[0], *TOCK_HOLES[2]):
        assert all(f"'{card}'" not in t and f'"{card}"' not in t for t in texts), card


def test_the_dashboard_has_the_panel_and_its_script(tock_app: Any) -> None:
    client = tock_app.test_client()
    page = client.get("/").get_data(as_text=True)
    assert '<section id="lens" class="panel lens" hidden' in page
    assert page.index("lens.js") < page.index("dashboard.js")  # it registers its event before the page follows
    with client.get("/static/lens.js") as script:
        assert 'TT.listen("lens", "/api/lens"' in script.get_data(as_text=True)
    with client.get("/static/lens.css") as style:
        assert style.status_code == 200 and b".lens-bar" in style.data


def test_the_lens_answers_as_documented_at_every_stage(tock_app: Any, tock_service: Any, tmp_path: Path) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", tock_app)
    operation = schema.find_operation_by_label("GET /api/lens")
    operation.Case().call_and_validate()  # before any hand
    for steps, stage in (([ChooseButton(seat=0), *tock_marks(), *TOCK_PREFLOP], "preflop"),
                         ([*TOCK_FLOP, *TOCK_TURN, *TOCK_RIVER, *TOCK_SHOWDOWN], "showdown"),
                         ([Confirm()], "preflop")):  # fmt: skip
        play(tock_service, steps)
        settled_on(tock_app, stage)
        operation.Case().call_and_validate()
    last = tock_app.test_client().get("/api/lens").get_json()["last"]
    assert last["hand_number"] == 1 and last["history"]["stages"][-1] == "showdown"
    holdem = make_service(tmp_path / "holdem")
    app = make_app(holdem, tmp_path / "holdem")
    try:
        play(holdem, [*ALLIN_HAND, *ALLIN_SHOW])
        worker(app).wait_until(lambda d: d["mode"] == "allin" and d["lens"] is not None)
        schemathesis.openapi.from_wsgi("/api/openapi.json", app).find_operation_by_label(
            "GET /api/lens"
        ).Case().call_and_validate()
    finally:
        worker(app).stop()
        holdem.stop()
        holdem.store.close()


def test_no_worker_no_lens(tock_service: Any, tmp_path: Path) -> None:
    app = make_app(tock_service, tmp_path, lens=False)
    assert app.extensions[LENS_EXTENSION] is None
    got = app.test_client().get("/api/lens").get_json()
    assert got["mode"] is None and got["lens"] is None and "off" in got["note"]


@no_browser
def test_a_phone_follows_the_lens_through_a_tock_hand_and_a_holdem_all_in(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    from tests.web.lens_shots import NO_STICKY

    expect.set_options(timeout=20_000)
    with chromium() as browser:
        with served("tock") as (service, url):
            page = phone_page(browser)
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(url)
            page.add_style_tag(content=NO_STICKY)
            panel = page.locator("#lens")
            play(service, [ChooseButton(seat=0), *tock_marks()])
            expect(panel.locator("h2")).to_contain_text("Hand 1 · Pre-flop")
            expect(panel.locator(".lens-seat")).to_have_count(6)
            expect(panel.locator(".lens-seat[data-seat='0'] .card.back[data-mark='h:ace']")).to_have_count(1)
            for steps, label in ((TOCK_PREFLOP + TOCK_FLOP[:1], "Flop"), (TOCK_FLOP[1:] + TOCK_TURN[:1], "Turn"),
                                 (TOCK_TURN[1:] + TOCK_RIVER[:1], "River")):  # fmt: skip
                play(service, steps)
                expect(panel.locator("h2")).to_contain_text(label)
                expect(panel.locator(".lens-badge")).to_have_count(0)
            ann = panel.locator(".lens-seat[data-seat='0']")
            expect(ann.locator(".pct")).to_have_text("100%")  # the river: every card is up or marked
            expect(ann.locator(".best")).to_contain_text("Flush, ace high")
            assert (ann.locator(".lens-bar .win").get_attribute("style") or "").find("width: 100%") >= 0
            expect(panel.locator(".lens-seat[data-seat='4'] .pct")).to_have_text("–")  # Eve folded
            ann.locator("summary").click()
            expect(ann.locator(".why li").first).to_contain_text("Ann shows the ace of hearts and a large heart")
            play(service, TOCK_RIVER[1:] + TOCK_SHOWDOWN)
            expect(panel.locator(".lens-badge.done")).to_have_text("hand over")
            expect(panel.locator(".lens-chart path[data-seat]")).to_have_count(6)
            expect(panel.locator(".lens-folds")).to_contain_text("Eve (pre-flop)")
            expect(ann.locator(".shows .card.face")).to_have_count(2)  # shown at the showdown
            shot = tmp_path / "lens-phone.png"
            page.screenshot(path=str(shot), full_page=True)
            ARTIFACTS.mkdir(exist_ok=True)
            shutil.copy(shot, ARTIFACTS / shot.name)
        with served("holdem") as (service, url):
            page = phone_page(browser)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(url)
            panel = page.locator("#lens")
            play(service, ALLIN_HAND)
            expect(panel.locator("h2")).to_contain_text("All in")
            expect(panel).to_contain_text("appear when the hands are turned face up")
            play(service, ALLIN_SHOW)
            expect(panel.locator(".lens-stages button")).to_have_count(4)
            expect(panel.locator(".lens-stages .on")).to_have_text("Pre-flop")  # the all-in, as TV shows it
            expect(panel.locator(".lens-seat[data-seat='3'] .pct")).to_have_text("46%")  # AhKh v QsQd
            panel.locator(".lens-stages [data-stage='turn']").click()
            expect(panel.locator(".lens-seat[data-seat='3'] .outs")).to_contain_text("needs one of 7 cards")
            expect(panel.locator(".lens-seat[data-seat='2'] .pct")).to_have_text("84%")
            expect(panel.locator(".lens-chart path[data-seat]")).to_have_count(2)
        assert errors == []
