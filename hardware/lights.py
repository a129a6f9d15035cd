"""The seat LEDs, the status LED and the buzzer.

One LED per seat: steady on at the dealer's seat, pulsing at the seat to act (the pulse wins
when the dealer is to act). The status LED is steady when all is well and blinks when the
camera or the service reports a problem. The optional buzzer beeps at the end of a blind level.
"""

from __future__ import annotations

from typing import Any

from gpiozero import PWMLED, Buzzer, LEDBoard

from hardware.errors import PinMapError
from hardware.pins import PinMap
from table.wording import seat_numbers, seat_word


class TableLights:
    """Seat, status and buzzer outputs for a :class:`PinMap`, on the caller's ``pin_factory``.

    The pins need PWM for the pulse (every Pi pin has software PWM; with gpiozero's
    ``MockFactory`` pass ``pin_class=MockPWMPin``).
    """

    def __init__(self, pins: PinMap, *, pin_factory: Any = None, pulse_seconds: float = 0.6) -> None:
        pins.validate(seats=len(pins.seat_leds))  # a wiring mistake stops here, before any pin is claimed
        if pulse_seconds <= 0:
            raise PinMapError(f"pulse_seconds must be above 0 s, got {pulse_seconds}")
        self._pulse = pulse_seconds
        self.dealer: int | None = None
        self.to_act: int | None = None
        self.seats = LEDBoard(*pins.seat_leds, pwm=True, pin_factory=pin_factory)
        self.status: PWMLED | None = None
        self.buzzer: Buzzer | None = None
        try:
            if pins.status_led is not None:
                self.status = PWMLED(pins.status_led, pin_factory=pin_factory)
                self.status.on()
            if pins.buzzer is not None:
                self.buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    def show(self, *, dealer: int | None, to_act: int | None) -> None:
        """Light the dealer's seat and pulse the seat to act (None: no such seat)."""
        for seat in (dealer, to_act):
            if seat is not None and not 0 <= seat < self.seat_count:
                raise PinMapError(f"{seat_word(seat)} has no LED: seats are {seat_numbers(self.seat_count)}")
        if (dealer, to_act) == (self.dealer, self.to_act):
            return
        for seat, led in enumerate(self.seats):
            if seat == to_act:
                if seat != self.to_act:
                    led.pulse(fade_in_time=self._pulse, fade_out_time=self._pulse)
            elif seat == dealer:
                led.on()
            else:
                led.off()
        self.dealer, self.to_act = dealer, to_act

    def set_status(self, ok: bool) -> None:
        """Steady status LED when all is well; blinking when something needs attention."""
        if self.status is None:
            return
        if ok:
            self.status.on()
        else:
            self.status.blink(on_time=0.25, off_time=0.25)

    def beep(self, times: int = 3) -> None:
        """Beep (end of a blind level); does nothing without a buzzer."""
        if self.buzzer is not None:
            self.buzzer.beep(on_time=0.15, off_time=0.15, n=times)

    def close(self) -> None:
        """Turn everything off and release the pins."""
        for device in (self.seats, self.status, self.buzzer):
            if device is not None:
                device.close()

    def __enter__(self) -> TableLights:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
