"""Five-card hands spread in front of the players, read with and without the gap split.

    TOCKTABLE_FONTS=system python -m bench.hands_apart            # 40 tables
    TOCKTABLE_FONTS=system python -m bench.hands_apart --tables 10
    TOCKTABLE_FONTS=system python -m bench.hands_apart --size 2304x1296   # as the demo films them

Draws the demo's five-card draw table (:class:`hardware.table_model.TableModel`, four seats, five
cards face up at each, a few pixels apart, two seats' hands lying on their sides: 1280×720 by
default, cards 76 px tall; at 2304×1296, as the demo films five-card tables, 137 px) and reads it
with the whole reader, once as it is and once with :mod:`vision.gap_split` turned off (no outline
looked at). Prints, for each, the cards found (an outline overlapping the card's by IoU ≥ 0.7),
read right, unsure (found, not named) and named wrongly, and how many outlines the split made of
how many.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import numpy as np

from hardware.table_model import TableModel
from table.cards import Card
from vision import gap_split
from vision.detect import quad_iou
from vision.reader import CardReader


def table(seed: int, size: tuple[int, int] = (1280, 720)) -> tuple[np.ndarray, list[tuple[str, np.ndarray]]]:
    """The frame of one five-card table drawn at ``size``, and each card's name and outline."""
    model = TableModel(4, seed=seed, hole_cards=5, size=size)
    dealt = [str(Card.from_id(int(i))) for i in np.random.default_rng(seed).permutation(52)[:20]]
    for seat in range(4):
        model.deal_hole(seat, dealt[5 * seat : 5 * seat + 5], face_up=True)
    image = np.asarray(model.frame())
    assert model.last_render is not None
    return image, [(str(t.card), t.corners) for t in model.last_render.truth]


@contextmanager
def without_split() -> Iterator[None]:
    """The card finder with no outline looked at for cards lying apart inside it."""
    with mock.patch("vision.detect.looked_at", lambda quads: np.zeros(len(quads), bool)):
        yield


def score(reader: CardReader, image: np.ndarray, truth: list[tuple[str, np.ndarray]]) -> dict[str, int]:
    """Cards found, read right, unsure and wrong on one frame."""
    seen = reader.read(image)
    out = {"cards": len(truth), "found": 0, "right": 0, "unsure": 0, "wrong": 0}
    for card, corners in truth:
        ious = [quad_iou(corners, c) for c in seen.corners]
        if not ious or max(ious) < 0.7:
            continue
        out["found"] += 1
        read = seen[int(np.argmax(ious))].card
        out["right" if read == card else "unsure" if read is None else "wrong"] += 1
    return out


def measure(tables: int, size: tuple[int, int] = (1280, 720)) -> dict[str, dict[str, int]]:
    reader = CardReader.default()
    totals: dict[str, dict[str, int]] = {}
    split = {"outlines": 0, "split": 0}
    def counting(frame: np.ndarray, quad: np.ndarray) -> Any:
        found = gap_split.pieces(frame, quad)
        split["outlines"] += 1
        split["split"] += bool(found)
        return found

    for seed in range(tables):
        image, truth = table(seed, size)
        with mock.patch("vision.detect.pieces", counting):
            figures = {"with the split": score(reader, image, truth)}
        with without_split():
            figures["without"] = score(reader, image, truth)
        for name, counts in figures.items():
            into = totals.setdefault(name, dict.fromkeys(counts, 0))
            for key, value in counts.items():
                into[key] += value
        sys.stderr.write(f"\r  table {seed + 1}/{tables}")
    sys.stderr.write("\n")
    totals["looked at"] = split
    return totals


def _size(text: str) -> tuple[int, int]:
    width, _, height = text.partition("x")
    if not (width.isdigit() and height.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a frame size: give WIDTHxHEIGHT, e.g. 2304x1296")
    return int(width), int(height)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hands_apart", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40, help="tables drawn (default 40)")
    parser.add_argument("--size", type=_size, default=(1280, 720),
                        help="the frame, WIDTHxHEIGHT (default 1280x720: cards about 76 px; the demo films 2304x1296)")
    args = parser.parse_args(argv)
    print(f"{args.tables} five-card tables at {args.size[0]}x{args.size[1]}")
    totals = measure(args.tables, args.size)
    for name in ("with the split", "without"):
        c = totals[name]
        print(f"{name:15s}: {c['cards']} cards, found {c['found']} ({100 * c['found'] / c['cards']:.1f} %), "
              f"read right {c['right']} ({100 * c['right'] / c['cards']:.1f} %), unsure {c['unsure']}, "
              f"wrong {c['wrong']}")  # fmt: skip
    looked = totals["looked at"]
    print(f"outlines looked at for cards lying apart: {looked['outlines']}, split: {looked['split']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
