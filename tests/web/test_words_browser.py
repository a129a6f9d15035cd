"""The pages in French on a phone-size chromium: the dashboard after a showdown, the host's page,
the lens and the dice referee read in French, and no text overflows its box."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web import words_shots
from tests.web.browser import chromium, needs_browser

pytestmark = needs_browser


@pytest.fixture(scope="module")
def browser() -> Any:
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    with chromium() as opened:
        yield opened


def test_the_dashboard_in_french_fits_a_phone(browser: Any) -> None:
    language, problems = words_shots.dashboard(browser)
    assert language == "fr"
    assert problems == []


def test_the_host_page_in_french_fits_a_phone(browser: Any) -> None:
    now, problems = words_shots.host(browser)
    assert now == "Eve a la parole"  # Dan called: the next seat is to act
    assert problems == []


def test_the_lens_in_french_fits_a_phone(browser: Any) -> None:
    text, problems = words_shots.lens_panel(browser)
    assert "LA LOUPE" in text.upper() and "D’après ce que la table voit" in text and "±0,5 points" in text
    assert problems == []


def test_the_dice_referee_in_french_fits_a_phone(browser: Any) -> None:
    text, problems = words_shots.dice(browser)
    assert "Ana" in text and "Paire de Dames" in text
    assert problems == []


def test_the_overflow_check_sees_an_overflow(browser: Any) -> None:
    """The check itself can fail: a word wider than its box is found."""
    page = words_shots.french_phone(browser)
    page.set_content('<html><body><div id="box" style="width:40px">Anticonstitutionnellement</div></body></html>')
    problems = words_shots.overflowing(page)
    assert len(problems) == 1 and problems[0].startswith('div#box.: "Anticonstitutionnellement"')
