"""Draw the wiring of a pin map as an SVG picture (``python -m hardware.wiring -o wiring.svg``).

The 40-pin header in the middle, each button and LED level with its pin. Buttons go from the
pin to ground (the Pi's internal pull-up holds the pin high); LEDs go from the pin through a
330 Ω resistor to ground; the buzzer through an NPN transistor.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from xml.sax.saxutils import escape

from hardware.pins import ConsoleButton, PinMap

# BCM number of each physical header pin (1..40); None for power and ground.
HEADER: tuple[str | int, ...] = (
    "3V3", "5V", 2, "5V", 3, "GND", 4, 14, "GND", 15, 17, 18, 27, "GND", 22, 23, "3V3", 24, 10, "GND",
    9, 25, 11, 8, "GND", 7, 0, 1, 5, "GND", 6, 12, 13, "GND", 19, 16, 26, 20, "GND", 21,
)  # fmt: skip


def physical_pin(bcm: int) -> int:
    """The header position (1..40) of a BCM GPIO number."""
    return HEADER.index(bcm) + 1


_TAILS = {"button": "GND", "led": "330 Ω → LED → GND", "buzzer": "1 kΩ → NPN base"}
_COLOURS = {"button": "#2d6cdf", "led": "#d35400", "buzzer": "#8e44ad"}


def _parts(pins: PinMap) -> list[tuple[str, int, str]]:
    parts = [(f"button {b.label}", pins.buttons[b], "button") for b in ConsoleButton]
    parts += [(f"seat {i + 1} LED", pin, "led") for i, pin in enumerate(pins.seat_leds)]
    if pins.status_led is not None:
        parts.append(("status LED", pins.status_led, "led"))
    if pins.buzzer is not None:
        parts.append(("buzzer", pins.buzzer, "buzzer"))
    return parts


def _symbol(kind: str, x: float, y: float) -> str:
    colour = _COLOURS[kind]
    if kind == "button":
        return (f'<rect x="{x - 11}" y="{y - 8}" width="22" height="16" rx="3" fill="white" stroke="{colour}" '
                f'stroke-width="2"/><circle cx="{x}" cy="{y}" r="4" fill="{colour}"/>')  # fmt: skip
    if kind == "led":
        return f'<circle cx="{x}" cy="{y}" r="8" fill="{colour}" stroke="black" stroke-width="0.8"/>'
    return f'<circle cx="{x}" cy="{y}" r="9" fill="white" stroke="{colour}" stroke-width="2.5"/>'


def wiring_svg(pins: PinMap) -> str:
    """The SVG text of the wiring diagram for ``pins``.

    The header stands in the middle as it sits on the board (pin 1 top left). Each part is drawn
    level with its pin, on the side of the header where that pin is, so every wire is straight
    and no two wires cross.
    """
    row, top = 26, 96
    left_pin, right_pin = 470.0, 520.0
    left_part, right_part = 370.0, 620.0
    width, height = 990, top + 20 * row + 80
    by_pin = {physical_pin(bcm): (label, bcm, kind) for label, bcm, kind in _parts(pins)}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        '<text x="20" y="30" font-size="18" font-weight="bold">tocktable wiring (40-pin header, BCM numbers)</text>',
        '<text x="20" y="52" fill="#444">Buttons: GPIO pin to GND (the internal pull-up holds it high). '
        "LEDs: GPIO pin → 330 Ω → LED (long leg) → GND.</text>",
        '<text x="20" y="70" fill="#444">Buzzer (5 V active): GPIO → 1 kΩ → base of an NPN transistor '
        "(2N2222/BC337); buzzer between 5 V and the collector; emitter to GND.</text>",
        f'<rect x="{left_pin - 11}" y="{top - 13}" width="{right_pin - left_pin + 22}" height="{19 * row + 26}" '
        'rx="5" fill="#1f5e2e"/>',
    ]
    for index, name in enumerate(HEADER):
        physical = index + 1
        left = physical % 2 == 1
        x, y = (left_pin if left else right_pin), top + (physical - 1) // 2 * row
        part = by_pin.get(physical)
        power = isinstance(name, str) and "V" in name
        fill = "#f2c94c" if part else "#c0392b" if power else "#222" if name == "GND" else "#bbb"
        label = name if isinstance(name, str) else f"GPIO{name}"
        anchor, lx = ("end", x - 15) if left else ("start", x + 15)
        if part is not None:
            text, bcm, kind = part
            colour = _COLOURS[kind]
            end = left_part if left else right_part
            out.append(f'<line x1="{x}" y1="{y}" x2="{end}" y2="{y}" stroke="{colour}" stroke-width="2"/>')
            out.append(_symbol(kind, end, y))
            tx, tanchor = (end - 16, "end") if left else (end + 16, "start")
            caption = f"{text}: GPIO{bcm}, pin {physical} → {_TAILS[kind]}"
            out.append(f'<text x="{tx}" y="{y + 4}" text-anchor="{tanchor}">{escape(caption)}</text>')
            out.append(f'<text x="{lx}" y="{y - 5}" text-anchor="{anchor}" font-size="9" fill="#333">'
                       f"{physical} {label}</text>")  # fmt: skip
        else:
            colour = "#c0392b" if power else "#000" if name == "GND" else "#999"
            out.append(f'<text x="{lx}" y="{y + 4}" text-anchor="{anchor}" font-size="10" fill="{colour}">'
                       f"{physical} {label}</text>")  # fmt: skip
        out.append(f'<circle cx="{x}" cy="{y}" r="7" fill="{fill}" stroke="black"/>')
    foot = height - 40
    out.append(
        f'<text x="20" y="{foot}" fill="#555">Ground: any GND pin (6, 9, 14, 20, 25, 30, 34, 39). '
        "Pin 1 is the one with the square solder pad under the board.</text>"
    )
    out.append(f'<text x="20" y="{foot + 18}" fill="#555">Drawn by python -m hardware.wiring from the default pin '
               "map; the [pins] section of the configuration file can move any of them.</text>")  # fmt: skip
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw the wiring diagram of the default pin map as SVG.")
    parser.add_argument("-o", "--output", type=Path, default=Path("docs/wiring.svg"))
    parser.add_argument("--seats", type=int, default=10)
    args = parser.parse_args(argv)
    args.output.write_text(wiring_svg(PinMap.default(args.seats)), encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
