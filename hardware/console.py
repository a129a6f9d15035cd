"""The dealer's button console: gpiozero buttons that put typed events on a queue.

Callbacks run on gpiozero's threads and do nothing but put a :class:`ButtonPressed` on the
queue the caller gave; the service's own thread takes it from there.

Debounce is done here, in software, the same way on every pin factory (gpiozero's mock
pins ignore ``bounce_time``, and a real switch can chatter for longer than a kernel filter
expects): a press counts only if the button had been quiet — no edge at all, pressed or
released — for ``debounce`` seconds before it. A chattering press or release is thus one
press or none.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpiozero import Button

from hardware.errors import PinMapError
from hardware.pins import ConsoleButton, PinMap


@dataclass(frozen=True)
class ButtonPressed:
    """One accepted press (or, for ALL-IN and UNDO, one completed hold) of a console button."""

    button: ConsoleButton
    at: float
    """Monotonic time of the press."""


class Console:
    """The console of eight buttons, wired as in a :class:`PinMap` (active low, internal pull-ups).

    ``pin_factory`` is passed to every gpiozero device: ``MockFactory()`` off the Pi,
    ``LGPIOFactory()`` on a Pi 5, or ``None`` for gpiozero's own choice.
    """

    def __init__(
        self,
        pins: PinMap,
        events: queue.Queue[Any],
        *,
        pin_factory: Any = None,
        debounce: float = 0.05,
        hold_time: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        pins.validate(seats=len(pins.seat_leds))  # a wiring mistake stops here, before any pin is claimed
        if debounce < 0 or hold_time <= 0:
            raise PinMapError(f"debounce must be 0 s or more and hold_time above 0 s, got {debounce} and {hold_time}")
        self._events = events
        self._debounce = debounce
        self._clock = clock
        self._last_edge: dict[ConsoleButton, float] = {}
        self.buttons: dict[ConsoleButton, Button] = {}
        try:
            for name, pin in pins.buttons.items():
                button = Button(pin, pull_up=True, hold_time=hold_time, pin_factory=pin_factory)
                self.buttons[name] = button
                if name.needs_hold:
                    button.when_held = self._on_held(name)
                else:
                    button.when_pressed = self._on_edge(name, pressed=True)
                    button.when_released = self._on_edge(name, pressed=False)
        except BaseException:
            self.close()
            raise

    def _on_edge(self, name: ConsoleButton, *, pressed: bool) -> Callable[[], None]:
        def handle() -> None:
            now = self._clock()
            quiet = now - self._last_edge.get(name, float("-inf")) >= self._debounce
            self._last_edge[name] = now
            if pressed and quiet:
                self._events.put(ButtonPressed(name, now))

        return handle

    def _on_held(self, name: ConsoleButton) -> Callable[[], None]:
        def handle() -> None:
            self._events.put(ButtonPressed(name, self._clock()))

        return handle

    def close(self) -> None:
        """Release every pin."""
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()

    def __enter__(self) -> Console:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
