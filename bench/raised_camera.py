"""The card finder with the demo's camera raised until the table's edge and the floor show.

    TOCKTABLE_FONTS=system python -m bench.raised_camera                  # the shipped detector
    TOCKTABLE_FONTS=system python -m bench.raised_camera --models DIR     # another model folder

Draws the demo's table (:class:`hardware.table_model.TableModel`: 2, 6 and 9 seats, seeds 0-7,
two cards at each seat, some face down, 0-5 on the board) as the perfect camera sees it (no
hands, no noise: :func:`tocktable.camera.perfect_picture`), moves
the set-up page's synthetic camera (:mod:`hardware.camera_rig`) up by 30, 45 and 60 cm, straight
down and tilted 12°, and runs the reader's card finder (:func:`vision.detect.find_cards` with the
folder's detector). A raised camera shows the whole table as a light rectangle on the dark floor;
an outline larger than twice the largest card is the table (or a part of it) taken for a card.
Prints the frames with such an outline and the share of cards found (quad IoU ≥ 0.5 with the
card's outline as the moved camera shows it).
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from hardware.aim import camera_height
from hardware.camera_rig import CameraRig
from hardware.table_model import TableModel
from table.cards import Card
from vision.detect import find_cards, quad_iou
from vision.reader import MODELS_DIR
from vision.render.scene import render_scene
from vision.segment import CardSegmenter

LIFTS = (0.3, 0.45, 0.6)
TILTS = (0.0, 12.0)
SEATS = (2, 6, 9)


def _table(seed: int, seats: int) -> TableModel:
    rng = np.random.default_rng([seed, seats])
    model = TableModel(seats, seed=seed)
    ids = iter(int(i) for i in rng.permutation(52))
    for seat in range(seats):
        for _ in range(2):
            model.deal(str(Card.from_id(next(ids))), zone=seat, face_up=bool(rng.random() < 0.5))
    model.deal_board([str(Card.from_id(next(ids))) for _ in range(int(rng.integers(0, 6)))])
    return model


def _moved(rig: CameraRig, size: tuple[int, int], corners: np.ndarray) -> np.ndarray:
    """Image corners of the perfect camera's picture → where the moved camera shows them."""
    matrix = rig.homography(size)
    homog = np.column_stack([corners, np.ones(len(corners))]) @ matrix.T
    out: np.ndarray = homog[:, :2] / homog[:, 2:]
    return out


def _area(quad: np.ndarray) -> float:
    return float(cv2.contourArea(np.asarray(quad, np.float32)))


def measure(models: Path, seeds: int) -> dict[str, int]:
    """Frames, frames where the table was taken for a card, cards and cards found."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    segmenter = CardSegmenter.load(models, options, ["CPUExecutionProvider"])
    counts = {"frames": 0, "table_taken": 0, "cards": 0, "found": 0}
    for seed in range(seeds):
        for seats in SEATS:
            model = _table(seed, seats)
            scene = render_scene(replace(model.scene_spec(), clean=True, hands=0))  # the perfect camera's picture
            rig = CameraRig(camera_height(model.card_height * model.size[1], model.size[0]))
            for lift in LIFTS:
                for tilt in TILTS:
                    rig.set(lift=lift, tilt=tilt, blur=0.0)
                    image = rig.view(scene.image)
                    outlines = [o.corners for o in find_cards(image, segmenter=segmenter)]
                    moved = [_moved(rig, model.size, t.corners) for t in scene.truth]
                    largest = max(_area(c) for c in moved)
                    counts["frames"] += 1
                    counts["table_taken"] += any(_area(q) > 2 * largest for q in outlines)
                    counts["cards"] += len(moved)
                    counts["found"] += sum(max((quad_iou(c, q) for q in outlines), default=0.0) >= 0.5
                                           for c in moved)  # fmt: skip
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.raised_camera", description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="model folder (default: the shipped models)")
    parser.add_argument("--seeds", type=int, default=8, help="table seeds per seat count (default 8)")
    args = parser.parse_args(argv)
    c = measure(args.models, args.seeds)
    print(f"camera raised 30-60 cm, straight and tilted 12° ({c['frames']} frames): the table taken for a card in "
          f"{c['table_taken']}; cards found {c['found']}/{c['cards']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
