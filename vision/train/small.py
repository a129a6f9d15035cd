"""Train the small-card reader (``models/small.onnx``): whole cards 32-90 px tall, read at once.

    python -m vision.train.small                    # the shipped model (about 30 min on 2 cores)
    python -m vision.train.small --cards 3000 --steps 100 --out /tmp/small   # a quick smoke run
    python -m vision.train.small --calibrate-only   # fit the shipped model's temperature and threshold again

A card under about 75 px tall shows an index a few pixels high, smaller than any the corner models
were trained on; what still tells it apart is the whole card: the index, the number and layout of
the pips, a court card's picture, the colour. The small-card reader sees the whole card straightened
to 40 × 56 pixels (grey and redness, as the corners; :mod:`vision.small`) and names one of the 52
cards or "nothing to name" (a back, a card straightened a quarter turn wrong, a piece of the table
or of what lies on it).

The model is quantised to 8 bits (onnxruntime static QDQ, calibrated on rendered crops; about
twice as fast) before its temperature and threshold are fitted, so they hold for what ships. They
are fitted, as the reader reads, on each card's two looks averaged (the card and the card turned
half a turn: :func:`vision.small.both_ways`).

Data, rendered only (:func:`make_small`): cards of the "train" font pool drawn by
:func:`vision.train.data.draw_sample` (neighbours, cards and thumbs on top, light, blur, noise,
JPEG) on backgrounds cut from rendered empty tables of every surface with clutter beside the cards
(keyboard, paper, phone, chips, coins), their outlines "detected" with an error of up to 4 % of the
card's height (a detector's error on small cards). A calibration set (same pool, its own seed)
fixes the temperature and the threshold below which the reader answers "unsure"; a hold-out set
(the "holdout" font pool, never trained on) measures it. Every random choice comes from ``--seed``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from table.cards import Card
from vision.classify import prepare_crops
from vision.orient import turned
from vision.rectify import Pyramid, order_corners
from vision.render.faces import deck_style
from vision.render.fonts import Pool, index_fonts
from vision.render.scene import TABLES, SceneSpec, render_scene
from vision.render.scene_clutter import CLUTTER
from vision.render.scene_surfaces import SURFACES
from vision.small import NOTHING, SMALL_H, SMALL_W, both_ways, pooled, whole_cards
from vision.train.data import BANK_SIZE, _Bank, _corners, draw_sample
from vision.train.quantize import quantize_model

HEIGHTS = (32.0, 90.0)
"""Card heights in pixels of the training cards (log-uniform)."""

DATA_VERSION = 1
"""Version of the rendered data (in the cache's file names): bump when the drawing changes."""


class SceneBank(_Bank):
    """Backgrounds cut from rendered empty tables of every surface, with clutter on most."""

    def __init__(self, rng: np.random.Generator, count: int = 24) -> None:
        names = sorted(TABLES) + sorted(SURFACES)
        self.surfaces = []
        for _ in range(count):
            clutter = tuple(CLUTTER[int(k)] for k in rng.integers(len(CLUTTER), size=int(rng.integers(0, 4))))
            spec = SceneSpec(cards=(), size=(BANK_SIZE, BANK_SIZE), table=names[int(rng.integers(len(names)))],
                             clutter=clutter, seed=int(rng.integers(1 << 30)))  # fmt: skip
            self.surfaces.append(render_scene(spec).image)


@dataclass
class SmallData:
    """Whole-card crops (N, SMALL_H, SMALL_W, 3) BGR, their labels (card id, or NOTHING) and font family."""

    crops: np.ndarray
    label: np.ndarray
    family: np.ndarray


def make_small(count: int, *, pool: Pool, seed: int, cards_per_style: int = 16) -> SmallData:
    """``count`` samples of cards ``HEIGHTS`` tall from deck styles of ``pool``, reproducible from
    ``seed``: 78 % cards straightened right (face up: their id; face down: NOTHING), 10 % cards
    straightened a quarter turn wrong (NOTHING), 12 % pieces of table and clutter (NOTHING)."""
    rng = np.random.default_rng([seed, 13])
    bank = SceneBank(rng)
    family_of = {face.path: zlib.crc32(face.family.encode()) % 10007 for face in index_fonts("all")}
    crops, labels, families = [], [], []
    style = deck_style(0, pool)
    for i in range(count):
        if i % cards_per_style == 0:
            style = deck_style(int(rng.integers(1 << 30)), pool)
        card = Card.from_id(int(rng.integers(52)))
        face_up = bool(rng.random() < 0.75)
        back = str(rng.choice(["plain", "tock", "plain"]))
        height = float(np.exp(rng.uniform(np.log(HEIGHTS[0]), np.log(HEIGHTS[1]))))
        kind = rng.random()
        if kind < 0.12:  # a piece of the table, or of what lies on it, outlined like a card
            size = int(height * 1.4) + 8
            image = bank.patch(rng, size)
            quad = order_corners(_corners(np.array([size / 2, size / 2]), height, float(rng.uniform(0, 360)),
                                          0.03, rng))  # fmt: skip
            label = NOTHING
        else:
            image, detected, _, _ = draw_sample(rng, bank, style, card, face_up, back, height,
                                                focus=bool(rng.random() < 0.5))  # fmt: skip
            error = rng.uniform(0.0, 0.04) * height
            quad = order_corners(detected + rng.normal(0, error, (4, 2)))
            label = card.id if face_up else NOTHING
            if kind < 0.22:
                quad, label = turned(quad[None])[0], NOTHING
        if rng.random() < 0.5:  # the other way up: the same card
            quad = np.roll(quad, 2, axis=0)
        crops.append(whole_cards(image, [quad], pyramid=Pyramid(image))[0])
        labels.append(label)
        families.append(family_of.get(style.index.font, 0))
    return SmallData(np.stack(crops), np.array(labels, np.int64), np.array(families, np.int64))


def _chunk(job: tuple[int, str, int]) -> SmallData:
    count, pool, seed = job
    return make_small(count, pool=pool, seed=seed)  # type: ignore[arg-type]


def render(count: int, *, pool: str, seed: int, jobs: int, cache: Path | None, name: str) -> SmallData:
    """``count`` samples in chunks of 1,000 (each seeded from ``seed`` and its number), cached."""
    path = cache / f"small-{name}-{pool}-{count}-{seed}-v{DATA_VERSION}.npz" if cache else None
    if path is not None and path.exists():
        z = np.load(path)
        return SmallData(z["crops"], z["label"], z["family"])
    work = [(min(1000, count - start), pool, seed * 100003 + i) for i, start in enumerate(range(0, count, 1000))]
    parts: list[SmallData] = []
    started = time.monotonic()

    def show() -> None:
        done = sum(len(p.label) for p in parts)
        sys.stderr.write(f"\rrender {name:<12} {done}/{count} cards, {time.monotonic() - started:4.0f}s")
        sys.stderr.flush()

    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as workers:
            for part in workers.imap(_chunk, work):
                parts.append(part)
                show()
    else:
        for job in work:
            parts.append(_chunk(job))
            show()
    sys.stderr.write("\n")
    data = SmallData(*(np.concatenate([getattr(p, key) for p in parts]) for key in ("crops", "label", "family")))
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, crops=data.crops, label=data.label, family=data.family)
    return data


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))  # fmt: skip


class SmallNet(nn.Module):
    """Reads a whole small card (2 × 56 × 40): logits over the 52 cards and NOTHING."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _conv(2, 24, stride=2),
            _conv(24, 32), nn.MaxPool2d(2),
            _conv(32, 64), nn.MaxPool2d(2),
            _conv(64, 96),
            _conv(96, 128),
        )  # fmt: skip
        self.head = nn.Sequential(nn.Linear(256, 128), nn.ReLU(inplace=True), nn.Dropout(0.1),
                                  nn.Linear(128, NOTHING + 1))  # fmt: skip

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x)
        out: torch.Tensor = self.head(torch.cat([f.mean(dim=(2, 3)), f.amax(dim=(2, 3))], dim=1))
        return out


def _augment(x: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Small random zoom, shift and turn (an outline found a little off), and contrast."""
    n = x.shape[0]
    scale = torch.empty(n).uniform_(0.92, 1.08, generator=generator)
    angle = torch.empty(n).uniform_(-0.05, 0.05, generator=generator)
    shift = torch.empty(n, 2).uniform_(-0.05, 0.05, generator=generator)
    cos, sin = torch.cos(angle) / scale, torch.sin(angle) / scale
    theta = torch.stack([torch.stack([cos, -sin, shift[:, 0]], 1), torch.stack([sin, cos, shift[:, 1]], 1)], 1)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    out = F.grid_sample(x, grid, padding_mode="border", align_corners=False)
    gain = torch.empty(n, 1, 1, 1).uniform_(0.8, 1.2, generator=generator)
    return out * gain


def train(data: SmallData, *, steps: int, seed: int) -> SmallNet:
    """The small-card reader, ``steps`` batches of 256 (AdamW, one cycle, label smoothing 0.05)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    generator = torch.Generator().manual_seed(seed)
    net = SmallNet()
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=2e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    inputs = torch.from_numpy(prepare_crops(data.crops))
    labels = torch.from_numpy(data.label)
    started, running = time.monotonic(), 0.0
    net.train()
    for step in range(1, steps + 1):
        rows = torch.from_numpy(rng.integers(0, len(labels), 256))
        loss = F.cross_entropy(net(_augment(inputs[rows], generator)), labels[rows], label_smoothing=0.05)
        optimiser.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimiser.step()
        schedule.step()
        value = float(loss.detach())
        running = value if step == 1 else 0.98 * running + 0.02 * value
        if step % 20 == 0 or step == steps:
            elapsed = time.monotonic() - started
            sys.stderr.write(f"\rtrain small {step}/{steps} loss {running:.3f} {elapsed:4.0f}s "
                             f"eta {elapsed / step * (steps - step):4.0f}s")  # fmt: skip
            sys.stderr.flush()
    sys.stderr.write("\n")
    return net.eval()


def logits_of(net: nn.Module, crops: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        return np.concatenate([net(torch.from_numpy(prepare_crops(crops[i : i + 1024]))).numpy()
                               for i in range(0, len(crops), 1024)])  # fmt: skip


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The temperature minimising the negative log-likelihood of ``labels``."""
    grid = np.exp(np.linspace(np.log(0.2), np.log(5.0), 121))
    nll = [-np.log(_softmax(logits / t)[np.arange(len(labels)), labels] + 1e-12).mean() for t in grid]
    return float(grid[int(np.argmin(nll))])


def summarise(p: np.ndarray, labels: np.ndarray, threshold: float) -> dict[str, float | int]:
    """Of the face-up cards: right, wrong and unsure at ``threshold``; of the rest, how many were named."""
    best, sure = p.argmax(axis=1), p.max(axis=1)
    named = (best != NOTHING) & (sure >= threshold)
    up = labels != NOTHING
    return {"cards": int(up.sum()), "right": float((named & (best == labels))[up].mean()),
            "wrong": float((named & (best != labels))[up].mean()), "unsure": float((~named)[up].mean()),
            "top1": float((best == labels)[up].mean()), "nothing": int((~up).sum()),
            "nothing_named": float(named[~up].mean())}  # fmt: skip


def choose_threshold(p: np.ndarray, labels: np.ndarray, wrong: float) -> float:
    """The lowest threshold at which at most ``wrong`` of all samples are named as another card."""
    best, sure = p.argmax(axis=1), p.max(axis=1)
    bad = (best != NOTHING) & (best != labels)
    for threshold in np.linspace(0.5, 0.999, 500):
        if (bad & (sure >= threshold)).mean() <= wrong:
            return float(threshold)
    return 0.999


def export(net: SmallNet, path: Path) -> None:
    torch.onnx.export(net, (torch.zeros(4, 2, SMALL_H, SMALL_W),), str(path), input_names=["crops"],
                      output_names=["logits"], dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
                      opset_version=17, dynamo=False)  # fmt: skip


def onnx_logits(model: Path, crops: np.ndarray) -> np.ndarray:
    """The logits of the exported model at ``model`` for ``crops`` as the reader takes them: each
    card read both ways up and its two looks averaged (:func:`vision.small.both_ways`)."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    return np.concatenate([pooled(session.run(None, {"crops": prepare_crops(both_ways(crops[i : i + 256]))})[0])
                           for i in range(0, len(crops), 256)])  # fmt: skip


def calibrate(out: Path, calib: SmallData, hold: SmallData, wrong: float, trained: dict[str, object]) -> int:
    """Fit the temperature and the threshold of ``out/small.onnx`` on ``calib``, measure it on
    ``hold`` and write ``out/small.json``."""
    model = out / "small.onnx"
    calib_logits = onnx_logits(model, calib.crops)
    temperature = fit_temperature(calib_logits, calib.label)
    p_calib = _softmax(calib_logits / temperature)
    threshold = choose_threshold(p_calib, calib.label, wrong)
    p_hold = _softmax(onnx_logits(model, hold.crops) / temperature)
    settings = {
        "model": "small.onnx",
        "input": f"whole cards N×2×{SMALL_H}×{SMALL_W} (vision.classify.prepare_crops of vision.small.whole_cards)",
        "output": "logits N×53: card ids 0..51 (rank * 4 + suit), 52 nothing to name",
        "quantized": "int8 weights per channel, uint8 activations (onnxruntime static QDQ, rendered crops)",
        "temperature": temperature,
        "threshold": threshold,
        "heights": list(HEIGHTS),
        "trained": trained,
        "figures": {"calibration": summarise(p_calib, calib.label, threshold),
                    "holdout": summarise(p_hold, hold.label, threshold)},
        "sha256": hashlib.sha256(model.read_bytes()).hexdigest()[:16],
    }  # fmt: skip
    (out / "small.json").write_text(json.dumps(settings, indent=1) + "\n")
    print(json.dumps(settings["figures"], indent=1))
    print(f"temperature {temperature:.3f}, threshold {threshold:.3f}; wrote {out / 'small.json'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train.small", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=60000, help="training samples (default 60000)")
    parser.add_argument("--check-cards", type=int, default=4000, help="calibration and hold-out samples (each)")
    parser.add_argument("--steps", type=int, default=3000, help="batches of 256 (default 3000)")
    parser.add_argument("--wrong", type=float, default=0.002,
                        help="share of calibration samples allowed named wrongly (default 0.002)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="rendering processes (default 2)")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "tocktable")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "models")
    parser.add_argument("--quantize-only", action="store_true",
                        help="only quantise the float model in --out (small.onnx) to 8 bits and calibrate it again")
    parser.add_argument("--calibrate-only", action="store_true",
                        help="only fit the temperature and threshold of the model in --out (small.onnx) again")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    started = time.monotonic()
    calib = render(args.check_cards, pool="train", seed=args.seed + 1000, jobs=args.jobs, cache=args.cache,
                   name="calibration")  # fmt: skip
    hold = render(args.check_cards, pool="holdout", seed=args.seed + 2000, jobs=args.jobs, cache=args.cache,
                  name="holdout")  # fmt: skip
    model = args.out / "small.onnx"
    if args.calibrate_only or args.quantize_only:
        trained = json.loads((args.out / "small.json").read_text())["trained"]
        if args.calibrate_only:
            return calibrate(args.out, calib, hold, args.wrong, trained)
    else:
        training = render(args.cards, pool="train", seed=args.seed, jobs=args.jobs, cache=args.cache, name="train")
        net = train(training, steps=args.steps, seed=args.seed)
        args.out.mkdir(parents=True, exist_ok=True)
        export(net, model)
        trained = {"command": "python -m vision.train.small " + " ".join(argv if argv is not None else sys.argv[1:]),
                   "seed": args.seed, "cards": args.cards, "steps": args.steps, "data_version": DATA_VERSION,
                   "parameters": sum(p.numel() for p in net.parameters()),
                   "minutes": round((time.monotonic() - started) / 60, 1), "torch": torch.__version__}  # fmt: skip
    calibration = [prepare_crops(calib.crops[i : i + 64]) for i in range(0, min(len(calib.crops), 2048), 64)]
    quantize_model(model, "crops", calibration)
    model.with_suffix(".fp32.onnx").unlink()
    return calibrate(args.out, calib, hold, args.wrong, trained)


if __name__ == "__main__":
    raise SystemExit(main())
