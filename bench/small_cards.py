"""Cards 70-145 px tall: how often the corners name them wrongly, by height, with and without the
reader's caution for small cards (``reader.json`` "caution").

    TOCKTABLE_FONTS=system python -m bench.small_cards                  # hold-out decks, 240 tables
    TOCKTABLE_FONTS=system python -m bench.small_cards --pool train --tables 300 --first 40000

Each table (1280×720, one of the renderer's ten surfaces in turn) holds 15 face-up cards of one
height, drawn between 0.095 and 0.2 of the frame's height: every other table three rows of five
lying a few pixels apart as hands are spread, the others cards apart turned up to 40°. The
``train`` pool's deck styles (fonts the models were trained on) are what the caution was chosen
on; the ``holdout`` pool's (other fonts, other tables) measure it. For each band of heights it
prints the cards the corners named (not the small-card reader's), and how many of those were
right and wrong without the caution, with it, and at further thresholds.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

from table.cards import Card
from vision.detect import quad_iou
from vision.reader import CardReader
from vision.rectify import card_heights
from vision.render.scene import TABLES, PlacedCard, SceneSpec, render_scene

BANDS = ((70, 90), (90, 105), (105, 120), (120, 135), (135, 150))
THRESHOLDS = (0.99, 0.999, 0.9999)


def scene(pool: str, number: int) -> Any:
    """One table of 15 face-up cards of one height (see the module docstring)."""
    rng = np.random.default_rng(number)
    height = float(rng.uniform(0.095, 0.2))
    width = height * 720 * 63 / 88 / 1280
    ids = [str(Card.from_id(int(i))) for i in rng.permutation(52)[:15]]
    placed = []
    if number % 2:
        for row in range(3):
            x0 = rng.uniform(0.05, max(0.06, 0.95 - 5 * (width + 0.006)))
            for k in range(5):
                x = x0 + k * (width + rng.uniform(0.002, 0.008))
                placed.append(PlacedCard(ids[5 * row + k], True, (x, 0.2 + 0.3 * row), angle=float(rng.uniform(-4, 4)),
                                         height=height))  # fmt: skip
    else:
        for k in range(15):
            placed.append(PlacedCard(ids[k], True, (0.1 + 0.8 * (k % 5) / 4, 0.2 + 0.3 * (k // 5)),
                                     angle=float(rng.uniform(-40, 40)), height=height))  # fmt: skip
    tables = sorted(TABLES)
    return render_scene(SceneSpec(cards=tuple(placed), seed=number, deck=f"{pool}-{number}",
                                  table=tables[number % len(tables)]))  # fmt: skip


def readings(reader: CardReader, pool: str, first: int, tables: int) -> list[dict[str, Any]]:
    """Every face-up card found (IoU ≥ 0.7) that the corners name, with or without the caution:
    its height, the corners' posterior, whether the reading is right, and whether the caution
    leaves it named."""
    out = []
    for number in range(first, first + tables):
        drawn = scene(pool, number)
        evidence = reader.evidence(drawn.image)
        with_caution = evidence.decide()
        caution, evidence.caution = evidence.caution, ()
        without = evidence.decide()
        evidence.caution = caution
        heights = card_heights(evidence.corners)
        for truth in drawn.truth:
            ious = [quad_iou(truth.corners, c) for c in evidence.corners]
            if not ious or max(ious) < 0.7:
                continue
            i = int(np.argmax(ious))
            if without[i].card is None or evidence.small[i]:
                continue
            out.append({"height": float(heights[i]), "posterior": float(without.confidence[i]),
                        "right": without[i].card == str(truth.card),
                        "kept": with_caution[i].card is not None})  # fmt: skip
        sys.stderr.write(f"\r  table {number - first + 1}/{tables}")
    sys.stderr.write("\n")
    return out


def report(rows: list[dict[str, Any]]) -> list[str]:
    lines = []
    for low, high in BANDS:
        band = [r for r in rows if low <= r["height"] < high]
        if not band:
            continue
        right = sum(r["right"] for r in band)
        kept = [r for r in band if r["kept"]]
        line = (f"  {low:3d}-{high:3d} px: {len(band):4d} named, {len(band) - right:3d} wrong "
                f"({100 * (len(band) - right) / len(band):.2f} %); with the caution {sum(r['right'] for r in kept)} "
                f"right, {sum(not r['right'] for r in kept)} wrong")  # fmt: skip
        for t in THRESHOLDS:
            sure = [r for r in band if r["posterior"] >= t]
            line += f" | ≥ {t}: {sum(r['right'] for r in sure)} / {sum(not r['right'] for r in sure)}"
        lines.append(line)
    everyone = [r for r in rows if r["height"] < BANDS[-1][1]]
    kept = [r for r in everyone if r["kept"]]
    lines.append(f"  all: {len(everyone)} named, {sum(not r['right'] for r in everyone)} wrong; with the caution "
                 f"{sum(r['right'] for r in kept)} right, {sum(not r['right'] for r in kept)} wrong "
                 f"({100 * sum(not r['right'] for r in kept) / max(len(kept), 1):.2f} %)")  # fmt: skip
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.small_cards", description=__doc__.split("\n\n")[0])
    parser.add_argument("--pool", choices=("holdout", "train"), default="holdout", help="deck styles (default holdout)")
    parser.add_argument("--tables", type=int, default=240, help="tables drawn (default 240)")
    parser.add_argument("--first", type=int, default=50000, help="the first table's number (default 50000)")
    args = parser.parse_args(argv)
    reader = CardReader.default()
    rows = readings(reader, args.pool, args.first, args.tables)
    print(f"{args.pool} decks, {args.tables} tables from {args.first}; caution {reader.settings.caution} "
          f"(right / wrong at each threshold of the corners' posterior):")  # fmt: skip
    print("\n".join(report(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
