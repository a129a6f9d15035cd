import time

import pytest

from hardware.errors import PinMapError
from hardware.lights import TableLights
from hardware.pins import PinMap


def states(factory, pins: PinMap) -> list[float]:
    return [factory.pin(p).state for p in pins.seat_leds]


def distinct_states_over(factory, pin: int, seconds: float) -> set[float]:
    factory.pin(pin).clear_states()
    time.sleep(seconds)
    return {round(s.state, 3) for s in factory.pin(pin).states}


def test_dealer_steady_and_seat_to_act_pulses(mock_pins):
    pins = PinMap.default(6)
    with TableLights(pins, pin_factory=mock_pins, pulse_seconds=0.3) as lights:
        lights.show(dealer=2, to_act=4)
        assert states(mock_pins, pins)[2] == 1
        assert [s for i, s in enumerate(states(mock_pins, pins)) if i not in (2, 4)] == [0, 0, 0, 0]
        assert len(distinct_states_over(mock_pins, pins.seat_leds[4], 0.5)) > 3  # fading up and down
        assert distinct_states_over(mock_pins, pins.seat_leds[2], 0.1) == {1.0}

        lights.show(dealer=2, to_act=5)  # action moves on
        time.sleep(0.05)
        assert states(mock_pins, pins)[4] == 0
        assert len(distinct_states_over(mock_pins, pins.seat_leds[5], 0.5)) > 3

        lights.show(dealer=3, to_act=None)  # button moves, hand over
        time.sleep(0.05)
        assert states(mock_pins, pins) == [0, 0, 0, 1, 0, 0]


def test_dealer_to_act_pulses(mock_pins):
    pins = PinMap.default(3)
    with TableLights(pins, pin_factory=mock_pins, pulse_seconds=0.3) as lights:
        lights.show(dealer=1, to_act=1)
        assert len(distinct_states_over(mock_pins, pins.seat_leds[1], 0.5)) > 3


def test_status_led_steady_or_blinking(mock_pins):
    pins = PinMap.default(2)
    with TableLights(pins, pin_factory=mock_pins) as lights:
        assert mock_pins.pin(pins.status_led).state == 1
        lights.set_status(False)
        assert distinct_states_over(mock_pins, pins.status_led, 0.7) == {0.0, 1.0}
        lights.set_status(True)
        assert distinct_states_over(mock_pins, pins.status_led, 0.3) == {1.0}


def test_buzzer_beeps(mock_pins):
    pins = PinMap.default(2)
    with TableLights(pins, pin_factory=mock_pins) as lights:
        mock_pins.pin(pins.buzzer).clear_states()
        lights.beep(times=2)
        time.sleep(0.8)
        assert [s.state for s in mock_pins.pin(pins.buzzer).states] == [False, True, False, True, False]


def test_seat_without_led(mock_pins):
    refused = pytest.raises(PinMapError, match=r"seat 5 has no LED: seats are 1\.\.4")
    with TableLights(PinMap.default(4), pin_factory=mock_pins) as lights, refused:
        lights.show(dealer=4, to_act=None)


def test_a_bad_pin_map_is_refused_before_any_pin_is_claimed(mock_pins):
    pins = PinMap.default(3)
    clash = PinMap(pins.buttons, (5, 6, 5), status_led=18)
    with pytest.raises(PinMapError, match=r"GPIO 5 is used twice, by pins.seat_leds\[0\] and by pins.seat_leds\[2\]"):
        TableLights(clash, pin_factory=mock_pins)
    assert mock_pins.pins == {}


def test_show_with_a_bad_seat_changes_nothing(mock_pins):
    pins = PinMap.default(4)
    with TableLights(pins, pin_factory=mock_pins) as lights:
        lights.show(dealer=1, to_act=None)
        with pytest.raises(PinMapError):
            lights.show(dealer=2, to_act=7)
        assert (lights.dealer, lights.to_act) == (1, None)
        assert states(mock_pins, pins) == [0, 1, 0, 0]
