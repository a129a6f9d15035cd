"""Every joker of ``bench.vision``'s "jokers" group the reader does not read ``"Jk"``, and why.

    python -m bench.joker_misses                       # both letter sets, both layouts, 40 scenes each
    python -m bench.joker_misses --pictures /tmp/jk    # and a picture of each missed joker there
    python -m bench.joker_misses --wide                # how often the wide look runs, and its time
    python -m bench.joker_misses --stress              # the wide look asked of every other face-up card

The scenes are the "jokers" group's (hold-out decks, English and German letters, cards apart,
seed 3, and touching rows, seed 7, the deck's two jokers face up; :func:`bench.vision_sets.with_jokers`).
For each joker not read ``"Jk"`` it prints the scene, the layout, the reading, the IoU of the
reader's outline with the true one, the outline's flags (partial, fit), and the joker check's
score on the reader's outline (as the stage left it; then a bare check of its two corners and
the second look about it) and on the true outline (a bare check and the second look): whether
the check or the outline is at fault. With ``--pictures`` each miss is drawn to a PNG: the
card's neighbourhood with the reader's outline (red) and the true one (green), and below it
the index crops the check saw at each (reader's, then true).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from bench.vision import JOKER_LETTERS
from bench.vision_sets import REAL, with_jokers
from vision.detect import quad_iou
from vision.joker import WIDE_AGREEING, JokerCheck, wide_outlines
from vision.reader import MODELS_DIR, CardReader
from vision.rectify import index_crops, order_corners
from vision.render.scene import SceneSpec, deal_rows, render_scene

SEEDS = {False: 3, True: 7}
"""The scene seeds of ``bench.vision`` (cards apart, touching rows)."""


def joker_misses(reader: CardReader, letters: str, *, touching: bool, scenes: int,
                 pictures: Path | None = None) -> tuple[int, list[dict[str, Any]]]:  # fmt: skip
    """The jokers of one layout's joker scenes, in decks printing ``letters``: how many, and those
    not read ``"Jk"`` with what the check says about them."""
    check = reader.joker_check
    if check is None:
        raise SystemExit("the reader has no joker check (models/joker.onnx)")
    seed = SEEDS[touching]
    layout = "touching" if touching else "apart"
    rng = np.random.default_rng(seed)
    pool = "holdout" if letters == "en" else f"holdout-{letters}"
    count, out = 0, []
    for k in range(scenes):
        number = seed * 1000 + k
        spec = SceneSpec(cards=with_jokers(deal_rows(rng, touching=touching), k), seed=number, deck=f"{pool}-{number}")
        scene = render_scene(spec)
        evidence = reader.evidence(scene.image)
        seen = evidence.decide()
        for truth in scene.truth:
            if truth.card != "Jk" or not truth.face_up:
                continue
            count += 1
            true_quad = order_corners(truth.corners)
            ious = [quad_iou(truth.corners, c) for c in seen.corners]
            i = int(np.argmax(ious)) if ious else -1
            if i >= 0 and ious[i] >= 0.5 and seen[i].card == "Jk":
                continue
            row: dict[str, Any] = {"letters": letters, "layout": layout, "scene": number,
                                   "iou": round(float(ious[i]), 3) if i >= 0 else 0.0,
                                   "true_bare": _bare(check, scene.image, true_quad),
                                   "true_second": _second(check, scene.image, true_quad)}  # fmt: skip
            if i >= 0:
                quad = evidence.corners[i]
                row.update(read=seen[i].card if ious[i] >= 0.5 else "not found", partial=bool(evidence.partial[i]),
                           fit=round(float(evidence.fit[i]), 2), stage_score=round(float(evidence.joker_score[i]), 3),
                           asked=bool(np.asarray(evidence.asked.get("joker", np.zeros(len(evidence), bool)))[i]),
                           found_bare=_bare(check, scene.image, quad), found_second=_second(check, scene.image, quad),
                           height=round(float(np.linalg.norm(true_quad[3] - true_quad[0]))))  # fmt: skip
            out.append(row)
            if pictures is not None:
                name = f"{letters}-{layout}-{number}-{len(out)}.png"
                row["picture"] = str(pictures / name)
                cv2.imwrite(row["picture"], _picture(scene.image, true_quad, evidence.corners[i] if i >= 0 else None))
        sys.stderr.write(f"\r  {letters} {layout} scene {k + 1}/{scenes}")
    sys.stderr.write("\n")
    return count, out


def _joker_scenes(scenes: int) -> Iterator[tuple[str, str, int, Any]]:
    """The "jokers" group's scenes: (letters, layout, seed, scene) for both letter sets and layouts."""
    for letters in JOKER_LETTERS:
        for touching in (False, True):
            seed = SEEDS[touching]
            rng = np.random.default_rng(seed)
            pool = "holdout" if letters == "en" else f"holdout-{letters}"
            for k in range(scenes):
                number = seed * 1000 + k
                yield letters, "touching" if touching else "apart", number, render_scene(
                    SceneSpec(cards=with_jokers(deal_rows(rng, touching=touching), k), seed=number,
                              deck=f"{pool}-{number}"))  # fmt: skip


def wide_counts(reader: CardReader, scenes: int) -> None:
    """Print, for each set of frames, how many cards the joker stage looks at widely, in how many
    frames, and the milliseconds each wide look takes."""
    check = reader.joker_check
    if check is None:
        raise SystemExit("the reader has no joker check (models/joker.onnx)")
    calls: list[tuple[int, float]] = []
    wide_look = check.wide_look

    def timed(frame: np.ndarray, quads: np.ndarray, **kwargs: Any) -> np.ndarray:
        start = time.perf_counter()
        out = wide_look(frame, quads, **kwargs)
        calls.append((len(quads), time.perf_counter() - start))
        return out

    def count(name: str, images: Iterator[np.ndarray]) -> None:
        calls.clear()
        frames = outlines = 0
        for image in images:
            outlines += len(reader.read(image))
            frames += 1
        ms = ", ".join(f"{1000 * t / n:.0f}" for n, t in calls)
        print(f"{name}: {frames} frames, {outlines} outlines; wide look on {sum(n for n, _ in calls)} cards in "
              f"{len(calls)} frames{f' ({ms} ms a card)' if calls else ''}")  # fmt: skip

    check.wide_look = timed  # type: ignore[method-assign]
    try:
        for touching in (False, True):
            seed = SEEDS[touching]
            rng = np.random.default_rng(seed)
            specs = (SceneSpec(cards=deal_rows(rng, touching=touching), seed=seed * 1000 + k,
                               deck=f"holdout-{seed * 1000 + k}") for k in range(scenes))  # fmt: skip
            count(f"synthetic hold-out {'touching' if touching else 'apart'}",
                  (render_scene(spec).image for spec in specs))  # fmt: skip
        count("joker scenes", (scene.image for *_, scene in _joker_scenes(scenes)))
        for folder in sorted(p for p in REAL.glob("*") if p.is_dir()):
            photos = (cv2.imread(str(p)) for p in sorted(folder.glob("*.jpg")))
            count(f"real {folder.name}", (photo for photo in photos if photo is not None))
    finally:
        del check.wide_look


def stress(reader: CardReader, scenes: int, *, show: int = 10) -> None:
    """Print the face-up cards that are not jokers with the most of the wide look's outlines about
    their reader's outline passing the threshold (asked of every such card found)."""
    check = reader.joker_check
    if check is None:
        raise SystemExit("the reader has no joker check (models/joker.onnx)")
    rows = []
    for letters, layout, number, scene in _joker_scenes(scenes):
        seen = reader.read(scene.image)
        for truth in scene.truth:
            ious = [quad_iou(truth.corners, c) for c in seen.corners]
            if truth.card == "Jk" or not truth.face_up or not ious or max(ious) < 0.5:
                continue
            i = int(np.argmax(ious))
            scores = check.corner_scores(index_crops(scene.image, wide_outlines(seen.corners[i]))).max(axis=1)
            rows.append((int((scores >= check.threshold).sum()), float(np.sort(scores)[-WIDE_AGREEING]), letters,
                         layout, number, truth.card, seen[i].card))  # fmt: skip
    rows.sort(key=lambda r: (-r[0], -r[1]))
    print(f"{len(rows)} face-up cards other than jokers; the wide look's outlines passing the threshold "
          f"({check.threshold}), most first (passing, the {WIDE_AGREEING}rd highest score, scene, truth, "
          "read):")  # fmt: skip
    for r in rows[:show]:
        print(f"  {r[0]:3d}  {r[1]:.3f}  {r[2]} {r[3]} {r[4]}  {r[5]} → {r[6]}")


def _bare(check: JokerCheck, image: np.ndarray, quad: np.ndarray) -> list[float]:
    """The check's P(a joker's corner) of both index corners of ``quad``."""
    return [round(float(p), 3) for p in check.corner_scores(index_crops(image, [quad]))[0]]


def _second(check: JokerCheck, image: np.ndarray, quad: np.ndarray) -> float:
    """The second look's score about ``quad``."""
    return round(float(check.second_look(image, quad[None])[0]), 3)


def _picture(image: np.ndarray, true_quad: np.ndarray, found: np.ndarray | None) -> np.ndarray:
    """The card's neighbourhood, both outlines drawn, three times as large; the index crops below."""
    quads = [true_quad] + ([found] if found is not None else [])
    points = np.vstack(quads)
    pad = 0.5 * float(np.ptp(true_quad[:, 1]))
    x0, y0 = np.maximum(points.min(axis=0) - pad, 0).astype(int)
    x1, y1 = np.minimum(points.max(axis=0) + pad, [image.shape[1] - 1, image.shape[0] - 1]).astype(int)
    view = image.copy()
    for quad, colour in zip(quads, ((0, 200, 0), (0, 0, 255)), strict=False):
        cv2.polylines(view, [np.round(quad).astype(np.int32)], True, colour, 1, cv2.LINE_AA)
    view = cv2.resize(view[y0 : y1 + 1, x0 : x1 + 1], None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST)
    crops = index_crops(image, quads[::-1])
    strip = np.hstack([cv2.resize(c, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST) for c in crops])
    width = max(view.shape[1], strip.shape[1])
    return np.vstack([np.pad(p, ((0, 4), (0, width - p.shape[1]), (0, 0))) for p in (view, strip)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.joker_misses", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=40, help="scenes per layout (default 40, as bench.vision)")
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="model folder (default: the shipped models)")
    parser.add_argument("--pictures", type=Path, help="draw each missed joker to a PNG in this folder")
    parser.add_argument("--wide", action="store_true", help="count and time the wide looks instead")
    parser.add_argument("--stress", action="store_true", help="ask the wide look of every other face-up card instead")
    args = parser.parse_args(argv)
    if args.wide or args.stress:
        reader = CardReader(args.models)
        (wide_counts if args.wide else stress)(reader, args.scenes)
        return 0
    if args.pictures is not None:
        args.pictures.mkdir(parents=True, exist_ok=True)
    reader = CardReader(args.models)
    total, rows = 0, []
    for letters in JOKER_LETTERS:
        for touching in (False, True):
            count, missed = joker_misses(reader, letters, touching=touching, scenes=args.scenes,
                                         pictures=args.pictures)  # fmt: skip
            total += count
            rows += missed
    for r in rows:
        line = f"{r['letters']:<3} {r['layout']:<8} scene {r['scene']}: IoU {r['iou']:.2f}"
        if "read" in r:
            line += (f" read {r['read']} ({r['height']} px, partial {r['partial']}, fit {r['fit']}); "
                     f"reader's outline: stage {r['stage_score']}{'' if r['asked'] else ' (not asked)'}, "
                     f"bare {r['found_bare']}, second look {r['found_second']}")  # fmt: skip
        line += f"; true outline: bare {r['true_bare']}, second look {r['true_second']}"
        print(line + (f"  [{r['picture']}]" if "picture" in r else ""))
    print(f"jokers not read Jk: {len(rows)} of {total}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
