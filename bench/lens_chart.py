"""Draw how each seat's chances moved over a hand, as the lens saw it (a PNG for the docs).

    python -m bench.lens_chart -o docs/lens-history.png [--seed N] [--seats N] [--variant tock|holdem] [--fold 5:flop]

A random hand is dealt and replayed through :func:`table.lens.replay`; the chart is the data of
``LensHistory.to_json()`` (the dashboard draws the same thing in the browser).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from table.cards import Deck
from table.lens import replay
from vision.render.fonts import label_font

COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]


def _font(size: int) -> ImageFont.FreeTypeFont:
    """The chart's words, in the label font of a font package (the same chart on every machine)."""
    return label_font(size)


def draw(history: dict[str, Any], title: str, *, width: int = 900, height: int = 480) -> Image.Image:
    """A line per seat across the streets, from ``LensHistory.to_json()``."""
    image = Image.new("RGB", (width, height), "white")
    pen = ImageDraw.Draw(image)
    small, big = _font(14), _font(18)
    left, right, top, bottom = 70, width - 170, 50, height - 60
    pen.text((left, 14), title, fill="black", font=big)
    for percent in range(0, 101, 20):
        y = bottom - (bottom - top) * percent / 100
        pen.line([(left, y), (right, y)], fill="#dddddd")
        pen.text((left - 45, y - 8), f"{percent}%", fill="#555555", font=small)
    streets = history["streets"]
    xs = [left + (right - left) * i / max(len(streets) - 1, 1) for i in range(len(streets))]
    for x, street in zip(xs, streets, strict=True):
        pen.text((x - 20, bottom + 12), street, fill="black", font=small)
    labels = []
    rows = zip(history["seats"], history["equity"], history["folded"], strict=True)
    for seat, (name, line, folded) in enumerate(rows):
        colour = COLOURS[seat % len(COLOURS)]
        points = [(x, bottom - (bottom - top) * v) for x, v, out in zip(xs, line, folded, strict=True) if not out]
        if len(points) > 1:
            pen.line(points, fill=colour, width=3)
        for x, y in points:
            pen.ellipse([x - 4, y - 4, x + 4, y + 4], fill=colour)
        status = f" {100 * line[-1]:.0f}%" if not folded[-1] else " (folded)"
        labels.append((points[-1][1] if points else bottom, name + status, colour))
    labels.sort()
    placed = top - 20.0
    for y, text, colour in labels:  # keep labels apart when lines end close together
        placed = max(y, placed + 18)
        pen.text((right + 12, placed - 8), text, fill=colour, font=small)
    return image


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-o", "--output", type=Path, default=Path("lens-history.png"))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--variant", choices=["tock", "holdem"], default="tock")
    parser.add_argument(
        "--fold", action="append", metavar="SEAT:STREET", help="a seat (1-based) folding on a street; default 5:flop"
    )
    args = parser.parse_args(argv)
    chosen = args.fold if args.fold is not None else (["5:flop"] if args.seats >= 5 else [])
    folds = {int(seat) - 1: street for seat, _, street in (f.partition(":") for f in chosen)}
    dealt = Deck(rng=random.Random(args.seed)).draw(2 * args.seats + 5)
    holes = [dealt[2 * s : 2 * s + 2] for s in range(args.seats)]
    history = replay(holes, dealt[2 * args.seats :], variant=args.variant, folded=folds, seed=args.seed).to_json()
    cards = " | ".join(" ".join(map(str, h)) for h in holes)
    print(f"hands {cards}; board {' '.join(map(str, dealt[2 * args.seats :]))}")
    for view in history["lenses"]:
        print(f"{view['street']:8s} {view['summary']}")
    view = "the public Tock lens" if args.variant == "tock" else "hands face up (Hold'em)"
    draw(history, f"How each seat's chances moved: {view}").save(args.output)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
