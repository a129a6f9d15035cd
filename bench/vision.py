"""Card reader benchmark: every figure issue 4 asks for, from the shipped models, in one run.

    python -m bench.vision                 # all figures (a few minutes)
    python -m bench.vision --scenes 20     # fewer synthetic scenes
    python -m bench.vision --json out.json # also write the figures as JSON
    python -m bench.vision --skip-peers    # without the peer (bench/vision_peer.py: a classical reader)

Figures:
- synthetic hold-out: scenes drawn with deck styles from the hold-out font pool (never trained
  on) and scene seeds never used in training; 12 cards per 1280×720 frame. "spread" scenes have
  cards apart, "touching" scenes have neighbours touching or overlapping.
- real photos (../shared/vision-real, measured only, skipped when absent): bicycle-webcam (one card
  per photo, label from the file name) and fanned-corners/0.jpg (crop around each labelled index).
- speed: 1280×720 frames with 12 cards, median and p95 of the whole read, its steps, model sizes.
A reading is "right" when the card is named correctly, "unsure" when the reader says None,
"wrong" when it names another card (every named card counts as confident).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from table.cards import Card
from vision.detect import Outline, quad_iou
from vision.reader import MODELS_DIR, CardReader, Observations
from vision.rectify import order_corners
from vision.scene import CardTruth, SceneSpec, deal_rows, render_scene

REAL = Path(__file__).resolve().parents[1] / ".." / "shared" / "vision-real"
_RANKS = {"Ace": "A", "King": "K", "Queen": "Q", "Jack": "J", "10": "T"}
_SUITS = {"club": "c", "diamond": "d", "heart": "h", "spade": "s"}


def read_at_true_outlines(reader: CardReader, image: np.ndarray, truth: tuple[CardTruth, ...]) -> Observations:
    """``reader.read`` with its detector replaced by the scene's true outlines (the classifier alone)."""
    outlines = [Outline(order_corners(t.corners), partial=False, fit=1.0) for t in truth]
    detect = reader.detect
    reader.detect = lambda frame, **_: outlines  # type: ignore[method-assign]
    try:
        return reader.read(image)
    finally:
        reader.detect = detect  # type: ignore[method-assign]


def synthetic(reader: CardReader, scenes: int, *, touching: bool, seed: int,
              true_outlines: bool = False) -> dict[str, Any]:  # fmt: skip
    rng = np.random.default_rng(seed)
    counts = {"cards": 0, "found": 0, "face_up": 0, "found_up": 0, "right": 0, "unsure": 0, "wrong": 0,
              "side_right": 0}  # fmt: skip
    confusions: list[str] = []
    for k in range(scenes):
        number = seed * 1000 + k
        spec = SceneSpec(cards=deal_rows(rng, touching=touching), seed=number, deck=f"holdout-{number}")
        scene = render_scene(spec)
        seen = read_at_true_outlines(reader, scene.image, scene.truth) if true_outlines else reader.read(scene.image)
        for truth in scene.truth:
            counts["cards"] += 1
            counts["face_up"] += truth.face_up
            ious = [quad_iou(truth.corners, c) for c in seen.corners]
            if not ious or max(ious) < 0.5:
                continue
            obs = seen[int(np.argmax(ious))]
            counts["found"] += 1
            counts["side_right"] += obs.face_up == truth.face_up
            if truth.face_up:
                counts["found_up"] += 1
                if obs.card == truth.card:
                    counts["right"] += 1
                elif obs.card is None:
                    counts["unsure"] += 1
                    confusions.append(f"{truth.card}→?({obs.confidence:.2f})")
                else:
                    counts["wrong"] += 1
                    confusions.append(f"{truth.card}→{obs.card}({obs.confidence:.2f})")
            elif obs.card is not None:
                counts["wrong"] += 1
                confusions.append(f"back→{obs.card}({obs.confidence:.2f})")
        sys.stderr.write(f"\r  synthetic {'touching' if touching else 'spread'} scene {k + 1}/{scenes}")
    sys.stderr.write("\n")
    up = max(counts["face_up"], 1)
    found = max(counts["found"], 1)
    return {
        **counts,
        "detected": counts["found"] / max(counts["cards"], 1),
        "read_right_of_face_up": counts["right"] / up,
        "read_right_of_detected_face_up": counts["right"] / max(counts["found_up"], 1),
        "wrong_rate": counts["wrong"] / max(counts["cards"], 1),
        "face_up_right_of_detected": counts["side_right"] / found,
        "confusions": confusions,
    }


def label_of(path: Path) -> str:
    rank, suit, _ = path.stem.split("_")
    return _RANKS.get(rank, rank) + _SUITS[suit]


def bicycle(reader: CardReader) -> dict[str, Any] | None:
    folder = REAL / "bicycle-webcam"
    if not folder.is_dir():
        return None
    files = sorted(folder.glob("*.jpg"))
    right = unsure = wrong = missed = extra = 0
    times, misses = [], []
    for path in files:
        image = cv2.imread(str(path))
        start = time.perf_counter()
        seen = reader.read(image)
        times.append(time.perf_counter() - start)
        truth = label_of(path)
        if not len(seen):
            missed += 1
            misses.append(f"{path.name}: no card")
            continue
        extra += len(seen) - 1
        areas = [cv2.contourArea(c.astype(np.float32)) for c in seen.corners]
        card = seen[int(np.argmax(areas))].card
        if card == truth:
            right += 1
        elif card is None:
            unsure += 1
            misses.append(f"{path.name}: unsure")
        else:
            wrong += 1
            misses.append(f"{path.name}: read {card}")
    n = len(files)
    return {"photos": n, "right": right, "unsure": unsure, "wrong": wrong, "no_card": missed, "extra_outlines": extra,
            "right_rate": right / n, "wrong_rate": wrong / n, "ms_per_photo_median": 1000 * float(np.median(times)),
            "misses": misses}  # fmt: skip


def fanned(reader: CardReader) -> dict[str, Any] | None:
    """Each labelled index box read by ``reader.read_index_box`` (turn, tilt and framing chosen by the
    reader from the crop alone)."""
    image_path, labels_path = REAL / "fanned-corners" / "0.jpg", REAL / "fanned-corners" / "0.labelme.json"
    if not image_path.is_file() or not labels_path.is_file():
        return None
    image = cv2.imread(str(image_path))
    shapes = json.loads(labels_path.read_text())["shapes"]
    right = unsure = wrong = 0
    details = []
    for shape in shapes:
        (x0, y0), (x1, y1) = np.array(shape["points"]).min(axis=0), np.array(shape["points"]).max(axis=0)
        truth = str(Card.parse(re.sub(r"^(10|[2-9AJQK])([CDHS])$", r"\1\2", shape["label"]).lower()))
        reading = reader.read_index_box(image, (x0, y0, x1, y1))
        card, confidence = reading.card, reading.confidence
        if card == truth:
            right += 1
        elif card is None:
            unsure += 1
        else:
            wrong += 1
        details.append(f"{shape['label']}→{card or '?' + reading.guess}({confidence:.2f})")
    return {"corners": len(shapes), "right": right, "unsure": unsure, "wrong": wrong, "details": details}


def speed(reader: CardReader, frames: int, models: Path) -> dict[str, Any]:
    rng = np.random.default_rng(99)
    images = [render_scene(SceneSpec(cards=deal_rows(rng, touching=False), seed=5000 + k)).image for k in range(8)]
    reader.read(images[0])
    total, detect, cpu = [], [], []
    for k in range(frames):
        image = images[k % len(images)]
        start, start_cpu = time.perf_counter(), time.process_time()
        reader.read(image)
        total.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        start = time.perf_counter()
        reader.detect(image)
        detect.append(time.perf_counter() - start)
    sizes = {p.name: p.stat().st_size for p in sorted(models.glob("*.onnx"))}
    return {"frames": frames, "median_ms": 1000 * float(np.median(total)),
            "p95_ms": 1000 * float(np.percentile(total, 95)), "detect_median_ms": 1000 * float(np.median(detect)),
            "cpu_median_ms": 1000 * float(np.median(cpu)),
            "model_bytes": sizes}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.vision", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=40, help="synthetic scenes per layout (default 40)")
    parser.add_argument("--frames", type=int, default=60, help="frames timed for speed (default 60)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="model folder (default: the shipped models)")
    parser.add_argument("--only", choices=["speed", "synthetic", "real"], help="measure only this group")
    parser.add_argument("--true-outlines", action="store_true",
                        help="synthetic scenes: read cards at their true outlines (the classifier alone)")  # fmt: skip
    parser.add_argument("--skip-peers", action="store_true", help="do not measure the classical template reader beside")
    args = parser.parse_args(argv)
    reader = CardReader(args.models)
    figures: dict[str, Any] = {}
    if args.only in (None, "speed"):
        print("speed (1280x720, 12 cards, onnxruntime CPU; detector on both cores, corner models beside the rest):")
        figures["speed"] = s = speed(reader, args.frames, args.models)
        print(f"  read median {s['median_ms']:.1f} ms, p95 {s['p95_ms']:.1f} ms "
              f"(detect alone median {s['detect_median_ms']:.1f} ms); CPU time per read median "
              f"{s['cpu_median_ms']:.1f} ms (all threads)")  # fmt: skip
        print(f"  model sizes: {', '.join(f'{k} {v / 1024:.0f} KB' for k, v in s['model_bytes'].items())}")
    for touching in (False, True) if args.only in (None, "synthetic") else ():
        name = "synthetic_touching" if touching else "synthetic_spread"
        figures[name] = r = synthetic(reader, args.scenes, touching=touching, seed=7 if touching else 3,
                                      true_outlines=args.true_outlines)  # fmt: skip
        if args.true_outlines:
            print("(true outlines: the detector is bypassed)")
        print(f"{name}: {r['cards']} cards, detected {r['detected']:.1%}, "
              f"face-up read right {r['read_right_of_face_up']:.2%} "
              f"(of detected {r['read_right_of_detected_face_up']:.2%}), unsure {r['unsure']}, wrong {r['wrong']} "
              f"({r['wrong_rate']:.2%}), face up/down right {r['face_up_right_of_detected']:.2%}")  # fmt: skip
        if r["confusions"]:
            print("  misses (truth→read(confidence)): " + " ".join(r["confusions"]))
    if args.only not in (None, "real"):
        return _finish(figures, args)
    real = bicycle(reader)
    if real is None:
        print("bicycle-webcam: skipped (../shared/vision-real absent)")
    else:
        figures["bicycle_webcam"] = real
        print(f"bicycle-webcam: {real['right']}/{real['photos']} right ({real['right_rate']:.2%}), "
              f"unsure {real['unsure']}, wrong {real['wrong']} ({real['wrong_rate']:.2%}), no card {real['no_card']}, "
              f"{real['ms_per_photo_median']:.1f} ms per photo (median, 800x600)")  # fmt: skip
        if real["misses"]:
            print("  misses: " + "; ".join(real["misses"][:30]))
    fan = fanned(reader)
    if fan is None:
        print("fanned-corners: skipped (../shared/vision-real absent)")
    else:
        figures["fanned_corners"] = fan
        print(f"fanned-corners/0.jpg: {fan['right']}/{fan['corners']} labelled corners right, unsure {fan['unsure']}, "
              f"wrong {fan['wrong']}")  # fmt: skip
        print("  " + " ".join(fan["details"]))
    return _finish(figures, args)


def _finish(figures: dict[str, Any], args: argparse.Namespace) -> int:
    if not args.skip_peers:  # the peer on the same scenes, photos and frames, in this run
        from bench.vision_peer import beside

        if args.true_outlines:
            print("(the peer finds its own outlines: --true-outlines applies to tocktable only)")
        figures["peer_template_reader"] = beside(figures, scenes=args.scenes, frames=args.frames, only=args.only)
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
