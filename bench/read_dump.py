"""Every reading of a fixed set of frames, written down exactly, to show that a change to the reader
(a speed-up, say) reads every frame as before.

    python -m bench.read_dump --out before.json            # on the tree before the change
    python -m bench.read_dump --out after.json             # on the tree after it
    python -m bench.read_dump --compare before.json after.json

The frames (about sixty): the speed bench's frames at the three capture sizes the README
recommends (:mod:`bench.read_profile`), synthetic hold-out tables with cards apart and touching,
with Tock backs, with the deck's two jokers, cards too small for their index at 2304×1296, and hard
tables of every kind (:func:`vision.render.scene_layouts.deal_hard`). For each card read: its
corners, card, side, confidence, whether part of it is hidden and its mark, floats written so that
they read back to the same bits. ``--compare`` prints the frames whose readings differ and exits 1
when any does. The renderer's fonts matter: write both files with the same ``TOCKTABLE_FONTS``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from bench.read_profile import SIZES, frames_of
from bench.vision_sets import with_jokers
from vision.observations import Observations
from vision.reader import CardReader
from vision.render.scene import SceneSpec, deal_rows, render_scene
from vision.render.scene_layouts import KINDS, deal_hard


def frames(count: int = 4) -> Iterator[tuple[str, np.ndarray]]:
    """(name, BGR frame) of every frame dumped; ``count`` scenes of each synthetic kind (the speed
    bench's frames are always all there)."""
    for size in SIZES:
        for k, image in enumerate(frames_of(size)):
            yield f"speed {size[0]}x{size[1]} #{k}", image
    for touching in (False, True):
        rng = np.random.default_rng(31 + touching)
        for k in range(2 * count):
            number = 9100 + 100 * touching + k
            image = render_scene(SceneSpec(cards=deal_rows(rng, touching=touching), seed=number,
                                           deck=f"holdout-{number}")).image  # fmt: skip
            yield f"{'touching' if touching else 'apart'} #{k}", image
    rng = np.random.default_rng(33)
    for k in range(count):
        cards = tuple(replace(c, back="tock") for c in deal_rows(rng, touching=k % 2 == 1))
        yield f"tock backs #{k}", render_scene(SceneSpec(cards=cards, seed=9300 + k, deck=f"holdout-{9300 + k}")).image
    rng = np.random.default_rng(34)
    for k in range(2 * count):
        cards = with_jokers(deal_rows(rng, touching=k % 2 == 1), k)
        yield f"jokers #{k}", render_scene(SceneSpec(cards=cards, seed=9400 + k, deck=f"holdout-{9400 + k}")).image
    rng = np.random.default_rng(35)
    for k in range(count):
        cards = tuple(replace(c, height=float(rng.uniform(0.04, 0.06)), angle=float(rng.uniform(-40, 40)))
                      for c in deal_rows(rng, count=14))  # fmt: skip
        image = render_scene(SceneSpec(cards=cards, size=(2304, 1296), seed=9500 + k, deck=f"holdout-{9500 + k}"))
        yield f"small cards #{k}", image.image
    for n, kind in enumerate(KINDS):
        for k in range(count):
            number = 9600 + 100 * n + k
            cards, options = deal_hard(np.random.default_rng(number), kind=kind)
            yield f"hard {kind} #{k}", render_scene(options.spec(cards, seed=number, deck=f"holdout-{number}")).image


def readings(seen: Observations) -> list[dict[str, Any]]:
    """One frame's readings, every float as its exact repr (JSON keeps them to the bit)."""
    return [{"corners": [[float(v) for v in point] for point in seen.corners[k]], "card": seen[k].card,
             "face_up": bool(seen.face_up[k]), "confidence": float(seen.confidence[k]),
             "partial": bool(seen.partial[k]), "mark": seen.marks[k]} for k in range(len(seen))]  # fmt: skip


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The frames whose readings differ between two dumps (or that one of them lacks), one line each."""
    out = []
    for name in sorted(set(before) | set(after)):
        if name not in before or name not in after:
            out.append(f"{name}: only in {'the first' if name in before else 'the second'} dump")
            continue
        a, b = before[name], after[name]
        if a == b:
            continue
        if len(a) != len(b):
            out.append(f"{name}: {len(a)} cards read, then {len(b)}")
            continue
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            changed = [key for key in sorted(set(x) | set(y)) if x.get(key) != y.get(key)]
            if changed:
                out.append(f"{name}, card {k}: " + "; ".join(f"{key} {x.get(key)!r} → {y.get(key)!r}"
                                                             for key in changed))  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.read_dump", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write the readings of every frame to this JSON file")
    parser.add_argument("--scenes", type=int, default=4, help="scenes of each synthetic kind (default 4: 62 frames)")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"),
                        help="compare two dumps instead: exit 1 when any frame reads otherwise")  # fmt: skip
    args = parser.parse_args(argv)
    if (args.out is None) == (args.compare is None):
        parser.error("give either --out FILE or --compare BEFORE AFTER")
    if args.scenes < 1:
        parser.error("--scenes must be at least 1")
    if args.compare is not None:
        before, after = (json.loads(path.read_text()) for path in args.compare)
        found = differences(before, after)
        cards = sum(len(frame) for frame in before.values())
        for line in found:
            print(line)
        print(f"{len(before)} frames, {cards} cards: " + (f"{len(found)} difference(s)" if found else "identical"))
        return 1 if found else 0
    reader = CardReader.default()
    dump = {}
    for name, image in frames(args.scenes):
        dump[name] = readings(reader.read(image))
        sys.stderr.write(f"\r  {len(dump)} frames")
    sys.stderr.write("\n")
    args.out.write_text(json.dumps(dump, indent=0) + "\n")
    print(f"{len(dump)} frames, {sum(len(frame) for frame in dump.values())} cards read into {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
