"""Shared fixtures: mock GPIO pins."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


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
