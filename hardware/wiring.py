"""Draw the wiring of a pin map as an SVG picture (``python -m hardware.wiring -o wiring.svg``).

The 40-pin header on the left, each button and LED on the right with a wire to its GPIO
pin. Buttons go from the pin to ground (the Pi's internal pull-up holds the pin high); LEDs
go from the pin through a 330 Ω resistor to ground; the buzzer through an NPN transistor.
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


def _parts(pins: PinMap) -> list[tuple[str, int, str]]:
    parts = [(f"button {b.label}", pins.buttons[b], "button") for b in ConsoleButton]
    parts += [(f"seat {i + 1} LED", pin, "led") for i, pin in enumerate(pins.seat_leds)]
    if pins.status_led is not None:
        parts.append(("status LED", pins.status_led, "led"))
    if pins.buzzer is not None:
        parts.append(("buzzer (via NPN)", pins.buzzer, "buzzer"))
    return parts


def wiring_svg(pins: PinMap) -> str:
    """The SVG text of the wiring diagram for ``pins``."""
    parts = sorted(_parts(pins), key=lambda p: physical_pin(p[1]))
    row, top, header_x = 24, 70, 190
    lane0 = header_x + 80
    part_x = lane0 + 14 * len(parts) + 30
    width = part_x + 540
    height = max(top + 20 * row, top + len(parts) * 30) + 60
    used = {bcm for _, bcm, _ in parts}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        '<text x="20" y="30" font-size="18" font-weight="bold">tocktable wiring</text>',
        '<text x="20" y="50" fill="#444">BCM numbers. Buttons: pin to GND (internal pull-up). '
        "LEDs: pin → 330 Ω → LED → GND.</text>",
        f'<rect x="{header_x - 14}" y="{top - 14}" width="78" height="{20 * row + 4}" rx="6" fill="#1f5e2e"/>',
    ]
    for i, name in enumerate(HEADER):
        col, line = i % 2, i // 2
        x, y = header_x + col * 50, top + line * row
        power = isinstance(name, str) and "V" in name
        colour = "#f2c94c" if name in used else "#c0392b" if power else "#444" if name == "GND" else "#bbb"
        out.append(f'<circle cx="{x}" cy="{y}" r="7" fill="{colour}" stroke="black"/>')
        if col == 0:
            left = HEADER[i]
            right = HEADER[i + 1]
            text = f"{i + 1}:{left if isinstance(left, str) else f'GPIO{left}'}"
            text += f"  {i + 2}:{right if isinstance(right, str) else f'GPIO{right}'}"
            out.append(f'<text x="{header_x - 22}" y="{y + 4}" text-anchor="end" font-size="10">{text}</text>')
    colours = {"button": "#2d6cdf", "led": "#d35400", "buzzer": "#8e44ad"}
    for k, (label, bcm, kind) in enumerate(parts):
        pin = physical_pin(bcm)
        px, py = header_x + ((pin - 1) % 2) * 50, top + ((pin - 1) // 2) * row
        y, lane = top + k * 30, lane0 + 14 * k
        colour = colours[kind]
        out.append(
            f'<polyline points="{px},{py} {lane},{py} {lane},{y} {part_x},{y}" fill="none" '
            f'stroke="{colour}" stroke-width="1.8"/>'
        )
        out.append(f'<circle cx="{px}" cy="{py}" r="3" fill="{colour}"/>')
        out.append(
            {
                "button": f'<rect x="{part_x}" y="{y - 8}" width="22" height="16" rx="3" fill="white" '
                f'stroke="{colour}" stroke-width="2"/>',
                "led": f'<polygon points="{part_x},{y - 8} {part_x},{y + 8} {part_x + 16},{y}" fill="{colour}"/>',
                "buzzer": f'<circle cx="{part_x + 10}" cy="{y}" r="9" fill="white" '
                f'stroke="{colour}" stroke-width="2"/>',
            }[kind]
        )
        tail = {"button": "GND", "led": "330 Ω → GND", "buzzer": "1 kΩ → NPN base (buzzer 5V → collector)"}[kind]
        out.append(f'<text x="{part_x + 30}" y="{y + 4}">{escape(f"{label}: GPIO{bcm}, pin {pin} → {tail}")}</text>')
    out.append(
        f'<text x="20" y="{height - 20}" fill="#555">Ground: any GND pin (6, 9, 14, 20, 25, 30, 34, 39). '
        "Drawn by python -m hardware.wiring from the pin map.</text>"
    )
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
