"""Where to mount the camera: how much table a lens covers from a height, and how many pixels a
card gets. ``python -m hardware.mounting --table 2.4x1.2`` answers for your own table.

The camera looks straight down. A flat table seen square-on keeps its shape, so a card's size
in the picture depends only on how wide a strip of table the picture spans: pixels per
millimetre = image width in pixels / covered width in millimetres. Going higher with a narrower
lens gives the same pixels as going lower with a wide one; what changes is the angle at which
the camera looks past the players' heads and arms to the cards at the rail.

Field of view (published by Raspberry Pi): Camera Module 3, 66° x 41°; Camera Module 3 Wide,
102° x 67°. Both have a 4608 x 2592 sensor; 2304 x 1296 is its full-view binned mode.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

CARD_MM = (63.0, 88.0)
"""A poker-size card, width x height."""
RAIL_MARGIN = 0.15
"""Metres along the rail where chips and forearms lie, not cards: the camera may miss them."""
READER_DESIGN_PX = 158
"""Card height in pixels that the synthetic scenes are drawn at (0.22 of a 720-pixel frame)."""
WIDTHS = (1280, 2304, 4608)
"""Image widths worth comparing: 720p, the full-view binned mode, the full sensor."""


@dataclass(frozen=True)
class Lens:
    name: str
    horizontal_fov: float
    """Degrees across the long side of the picture."""
    vertical_fov: float

    def coverage(self, height: float) -> tuple[float, float]:
        """Metres of table covered (across, along the short side) from ``height`` metres."""
        if height <= 0:
            raise ValueError(f"the camera height must be above 0 m, got {height}")
        return (2 * height * math.tan(math.radians(self.horizontal_fov / 2)),
                2 * height * math.tan(math.radians(self.vertical_fov / 2)))  # fmt: skip

    def height_for(self, width: float, depth: float) -> float:
        """The lowest height, in metres, from which the picture spans ``width`` x ``depth`` metres."""
        if width <= 0 or depth <= 0:
            raise ValueError(f"the area to cover must be above 0 m each way, got {width} x {depth}")
        return max(width / (2 * math.tan(math.radians(self.horizontal_fov / 2))),
                   depth / (2 * math.tan(math.radians(self.vertical_fov / 2))))  # fmt: skip

    def edge_angle(self, height: float, reach: float) -> float:
        """Degrees from straight down at which the camera sees a point ``reach`` metres off-centre."""
        return math.degrees(math.atan2(reach, height))


CAMERA_MODULE_3 = Lens("Camera Module 3", 66.0, 41.0)
CAMERA_MODULE_3_WIDE = Lens("Camera Module 3 Wide", 102.0, 67.0)
LENSES = (CAMERA_MODULE_3, CAMERA_MODULE_3_WIDE)


def pixels_per_mm(covered_width: float, image_width: int) -> float:
    """Pixels per millimetre of table when ``image_width`` pixels span ``covered_width`` metres."""
    return image_width / (covered_width * 1000)


def card_pixels(covered_width: float, image_width: int) -> float:
    """A card's height in pixels."""
    return CARD_MM[1] * pixels_per_mm(covered_width, image_width)


@dataclass(frozen=True)
class Plan:
    """Mounting for a table: the area with cards, the height per lens, the pixels per card."""

    table: tuple[float, float]
    area: tuple[float, float]
    heights: dict[str, float]
    card_px: dict[int, float]


def plan(table: tuple[float, float], *, margin: float = RAIL_MARGIN) -> Plan:
    """The plan for a ``table`` of (length, width) metres, cards anywhere but the rail margin."""
    length, width = table
    area = (length - 2 * margin, width - 2 * margin)
    if min(area) <= 0:
        raise ValueError(f"a {length} x {width} m table leaves no room for cards inside a {margin} m rail margin")
    heights = {lens.name: lens.height_for(*area) for lens in LENSES}
    return Plan(table, area, heights, {w: card_pixels(area[0], w) for w in WIDTHS})


TABLES = {"6 seats (kitchen table, 1.6 x 0.9 m)": (1.6, 0.9), "10 seats (poker table, 2.4 x 1.2 m)": (2.4, 1.2)}


def markdown() -> str:
    """The table in docs/hardware.md (a test checks the page shows exactly this)."""
    lines = [
        "| table | lens | mount height | covers | card height at 1280 / 2304 / 4608 px wide |",
        "|---|---|---:|---:|---:|",
    ]
    for name, size in TABLES.items():
        p = plan(size)
        for lens in LENSES:
            h = p.heights[lens.name]
            w, d = lens.coverage(h)
            px = " / ".join(f"{p.card_px[x]:.0f}" for x in WIDTHS)
            lines.append(f"| {name} | {lens.name} | {h:.2f} m | {w:.2f} x {d:.2f} m | {px} px |")
    return "\n".join(lines) + "\n"


def coverage_svg() -> str:
    """A top view of a 10-seat table with what each lens covers from the height it needs."""
    scale = 300  # pixels per metre
    length, width = TABLES["10 seats (poker table, 2.4 x 1.2 m)"]
    p = plan((length, width))
    pad_x, pad_y = 60, 90
    w_px = int(length * scale * 1.15) + 2 * pad_x
    h_px = int(width * scale * 1.6) + pad_y + 170
    cx, cy = w_px / 2, pad_y + width * scale * 0.8
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w_px}" height="{h_px}" viewBox="0 0 {w_px} {h_px}" '
        'font-family="DejaVu Sans, Arial, sans-serif" font-size="13">',
        f'<rect width="{w_px}" height="{h_px}" fill="white"/>',
        '<text x="20" y="30" font-size="18" font-weight="bold">What the camera sees over a 10-seat table</text>',
        f'<text x="20" y="52" fill="#444">Top view, {length} x {width} m table; cards lie inside the dashed line '
        f"({RAIL_MARGIN * 100:.0f} cm in from the rail). Drawn by python -m hardware.mounting --svg.</text>",
    ]
    r = width * scale / 2
    straight = (length - width) * scale
    out.append(
        f'<rect x="{cx - straight / 2 - r:.1f}" y="{cy - r:.1f}" width="{straight + 2 * r:.1f}" height="{2 * r:.1f}" '
        f'rx="{r:.1f}" fill="#2e7d4f" stroke="#5d4037" stroke-width="10"/>'
    )
    aw, ad = p.area[0] * scale, p.area[1] * scale
    out.append(
        f'<rect x="{cx - aw / 2:.1f}" y="{cy - ad / 2:.1f}" width="{aw:.1f}" height="{ad:.1f}" rx="{ad / 2:.1f}" '
        'fill="none" stroke="white" stroke-dasharray="8 6" stroke-width="2"/>'
    )
    for k in range(10):  # seats: 4 on each long side, one at each end
        if k < 8:
            sx = cx + (k % 4 - 1.5) * straight / 3.4
            sy = cy + (r + 28) * (1 if k < 4 else -1)
        else:
            sx, sy = cx + (straight / 2 + r + 28) * (1 if k == 8 else -1), cy
        out.append(f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="14" fill="#e0e0e0" stroke="#777"/>')
    colours = {CAMERA_MODULE_3.name: "#1565c0", CAMERA_MODULE_3_WIDE.name: "#e65100"}
    legend_y = cy + width * scale / 2 + 75
    for i, lens in enumerate(LENSES):
        h = p.heights[lens.name]
        cw, cd = (v * scale for v in lens.coverage(h))
        colour = colours[lens.name]
        out.append(
            f'<rect x="{cx - cw / 2:.1f}" y="{cy - cd / 2:.1f}" width="{cw:.1f}" height="{cd:.1f}" fill="none" '
            f'stroke="{colour}" stroke-width="3" stroke-dasharray="{"" if i == 0 else "14 5"}"/>'
        )
        reach = math.hypot(*p.area) / 2
        y = legend_y + 44 * i
        head = f"{lens.name} ({lens.horizontal_fov:g}° x {lens.vertical_fov:g}°), {h:.2f} m above the felt"
        detail = (
            f"card {p.card_px[1280]:.0f} / {p.card_px[2304]:.0f} / {p.card_px[4608]:.0f} px tall in a picture "
            f"1280 / 2304 / 4608 px wide; corner cards seen {lens.edge_angle(h, reach):.0f}° off vertical"
        )
        out.append(f'<line x1="30" y1="{y - 4}" x2="70" y2="{y - 4}" stroke="{colour}" stroke-width="3" '
                   f'stroke-dasharray="{"" if i == 0 else "14 5"}"/>')  # fmt: skip
        out.append(f'<text x="80" y="{y}" font-weight="bold">{escape(head)}</text>')
        out.append(f'<text x="80" y="{y + 18}">{escape(detail)}</text>')
    out.append(
        f'<text x="30" y="{legend_y + 96}" fill="#444">Both frames hold the same pixels per millimetre; the higher, '
        "narrower camera looks more steeply past heads and arms.</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _size(text: str) -> tuple[float, float]:
    try:
        length, width = (float(v) for v in text.lower().replace("×", "x").split("x"))
    except ValueError as exc:
        message = f"give the table as LENGTHxWIDTH in metres, e.g. 2.4x1.2, not {text!r}"
        raise argparse.ArgumentTypeError(message) from exc
    if length <= 0 or width <= 0:
        raise argparse.ArgumentTypeError(f"table sides must be above 0 m, got {text!r}")
    return max(length, width), min(length, width)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="How high to mount the camera over your table.")
    parser.add_argument("--table", type=_size, default=(2.4, 1.2), help="table size in metres, e.g. 1.6x0.9")
    parser.add_argument("--margin", type=float, default=RAIL_MARGIN, help="metres along the rail without cards")
    parser.add_argument("--svg", type=Path, help="write the coverage picture of a 10-seat table here")
    parser.add_argument("--markdown", action="store_true", help="print the table used in docs/hardware.md")
    args = parser.parse_args(argv)
    if args.svg:
        args.svg.write_text(coverage_svg(), encoding="utf-8")
        print(f"wrote {args.svg}")
        return 0
    if args.markdown:
        print(markdown(), end="")
        return 0
    try:
        p = plan(args.table, margin=args.margin)
    except ValueError as exc:
        parser.error(str(exc))
    print(f"table {p.table[0]:g} x {p.table[1]:g} m; cards lie within {p.area[0]:.2f} x {p.area[1]:.2f} m")
    for lens in LENSES:
        h = p.heights[lens.name]
        w, d = lens.coverage(h)
        print(f"  {lens.name}: mount {h:.2f} m above the felt (covers {w:.2f} x {d:.2f} m)")
    print("  a card's height in the picture, by image width (the same for both lenses):")
    for width, px in p.card_px.items():
        verdict = "as drawn in the synthetic scenes" if px >= READER_DESIGN_PX * 0.95 else "smaller than the scenes"
        print(f"    {width} px wide: {px:.0f} px ({pixels_per_mm(p.area[0], width):.2f} px/mm, {verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
