import xml.etree.ElementTree as ET
from pathlib import Path

from hardware.pins import ConsoleButton, PinMap
from hardware.wiring import HEADER, physical_pin, wiring_svg

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_header_map_has_40_pins_and_every_usable_gpio():
    assert len(HEADER) == 40
    assert {p for p in HEADER if isinstance(p, int)} == set(range(28))
    assert physical_pin(17) == 11 and physical_pin(21) == 40


def test_diagram_names_every_part_and_pin():
    pins = PinMap.default(10)
    svg = wiring_svg(pins)
    ET.fromstring(svg)  # well-formed XML
    for button in ConsoleButton:
        assert f"button {button.label}: GPIO{pins.buttons[button]}, pin {physical_pin(pins.buttons[button])}" in svg
    for seat, pin in enumerate(pins.seat_leds):
        assert f"seat {seat + 1} LED: GPIO{pin}, pin {physical_pin(pin)}" in svg


def test_committed_diagram_is_up_to_date():
    assert (DOCS / "wiring.svg").read_text(encoding="utf-8") == wiring_svg(PinMap.default(10)), (
        "docs/wiring.svg is stale: run python -m hardware.wiring -o docs/wiring.svg"
    )


def test_every_wire_is_straight_so_none_cross():
    pins = PinMap.default(10)
    root = ET.fromstring(wiring_svg(pins))
    wires = [el for el in root.iter() if el.tag.endswith("line") and el.get("stroke-width") == "2"]
    assert len(wires) == len(ConsoleButton) + 10 + 2  # buttons, seat LEDs, status LED, buzzer
    assert all(w.get("y1") == w.get("y2") for w in wires)
    assert len({w.get("y1") + ("L" if float(w.get("x2")) < float(w.get("x1")) else "R") for w in wires}) == len(wires)
