"""Train the "expert": a bigger, finer corner reader asked only about the cards the ensemble doubts.

    python -m vision.train.expert --cache ~/.cache/tocktable       # about 16 min on 2 threads
    python -m vision.train.expert --steps 20 --out /tmp/expert      # a quick smoke run

It reads the same 2×64×32 prepared crops as the corner ensemble (:func:`vision.classify.prepare_crops`),
so the rendered training data of ``python -m vision.train`` (its cache) is reused as it is: the
base and focus cards of the "train" font pool, every font family (the ensemble's members each
leave a quarter out). The network keeps the crop's full resolution in its first layer (the
ensemble's members halve it at once) and is wider, to tell a small club from a spade and a thin
"Q" from a "J". The crop augmentation is version 2 (glyph width, stroke weight, extra blur: the
expert's misses to fix are unseen fonts' glyphs).

Writes ``expert.onnx`` (8-bit, with the float version as ``expert.fp32.onnx`` beside it),
``expert.pt`` (the torch weights) and the hold-out figures of the expert alone to ``expert.json``
in ``--out``; the gate and the weight it gets in the reader are fitted afterwards on calibration
scenes (:mod:`vision.train.expert_fit`). Every random choice comes from ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from vision.classify import NO_INDEX, corner_probabilities, prepare_crops
from vision.rectify import CROP_H, CROP_W
from vision.train.__main__ import (
    Progress,
    _augment,
    _batches,
    _sha,
    add_data_options,
    corner_loss,
    corner_sets,
    descend,
)
from vision.train.data import CornerData
from vision.train.onnx_weights import freeze_norms, load_onnx_weights
from vision.train.quantize import quantize_model

WIDTHS = (16, 32, 48, 96, 128)


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))  # fmt: skip


class ExpertNet(nn.Module):
    """One index crop (2 × 64 × 32) → rank logits (13 ranks + "no index") and suit logits.

    First layer at stride 1 (the full 64×32), then halved to 32×16, 16×8, 8×4; 198 k parameters
    (the ensemble's members have 70 k and start at 32×16).
    """

    def __init__(self, widths: tuple[int, int, int, int, int] = WIDTHS) -> None:
        super().__init__()
        a, b, c, d, e = widths
        self.features = nn.Sequential(
            _conv(2, a),
            _conv(a, b, stride=2), _conv(b, c), nn.MaxPool2d(2),
            _conv(c, d), nn.MaxPool2d(2),
            _conv(d, e),
        )  # fmt: skip
        self.embed = nn.Sequential(nn.Linear(2 * e, 96), nn.ReLU(inplace=True), nn.Dropout(0.1))
        self.rank = nn.Linear(96, NO_INDEX + 1)
        self.suit = nn.Linear(96, 4)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Prepared crops (N, 2, 64, 32) → rank logits (N, 14) and suit logits (N, 4)."""
        f = self.features(x)
        e = self.embed(torch.cat([f.mean(dim=(2, 3)), f.amax(dim=(2, 3))], dim=1))
        return self.rank(e), self.suit(e)


def train_expert(data: CornerData, *, seed: int, steps: int, batch: int = 256, augment: int = 2,
                 init: ExpertNet | None = None, lr: float = 3e-3,
                 draw: np.ndarray | None = None, frozen_norms: bool = False) -> ExpertNet:  # fmt: skip
    """The expert trained on the crops of ``data`` (AdamW, one-cycle, label smoothing as the ensemble).

    ``init``: start from these weights (a fine-tune); ``draw``: each crop's chance of being drawn
    into a batch (None: every crop once per pass, in a random order); ``frozen_norms``: batch
    norms stay in eval mode (weights taken from an ONNX file, :mod:`vision.train.onnx_weights`).
    """
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    generator = torch.Generator().manual_seed(seed)
    net = init if init is not None else ExpertNet()
    optimiser = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=2e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=lr, total_steps=steps)
    progress = Progress(steps, "train expert")
    step, running = 0, 0.0
    net.train()
    if frozen_norms:
        freeze_norms(net)
    while step < steps:
        n = len(data.rank)
        passes = [rng.choice(n, batch, p=draw)] if draw is not None else _batches(n, batch, rng)
        for rows in passes:
            if step >= steps:
                break
            x = _augment(torch.from_numpy(prepare_crops(data.crops[rows])), generator, augment)
            rank_logits, suit_logits = net(x)
            loss = corner_loss(rank_logits, suit_logits, data, rows)
            step += 1
            running = descend(loss, optimiser, schedule, running, first=step == 1)
            progress(step, f"loss {running:.3f}")
    return net.eval()


def hard_draw(data: CornerData, ensemble: Path, factor: float) -> np.ndarray:
    """Each crop's chance of being drawn when the crops the corner ensemble (``ensemble``, an ONNX
    file) reads with less than 0.9 of its probability on the truth are ``factor`` times as likely:
    the cards the expert is asked about are the ensemble's doubts."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(ensemble), providers=["CPUExecutionProvider"])
    truth_p = np.empty(len(data.rank))
    progress = Progress(len(data.rank), "ensemble on crops")
    for i in range(0, len(data.rank), 1024):
        rank_logits, suit_logits = session.run(None, {"crops": prepare_crops(data.crops[i : i + 1024])})[:2]
        cards, none = corner_probabilities(rank_logits, suit_logits)
        rank, suit = data.rank[i : i + 1024], data.suit[i : i + 1024]
        has = rank != NO_INDEX
        card_p = cards[np.arange(len(rank)), np.where(has, rank * 4 + suit, 0)] * (1 - none)
        truth_p[i : i + 1024] = np.where(has, card_p, none)
        progress(min(i + 1024, len(data.rank)))
    hard = (truth_p < 0.9) & (data.weight > 0)
    print(f"hard crops: {int(hard.sum())} of {len(hard)} ({hard.mean():.1%}), drawn {factor:g} times as often")
    chance = np.where(hard, factor, 1.0)
    out: np.ndarray = chance / chance.sum()
    return out


def subset(data: CornerData, keep: np.ndarray) -> CornerData:
    """The crops where ``keep`` is true (card pairs are not needed for training and are dropped)."""
    return CornerData(data.crops[keep], data.rank[keep], data.suit[keep], data.weight[keep], data.family[keep],
                      np.zeros((0, 2), np.int64), np.zeros(0, np.int64), np.zeros(0, bool))  # fmt: skip


def top1(net: nn.Module, data: CornerData) -> dict[str, float]:
    """Top-1 of the card (rank and suit) on the crops that show an index, and of "no index"."""
    with torch.no_grad():
        outs = [net(torch.from_numpy(prepare_crops(data.crops[i : i + 1024]))) for i in range(0, len(data.rank), 1024)]
    rank = torch.cat([o[0] for o in outs]).numpy()[None]
    suit = torch.cat([o[1] for o in outs]).numpy()[None]
    cards, none = corner_probabilities(rank, suit)
    has = (data.rank != NO_INDEX) & (data.weight > 0)
    truth = data.rank * 4 + data.suit
    return {"crops": int(has.sum()), "card_top1": float((cards.argmax(1) == truth)[has].mean()),
            "none_right": float(((none > 0.5) == ~has)[data.weight > 0].mean())}  # fmt: skip


def export(net: ExpertNet, out: Path, calibration: np.ndarray) -> Path:
    """``expert.onnx`` (8-bit, calibrated on rendered training-pool crops) in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "expert.onnx"
    torch.onnx.export(net, (torch.zeros(2, 2, CROP_H, CROP_W),), str(path), input_names=["crops"],
                      output_names=["rank_logits", "suit_logits"],
                      dynamic_axes={"crops": {0: "n"}, "rank_logits": {0: "n"}, "suit_logits": {0: "n"}},
                      opset_version=17, dynamo=False)  # fmt: skip
    batches = [prepare_crops(calibration[i : i + 64]) for i in range(0, min(len(calibration), 2048), 64)]
    quantize_model(path, "crops", batches)
    return path


def main(argv: list[str] | None = None) -> int:
    """The command line: train the expert, export and quantise it (see the module's docstring)."""
    parser = argparse.ArgumentParser(prog="python -m vision.train.expert", description=__doc__.split("\n\n")[0])
    add_data_options(parser)
    parser.add_argument("--steps", type=int, default=1000, help="batches of 256 (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the data (as vision.train) and training")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    parser.add_argument("--augment", type=int, choices=(1, 2), default=2, help="crop augmentation version")
    parser.add_argument("--leave-out", type=int, choices=(0, 1, 2, 3),
                        help="leave out font families with hash mod 4 = this (a fair gate/weight fit)")  # fmt: skip
    parser.add_argument("--init", type=Path,
                        help="start from these weights (an expert.pt, or an expert.onnx such as the shipped "
                        "models/expert.onnx) instead of at random")  # fmt: skip
    parser.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (default 3e-3)")
    parser.add_argument("--hard", type=float, default=1.0,
                        help="draw crops the ensemble doubts (P(truth) < 0.9) this many times as often")  # fmt: skip
    parser.add_argument("--ensemble", type=Path, default=Path(__file__).resolve().parents[2] / "models/corners.onnx",
                        help="the ensemble whose doubts --hard follows (default models/corners.onnx)")  # fmt: skip
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "models")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    started = time.monotonic()
    sets = corner_sets(args)
    train, calib, hold, hold_focus = sets.train, sets.calib, sets.hold, sets.hold_focus
    print(f"training crops {len(train.rank)}, font families {len(set(train.family.tolist()))}")
    init: ExpertNet | None = None
    if args.init is not None and args.init.suffix == ".onnx":
        init = ExpertNet()
        load_onnx_weights(init, args.init)
    elif args.init is not None:
        init = ExpertNet()
        init.load_state_dict(torch.load(args.init, weights_only=True))
    if args.leave_out is not None:
        train = subset(train, train.family % 4 != args.leave_out)
        print(f"left out font families with hash mod 4 = {args.leave_out}: {len(train.rank)} crops")
    draw = hard_draw(train, args.ensemble, args.hard) if args.hard != 1.0 else None
    from_onnx = args.init is not None and args.init.suffix == ".onnx"
    net = train_expert(train, seed=args.seed * 100 + 50, steps=args.steps, augment=args.augment, init=init,
                       lr=args.lr, draw=draw, frozen_norms=from_onnx)  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), args.out / "expert.pt")
    path = export(net, args.out, calib.crops)
    figures = {"holdout_crops": top1(net, hold), "holdout_focus_crops": top1(net, hold_focus)}
    manifest = {
        "model": "expert.onnx",
        "input": "crops N×2×64×32 (vision.classify.prepare_crops), outputs rank_logits N×14, suit_logits N×4",
        "trained": {"command": "python -m vision.train.expert " + " ".join(argv if argv is not None else sys.argv[1:]),
                    "seed": args.seed, "steps": args.steps, "augment": args.augment, "widths": list(WIDTHS),
                    "init": str(args.init) if args.init else None, "lr": args.lr, "hard": args.hard,
                    "letters": args.letters,
                    "leave_out": args.leave_out,
                    "parameters": sum(p.numel() for p in net.parameters()),
                    "minutes": round((time.monotonic() - started) / 60, 1), "torch": torch.__version__},
        "figures_float": figures,
        "sha256": _sha(path),
    }  # fmt: skip
    (args.out / "expert.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(json.dumps(manifest, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
