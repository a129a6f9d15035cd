"""Face or back told by the card itself (vision.face_or_back), measured: how many faces show blank
margins and how many backs do not.

    python -m bench.face_or_back          # a minute or two

Figures:
- rendered cards: 60 seeds × both font pools, every other deck with dense court pictures, 11
  faces each; and each deck's back, plain and with a Tock mark.
- rendered tables: 30 hold-out scenes of cards apart (face up and down), each card at the outline
  the reader found for it.
- real photos (../shared/vision-real, measured only, skipped when absent): every face-up card the
  reader finds on every other Bicycle webcam photo, the close-ups and the angled tables.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from table.cards import Card
from vision.detect import quad_iou
from vision.face_or_back import blank_margins, blank_margins_of
from vision.reader import MODELS_DIR, CardReader
from vision.render.faces import deck_style, render_back, render_face
from vision.render.scene import SceneSpec, deal_rows, render_scene

REAL = Path(__file__).resolve().parents[1] / ".." / "shared" / "vision-real"


def rendered() -> tuple[list[bool], list[bool]]:
    faces: list[bool] = []
    backs: list[bool] = []
    for seed in range(60):
        for pool in ("train", "holdout"):
            style = replace(deck_style(seed, pool), dense_courts=seed % 2 == 1)
            for cid in range(0, 52, 5):
                face = np.ascontiguousarray(render_face(style, Card.from_id(cid))[..., :3])
                faces.append(blank_margins_of(face).blank)
            for mark in (None, "h:large"):
                backs.append(blank_margins_of(np.ascontiguousarray(render_back(style, mark)[..., :3])).blank)
    return faces, backs


def tables(reader: CardReader) -> tuple[list[bool], list[bool]]:
    rng = np.random.default_rng(11)
    faces: list[bool] = []
    backs: list[bool] = []
    for k in range(30):
        number = 11000 + k
        scene = render_scene(SceneSpec(cards=deal_rows(rng, touching=False), seed=number, deck=f"holdout-{number}",
                                       dense_courts=k % 2 == 1))  # fmt: skip
        seen = reader.read(scene.image)
        for truth in scene.truth:
            ious = [quad_iou(truth.corners, c) for c in seen.corners]
            if ious and max(ious) >= 0.5:
                blank = blank_margins(scene.image, seen.corners[int(np.argmax(ious))]).blank
                (faces if truth.face_up else backs).append(blank)
    return faces, backs


def real(reader: CardReader) -> dict[str, list[bool]]:
    out: dict[str, list[bool]] = {}
    for folder in ("bicycle-webcam", "closeups", "tables"):
        files = sorted((REAL / folder).glob("*.jp*g"))
        if folder == "bicycle-webcam":
            files = files[::2]
        for path in files:
            image = cv2.imread(str(path))
            if image is None:
                continue
            seen = reader.read(image)
            out.setdefault(folder, []).extend(blank_margins(image, seen.corners[i]).blank
                                              for i in range(len(seen)) if seen.face_up[i])  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.face_or_back", description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="the reader finding the outlines")
    args = parser.parse_args(argv)
    faces, backs = rendered()
    print(f"rendered cards: faces taken for faces {sum(faces)}/{len(faces)}, backs taken for faces "
          f"{sum(backs)}/{len(backs)}")  # fmt: skip
    reader = CardReader(args.models)
    faces, backs = tables(reader)
    print(f"rendered tables (reader's outlines): faces {sum(faces)}/{len(faces)}, backs taken for faces "
          f"{sum(backs)}/{len(backs)}")  # fmt: skip
    if not REAL.is_dir():
        print("real photos: skipped (../shared/vision-real absent)")
        return 0
    for folder, blanks in real(reader).items():
        print(f"real {folder}: face-up cards showing blank margins {sum(blanks)}/{len(blanks)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
