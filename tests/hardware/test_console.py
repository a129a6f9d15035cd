import queue
import time

import pytest

from hardware.console import ButtonPressed, Console
from hardware.errors import PinMapError
from hardware.pins import ConsoleButton, PinMap


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def rig(mock_pins):
    events: queue.Queue = queue.Queue()
    clock = FakeClock()
    pins = PinMap.default(6)
    console = Console(pins, events, pin_factory=mock_pins, debounce=0.05, hold_time=0.15, clock=clock)
    yield console, events, clock, pins, mock_pins
    console.close()


def drained(events: queue.Queue) -> list[ButtonPressed]:
    out = []
    while True:
        try:
            out.append(events.get_nowait())
        except queue.Empty:
            return out


def tap(factory, pin: int, clock: FakeClock, held: float = 0.1) -> None:
    factory.pin(pin).drive_low()
    clock.now += held
    factory.pin(pin).drive_high()
    clock.now += 0.2


def test_each_button_gives_exactly_one_event(rig):
    _console, events, clock, pins, factory = rig
    for button in ConsoleButton:
        if button.needs_hold:
            continue
        tap(factory, pins.buttons[button], clock)
        got = drained(events)
        assert [e.button for e in got] == [button], button


def test_bounce_storm_is_one_press(rig):
    _console, events, clock, pins, factory = rig
    pin = factory.pin(pins.buttons[ConsoleButton.FOLD])
    for _ in range(40):  # 80 edges within 8 ms
        pin.drive_low()
        clock.now += 0.0001
        pin.drive_high()
        clock.now += 0.0001
    pin.drive_low()
    clock.now += 0.3
    pin.drive_high()  # release, also chattering
    clock.now += 0.001
    pin.drive_low()
    clock.now += 0.001
    pin.drive_high()
    assert [e.button for e in drained(events)] == [ConsoleButton.FOLD]
    clock.now += 0.5
    tap(factory, pins.buttons[ConsoleButton.FOLD], clock)  # a real second press counts
    assert len(drained(events)) == 1


def test_brush_on_all_in_gives_nothing_and_a_hold_gives_all_in(rig):
    _console, events, _clock, pins, factory = rig
    pin = factory.pin(pins.buttons[ConsoleButton.ALL_IN])
    pin.drive_low()
    time.sleep(0.03)
    pin.drive_high()
    time.sleep(0.3)
    assert drained(events) == []
    pin.drive_low()
    deadline = time.monotonic() + 3
    while events.empty() and time.monotonic() < deadline:
        time.sleep(0.01)
    pin.drive_high()
    assert [e.button for e in drained(events)] == [ConsoleButton.ALL_IN]


def test_undo_needs_a_hold_too(rig):
    _console, events, _clock, pins, factory = rig
    pin = factory.pin(pins.buttons[ConsoleButton.UNDO])
    pin.drive_low()
    pin.drive_high()
    time.sleep(0.3)
    assert drained(events) == []


def test_close_releases_pins(mock_pins):
    pins = PinMap.default(2)
    with Console(pins, queue.Queue(), pin_factory=mock_pins) as console:
        assert len(console.buttons) == len(ConsoleButton)
    # The pins are free again: a second console can take them.
    Console(pins, queue.Queue(), pin_factory=mock_pins).close()


def test_held_buttons_give_one_event_each(rig):
    _console, events, _clock, pins, factory = rig
    for button in (ConsoleButton.ALL_IN, ConsoleButton.UNDO):
        pin = factory.pin(pins.buttons[button])
        pin.drive_low()
        time.sleep(0.6)  # held well past hold_time (0.15 s): still one event
        pin.drive_high()
        time.sleep(0.05)
        assert [e.button for e in drained(events)] == [button]


def test_a_chattering_hold_still_counts_once(rig):
    _console, events, _clock, pins, factory = rig
    pin = factory.pin(pins.buttons[ConsoleButton.ALL_IN])
    for _ in range(30):
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    time.sleep(0.5)
    pin.drive_high()
    assert [e.button for e in drained(events)] == [ConsoleButton.ALL_IN]


def test_a_bad_pin_map_is_refused_before_any_pin_is_claimed(mock_pins):
    pins = PinMap.default(4)
    clash = PinMap({**pins.buttons, ConsoleButton.FOLD: pins.buttons[ConsoleButton.NEXT]}, pins.seat_leds)
    with pytest.raises(PinMapError, match="GPIO 7 is used twice"):
        Console(clash, queue.Queue(), pin_factory=mock_pins)
    assert mock_pins.pins == {}
    with pytest.raises(PinMapError, match="hold_time"):
        Console(pins, queue.Queue(), pin_factory=mock_pins, hold_time=0)
    Console(pins, queue.Queue(), pin_factory=mock_pins).close()  # nothing was left claimed
