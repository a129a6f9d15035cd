"""The pin map: which BCM GPIO pin each button and LED is wired to, checked at start-up.

>>> PinMap.default(seats=6).seat_leds
(5, 6, 13, 19, 26, 21)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hardware.errors import GPIOError, PinMapError
from table.steps import ConsoleButton
from table.wording import listed

__all__ = ["PIN_FACTORIES", "USABLE_PINS", "ConsoleButton", "PinMap", "make_pin_factory"]

USABLE_PINS = frozenset(range(2, 28))
"""BCM GPIO 2..27 on the 40-pin header of every Pi since the B+ (0 and 1 are the HAT EEPROM bus)."""


_DEFAULT_BUTTONS = {
    ConsoleButton.FOLD: 17, ConsoleButton.CHECK_CALL: 27, ConsoleButton.BET_RAISE: 22, ConsoleButton.ALL_IN: 23,
    ConsoleButton.UNDO: 24, ConsoleButton.PLUS: 25, ConsoleButton.MINUS: 8, ConsoleButton.NEXT: 7,
}  # fmt: skip
_DEFAULT_SEAT_LEDS = (5, 6, 13, 19, 26, 21, 20, 16, 12, 4)


@dataclass(frozen=True)
class PinMap:
    """BCM pin numbers of the console buttons, the seat LEDs, the status LED and the buzzer."""

    buttons: Mapping[ConsoleButton, int]
    seat_leds: tuple[int, ...]
    status_led: int | None = None
    buzzer: int | None = None
    source: str = field(default="the pin map", compare=False)
    """Where the map came from (a config file), named in error messages."""

    @classmethod
    def default(cls, seats: int) -> PinMap:
        """The wiring drawn in docs/hardware.md, for 2..10 seats."""
        if not 2 <= seats <= len(_DEFAULT_SEAT_LEDS):
            raise PinMapError(f"the default wiring has LEDs for 2 to 10 seats, not {seats}")
        return cls(dict(_DEFAULT_BUTTONS), _DEFAULT_SEAT_LEDS[:seats], status_led=18, buzzer=9)

    def settings(self) -> list[tuple[str, int]]:
        """Every (setting name, pin) pair, in the names the configuration file uses."""
        pairs = [(f"pins.buttons.{b.value}", p) for b, p in self.buttons.items()]
        pairs += [(f"pins.seat_leds[{i}]", p) for i, p in enumerate(self.seat_leds)]
        if self.status_led is not None:
            pairs.append(("pins.status_led", self.status_led))
        if self.buzzer is not None:
            pairs.append(("pins.buzzer", self.buzzer))
        return pairs

    def validate(self, *, seats: int) -> None:
        """Raise :class:`PinMapError` naming the pin and the setting for any wiring mistake."""
        missing = [b.value for b in ConsoleButton if b not in self.buttons]
        if missing:
            raise PinMapError(f"{self.source}: no pin for the {'button' if len(missing) == 1 else 'buttons'} "
                              f"{listed(missing)} (pins.buttons.<name>)")
        if len(self.seat_leds) != seats:
            raise PinMapError(
                f"{self.source}: pins.seat_leds lists {len(self.seat_leds)} LEDs but the table has {seats} seats: "
                "give one LED pin per seat, in seat order"
            )
        used: dict[int, str] = {}
        for name, pin in self.settings():
            if isinstance(pin, bool) or not isinstance(pin, int) or pin not in USABLE_PINS:
                raise PinMapError(
                    f"{self.source}: {name} = {pin!r} is not a usable GPIO pin: use BCM numbers 2..27 "
                    "(GPIO 0 and 1 are reserved for HAT EEPROMs)"
                )
            if pin in used:
                raise PinMapError(f"{self.source}: GPIO {pin} is used twice, by {used[pin]} and by {name}")
            used[pin] = name


PIN_FACTORIES = ("auto", "mock", "lgpio")


def make_pin_factory(kind: str = "auto") -> Any:
    """The gpiozero pin factory to pass as ``pin_factory`` to the console and the lights.

    ``"mock"``: gpiozero's mock pins with PWM (any computer: the demo and the tests).
    ``"lgpio"``: the kernel's GPIO character device, which works on a Pi 5 (and a Pi 4).
    ``"auto"``: None, so gpiozero chooses (``GPIOZERO_PIN_FACTORY`` in the environment, else the
    first library it finds). gpiozero's pin libraries are imported here, not before.
    """
    if kind == "auto":
        return None
    if kind == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        return MockFactory(pin_class=MockPWMPin)
    if kind == "lgpio":
        try:
            from gpiozero.pins.lgpio import LGPIOFactory
        except ImportError as exc:
            raise GPIOError(
                "lgpio is not installed: on the Pi run 'sudo apt install python3-lgpio' (and make the venv with "
                "--system-site-packages) or pip install -e '.[pi]'"
            ) from exc
        try:
            return LGPIOFactory()
        except Exception as exc:  # no /dev/gpiochip*: not a Pi, or no permission
            raise GPIOError(f"cannot open the GPIO chip with lgpio ({exc}): is this a Raspberry Pi, "
                            "and is the user in the 'gpio' group?") from exc  # fmt: skip
    raise PinMapError(f"pin factory {kind!r} is not known: use one of {', '.join(PIN_FACTORIES)}")
