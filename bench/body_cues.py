"""How often each cue of the body check (:mod:`vision.body_check`) is wrong, by the card's rank class.

    python -m bench.body_cues                   # 20 scenes per pool, letters and layout
    python -m bench.body_cues --scenes 5        # a quick look

Scenes of the training fonts and of the hold-out fonts, with English letters and with the French
ace printed "1", cards apart and touching rows (scene seeds apart from ``bench.vision``'s), then
the real Bicycle webcam photos of ``../shared/vision-real`` when present (one card each); every
face-up card the reader detects (IoU >= 0.5 with the truth; a photo's largest card) is
straightened along the outline the reader found and its cues read. Printed per pool and rank
class (number, court, ace): how many cards, how many showed a regular pip count, how many of those
counts were not the card's (every count on a court card or an ace) and how many of those were of
three pips or more, how many court cards and aces showed six or more pip-sized blobs all alike
(regular or not; and of those, how many showed no picture), how many cards showed a picture and an
ace's pip; then the readings the reader's other stages made (a sure card named) and how many of
them the body stage vetoed: right ones (lost) and wrong ones (caught).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence

import cv2
import numpy as np

from bench.vision_sets import REAL, label_of
from table.cards import Card
from vision.body_check import ACE, bodies, body_cues
from vision.detect import quad_iou
from vision.pip_check import NUMBER_RANKS
from vision.reader import CardReader
from vision.rectify import Pyramid, card_heights
from vision.render.scene import SceneSpec, deal_rows, render_scene

SEEDS = {False: 21, True: 23}
"""Scene seeds (cards apart, touching rows): apart from bench.vision's 3 and 7."""


COLUMNS = ("cards", "count", "count wrong", "count of 3+", "6+ alike", "6+ alike, no picture", "picture", "ace",
           "read right", "right vetoed", "read wrong", "wrong vetoed")  # fmt: skip
"""What is tallied per pool and rank class."""


def rank_class(rank: int) -> str:
    return "number" if rank < NUMBER_RANKS else "ace" if rank == ACE else "court"


def tally_card(tally: Counter[str], pool: str, card: str, body: np.ndarray, read: str | None, vetoed: bool,
               where: str) -> None:  # fmt: skip
    """Tally one face-up card (its true ``card``, straightened ``body``, what the other stages
    ``read``, whether the body stage ``vetoed`` that) under ``pool`` and its rank class."""
    rank = int(Card.parse(card).rank)
    cues = body_cues(body)
    key = f"{pool} {rank_class(rank)}"
    tally[f"{key} cards"] += 1
    if cues.count is not None:
        tally[f"{key} count"] += 1
        tally[f"{key} count wrong"] += cues.count != rank + 2
        tally[f"{key} count of 3+"] += cues.count >= 3
    tally[f"{key} 6+ alike"] += cues.alike >= 6 and rank >= NUMBER_RANKS
    tally[f"{key} 6+ alike, no picture"] += cues.alike >= 6 and rank >= NUMBER_RANKS and not cues.picture
    tally[f"{key} picture"] += cues.picture
    tally[f"{key} ace"] += cues.ace
    if read is None or read == "Jk":
        return
    right = read == card
    tally[f"{key} read right"] += right
    tally[f"{key} read wrong"] += not right
    tally[f"{key} right vetoed"] += right and vetoed
    tally[f"{key} wrong vetoed"] += (not right) and vetoed
    if vetoed:
        sys.stderr.write(f"\n    veto {where} {card} read {read} {cues}\n")


def bicycle(reader: CardReader, tally: Counter[str]) -> bool:
    """The Bicycle webcam photos of ``../shared/vision-real`` (one card each, labelled by its file's
    name), tallied as pool "bicycle"; False when they are absent."""
    folder = REAL / "bicycle-webcam"
    if not folder.is_dir():
        return False
    for path in sorted(folder.glob("*.jpg")):
        image = cv2.imread(str(path))
        evidence = reader.evidence(image)
        if not len(evidence):
            continue
        vetoes = evidence.body_veto.copy()
        evidence.body_veto[:] = False
        seen = evidence.decide()
        i = int(np.argmax(card_heights(evidence.corners)))  # the photo's card
        body = bodies(evidence.pyramid, evidence.corners[i : i + 1])[0]
        tally_card(tally, "bicycle", label_of(path), body, seen[i].card, bool(vetoes[i]), path.name)
    return True


def measure(reader: CardReader, pool: str, letters: str, *, touching: bool, scenes: int, tally: Counter[str]) -> None:
    seed = SEEDS[touching]
    rng = np.random.default_rng(seed)
    deck_pool = pool if letters == "en" else f"{pool}-{letters}"
    for k in range(scenes):
        number = seed * 1000 + k
        spec = SceneSpec(cards=deal_rows(rng, touching=touching), seed=number, deck=f"{deck_pool}-{number}")
        scene = render_scene(spec)
        evidence = reader.evidence(scene.image)
        vetoes = evidence.body_veto.copy()
        evidence.body_veto[:] = False
        seen = evidence.decide()  # the readings the body stage looked at
        if not len(seen):
            continue
        straight = bodies(Pyramid(scene.image), np.asarray(seen.corners, np.float64))
        for truth in scene.truth:
            if not truth.face_up or truth.card.startswith("Jk"):
                continue
            ious = [quad_iou(truth.corners, c) for c in seen.corners]
            if max(ious) < 0.5:
                continue
            i = int(np.argmax(ious))
            where = f"{pool} {letters} {'touching' if touching else 'apart'} {number}"
            tally_card(tally, pool, truth.card, straight[i], seen[i].card, bool(vetoes[i]), where)
        sys.stderr.write(f"\r  {pool} {letters} {'touching' if touching else 'apart'} scene {k + 1}/{scenes}")
    sys.stderr.write("\n")


def _row(cells: Sequence[str], widths: Sequence[int]) -> str:
    """One line of the table: the first two cells to the left, the figures to the right."""
    return " ".join(f"{v:<{n}}" if k < 2 else f"{v:>{n}}" for k, (v, n) in enumerate(zip(cells, widths, strict=True)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=20, help="scenes per pool, letters and layout (default 20)")
    args = parser.parse_args(argv)
    reader = CardReader.default()
    tally: Counter[str] = Counter()
    for pool in ("train", "holdout"):
        for letters in ("en", "fr1"):
            for touching in (False, True):
                measure(reader, pool, letters, touching=touching, scenes=args.scenes, tally=tally)
    head = ("pool", "class", "cards", "regular", "(wrong)", "(3+)", "6+ alike", "(no picture)", "picture", "ace pip",
            "read right", "vetoed", "read wrong", "vetoed")  # fmt: skip
    widths = (8, 7, 6, 8, 8, 6, 9, 12, 8, 8, 11, 7, 11, 7)
    print(_row(head, widths))
    pools = ("train", "holdout", "bicycle") if bicycle(reader, tally) else ("train", "holdout")
    for pool in pools:
        for kind in ("number", "court", "ace"):
            key = f"{pool} {kind}"
            row = [pool, kind, *(str(tally[f"{key} {name}"]) for name in COLUMNS)]
            print(_row(row, widths))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
