"""How often the pips left in sight fit one number card's layout, and whether it is the card's.

    python -m bench.pips_in_sight                 # 40 scenes per pool and layout
    python -m bench.pips_in_sight --scenes 10     # a quick look

Scenes of the training fonts and of the hold-out fonts, cards apart and in touching rows (scene
seeds apart from ``bench.vision``'s); every face-up card the reader detects (IoU >= 0.5 with the
truth) is straightened along the outline the reader found, its hidden part taken from the other
outlines the reader found and the frame's edge (:mod:`vision.pip_layouts`), and the layouts that
fit the pips in sight counted. Printed per pool, layout and rank class (number cards; court cards
and aces): the cards, those one layout alone fits, and of those the ones whose count is not the
card's (every fit on a court card or an ace); those several layouts fit; those none fits. The
reader names a card from a fit only with the corners' posterior behind it (its best rank or a
number runner-up, weighed 99 to 1), so a fit on a court card matters only where the corners lean
to a number.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence

import numpy as np

from table.cards import Card
from vision.detect import quad_iou
from vision.mark_reader import card_regions
from vision.pip_check import BODY, NUMBER_RANKS
from vision.pip_layouts import counts_in_sight
from vision.reader import CardReader
from vision.rectify import Pyramid
from vision.render.scene import SceneSpec, deal_rows, render_scene

SEEDS = {False: 31, True: 37}
"""Scene seeds (cards apart, touching rows): apart from bench.vision's 3 and 7."""

OUTCOMES = ("cards", "one fits", "one fits, not the card", "several fit", "none fits")
"""What is tallied per pool, layout and rank class."""


def fits_of(frame: np.ndarray, corners: np.ndarray, k: int) -> list[int]:
    """The counts whose layouts fit the pips of card ``k`` in sight (``corners`` every outline found)."""
    body = card_regions(Pyramid(frame), [corners[k]], (0.0, 0.0, 1.0, 1.0), BODY, ordered=True)[0]
    return counts_in_sight(body, corners, k, (frame.shape[1], frame.shape[0]))


def measure(reader: CardReader, pool: str, touching: bool, scenes: int, tally: Counter[str]) -> None:
    """Tally the face-up cards of ``scenes`` scenes of one pool and layout."""
    layout = "touching" if touching else "apart"
    rng = np.random.default_rng(SEEDS[touching])
    for k in range(scenes):
        number = SEEDS[touching] * 1000 + k
        scene = render_scene(SceneSpec(cards=deal_rows(rng, touching=touching), seed=number, deck=f"{pool}-{number}"))
        corners = reader.evidence(scene.image).corners
        for truth in scene.truth:
            if not truth.face_up or not len(corners):
                continue
            ious = [quad_iou(truth.corners, c) for c in corners]
            i = int(np.argmax(ious))
            if ious[i] < 0.5:
                continue
            rank = int(Card.parse(truth.card).rank)
            key = f"{pool:8} {layout:8} {'number' if rank < NUMBER_RANKS else 'court/ace'}"
            fits = fits_of(scene.image, corners, i)
            tally[f"{key}|cards"] += 1
            if len(fits) == 1:
                tally[f"{key}|one fits"] += 1
                tally[f"{key}|one fits, not the card"] += int(fits[0] != rank + 2)
            else:
                tally[f"{key}|{'several fit' if fits else 'none fits'}"] += 1
        sys.stderr.write(f"\r  {pool} {layout} scene {k + 1}/{scenes}")
    sys.stderr.write("\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pips_in_sight", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=40, help="scenes per pool and layout (default 40)")
    args = parser.parse_args(argv)
    reader = CardReader.default()
    tally: Counter[str] = Counter()
    for pool in ("train", "holdout"):
        for touching in (False, True):
            measure(reader, pool, touching, args.scenes, tally)
    keys = sorted({key.split("|")[0] for key in tally})
    print(f"{'pool     layout   class':28} " + " ".join(f"{name:>22}" for name in OUTCOMES))
    for key in keys:
        print(f"{key:28} " + " ".join(f"{tally[f'{key}|{name}']:>22}" for name in OUTCOMES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
