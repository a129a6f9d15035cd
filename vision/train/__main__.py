"""Train the card models from rendered cards only and export them to ONNX.

    python -m vision.train                     # the shipped models (about 30-40 min on 2 cores)
    python -m vision.train --cards 4000 --steps 200 --out /tmp/models   # a quick smoke run

Steps: render training cards (deck styles from the "train" font pool; plus "focus" cards drawn as
a camera over the whole table sees them: small, blurred indices and neighbours lying on a corner),
calibration cards (same pool, other styles) and hold-out cards (the "holdout" font pool, never
trained on); train an
ensemble of corner readers that differ in seed and in the font families they see; fit the
confidence temperature and the "unsure" threshold on the calibration cards; measure on the
hold-out cards; train the face-up/face-down model; export ``corners.onnx``, ``card.onnx``, their
label files and ``reader.json`` (everything the run-time reader needs). Every random choice
comes from ``--seed``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from table.cards import Card
from vision.classify import NO_INDEX, RANKS, SUITS, corner_probabilities, prepare_crops, prepare_thumbnails, vote
from vision.detect import quad_iou
from vision.reader import CardReader
from vision.rectify import CROP_H, CROP_W, INDEX_BOX, THUMB_H, THUMB_W, Pyramid, index_crops, thumbnails
from vision.render.scene import SceneSpec, deal_rows, render_scene
from vision.train.data import CornerData, ThumbData, concat, render_dataset
from vision.train.model import CardNet, CornerEnsemble, CornerNet
from vision.train.onnx_weights import freeze_norms, load_onnx_weights
from vision.train.quantize import quantize, quantize_model

DATA_VERSION = 3
FOCUS_VERSION = 1
"""Versions of the rendered data (in the cache's file names): bump when the drawing changes."""


class Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int, label: str) -> None:
        self.total, self.label, self.start, self.last = total, label, time.monotonic(), 0.0

    def __call__(self, done: int, extra: str = "") -> None:
        now = time.monotonic()
        if now - self.last < 0.5 and done < self.total:
            return
        self.last = now
        frac = done / max(self.total, 1)
        elapsed = now - self.start
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        bar = "#" * int(frac * 30)
        sys.stderr.write(f"\r{self.label:<22} [{bar:<30}] {done}/{self.total} {elapsed:5.0f}s eta {eta:4.0f}s {extra}")
        if done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _dataset(name: str, count: int, pool: str, seed: int, cache: Path | None, jobs: int, *, focus: bool = False,
             letters: str = "en") -> tuple[CornerData, ThumbData]:  # fmt: skip
    version = f"focus{FOCUS_VERSION}" if focus else f"v{DATA_VERSION}"
    version += "" if letters == "en" else f"-{letters}"
    path = cache / f"{name}-{pool}-{count}-{seed}-{version}.npz" if cache else None
    if path is not None and path.exists():
        z = np.load(path)
        keys = ("crops", "rank", "suit", "weight", "family", "pairs", "card_id", "readable")
        corner = CornerData(*(z[k] for k in keys))
        return corner, ThumbData(z["thumbs"], z["face_up"], z["thumb_family"])
    corner, thumb = render_dataset(count, pool=pool, seed=seed, jobs=jobs, focus=focus, letters=letters,  # type: ignore[arg-type]
                                   progress=Progress(count, f"render {name}"))  # fmt: skip
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, crops=corner.crops, rank=corner.rank, suit=corner.suit, weight=corner.weight,
                 family=corner.family, pairs=corner.pairs, card_id=corner.card_id, readable=corner.readable,
                 thumbs=thumb.thumbs, face_up=thumb.face_up, thumb_family=thumb.family)  # fmt: skip
    return corner, thumb


AUGMENT_VERSION = 1
"""1: zoom, shift, turn, gain (the shipped models). 2: also glyph width, stroke weight and extra blur,
meant for unseen fonts; tried and not kept (same hold-out top-1, real Bicycle threes unsure)."""


def _augment(x: torch.Tensor, generator: torch.Generator, version: int = AUGMENT_VERSION) -> torch.Tensor:
    """Small random zoom, shift and turn (detection error beyond what rendering gave), contrast.

    Version 2 also varies what tells one font from another, which the training fonts cannot cover
    all of (the hold-out misses were glyph shapes of unseen fonts, small and blurred): the width of
    the glyphs against their height (condensed and wide faces), the weight of their strokes (ink
    spread or thinned by a soft grey-level dilation or erosion) and more blur on some crops.
    """
    n = x.shape[0]
    scale = torch.empty(n).uniform_(0.9, 1.12, generator=generator)
    angle = torch.empty(n).uniform_(-0.05, 0.05, generator=generator)
    shift = torch.empty(n, 2).uniform_(-0.08, 0.08, generator=generator)
    aspect = torch.empty(n).uniform_(0.88, 1.14, generator=generator) if version >= 2 else torch.ones(n)
    cos, sin = torch.cos(angle) / scale, torch.sin(angle) / scale
    theta = torch.stack([torch.stack([cos * aspect, -sin, shift[:, 0]], 1),
                         torch.stack([sin * aspect, cos, shift[:, 1]], 1)], 1)  # fmt: skip
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    out = F.grid_sample(x, grid, padding_mode="border", align_corners=False)
    if version >= 2:
        # Ink is dark in the grey channel (0) and strong in redness (1): a grey minimum spreads it.
        grey, red = out[:, :1], out[:, 1:]
        thick, thin = -F.max_pool2d(-grey, 3, 1, 1), F.max_pool2d(grey, 3, 1, 1)
        amount = torch.empty(n, 1, 1, 1).uniform_(-0.5, 0.5, generator=generator)
        amount = amount * (torch.rand(n, 1, 1, 1, generator=generator) < 0.5)
        grey = grey + amount.clamp(min=0) * (thick - grey) - amount.clamp(max=0) * (thin - grey)
        red = red + amount.clamp(min=0) * (F.max_pool2d(red, 3, 1, 1) - red)
        out = torch.cat([grey, red], dim=1)
        blurred = F.avg_pool2d(F.pad(out, (1, 1, 1, 1), mode="replicate"), 3, 1)
        mix = torch.empty(n, 1, 1, 1).uniform_(0.0, 0.8, generator=generator)
        mix = mix * (torch.rand(n, 1, 1, 1, generator=generator) < 0.3)
        out = out + mix * (blurred - out)
    gain = torch.empty(n, 1, 1, 1).uniform_(0.8, 1.2, generator=generator)
    return out * gain


def _batches(n: int, size: int, rng: np.random.Generator) -> list[np.ndarray]:
    order = rng.permutation(n)
    return [order[i : i + size] for i in range(0, n, size)]


def descend(loss: torch.Tensor, optimiser: torch.optim.Optimizer, schedule: torch.optim.lr_scheduler.LRScheduler,
            running: float, *, first: bool) -> float:  # fmt: skip
    """One step down ``loss`` (gradients cleared, back-propagated, the optimiser and its schedule
    stepped); answers the running loss shown by the progress bar (``first``: the loss itself)."""
    optimiser.zero_grad()
    loss.backward()  # type: ignore[no-untyped-call]
    optimiser.step()
    schedule.step()
    value = float(loss.detach())
    return value if first else 0.98 * running + 0.02 * value


def corner_loss(rank_logits: torch.Tensor, suit_logits: torch.Tensor, data: CornerData, rows: np.ndarray
                ) -> torch.Tensor:  # fmt: skip
    """A corner reader's loss on ``rows`` of ``data``: label-smoothed cross-entropy of the rank
    (13 ranks and "no index") and, where an index shows, of the suit; each crop by its weight."""
    rank = torch.from_numpy(data.rank[rows])
    suit = torch.from_numpy(data.suit[rows])
    weight = torch.from_numpy(data.weight[rows])
    rank_loss = (F.cross_entropy(rank_logits, rank, reduction="none", label_smoothing=0.05) * weight).mean()
    has_index = (rank != NO_INDEX).float() * weight
    suit_loss = (F.cross_entropy(suit_logits, suit, reduction="none", label_smoothing=0.05) * has_index).sum()
    return rank_loss + suit_loss / max(float(has_index.sum()), 1.0)


def train_corner(data: CornerData, keep: np.ndarray, *, seed: int, steps: int, label: str,
                 augment: int = AUGMENT_VERSION, init: CornerNet | None = None,
                 lr: float = 3e-3) -> CornerNet:  # fmt: skip
    """One corner reader trained on the crops where ``keep`` is true; ``init``: fine-tune these
    weights (taken from an ONNX file: their batch norms stay fixed, see
    :mod:`vision.train.onnx_weights`) instead of starting at random."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    generator = torch.Generator().manual_seed(seed)
    net = init if init is not None else CornerNet()
    index = np.flatnonzero(keep)
    optimiser = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=2e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=lr, total_steps=steps)
    progress = Progress(steps, label)
    step, running = 0, 0.0
    net.train()
    if init is not None:
        freeze_norms(net)
    while step < steps:
        for batch in _batches(len(index), 256, rng):
            if step >= steps:
                break
            rows = index[batch]
            x = _augment(torch.from_numpy(prepare_crops(data.crops[rows])), generator, augment)
            rank_logits, suit_logits, _ = net(x)
            loss = corner_loss(rank_logits, suit_logits, data, rows)
            step += 1
            running = descend(loss, optimiser, schedule, running, first=step == 1)
            progress(step, f"loss {running:.3f}")
    return net.eval()


def train_card(data: ThumbData, *, seed: int, epochs: int) -> CardNet:
    """The face-up / face-down model."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = CardNet()
    steps_per_epoch = (len(data.face_up) + 127) // 128
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=2e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=epochs * steps_per_epoch)
    progress = Progress(epochs * steps_per_epoch, "train card model")
    step = 0
    net.train()
    for _ in range(epochs):
        for batch in _batches(len(data.face_up), 128, rng):
            x = torch.from_numpy(prepare_thumbnails(data.thumbs[batch]))
            if rng.random() < 0.5:
                x = torch.flip(x, dims=(2, 3))  # a card turned half round is the same card
            logits, _ = net(x)
            loss = F.cross_entropy(logits, torch.from_numpy(data.face_up[batch]))
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
            schedule.step()
            step += 1
            progress(step, f"loss {float(loss.detach()):.3f}")
    return net.eval()


def _logits(model: nn.Module, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ranks, suits = [], []
    with torch.no_grad():
        for i in range(0, len(crops), 1024):
            r, s, _ = model(torch.from_numpy(prepare_crops(crops[i : i + 1024])))
            ranks.append(r.numpy())
            suits.append(s.numpy())
    return np.concatenate(ranks, axis=-2), np.concatenate(suits, axis=-2)


def evaluate(ensemble: CornerEnsemble, data: CornerData, temperature: float, dependence: float = 0.0
             ) -> dict[str, np.ndarray]:  # fmt: skip
    """Per-card results of the voting reader on the paired crops of ``data``."""
    pairs = data.pairs
    rank_logits, suit_logits = _logits(ensemble, data.crops[pairs.reshape(-1)])
    cards, none = corner_probabilities(rank_logits.reshape(len(rank_logits), -1, NO_INDEX + 1),
                                       suit_logits.reshape(len(suit_logits), -1, 4))  # fmt: skip
    best, confidence, seen = vote(cards.reshape(-1, 2, 52), none.reshape(-1, 2), temperature, dependence=dependence)
    truth = np.where(data.readable, data.card_id, -1)
    return {"best": best, "confidence": confidence, "seen": seen, "truth": truth, "cards": cards, "none": none}


def fit_calibration(result: dict[str, np.ndarray]) -> tuple[float, float]:
    """The temperature and the corners' dependence (:func:`vision.classify.vote`) that minimise the
    negative log-likelihood of the true card (readable cards), on a grid."""
    readable = result["truth"] >= 0
    cards = result["cards"].reshape(-1, 2, 52)[readable]
    none = result["none"].reshape(-1, 2)[readable]
    truth = result["truth"][readable]
    weight = 1.0 - none
    summed = (weight[:, :, None] * np.log(cards + 1e-6)).sum(axis=1)
    best_t, best_d, best_nll = 1.0, 0.0, float("inf")
    for dependence in np.linspace(0.0, 1.0, 9):
        score = summed / (np.maximum(weight.sum(axis=1), 1.0) ** dependence)[:, None]
        for t in np.exp(np.linspace(np.log(0.2), np.log(8.0), 80)):
            z = score / t
            z = z - z.max(axis=1, keepdims=True)
            nll = float(-(z[np.arange(len(truth)), truth] - np.log(np.exp(z).sum(axis=1))).mean())
            if nll < best_nll:
                best_t, best_d, best_nll = float(t), float(dependence), nll
    return best_t, best_d


def summarise(result: dict[str, np.ndarray], threshold: float) -> dict[str, float]:
    readable = result["truth"] >= 0
    accepted = readable & (result["confidence"] >= threshold)
    right = accepted & (result["best"] == result["truth"])
    wrong = accepted & (result["best"] != result["truth"])
    n = max(int(readable.sum()), 1)
    return {
        "cards": int(readable.sum()),
        "right": float(right.sum() / n),
        "wrong_confident": float(wrong.sum() / n),
        "unsure": float((readable & ~accepted).sum() / n),
        "top1": float((result["best"] == result["truth"])[readable].mean()),
    }


MAX_WRONG = 0.004
"""Share of calibration cards the reader may name wrongly at the chosen threshold: under the 0.5 %
the reader allows anywhere (a small margin, as calibration scenes are a sample)."""


def choose_threshold(result: dict[str, np.ndarray]) -> float:
    """The lowest threshold (0.5 to 0.99) at which at most MAX_WRONG of the calibration cards are
    named wrongly (every named card counts as a confident one)."""
    readable = result["truth"] >= 0
    wrong = readable & (result["best"] != result["truth"])
    allowed = int(MAX_WRONG * readable.sum())
    confidences = np.sort(result["confidence"][wrong])[::-1]
    worst = float(confidences[allowed]) if len(confidences) > allowed else 0.0
    return float(min(max(0.5, worst + 1e-3), 0.99))


def scene_readings(models: Path, scenes: int, seed: int) -> dict[str, np.ndarray]:
    """Per face-up card of rendered scenes (train-pool decks, their own seeds; every other scene a
    touching row, whose outlines and covered corners are harder than cards apart), read through
    the whole pipeline: corner probabilities and truth, for fitting the temperature and the
    threshold."""
    reader = CardReader(models, stages=("find", "corners"))  # the detector and the corner and card models
    rng = np.random.default_rng(seed)
    cards, nones, truths = [], [], []
    progress = Progress(scenes, "calibration scenes")
    for k in range(scenes):
        number = 200_000 + seed * 1000 + k
        spec = SceneSpec(cards=deal_rows(rng, touching=k % 2 == 1), seed=number, deck=f"train-{number}")
        scene = render_scene(spec)
        outlines = reader.detect(scene.image)
        if outlines:
            quads = [o.corners for o in outlines]
            pyramid = Pyramid(scene.image)
            readings = reader.classify(index_crops(scene.image, quads, pyramid=pyramid),
                                       thumbnails(scene.image, quads, pyramid=pyramid))  # fmt: skip
            for truth in scene.truth:
                ious = [quad_iou(truth.corners, q) for q in quads]
                j = int(np.argmax(ious))
                if truth.face_up and ious[j] > 0.5:
                    cards.append(readings["cards"][j])
                    nones.append(readings["none"][j])
                    truths.append(Card.parse(truth.card).id)
        progress(k + 1)
    return {"cards": np.array(cards).reshape(-1, 52), "none": np.array(nones).reshape(-1), "truth": np.array(truths)}


def export(ensemble: CornerEnsemble, card: CardNet, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    x = torch.zeros(4, 2, CROP_H, CROP_W)
    torch.onnx.export(ensemble, (x,), str(out / "corners.onnx"), input_names=["crops"],
                      output_names=["rank_logits", "suit_logits", "embedding"],
                      dynamic_axes={"crops": {0: "n"}, "rank_logits": {1: "n"}, "suit_logits": {1: "n"},
                                    "embedding": {0: "n"}}, opset_version=17, dynamo=False)  # fmt: skip
    t = torch.zeros(4, 3, THUMB_H, THUMB_W)
    torch.onnx.export(card, (t,), str(out / "card.onnx"), input_names=["thumbnails"],
                      output_names=["face_logits", "embedding"],
                      dynamic_axes={"thumbnails": {0: "n"}, "face_logits": {0: "n"}, "embedding": {0: "n"}},
                      opset_version=17, dynamo=False)  # fmt: skip
    (out / "corners.labels.json").write_text(json.dumps(
        {"rank": [*RANKS, "none"], "suit": list(SUITS), "card_id": "rank_index * 4 + suit_index"}, indent=1) + "\n")
    (out / "card.labels.json").write_text(json.dumps({"face": ["down", "up"]}, indent=1) + "\n")


@dataclass(frozen=True)
class CornerSets:
    """The rendered sets the corner readers are trained and measured on (cached by ``_dataset``)."""

    base: CornerData
    base_thumbs: ThumbData
    train: CornerData  # the base cards' crops and the focus cards'
    calib: CornerData
    calib_thumbs: ThumbData
    hold: CornerData
    hold_thumbs: ThumbData
    hold_focus: CornerData


def add_data_options(parser: argparse.ArgumentParser) -> None:
    """The options naming the rendered sets :func:`corner_sets` loads (shared with the expert's trainer)."""
    parser.add_argument("--cards", type=int, default=30000, help="training cards to render (default 30000)")
    parser.add_argument("--focus-cards", type=int, default=24000,
                        help="more training cards drawn as on whole-table scenes (default 24000)")  # fmt: skip
    parser.add_argument("--check-cards", type=int, default=2000, help="calibration and hold-out cards (each)")
    parser.add_argument("--jobs", type=int, default=2, help="processes rendering the data (default 2)")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "tocktable", help="rendered data cache")
    parser.add_argument("--letters", choices=("en", "mix", "varied"), default="en",
                        help="index letters of the rendered decks: English only (default), or 'mix': English, "
                        "French and German decks (vision.train.data.LETTER_MIX), or 'varied': 'mix' with half "
                        "the training decks' glyphs reshaped and more lettered cards in French and German "
                        "decks (vision.train.data.make_samples)")  # fmt: skip


def corner_sets(args: argparse.Namespace) -> CornerSets:
    """Every set, from ``args`` (cards, focus_cards, check_cards, seed, cache, jobs); the seeds of
    each set are fixed offsets of ``args.seed``, shared by ``vision.train`` and its expert."""
    letters = getattr(args, "letters", "en")
    base, base_thumbs = _dataset("train", args.cards, "train", args.seed, args.cache, args.jobs, letters=letters)
    parts = [(base, base_thumbs)]
    if args.focus_cards:
        parts.append(_dataset("focus", args.focus_cards, "train", args.seed + 3000, args.cache, args.jobs, focus=True,
                              letters=letters))  # fmt: skip
    train, _ = concat(parts)
    calib, calib_thumbs = _dataset("calibration", args.check_cards, "train", args.seed + 1000, args.cache, args.jobs,
                                   letters=letters)  # fmt: skip
    hold, hold_thumbs = _dataset("holdout", args.check_cards, "holdout", args.seed + 2000, args.cache, args.jobs,
                                 letters=letters)  # fmt: skip
    hold_focus, _ = _dataset("holdout", args.check_cards, "holdout", args.seed + 4000, args.cache, args.jobs,
                             focus=True, letters=letters)  # fmt: skip
    return CornerSets(base, base_thumbs, train, calib, calib_thumbs, hold, hold_thumbs, hold_focus)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__.split("\n\n")[0])
    add_data_options(parser)
    parser.add_argument("--members", type=int, default=3, help="corner readers in the ensemble (default 3)")
    parser.add_argument("--steps", type=int, default=1500, help="batches of 256 per corner reader (default 1500)")
    parser.add_argument("--calibration-scenes", type=int, default=150, help="rendered scenes for calibration")
    parser.add_argument("--seed", type=int, default=1, help="seed of every random choice (default 1)")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    parser.add_argument("--augment", type=int, choices=(1, 2), default=AUGMENT_VERSION,
                        help=f"crop augmentation version (default {AUGMENT_VERSION}; see AUGMENT_VERSION)")  # fmt: skip
    parser.add_argument("--all-fonts", action="store_true",
                        help="every corner reader sees every font family (default: member k leaves a quarter out)")
    parser.add_argument("--init", type=Path,
                        help="fine-tune the corner models of this model folder (its corners.onnx) instead of "
                        "training from scratch; its card model, calibration and stages are kept")  # fmt: skip
    parser.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (default 3e-3)")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "models")
    parser.add_argument("--recalibrate", action="store_true",
                        help="only fit the temperature and threshold again for the models in --out")
    parser.add_argument("--quantize", action="store_true",
                        help="only quantise the float models in --out to 8 bits, then recalibrate them")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    if args.quantize:
        crops, thumbs = _dataset("calibration", args.check_cards, "train", args.seed + 1000, args.cache, args.jobs)
        quantize(args.out, crops.crops, thumbs.thumbs)
        return recalibrate(args.out, args.calibration_scenes, args.seed, quantized=True)
    if args.recalibrate:
        return recalibrate(args.out, args.calibration_scenes, args.seed)
    torch.use_deterministic_algorithms(True)
    started = time.monotonic()

    sets = corner_sets(args)
    base, train_thumbs, train = sets.base, sets.base_thumbs, sets.train
    calib, calib_thumbs, hold, hold_thumbs, hold_focus = (sets.calib, sets.calib_thumbs, sets.hold, sets.hold_thumbs,
                                                          sets.hold_focus)  # fmt: skip
    print(f"training crops {len(train.rank)} ({len(base.rank)} + {len(train.rank) - len(base.rank)} focus), "
          f"font families {len(set(train.family.tolist()))}")  # fmt: skip

    inits: list[CornerNet | None] = [None] * args.members
    if args.init is not None:
        shipped = CornerEnsemble([CornerNet() for _ in range(args.members)])
        inits = list(load_onnx_weights(shipped, args.init / "corners.onnx").members)  # type: ignore[arg-type]
    members = []
    for k in range(args.members):
        keep = (train.family % 4 != k) if args.members > 1 and not args.all_fonts else np.ones(len(train.rank), bool)
        members.append(train_corner(train, keep, seed=args.seed * 100 + k, steps=args.steps,
                                    label=f"train corner {k + 1}/{args.members}", augment=args.augment,
                                    init=inits[k], lr=args.lr))  # fmt: skip
    ensemble = CornerEnsemble(members).eval()
    if args.init is not None:
        return _finish_fine_tune(args, argv, ensemble, calib, hold, hold_focus, started)
    card = train_card(train_thumbs, seed=args.seed * 100 + 99, epochs=2)
    with torch.no_grad():
        logits, _ = card(torch.from_numpy(prepare_thumbnails(hold_thumbs.thumbs)))
    face_accuracy = float((logits.argmax(1).numpy() == hold_thumbs.face_up).mean())
    kept = _kept_settings(args.out)
    export(ensemble, card, args.out)
    quantize(args.out, calib.crops, calib_thumbs.thumbs)
    manifest = {**_manifest(args, argv, temperature=1.0, threshold=0.5, figures={}, started=started), **kept}
    (args.out / "reader.json").write_text(json.dumps(manifest, indent=1) + "\n")
    _detector_beside(args.out)

    # Calibrate on whole rendered scenes read by the real pipeline (what the reader will see), not
    # on the training crops, whose augmentation is deliberately harsher than any camera.
    scenes = scene_readings(args.out, args.calibration_scenes, args.seed)
    scene_result = {"cards": scenes["cards"], "none": scenes["none"], "truth": scenes["truth"]}
    temperature, dependence = fit_calibration(scene_result)
    best, confidence, seen = vote(scenes["cards"].reshape(-1, 2, 52), scenes["none"].reshape(-1, 2), temperature,
                                  dependence=dependence)  # fmt: skip
    scene_result.update(best=best, confidence=confidence, seen=seen)
    threshold = choose_threshold(scene_result)
    figures: dict[str, object] = {"calibration_scenes": summarise(scene_result, threshold),
               "calibration_crops": summarise(evaluate(ensemble, calib, temperature, dependence), threshold),
               "holdout_crops": summarise(evaluate(ensemble, hold, temperature, dependence), threshold),
               "holdout_focus_crops": summarise(evaluate(ensemble, hold_focus, temperature, dependence),
                                                threshold)}  # fmt: skip
    for k, member in enumerate(members):
        alone = evaluate(CornerEnsemble([member]).eval(), hold, temperature, dependence)
        figures[f"holdout_crops_member_{k + 1}"] = summarise(alone, threshold)
    figures["holdout_face_up"] = {"accuracy": face_accuracy, "cards": len(hold_thumbs.face_up)}
    manifest = {**_manifest(args, argv, temperature=temperature, threshold=threshold, figures=figures,
                            started=started), **kept}  # fmt: skip
    manifest["dependence"] = dependence
    (args.out / "reader.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(json.dumps(figures, indent=1))
    print(f"temperature {temperature:.3f}, dependence {dependence:.3f}, threshold {threshold:.3f}; wrote {args.out}")
    return 0


KEPT_SETTINGS = ("stages", "expert", "min_card_height")
"""Settings of an existing ``reader.json`` that training the corner models keeps: how the reader is
put together, not what the new models measured."""


def _kept_settings(out: Path) -> dict[str, object]:
    """The :data:`KEPT_SETTINGS` of ``out/reader.json`` (none when there is no such file yet)."""
    path = out / "reader.json"
    if not path.is_file():
        return {}
    existing = json.loads(path.read_text())
    return {key: existing[key] for key in KEPT_SETTINGS if key in existing}


def _detector_beside(out: Path) -> None:
    """The calibration scenes are read through the card detector: a folder of new corner models
    without one (a trial run's ``--out``) gets a copy of the shipped detector."""
    shipped = Path(__file__).resolve().parents[2] / "models"
    for name in ("detector.onnx", "detector.json"):
        if not (out / name).exists() and (shipped / name).is_file():
            shutil.copyfile(shipped / name, out / name)
            print(f"copied the shipped {name} to {out} to read the calibration scenes")


def _finish_fine_tune(args: argparse.Namespace, argv: list[str] | None, ensemble: CornerEnsemble,
                      calib: CornerData, hold: CornerData, hold_focus: CornerData, started: float) -> int:  # fmt: skip
    """Export and quantise a fine-tuned ensemble into ``--out`` beside the ``--init`` folder's
    card model, with that folder's reader.json (its stages, temperature and threshold: the fine-tune
    teaches the corner models more index letters without moving their calibration), its trained
    record and figures updated. The other model files of ``--init`` are copied when ``--out``
    lacks them, so ``--out`` is a complete model folder to measure (``bench.vision --models``)."""

    args.out.mkdir(parents=True, exist_ok=True)
    if args.out.resolve() != args.init.resolve():
        for file in args.init.iterdir():
            if file.is_file() and file.name != "corners.onnx" and not (args.out / file.name).exists():
                shutil.copyfile(file, args.out / file.name)
    path = args.out / "corners.onnx"
    torch.onnx.export(ensemble, (torch.zeros(4, 2, CROP_H, CROP_W),), str(path), input_names=["crops"],
                      output_names=["rank_logits", "suit_logits", "embedding"],
                      dynamic_axes={"crops": {0: "n"}, "rank_logits": {1: "n"}, "suit_logits": {1: "n"},
                                    "embedding": {0: "n"}}, opset_version=17, dynamo=False)  # fmt: skip
    batches = [prepare_crops(calib.crops[i : i + 64]) for i in range(0, min(len(calib.crops), 2048), 64)]
    quantize_model(path, "crops", batches)
    manifest = json.loads((args.init / "reader.json").read_text())
    temperature, threshold = float(manifest["temperature"]), float(manifest["threshold"])
    dependence = float(manifest.get("dependence", 0.0))
    figures: dict[str, object] = {
        "calibration_crops": summarise(evaluate(ensemble, calib, temperature, dependence), threshold),
        "holdout_crops": summarise(evaluate(ensemble, hold, temperature, dependence), threshold),
        "holdout_focus_crops": summarise(evaluate(ensemble, hold_focus, temperature, dependence), threshold)}
    manifest["fine_tune"] = {
        "command": "python -m vision.train " + " ".join(argv if argv is not None else sys.argv[1:]),
        "init_sha256": manifest.get("sha256", {}).get("corners.onnx"), "seed": args.seed, "cards": args.cards,
        "focus_cards": args.focus_cards, "steps": args.steps, "lr": args.lr, "letters": args.letters,
        "data_version": DATA_VERSION, "focus_version": FOCUS_VERSION,
        "minutes": round((time.monotonic() - started) / 60, 1), "torch": torch.__version__,
        "figures": figures}  # fmt: skip
    manifest["sha256"] = {name: _sha(args.out / name) for name in ("corners.onnx", "card.onnx")}
    (args.out / "reader.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(json.dumps(figures, indent=1))
    print(f"fine-tuned from {args.init}; temperature {temperature:.3f} and threshold {threshold:.3f} kept; "
          f"wrote {args.out}")  # fmt: skip
    return 0


def recalibrate(models: Path, scenes: int, seed: int, *, quantized: bool | None = None) -> int:
    """Fit the temperature and the threshold of existing models again (reader.json is updated)."""
    path = models / "reader.json"
    manifest = json.loads(path.read_text())
    manifest.update(temperature=1.0, threshold=0.5, dependence=0.0)
    if quantized is not None:
        manifest["quantized"] = quantized
        manifest["sha256"] = {name: _sha(models / name) for name in ("corners.onnx", "card.onnx")}
    path.write_text(json.dumps(manifest, indent=1) + "\n")
    readings = scene_readings(models, scenes, seed)
    result = dict(readings)
    temperature, dependence = fit_calibration(result)
    best, confidence, seen = vote(readings["cards"].reshape(-1, 2, 52), readings["none"].reshape(-1, 2), temperature,
                                  dependence=dependence)  # fmt: skip
    result.update(best=best, confidence=confidence, seen=seen)
    threshold = choose_threshold(result)
    manifest.update(temperature=temperature, threshold=threshold, dependence=dependence)
    manifest.setdefault("figures", {})["calibration_scenes"] = summarise(result, threshold)
    manifest["calibration_scenes"] = scenes
    path.write_text(json.dumps(manifest, indent=1) + "\n")
    print(json.dumps(manifest["figures"]["calibration_scenes"], indent=1))
    print(f"temperature {temperature:.3f}, dependence {dependence:.3f}, threshold {threshold:.3f}; wrote {path}")
    return 0


def _manifest(args: argparse.Namespace, argv: list[str] | None, *, temperature: float, threshold: float,
              figures: dict[str, object], started: float) -> dict[str, object]:  # fmt: skip
    return {
        "corner_model": "corners.onnx",
        "card_model": "card.onnx",
        "crop": {"box": list(INDEX_BOX), "width": CROP_W, "height": CROP_H},
        "thumbnail": {"width": THUMB_W, "height": THUMB_H},
        "temperature": temperature,
        "threshold": threshold,
        "calibration_scenes": args.calibration_scenes,
        "members": args.members,
        "quantized": True,
        "trained": {"command": "python -m vision.train " + " ".join(argv if argv is not None else sys.argv[1:]),
                    "seed": args.seed, "cards": args.cards, "focus_cards": args.focus_cards, "steps": args.steps,
                    "augment": args.augment,
                    "data_version": DATA_VERSION, "focus_version": FOCUS_VERSION,
                    "minutes": round((time.monotonic() - started) / 60, 1), "torch": torch.__version__},
        "figures": figures,
        "sha256": {name: _sha(args.out / name) for name in ("corners.onnx", "card.onnx")},
    }  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
