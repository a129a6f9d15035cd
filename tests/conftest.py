"""Shared fixtures: mock GPIO pins, synthetic table frames, the web app and its test client."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """The renderer draws with the package fonts alone unless ``TOCKTABLE_FONTS`` says otherwise.

    Which deck a seed gives depends on the fonts found, and a machine's system fonts are its own;
    the package fonts are pinned, so every machine draws the same decks and the tests' figures
    hold everywhere. ``TOCKTABLE_FONTS=all`` runs the suite with the system fonts too, ``system``
    with those alone (vision/render/fonts.py). Set here, it reaches the subprocesses the tests start.
    """
    os.environ["TOCKTABLE_FONTS"] = os.environ.get("TOCKTABLE_FONTS") or "packages"


@pytest.fixture
def mock_pins() -> Iterator[Any]:
    """A fresh gpiozero MockFactory with PWM-capable pins, reset after the test.

    Devices get it as ``pin_factory=mock_pins``; the global ``Device.pin_factory`` is never set,
    so nothing leaks between tests.
    """
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()
    factory.close()


@pytest.fixture
def synthetic_frames() -> Any:
    """Frames of a whole hold'em hand with exact truth, drawn without waiting on a clock.

    ``synthetic_frames(seats=6, seed=0, pace=1.0, fps=2.0, folds=(), **model_options)`` returns a
    list of ``(t, vision.render.scene.RenderedScene)``: hole cards dealt face down, folds mucked, flop,
    turn and river face up, the rest shown, all gathered (see ``TableScript.holdem_hand``).
    """
    from hardware.table_model import TableModel
    from hardware.table_script import TableScript

    def make(
        seats: int = 6, seed: int = 0, pace: float = 1.0, fps: float = 2.0, folds: tuple[int, ...] = (), **options: Any
    ) -> list[tuple[float, Any]]:
        script = TableScript.holdem_hand(TableModel(seats, seed=seed, **options), seed=seed, pace=pace, folds=folds)
        times = [k / fps for k in range(int(script.duration * fps) + 1)]
        return list(zip(times, script.render_at(times), strict=True))

    return make


def _running_service(tmp_path: Any, **options: Any) -> Iterator[Any]:
    from tests.web.helpers import make_service

    running = make_service(tmp_path, **options)
    yield running
    running.stop()
    running.store.close()


@pytest.fixture
def service(tmp_path: Any) -> Iterator[Any]:
    """A running service on a temp store: six players seated (``tests.web.helpers``), no hand yet."""
    yield from _running_service(tmp_path)


@pytest.fixture
def tock_service(tmp_path: Any) -> Iterator[Any]:
    """The same, playing Tock-Poker (the lens tests)."""
    yield from _running_service(tmp_path, variant="tock")


@pytest.fixture
def app(service: Any, tmp_path: Any) -> Any:
    """The web app around ``service``; the admin PIN is ``tests.web.helpers.PIN``."""
    from tests.web.helpers import make_app

    return make_app(service, tmp_path)


@pytest.fixture
def client(app: Any) -> Any:
    """Flask's test client for ``app``."""
    return app.test_client()
