"""Train the joker check: one index crop → "a joker's corner" or not (``models/joker.onnx``).

    python -m vision.train.joker                        # the shipped model (defaults below)
    python -m vision.train.joker --jokers 600 --cards 1200 --steps 50 --out /tmp/j   # a quick try

The crops are cut exactly as the corner models' are (:func:`vision.rectify.index_crops`, the same
64 × 32 box in a card's two index corners) from rendered cards (:func:`vision.train.data.draw_sample`:
a patch of table, neighbours, fans, a thumb, light, blur, noise and JPEG). Positives: the index
corners of jokers (:mod:`vision.render.joker_faces`) of "train" deck styles, both jokers of each deck,
at 75-360 px tall and at the 110-215 px of a whole table (with neighbours lying on the card); a
corner more than 8 % covered by a card or a thumb on top is left out (it may show part of the mark).
Negatives: every crop of :func:`vision.train.data.make_samples` (the 52 cards of decks printing
English, French and German letters, their backs, covered and upside-down corners, the card's
other corners), half of them at a whole table's sizes. The "train" fonts only, never a real
photo. Then the model is measured on rendered crops of "train" decks with other seeds (where the
threshold is chosen) and of "hold-out" decks (fonts never trained on), and written as
``joker.onnx`` (float32) with ``joker.json`` (threshold, figures, command).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from vision.classify import prepare_crops
from vision.rectify import CROP_H, CROP_W, INDEX_BOX, card_homography, index_crops
from vision.render.faces import deck_style
from vision.render.fonts import Pool
from vision.render.scene import CardTruth, SceneSpec, deal_rows, render_scene
from vision.render.scene_layouts import KINDS, deal_hard
from vision.train.__main__ import Progress, descend
from vision.train.data import _CORE_BOX, FOCUS_HEIGHTS, LETTER_MIX, _Bank, _coverage, draw_sample, make_samples

CHUNK = 250
"""Cards per independently seeded chunk (the data do not depend on how many processes draw them)."""


def joker_crops(count: int, *, pool: Pool, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The two index-corner crops of ``count`` rendered jokers: (crops, label 1 or 0, weight)."""
    rng = np.random.default_rng([seed, 4201])
    bank = _Bank(rng)
    crops: list[np.ndarray] = []
    labels: list[int] = []
    weights: list[float] = []
    style = deck_style(0, pool)
    for i in range(count):
        if i % 4 == 0:
            letters = str(rng.choice(list(LETTER_MIX), p=list(LETTER_MIX.values())))
            style = deck_style(int(rng.integers(1 << 30)), pool, letters)
        focus = bool(rng.random() < 0.5)
        height = float(rng.uniform(*FOCUS_HEIGHTS)) if focus else float(np.exp(rng.uniform(np.log(75), np.log(360))))
        joker = "Jk" if i % 2 == 0 else "Jk2"
        image, detected, _, occluded = draw_sample(rng, bank, style, joker, True, "plain", height, focus=focus)
        homography = card_homography(detected)
        for k, crop in enumerate(index_crops(image, [detected])):
            cover = _coverage(occluded, homography, k == 1)
            crops.append(crop)
            labels.append(1)
            weights.append(0.0 if cover > 0.08 else 1.0)  # a covered mark is neither a joker's nor none
    return np.stack(crops), np.array(labels, np.int64), np.array(weights, np.float32)


def other_crops(count: int, *, pool: Pool, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every crop of ``count`` rendered cards of the 52 (faces and backs), half at a whole table's
    sizes: all labelled 0 (no joker)."""
    half = count // 2
    parts = [make_samples(half, pool=pool, seed=seed, letters="mix")[0],
             make_samples(count - half, pool=pool, seed=seed + 1, letters="mix", focus=True)[0]]  # fmt: skip
    crops = np.concatenate([p.crops for p in parts])
    return crops, np.zeros(len(crops), np.int64), np.ones(len(crops), np.float32)


SCENE_CHUNK = 25
"""Scenes per independently seeded chunk of scene crops (at most 64: a chunk's scene seeds are ``64·seed + i``)."""


def _area_inside(a: np.ndarray, b: np.ndarray) -> float:
    """The fraction of convex polygon ``a``'s area inside convex polygon ``b`` (frame pixels)."""
    area = float(cv2.contourArea(a.astype(np.float32)))
    if area <= 0:
        return 0.0
    shared, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(shared) / area


def _box_in_frame(homography: np.ndarray, box: tuple[float, float, float, float], flip: bool) -> np.ndarray:
    x0, y0, x1, y1 = box
    if flip:
        x0, y0, x1, y1 = 1 - x1, 1 - y1, 1 - x0, 1 - y0
    unit = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
    out: np.ndarray = cv2.perspectiveTransform(unit, homography)[0]
    return out


def crop_labels(truth: tuple[CardTruth, ...], outlines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Label and weight of both index crops of every outline the reader found in a scene whose
    cards are ``truth`` (in drawing order: a later card lies on an earlier one).

    A crop that holds most (75 %) of a joker's corner mark, uncovered, along the joker's own long
    axis, is a joker's (1); one that holds less than 20 % of every joker's mark is not (0, whatever
    card or piece of card it is cut from); any other crop is left out (weight 0): it shows part of
    a mark, a covered one or one turned sideways."""
    labels = np.zeros(2 * len(outlines), np.int64)
    weights = np.ones(2 * len(outlines), np.float32)
    quads = [t.corners.astype(np.float64) for t in truth]
    marks = []  # (mark polygon, covered fraction, joker's long axis)
    for i, t in enumerate(truth):
        if t.card != "Jk" or not t.face_up:
            continue
        homography = card_homography(t.corners)
        for flip in (False, True):
            mark = _box_in_frame(homography, _CORE_BOX, flip)
            covered = min(1.0, sum(_area_inside(mark, q) for q in quads[i + 1 :]))
            marks.append((mark, covered, t.corners[3] - t.corners[0]))
    for j, outline in enumerate(outlines):
        homography = card_homography(outline)
        axis = outline[3] - outline[0]
        for k, flip in enumerate((False, True)):
            crop = _box_in_frame(homography, INDEX_BOX, flip)
            best = 0.0
            for mark, covered, joker_axis in marks:
                inside = _area_inside(mark, crop)
                best = max(best, inside)
                along = abs(float(axis @ joker_axis)) / (np.linalg.norm(axis) * np.linalg.norm(joker_axis) + 1e-9)
                if inside >= 0.75 and covered <= 0.08 and along >= 0.85:
                    labels[2 * j + k] = 1
            if best >= 0.2 and not labels[2 * j + k]:
                weights[2 * j + k] = 0.0
    return labels, weights


SMALL_SCENES = 0.3
"""The share of the scene crops' tables drawn small (the frame :data:`SMALL_SCALE` of 1280 × 720):
cards 50-110 px tall, below the corner models' smallest card, where the check is asked too."""
SMALL_SCALE = (0.36, 0.6)
HARD_KINDS = (0.2, 0.4, 0.2, 0.2)
"""How often each kind of :data:`vision.render.scene_layouts.KINDS` is drawn for the hard scene crops."""
MIN_CARD_HEIGHT = 50.0
"""The smallest card the trained check is asked about (``joker.json`` "min_card_height"): about the
smallest of the small tables' cards."""


def scene_crops(count: int, *, pool: Pool, seed: int, hard: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Both index crops of every card the shipped reader finds in ``count`` rendered tables (rows
    apart or touching, three jokers face up among twelve cards, a share of the tables small), cut
    at the outlines it finds (the outlines of cards lying on one another are often off: a corner
    cut or a side pulled onto a neighbour); labelled by :func:`crop_labels`."""
    # The whole reader (onnxruntime and every shipped model) is loaded only where tables are drawn.
    from vision.reader import MODELS_DIR, CardReader

    rng = np.random.default_rng([seed, 4301])
    crops: list[np.ndarray] = []
    labels: list[np.ndarray] = []
    weights: list[np.ndarray] = []
    with CardReader(MODELS_DIR) as reader:
        for i in range(count):
            options = None
            if hard:
                dealt, options = deal_hard(rng, kind=str(rng.choice(KINDS, p=HARD_KINDS)))
            else:
                dealt = deal_rows(rng, touching=bool(rng.random() < 0.7))
            places = rng.choice(len(dealt), min(3, len(dealt)), replace=False)
            cards = tuple(replace(c, card=str(rng.choice(["Jk", "Jk2"])), face_up=True, back="plain")
                          if n in places else c for n, c in enumerate(dealt))  # fmt: skip
            letters = str(rng.choice(list(LETTER_MIX), p=list(LETTER_MIX.values())))
            number = 64 * seed + i
            deck = f"{pool}-{number}" if letters == "en" else f"{pool}-{letters}-{number}"
            if options is not None:
                spec = options.spec(cards, seed=number, deck=deck)
            else:
                scale = float(rng.uniform(*SMALL_SCALE)) if rng.random() < SMALL_SCENES else 1.0
                spec = SceneSpec(cards=cards, seed=number, deck=deck, size=(round(1280 * scale), round(720 * scale)))
            scene = render_scene(spec)
            outlines = reader.evidence(scene.image).corners
            if not len(outlines):
                continue
            crops.append(index_crops(scene.image, list(outlines)))
            label, weight = crop_labels(scene.truth, outlines)
            labels.append(label)
            weights.append(weight)
    if not crops:
        return np.empty((0, CROP_H, CROP_W, 3), np.uint8), np.zeros(0, np.int64), np.zeros(0, np.float32)
    return np.concatenate(crops), np.concatenate(labels), np.concatenate(weights)


def _chunk(job: tuple[str, int, str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    kind, count, pool, seed = job
    if kind == "hard":
        return scene_crops(count, pool=pool, seed=seed, hard=True)  # type: ignore[arg-type]
    make = {"joker": joker_crops, "card": other_crops, "scene": scene_crops}[kind]
    return make(count, pool=pool, seed=seed)  # type: ignore[arg-type]


VERSION = 3
"""Of the drawn jokers (in the cache's file names): bump when :mod:`vision.render.joker_faces` changes."""


def draw_set(jokers: int, cards: int, *, pool: Pool, seed: int, jobs: int, label: str, cache: Path | None = None,
             scenes: int = 0, hard: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Crops of ``jokers`` jokers (label 1; weight 0 where covered), ``cards`` other cards (label
    0) and of every card found in ``scenes`` tables and ``hard`` hard ones (:func:`scene_crops`), drawn in chunks seeded
    from ``seed`` (each chunk kept in ``cache``, when given, for the next run)."""
    work: list[tuple[str, int, str, int]] = [("joker", min(CHUNK, jokers - s), pool, seed * 1009 + i)
                                             for i, s in enumerate(range(0, jokers, CHUNK))]  # fmt: skip
    work += [("card", min(CHUNK, cards - s), pool, seed * 1013 + 500 + 2 * i)
             for i, s in enumerate(range(0, cards, CHUNK))]  # fmt: skip
    work += [("scene", min(SCENE_CHUNK, scenes - s), pool, seed * 1019 + i)
             for i, s in enumerate(range(0, scenes, SCENE_CHUNK))]  # fmt: skip
    work += [("hard", min(SCENE_CHUNK, hard - s), pool, seed * 1021 + i)
             for i, s in enumerate(range(0, hard, SCENE_CHUNK))]  # fmt: skip
    if cache is not None:
        return _cached(work, cache, jobs=jobs, label=label)
    progress = Progress(len(work), label)
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as workers:
            for part in workers.imap(_chunk, work):
                parts.append(part)
                progress(len(parts))
    else:
        for job in work:
            parts.append(_chunk(job))
            progress(len(parts))
    return (prepare_crops(np.concatenate([p[0] for p in parts])), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]))  # fmt: skip


def _cached(work: list[tuple[str, int, str, int]], cache: Path, *, jobs: int, label: str
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    cache.mkdir(parents=True, exist_ok=True)

    def path(job: tuple[str, int, str, int]) -> Path:
        kind, count, pool, seed = job
        return cache / f"joker-{kind}-{pool}-{count}-{seed}-v{VERSION if kind != 'card' else 0}.npz"

    missing = [job for job in work if not path(job).exists()]
    if missing:
        progress = Progress(len(missing), label)
        with multiprocessing.get_context("fork").Pool(max(jobs, 1)) as workers:
            for done, (job, part) in enumerate(zip(missing, workers.imap(_chunk, missing), strict=True), 1):
                np.savez(path(job), crops=part[0], labels=part[1], weights=part[2])
                progress(done)
    parts = [np.load(path(job)) for job in work]
    return (prepare_crops(np.concatenate([p["crops"] for p in parts])), np.concatenate([p["labels"] for p in parts]),
            np.concatenate([p["weights"] for p in parts]))  # fmt: skip


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))  # fmt: skip


class JokerNet(nn.Module):
    """One index crop (2 × 64 × 32, :func:`vision.classify.prepare_crops`) → logits (other, joker)."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(_conv(2, 24, 2), _conv(24, 32), nn.MaxPool2d(2), _conv(32, 48), nn.MaxPool2d(2),
                                      _conv(48, 48))  # fmt: skip
        self.head = nn.Sequential(nn.Linear(96, 32), nn.ReLU(inplace=True), nn.Linear(32, 2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x)
        out: torch.Tensor = self.head(torch.cat([f.mean(dim=(2, 3)), f.amax(dim=(2, 3))], dim=1))
        return out


def train(net: JokerNet, x: np.ndarray, y: np.ndarray, w: np.ndarray, *, steps: int, batch: int, seed: int) -> None:
    """AdamW with a one-cycle schedule; jokers drawn as often as other crops; a little gain and
    offset noise on the normalised grey."""
    gen = torch.Generator().manual_seed(seed)
    keep = np.flatnonzero(w > 0)
    pos, neg = keep[y[keep] == 1], keep[y[keep] == 0]
    xs, ys = torch.from_numpy(x), torch.from_numpy(y)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    progress = Progress(steps, "train joker check")
    net.train()
    running = 0.0
    for step in range(1, steps + 1):
        a = torch.from_numpy(pos)[torch.randint(len(pos), (batch // 2,), generator=gen)]
        b = torch.from_numpy(neg)[torch.randint(len(neg), (batch - batch // 2,), generator=gen)]
        idx = torch.cat([a, b])
        xb = xs[idx].clone()
        xb[:, 0] = xb[:, 0] * (1 + 0.1 * torch.randn(len(idx), 1, 1, generator=gen)) + 0.05 * torch.randn(
            len(idx), 1, 1, generator=gen)  # fmt: skip
        loss = F.cross_entropy(net(xb), ys[idx])
        running = descend(loss, opt, sched, running, first=step == 1)
        progress(step, f"loss {running:.4f}")


def scores(net: JokerNet, x: np.ndarray) -> np.ndarray:
    """P(joker) of each prepared crop (float64: a sure joker's is close to 1)."""
    net.eval()
    with torch.no_grad():
        logits = torch.cat([net(torch.from_numpy(x[k : k + 1024])) for k in range(0, len(x), 1024)])
    margin = (logits[:, 1] - logits[:, 0]).numpy().astype(np.float64)
    out: np.ndarray = 1.0 / (1.0 + np.exp(-margin))
    return out


def measure(p: np.ndarray, y: np.ndarray, w: np.ndarray, threshold: float) -> dict[str, float | int]:
    """Of the crops that count: jokers found, other crops called jokers, and the highest of those."""
    keep = w > 0
    jokers, others = keep & (y == 1), keep & (y == 0)
    return {"joker_crops": int(jokers.sum()), "jokers_found": round(float((p[jokers] >= threshold).mean()), 4),
            "other_crops": int(others.sum()), "others_called_joker": int((p[others] >= threshold).sum()),
            "highest_other": round(float(p[others].max()), 4)}  # fmt: skip


def export(net: JokerNet, path: Path) -> None:
    """The trained model as ONNX at ``path`` (float32; input ``crops``, output ``logits``)."""
    net.eval()
    torch.onnx.export(net, (torch.zeros(1, 2, 64, 32),), str(path), input_names=["crops"], output_names=["logits"],
                      opset_version=17, dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, dynamo=False)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """The command line: draw the crops, train, choose the threshold, export ``joker.onnx`` and ``joker.json``."""
    parser = argparse.ArgumentParser(prog="python -m vision.train.joker", description=__doc__.split("\n\n")[0])
    parser.add_argument("--jokers", type=int, default=3000, help="rendered training jokers (default 3000)")
    parser.add_argument("--cards", type=int, default=4000, help="rendered training cards of the 52 (default 4000)")
    parser.add_argument("--check", type=int, default=500,
                        help="jokers (and twice as many cards) to measure on (default 500)")
    parser.add_argument("--scenes", type=int, default=600,
                        help="rendered tables whose cards are cut at the reader's own outlines (default 600; a "
                             "quarter as many to measure on)")  # fmt: skip
    parser.add_argument("--hard-scenes", type=int, default=150,
                        help="hard tables (grids, large cards, tilted, textured) cut the same way (default 150; a "
                             "quarter as many to measure on)")  # fmt: skip
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="processes drawing the crops (default 1)")
    parser.add_argument("--cache", type=Path, help="keep the drawn crops here for the next run (default: none)")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "models")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    start = time.monotonic()
    x, y, w = draw_set(args.jokers, args.cards, pool="train", seed=args.seed, jobs=args.jobs, label="draw training",
                       cache=args.cache, scenes=args.scenes, hard=args.hard_scenes)  # fmt: skip
    cx, cy, cw = draw_set(args.check, 2 * args.check, pool="train", seed=args.seed + 7000, jobs=args.jobs,
                          label="draw check (train)", cache=args.cache, scenes=args.scenes // 4,
                          hard=args.hard_scenes // 4)  # fmt: skip
    hx, hy, hw = draw_set(args.check, 2 * args.check, pool="holdout", seed=args.seed + 8000, jobs=args.jobs,
                          label="draw check (hold-out)", cache=args.cache, scenes=args.scenes // 4,
                          hard=args.hard_scenes // 4)  # fmt: skip
    net = JokerNet()
    train(net, x, y, w, steps=args.steps, batch=args.batch, seed=args.seed)
    check = scores(net, cx)
    others = check[(cw > 0) & (cy == 0)]  # the corners of cards of the 52
    # Named above every other crop of the training fonts' check set, by a margin: 2 more in the
    # logit (the odds of the highest other crop times e² ≈ 7.4), and at least 0.9.
    highest = float(np.log(others.max() / (1 - others.max())))
    threshold = round(float(max(0.9, 1 / (1 + np.exp(-(highest + 2))))), 6)
    args.out.mkdir(parents=True, exist_ok=True)
    export(net, args.out / "joker.onnx")
    settings = {
        "input": "index crops N×2×64×32 (as corners.onnx)", "outputs": "logits N×2 (other, joker)",
        "threshold": threshold, "min_card_height": MIN_CARD_HEIGHT,
        "jokers": args.jokers, "cards": args.cards, "scenes": args.scenes, "hard_scenes": args.hard_scenes,
        "steps": args.steps, "batch": args.batch,
        "seed": args.seed,
        "check_train_fonts": {"seed": args.seed + 7000, **measure(check, cy, cw, threshold)},
        "check_holdout_fonts": {"seed": args.seed + 8000, **measure(scores(net, hx), hy, hw, threshold)},
        "minutes": round((time.monotonic() - start) / 60, 1),
        "command": "TOCKTABLE_FONTS=system python -m vision.train.joker " + " ".join(
            argv if argv is not None else sys.argv[1:]),
    }  # fmt: skip
    (args.out / "joker.json").write_text(json.dumps(settings, indent=1) + "\n")
    print(json.dumps(settings, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
