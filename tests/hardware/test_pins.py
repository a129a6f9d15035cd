import pytest

from hardware.errors import PinMapError
from hardware.pins import ConsoleButton, PinMap
from table.errors import TocktableError


def test_default_map_is_valid_for_every_table_size():
    for seats in range(2, 11):
        PinMap.default(seats).validate(seats=seats)


def test_pin_used_twice_names_both_settings():
    pins = PinMap.default(4)
    clash = PinMap({**pins.buttons, ConsoleButton.UNDO: 5}, pins.seat_leds, source="table.toml")
    with pytest.raises(PinMapError) as info:
        clash.validate(seats=4)
    message = str(info.value)
    assert "table.toml" in message and "GPIO 5 is used twice" in message
    assert "pins.buttons.undo" in message and "pins.seat_leds[0]" in message
    assert isinstance(info.value, ValueError) and isinstance(info.value, TocktableError)


@pytest.mark.parametrize("bad", [0, 1, 28, 40, -3])
def test_pin_that_does_not_exist(bad):
    pins = PinMap.default(3)
    with pytest.raises(PinMapError, match=rf"pins.status_led = {bad} is not a usable GPIO pin: use BCM numbers 2..27"):
        PinMap(pins.buttons, pins.seat_leds, status_led=bad).validate(seats=3)


def test_seat_count_must_match_leds():
    with pytest.raises(PinMapError, match="lists 6 LEDs but the table has 8 seats"):
        PinMap.default(6).validate(seats=8)


def test_missing_button():
    pins = PinMap.default(2)
    buttons = {b: p for b, p in pins.buttons.items() if b is not ConsoleButton.NEXT}
    with pytest.raises(PinMapError, match="no pin for the button next "):
        PinMap(buttons, pins.seat_leds).validate(seats=2)


def test_default_refuses_impossible_sizes():
    with pytest.raises(PinMapError, match="2 to 10 seats"):
        PinMap.default(11)


def test_hold_buttons_and_labels():
    assert {b for b in ConsoleButton if b.needs_hold} == {ConsoleButton.ALL_IN, ConsoleButton.UNDO}
    assert ConsoleButton.CHECK_CALL.label == "CHECK/CALL" and ConsoleButton.FOLD.label == "FOLD"


def test_pin_factories(monkeypatch):
    import sys

    from hardware.errors import GPIOError
    from hardware.lights import TableLights
    from hardware.pins import make_pin_factory

    assert make_pin_factory("auto") is None
    factory = make_pin_factory("mock")
    try:
        with TableLights(PinMap.default(2), pin_factory=factory) as lights:
            lights.show(dealer=0, to_act=1)  # PWM pins: the pulse works
    finally:
        factory.close()
    monkeypatch.setitem(sys.modules, "lgpio", None)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    with pytest.raises(GPIOError, match="python3-lgpio") as info:
        make_pin_factory("lgpio")
    assert isinstance(info.value, OSError) and isinstance(info.value, TocktableError)
    with pytest.raises(PinMapError, match="auto, mock, lgpio"):
        make_pin_factory("rpigpio")
