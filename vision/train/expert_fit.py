"""Fit the expert's gate and weight on calibration scenes and write ``expert.json``.

    python -m vision.train.expert_fit --expert /tmp/expert --scenes 400     # about 4 min

The scenes are those ``python -m vision.train`` calibrates the reader's threshold on (training
font pool, their own seeds 201000.., every other one a touching row; the first 150 are the very
same scenes), read through the reader's detector and corner ensemble. For every gate (the voted
posterior below which a card is looked at again) and weight (the expert's share of the mixed
corner probabilities) on a grid, the face-up cards are voted again with the reader's temperature
and judged at the reader's threshold. Kept, of the pairs that name at least as many cards right
as the ensemble alone and at most ``MAX_WRONG`` of them wrongly: the fewest wrong, then the most
right, then the lowest gate (the fewest cards looked at): unsure is always better than wrong.
Never the bench's hold-out fonts or seeds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from table.cards import Card
from vision.classify import posteriors
from vision.detect import quad_iou
from vision.expert import SETTINGS_FILE, Expert, ExpertSettings
from vision.reader import CardReader, ReaderSettings
from vision.rectify import Pyramid, index_crops
from vision.render.faces import deck_style
from vision.render.fonts import index_fonts
from vision.render.scene import SceneSpec, deal_rows, render_scene
from vision.train.__main__ import MAX_WRONG, Progress

GATES = (0.9, 0.95, 0.98, 0.99, 0.995, 0.999)
WEIGHTS = (0.25, 0.4, 0.5, 0.6, 0.75, 1.0)


def deck_family(number: int) -> int:
    """The font family hash of deck ``train-{number}`` (as :mod:`vision.train.data` numbers families)."""
    font = deck_style(number, "train").index.font
    return next((zlib.crc32(f.family.encode()) % 10007 for f in index_fonts("all") if f.path == font), 0)


def scene_crops(models: Path, scenes: int, seed: int, cache: Path | None, *,
                family_mod: int | None = None) -> dict[str, np.ndarray]:  # fmt: skip
    """Every detected card of the calibration scenes: the ensemble's corner readings, both index
    crops, its scene, and the truth (card id, -1 for a card that is not a matched face-up one).
    ``family_mod``: only the scenes whose deck's font family hash mod 4 is this."""
    tag = "" if family_mod is None else f"-fam{family_mod}"
    path = cache / f"expert-fit-{scenes}-{seed}{tag}.npz" if cache else None
    if path is not None and path.exists():
        return dict(np.load(path))
    reader = CardReader(models)
    reader.expert = None  # the ensemble's own readings
    rng = np.random.default_rng(seed)
    out: dict[str, list[np.ndarray]] = {"cards": [], "none": [], "crops": [], "scene": [], "truth": []}
    progress = Progress(scenes, "expert fit scenes")
    for k in range(scenes):
        number = 200_000 + seed * 1000 + k  # as vision.train's scene_readings
        spec = SceneSpec(cards=deal_rows(rng, touching=k % 2 == 1), seed=number, deck=f"train-{number}")
        if family_mod is not None and deck_family(number) % 4 != family_mod:
            progress(k + 1)
            continue
        scene = render_scene(spec)
        outlines = reader.detect(scene.image)
        if outlines:
            quads = [o.corners for o in outlines]
            crops = index_crops(scene.image, quads, pyramid=Pyramid(scene.image))
            readings = reader.classify_indices(crops)
            truth = np.full(len(quads), -1)
            for t in scene.truth:
                ious = [quad_iou(t.corners, q) for q in quads]
                j = int(np.argmax(ious))
                if t.face_up and ious[j] > 0.5:
                    truth[j] = Card.parse(t.card).id
            out["cards"].append(readings["cards"])
            out["none"].append(readings["none"])
            out["crops"].append(crops.reshape(len(quads), 2, *crops.shape[1:]))
            out["scene"].append(np.full(len(quads), k))
            out["truth"].append(truth)
        progress(k + 1)
    data = {key: np.concatenate(value) for key, value in out.items()}
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(
            path, cards=data["cards"], none=data["none"], crops=data["crops"], scene=data["scene"], truth=data["truth"]
        )
    return data


class _Fixed:
    """Stands in for the expert's onnxruntime session: its readings of every card, computed once."""

    def __init__(self, cards: np.ndarray, none: np.ndarray) -> None:
        self.cards, self.none = cards, none


class _FixedExpert(Expert):
    """The expert with its readings looked up: the "crops" it is given are card rows, two per card."""

    def probabilities(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rows = np.asarray(crops).reshape(-1)[::2]
        fixed: _Fixed = self.session
        return fixed.cards[rows].reshape(-1, 52), fixed.none[rows].reshape(-1)


def main(argv: list[str] | None = None) -> int:
    """The command line: fit the expert's gate and weight on calibration scenes (and install it)."""
    parser = argparse.ArgumentParser(prog="python -m vision.train.expert_fit", description=__doc__.split("\n\n")[0])
    parser.add_argument("--expert", type=Path, required=True, help="folder with expert.onnx and expert.json")
    parser.add_argument("--models", type=Path, default=Path(__file__).resolve().parents[2] / "models",
                        help="the reader's models (default models/)")  # fmt: skip
    parser.add_argument("--scenes", type=int, default=400, help="calibration scenes (default 400)")
    parser.add_argument("--seed", type=int, default=1, help="the calibration seed of vision.train (default 1)")
    parser.add_argument("--family-mod", type=int, choices=(0, 1, 2, 3),
                        help="only scenes whose deck's font family hash mod 4 is this (the families an expert "
                             "trained with --leave-out did not see)")  # fmt: skip
    parser.add_argument("--use", type=float, nargs=2, metavar=("GATE", "WEIGHT"),
                        help="write these instead of the best pair (still measured, with the grid)")  # fmt: skip
    parser.add_argument("--max-cards", type=int, help="cards the expert reads per call at most (default: no limit)")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "tocktable")
    parser.add_argument("--install", action="store_true", help="copy expert.onnx and the fitted json to --models")
    args = parser.parse_args(argv)
    settings = ReaderSettings.load(args.models / "reader.json")
    data = scene_crops(args.models, args.scenes, args.seed, args.cache, family_mod=args.family_mod)
    manifest = json.loads((args.expert / SETTINGS_FILE).read_text())
    manifest.pop("use", None)
    model = args.expert / "expert.onnx"
    manifest["sha256"] = hashlib.sha256(model.read_bytes()).hexdigest()[:16]
    (args.expert / SETTINGS_FILE).write_text(json.dumps({**manifest, "use": {"gate": 0.0, "weight": 0.0}}))
    loaded = Expert.load(args.expert)
    assert loaded is not None
    flat = data["crops"].reshape(-1, *data["crops"].shape[2:])
    parts = [loaded.probabilities(flat[i : i + 256]) for i in range(0, len(flat), 256)]
    expert_cards = np.concatenate([p[0] for p in parts]).reshape(-1, 2, 52)
    expert_none = np.concatenate([p[1] for p in parts]).reshape(-1, 2)
    common: dict[str, Any] = {"temperature": settings.temperature, "dependence": settings.dependence,
              "threshold": settings.threshold, "max_cards": args.max_cards}  # fmt: skip
    face_up = int((data["truth"] >= 0).sum())
    base = _judge(data, expert_cards, expert_none, gate=0.0, weight=0.0, **common)
    print(f"{face_up} face-up cards, {len(np.unique(data['scene']))} scenes; without the expert: {base}")
    # Unsure is always better than wrong: of the pairs that name at least as many cards
    # right as the ensemble alone, within MAX_WRONG, the fewest wrong, then the most right, then
    # the lowest gate (the fewest cards looked at).
    allowed = int(MAX_WRONG * face_up)
    table, best, best_key = [], dict(base), (-base["wrong"], base["right"], 0.0)
    for gate in GATES:
        for weight in WEIGHTS:
            result = _judge(data, expert_cards, expert_none, gate=gate, weight=weight, **common)
            table.append({"gate": gate, "weight": weight, **result})
            print(f"gate {gate:.3f} weight {weight:.2f}: {result}")
            key = (-result["wrong"], result["right"], -gate)
            if result["wrong"] <= allowed and result["right"] >= base["right"] and key > best_key:
                best, best_key = {"gate": gate, "weight": weight, **result}, key
    if "gate" not in best:
        print("the expert makes no pair better than the ensemble alone on the calibration scenes")
        best = {"gate": 0.0, "weight": 0.0, **base}
    if args.use is not None:  # chosen elsewhere (e.g. by an expert that never saw these scenes' fonts)
        gate, weight = args.use
        best = {"gate": gate, "weight": weight, **_judge(data, expert_cards, expert_none, gate=gate, weight=weight,
                                                          **common)}  # fmt: skip
    manifest["use"] = {"gate": best["gate"], "weight": best["weight"], "min_seen": 0.5, "max_cards": args.max_cards}
    command = "python -m vision.train.expert_fit " + " ".join(sys.argv[1:] if argv is None else argv)
    manifest["fit"] = {"command": command,
                       "scenes": args.scenes, "family_mod": args.family_mod, "seed": args.seed,
                       "face_up_cards": face_up, "without": base,
                       "with": best, "reader_threshold": settings.threshold, "grid": table}  # fmt: skip
    (args.expert / SETTINGS_FILE).write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"chosen: {best}")
    if args.install:
        shutil.copyfile(model, args.models / "expert.onnx")
        shutil.copyfile(args.expert / SETTINGS_FILE, args.models / SETTINGS_FILE)
        print(f"installed in {args.models}")
    return 0


def _judge(data: dict[str, np.ndarray], expert_cards: np.ndarray, expert_none: np.ndarray, *, gate: float,
           weight: float, temperature: float, dependence: float, threshold: float,
           max_cards: int | None) -> dict[str, float]:  # fmt: skip
    """Right, wrong and unsure face-up cards, and cards looked at per scene, for one gate and weight."""
    expert = _FixedExpert(_Fixed(expert_cards, expert_none),
                          ExpertSettings("expert.onnx", gate, weight, max_cards=max_cards))  # fmt: skip
    right = wrong = unsure = asked = 0
    for k in np.unique(data["scene"]):
        rows = np.flatnonzero(data["scene"] == k)
        cards, none = data["cards"][rows], data["none"][rows]
        posterior = posteriors(cards, none, temperature, dependence=dependence)
        looked = expert.second_look(np.repeat(rows, 2), cards, none, posterior, temperature=temperature,
                                    dependence=dependence)  # fmt: skip
        asked += int(looked.asked.sum())
        truth = data["truth"][rows]
        best = looked.posteriors.argmax(axis=1)
        sure = looked.posteriors.max(axis=1) >= threshold
        face_up = truth >= 0
        right += int((face_up & sure & (best == truth)).sum())
        wrong += int((face_up & sure & (best != truth)).sum())
        unsure += int((face_up & ~sure).sum())
    scenes = len(np.unique(data["scene"]))
    return {"right": right, "wrong": wrong, "unsure": unsure, "asked_per_scene": round(asked / max(scenes, 1), 3)}


if __name__ == "__main__":
    raise SystemExit(main())
