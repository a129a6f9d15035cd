"""Train the card segmenter (``models/detector.onnx``) from rendered tables only.

    python -m vision.train.seg_train                       # the base model (about 33 min on 2 cores)
    python -m vision.train.seg_train --samples 300 --steps 50 --out /tmp/det   # a quick smoke run

Renders ``--samples`` tables (:mod:`vision.train.seg_data`, "train" font pool), trains a small
U-shaped network to answer "card" and "core" at half the work resolution, exports it to ONNX
with any input size, quantises it to 8 bits and writes ``detector.json``. Every random choice
comes from ``--seed``. The shipped model is the base run fine-tuned twice: on tables with many
Tock backs, then on tables half of which are rows of mostly face-down cards, light tables more
often (about 10 min each at full speed); the commands are in ``models/detector.json`` and the
model card (``detector.json`` is then written with the last stage's figures only):

    python -m vision.train.seg_train --cache C --out C/base
    python -m vision.train.seg_train --cache C --init C/base/detector.pt --samples 2500 --steps 2500 \
        --seed 2 --tock 0.6 --lr 1e-3 --out C/tock
    python -m vision.train.seg_train --cache C --init C/tock/detector.pt --samples 2500 --steps 2500 \
        --seed 3 --tock 0.6 --rows 0.5 --lr 1e-3

``--hard SHARE`` mixes in looks at hard tables taken as the detector takes them
(:func:`vision.train.seg_data.hard_sample`); ``--beyond SHARE`` shows that share of whole frames
as a raised camera sees them, the table shrunk onto a floor (:func:`vision.train.seg_data.beyond_table`,
applied to the rendered tables as they are batched, so the cache of rendered tables serves both;
only frames wider than a card lying on its side); ``--close SHARE`` draws that share of each batch
from the whole frames with a card close to the camera (:func:`close_frames`), so the large plain
cards stay card in the batches that teach a plain table on a floor to be no card.
``--side COUNT`` adds that many whole frames of one large card on a plain table, mostly a plain
one (an ace to a ten, or a plain back) lying on its side (:func:`vision.train.seg_data.side_sample`):
a webcam close to one card sees it so, and its plain middle between the pips must stay card; they
are drawn like the other tables and, with ``--close``, from among the close frames
(``--side-version 1``: the older stream of plain cards on their side only).
``--surfaces COUNT`` adds that many looks at hard tables on patterned surfaces, a share of them
patterns only the trainer draws (:func:`vision.train.seg_data.surface_sample`): pale checks,
tiles and outlined rectangles the size of cards, where the network otherwise calls the whole
cloth card; like the side frames they are never ordinary tables for ``--anchor``, and with
``--anchor-all`` every other frame is held to the start (the hard looks, side and close frames too),
so that only the surfaces move the network (the model card measures both: neither is shipped).
``--anchor WEIGHT`` keeps a fine-tune close to where it started on the ordinary tables ("learning
without forgetting"): a frozen copy of the ``--init`` network looks at every batch too, and on the
crops of ordinary tables (not the hard looks, the close frames, the side frames, nor the frames shown
as a raised camera sees them: :func:`ordinary_frames`, :func:`batch_kinds`) WEIGHT × the
divergence of the network's maps from the copy's (:func:`anchor_loss`) is added to the loss. The
targets of those tables stay in the loss as well; the anchor keeps what the start does on them that
the targets do not say (how sure it is between touching cards, say), while the other frames move it.
``--init`` also takes an 8-bit ``detector.onnx``: its weights are dequantised into the network
and its batch norms given statistics from the training crops (:func:`dequantized`,
:func:`renormalize`), so a shipped model can be fine-tuned without its float weights; for example:

    python -m vision.train.seg_train --cache C --init models/detector.onnx --samples 3000 --steps 1500 \
        --seed 4 --tock 0.6 --rows 0.25 --hard 0.5 --lr 1e-3 --out C/hard
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from vision.segment import OUT_SCALE, STRIDE, prepare_frame
from vision.train.__main__ import Progress, descend
from vision.train.seg_data import (
    BEYOND_ASPECT,
    CLOSE_HEIGHT,
    HARD_DATA_VERSION,
    SIDE_VERSION,
    SURFACE_VERSION,
    WORK_WIDTH,
    SegSample,
    beyond_table,
    is_hard,
    render_samples,
    render_side,
    render_surfaces,
    sample_seeds,
    tallest_core,
)

DATA_VERSION = 1
"""Version of the ordinary training tables; tables with hard looks mixed in are HARD_DATA_VERSION."""
_CROP = (192, 160)  # training crop (w, h) in work pixels


def _block(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class SegNet(nn.Module):  # type: ignore[misc]
    """Encoder down to 1/16, decoder back to 1/2, skip connections; two output maps (logits)."""

    def __init__(self, widths: tuple[int, int, int, int] = (12, 24, 32, 48)) -> None:
        super().__init__()
        a, b, c, d = widths
        self.e1 = _block(3, a, 2)
        self.e2 = nn.Sequential(_block(a, b, 2), _block(b, b))
        self.e3 = nn.Sequential(_block(b, c, 2), _block(c, c))
        self.e4 = nn.Sequential(_block(c, d, 2), _block(d, d), _block(d, d))
        self.d3, self.d2, self.d1 = _block(d + c, c), _block(c + b, b), _block(b + a, a)
        self.head = nn.Conv2d(a, 2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        s1 = self.e1(x)
        s2 = self.e2(s1)
        s3 = self.e3(s2)
        s4 = self.e4(s3)
        u3 = self.d3(torch.cat([F.interpolate(s4, scale_factor=2.0, mode="nearest"), s3], 1))
        u2 = self.d2(torch.cat([F.interpolate(u3, scale_factor=2.0, mode="nearest"), s2], 1))
        u1 = self.d1(torch.cat([F.interpolate(u2, scale_factor=2.0, mode="nearest"), s1], 1))
        out: torch.Tensor = self.head(u1)
        return out


_LAYERS = ("e1", "e2.0", "e2.1", "e3.0", "e3.1", "e4.0", "e4.1", "e4.2", "d3", "d2", "d1")
"""The network's convolution blocks (convolution ``.0``, batch norm ``.1``) in the order its
forward pass, and so its ONNX graph, runs them; the 1×1 ``head`` follows."""


def dequantized(path: Path) -> SegNet:
    """The network of an 8-bit ``detector.onnx``, its weights back in float (scale × (q − zero point)).

    The export folds each batch norm into the convolution before it, so the ONNX graph holds one
    weight and one bias per convolution; here the bias goes to the batch norm's shift and its
    statistics are the identity (mean 0, variance 1 − eps), which computes the same as the file in
    evaluation mode. Before training in train mode, give it real statistics (:func:`renormalize`).
    """
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    stored = {i.name: numpy_helper.to_array(i).astype(np.float64) for i in graph.initializer}
    floats: dict[str, np.ndarray] = {}
    for node in graph.node:
        if node.op_type == "DequantizeLinear" and node.input[0] in stored:
            q, scale = stored[node.input[0]], stored[node.input[1]]
            zero = stored[node.input[2]] if len(node.input) > 2 else np.zeros_like(scale)
            axis = [a.i for a in node.attribute if a.name == "axis"] or [1]
            shape = [1] * q.ndim
            if scale.ndim == 1:
                shape[axis[0] % q.ndim] = -1
            floats[node.output[0]] = (q - zero.reshape(shape)) * scale.reshape(shape)
    convs = [(floats[n.input[1]], floats[n.input[2]]) for n in graph.node if n.op_type == "Conv"]
    if len(convs) != len(_LAYERS) + 1:
        raise ValueError(f"{path} has {len(convs)} convolutions, the network {len(_LAYERS) + 1}")
    net = SegNet()
    state = net.state_dict()
    for (weight, bias), name in zip(convs, _LAYERS, strict=False):
        eps = 1e-5
        state[f"{name}.0.weight"] = torch.from_numpy(weight).float()
        state[f"{name}.1.weight"] = torch.ones(len(bias))
        state[f"{name}.1.bias"] = torch.from_numpy(bias).float()
        state[f"{name}.1.running_mean"] = torch.zeros(len(bias))
        state[f"{name}.1.running_var"] = torch.full((len(bias),), 1.0 - eps)
    state["head.weight"], state["head.bias"] = (torch.from_numpy(a).float() for a in convs[-1])
    shapes = {k: tuple(v.shape) for k, v in net.state_dict().items()}
    wrong = [k for k, v in state.items() if tuple(v.shape) != shapes[k]]
    if wrong:
        raise ValueError(f"{path}: weights of other shapes than the network's: {', '.join(wrong)}")
    net.load_state_dict(state)
    net.eval()
    return net


def renormalize(net: SegNet, batches: list[torch.Tensor]) -> None:
    """Give a :func:`dequantized` network batch-norm statistics that compute the same in evaluation
    mode and about the same in train mode: each convolution's output mean μ and variance v over
    ``batches`` (training crops) become the norm's statistics, its scale √(v + eps) and its shift
    the bias + μ, so (x − μ) / √(v + eps) · √(v + eps) + bias + μ = x + bias as before, while a
    training batch's own statistics (about μ and v) keep the layer close to what it computed.
    Works on any network of this shape: the function each block computes in evaluation mode is kept."""
    modules = dict(net.named_modules())
    outputs: dict[str, list[torch.Tensor]] = {name: [] for name in _LAYERS}
    hooks = [modules[f"{name}.0"].register_forward_hook(lambda _m, _i, out, name=name: outputs[name].append(out))
             for name in _LAYERS]  # fmt: skip
    net.eval()
    with torch.no_grad():
        for x in batches:
            net(x)
    for hook in hooks:
        hook.remove()
    state = net.state_dict()
    for name in _LAYERS:
        eps = float(modules[f"{name}.1"].eps)
        values = torch.cat([o.transpose(0, 1).reshape(o.shape[1], -1) for o in outputs[name]], dim=1)
        mean, var = values.mean(dim=1), values.var(dim=1)
        old_mean, old_var = state[f"{name}.1.running_mean"], state[f"{name}.1.running_var"]
        old_scale = state[f"{name}.1.weight"] / torch.sqrt(old_var + eps)
        shift = state[f"{name}.1.bias"] - old_mean * old_scale
        # The block computed x · old_scale + shift; now (x − mean) / √(var + eps) · γ + β, the same.
        state[f"{name}.1.running_mean"] = mean
        state[f"{name}.1.running_var"] = var
        state[f"{name}.1.weight"] = old_scale * torch.sqrt(var + eps)
        state[f"{name}.1.bias"] = shift + mean * old_scale
    net.load_state_dict(state)


def _load(samples: int, seed: int, cache: Path | None, jobs: int, tock: float | None = None, rows: float = 0.0,
          hard: float = 0.0) -> list[tuple[np.ndarray, np.ndarray]]:  # fmt: skip
    version = HARD_DATA_VERSION if hard > 0 else DATA_VERSION
    name = f"seg-{samples}-{seed}-v{version}" + (f"-tock{tock:g}" if tock is not None else "")
    name += f"-rows{rows:g}" if rows > 0 else ""
    name += f"-hard{hard:g}" if hard > 0 else ""
    return _cached(cache / f"{name}.pkl" if cache else None,
                   lambda: render_samples(samples, seed=seed, jobs=jobs, tock=tock, rows=rows, hard=hard,
                                          progress=Progress(samples, "render tables")))  # fmt: skip


def _cached(path: Path | None, render: Callable[[], Sequence[SegSample]]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (frame, target) pairs kept at ``path``, or those ``render`` makes, then kept there (no
    path: made each time)."""
    if path is not None and path.exists():
        with path.open("rb") as f:
            data: list[tuple[np.ndarray, np.ndarray]] = pickle.load(f)
        return data
    data = [(s.image, s.target) for s in render()]
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            pickle.dump(data, f)
    return data


def _load_side(count: int, seed: int, cache: Path | None, jobs: int,
               version: int = SIDE_VERSION) -> list[tuple[np.ndarray, np.ndarray]]:  # fmt: skip
    """``count`` frames of a large card close to the camera, mostly a plain one lying on its side
    (:func:`vision.train.seg_data.side_sample`, of ``version``), kept in ``cache`` like the other tables."""
    return _cached(cache / f"side-{count}-{seed}-v{version}.pkl" if cache else None,
                   lambda: render_side(count, seed=seed, jobs=jobs, version=version,
                                       progress=Progress(count, "render side")))  # fmt: skip


def _load_surfaces(count: int, seed: int, cache: Path | None, jobs: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """``count`` looks at hard tables on patterned surfaces (:func:`vision.train.seg_data.surface_sample`),
    kept in ``cache`` like the other tables."""
    return _cached(cache / f"surfaces-{count}-{seed}-v{SURFACE_VERSION}.pkl" if cache else None,
                   lambda: render_surfaces(count, seed=seed, jobs=jobs, progress=Progress(count, "render surfaces")))


def close_frames(data: list[tuple[np.ndarray, np.ndarray]]) -> list[int]:
    """Indices of the whole frames of ``data`` with a card close to the camera (its core at least
    :data:`vision.train.seg_data.CLOSE_HEIGHT` of the frame's height, :func:`vision.train.seg_data.tallest_core`)."""
    return [k for k, (image, target) in enumerate(data)
            if image.shape[1] == WORK_WIDTH and tallest_core(target) >= CLOSE_HEIGHT]  # fmt: skip


def ordinary_frames(rendered: int, seed: int, hard: float, total: int, close_ones: Sequence[int] = ()) -> list[bool]:
    """Which of ``total`` training frames are ordinary tables, for ``--anchor``: the first
    ``rendered`` are :func:`_load`'s tables of ``seed`` (a hard look among them when
    :func:`vision.train.seg_data.is_hard` says so for its seed at share ``hard``), the rest the
    side frames (:func:`_load_side`) and the looks on patterned surfaces (:func:`_load_surfaces`),
    never ordinary; nor are the frames with a card close to the camera (``close_ones``,
    :func:`close_frames`)."""
    seeds = sample_seeds(rendered, seed)
    ordinary = [k < rendered and not (hard > 0 and is_hard(seeds[k], hard)) for k in range(total)]
    for k in close_ones:
        ordinary[k] = False
    return ordinary


def _batch(data: list[tuple[np.ndarray, np.ndarray]], rng: np.random.Generator, size: int, beyond: float = 0.0,
           close: float = 0.0, close_ones: list[int] | None = None) -> tuple[torch.Tensor, torch.Tensor]:  # fmt: skip
    """:func:`batch_kinds` without the kinds: the crops and their targets."""
    x, y, _ = batch_kinds(data, rng, size, beyond, close, close_ones)
    return x, y


def batch_kinds(data: list[tuple[np.ndarray, np.ndarray]], rng: np.random.Generator, size: int, beyond: float = 0.0,
                close: float = 0.0, close_ones: list[int] | None = None, ordinary: Sequence[bool] | None = None
                ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:  # fmt: skip
    """``size`` random crops of :data:`_CROP` with their targets. A look smaller than the crop (a
    detector's second look at a large card) fills its corner; the rest of the input is the frame's
    mean (0) and of the target -1, which the loss ignores. ``beyond``: the share of whole frames
    first shown as a raised camera sees them, the table shrunk with the floor beyond its edge
    (:func:`vision.train.seg_data.beyond_table`; only frames at least :data:`vision.train.seg_data.BEYOND_ASPECT`
    times as wide as tall). ``close``: the share of the batch drawn instead
    from ``close_ones`` (:func:`close_frames`) and shown as they are, so that every batch that
    teaches "a plain rectangle on a floor is table" also holds large plain cards that are card.
    Each option draws from ``rng`` only when positive, so 0 gives the batches it gave before the
    option existed. The third answer tells which crops are of ordinary tables (``ordinary``, per
    frame of ``data``, :func:`ordinary_frames`; none without it) shown as they are: a crop drawn
    from the close frames or shown as a raised camera sees it is not, whatever its frame."""
    if close > 0 and not close_ones:
        raise ValueError("close > 0 needs frames with a large card (close_ones); the data has none")
    cw, ch = _CROP
    xs, ys, kinds = [], [], []
    for k in rng.integers(len(data), size=size):
        image, target = data[int(k)]
        plain = ordinary is not None and bool(ordinary[int(k)])
        if close > 0 and close_ones and rng.random() < close:
            drawn = close_ones[int(rng.integers(len(close_ones)))]
            image, target = data[drawn]
            plain = ordinary is not None and bool(ordinary[drawn])
        elif (
            beyond > 0
            and image.shape[1] == WORK_WIDTH
            and image.shape[1] >= BEYOND_ASPECT * image.shape[0]
            and rng.random() < beyond
        ):
            image, target = beyond_table(image, target, rng)
            plain = False
        frame = prepare_frame(image)[0]  # normalised over the whole frame, as at run time
        h, w = image.shape[:2]
        x0 = int(rng.integers(0, max(w - cw, 0) // OUT_SCALE + 1)) * OUT_SCALE
        y0 = int(rng.integers(0, max(h - ch, 0) // OUT_SCALE + 1)) * OUT_SCALE
        x = frame[:, y0 : y0 + ch, x0 : x0 + cw]
        t = target[:, y0 // OUT_SCALE : (y0 + ch) // OUT_SCALE, x0 // OUT_SCALE : (x0 + cw) // OUT_SCALE]
        if x.shape[1:] != (ch, cw) or t.shape[1:] != (ch // OUT_SCALE, cw // OUT_SCALE):
            x = np.pad(x, ((0, 0), (0, ch - x.shape[1]), (0, cw - x.shape[2])))
            t = np.pad(t, ((0, 0), (0, ch // OUT_SCALE - t.shape[1]), (0, cw // OUT_SCALE - t.shape[2])),
                       constant_values=-1.0)  # fmt: skip
        if rng.random() < 0.5:
            x, t = x[:, :, ::-1], t[:, :, ::-1]
        if rng.random() < 0.5:
            x, t = x[:, ::-1], t[:, ::-1]
        xs.append(np.ascontiguousarray(x))
        ys.append(np.ascontiguousarray(t))
        kinds.append(plain)
    return torch.from_numpy(np.stack(xs)), torch.from_numpy(np.stack(ys)), torch.tensor(kinds, dtype=torch.bool)


def seg_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Binary cross-entropy of card and core (core counted twice), over the pixels with a target
    (a target of -1 marks padding beyond a small look)."""
    weights = torch.tensor([1.0, 2.0]).view(1, 2, 1, 1)
    valid = (target >= 0).float()
    bce = F.binary_cross_entropy_with_logits(logits, target.clamp(min=0), reduction="none")
    if bool(valid.all()):
        return (bce * weights).mean()
    return (bce * weights * valid).sum() / valid.sum().clamp(min=1)


def anchor_loss(logits: torch.Tensor, teacher: torch.Tensor, ordinary: torch.Tensor) -> torch.Tensor:
    """How far the maps ``logits`` stray from the frozen start's ``teacher`` (logits of the crops
    where ``ordinary`` is true; the others are ignored): the divergence of each pixel's card and
    core probability from the start's (binary Kullback-Leibler, the cross-entropy against the
    start's probability less that probability's own entropy, core counted twice as in
    :func:`seg_loss`), averaged over the pixels of the ordinary crops. 0 where the two agree, and 0
    for a batch without an ordinary crop."""
    if not bool(ordinary.any()):
        return logits.sum() * 0.0
    student, start = logits[ordinary], teacher[ordinary].detach()
    p = torch.sigmoid(start)
    cross = F.binary_cross_entropy_with_logits(student, p, reduction="none")
    entropy = F.binary_cross_entropy_with_logits(start, p, reduction="none")
    weights = torch.tensor([1.0, 2.0]).view(1, 2, 1, 1)
    return ((cross - entropy).clamp(min=0) * weights).mean()


def evaluate(net: nn.Module, data: list[tuple[np.ndarray, np.ndarray]]) -> dict[str, float]:
    """Pixel agreement of card and core maps (thresholded at 0.5) on whole frames."""
    net.eval()
    agree = np.zeros(2)
    iou_num, iou_den = np.zeros(2), np.zeros(2)
    with torch.no_grad():
        for image, target in data:
            out = net(torch.from_numpy(prepare_frame(image)))[0].numpy()
            pred = out[:, : target.shape[1], : target.shape[2]] > 0
            truth = target > 0.5
            agree += (pred == truth).mean(axis=(1, 2))
            iou_num += (pred & truth).sum(axis=(1, 2))
            iou_den += (pred | truth).sum(axis=(1, 2))
    net.train()
    iou = iou_num / np.maximum(iou_den, 1)
    return {"card_iou": float(iou[0]), "core_iou": float(iou[1]), "pixel_agreement": float(agree.mean() / len(data))}


def export(net: nn.Module, path: Path) -> None:
    """ONNX with any input height and width (multiples of STRIDE)."""
    net.eval()
    example = torch.zeros(1, 3, 192, WORK_WIDTH)
    torch.onnx.export(net, (example,), str(path), input_names=["frame"], output_names=["maps"], opset_version=17,
                      dynamic_axes={"frame": {2: "height", 3: "width"}, "maps": {2: "out_h", 3: "out_w"}},
                      dynamo=False)  # fmt: skip


def quantize_detector(path: Path, frames: list[np.ndarray]) -> float:
    """Replace the float model at ``path`` by its 8-bit version (per-channel weights, activations
    calibrated on ``frames``); the share of output pixels on which both agree (card and core)."""
    # onnx (through onnxruntime's quantizer, the train extra) loads only for this step: the detector
    # trains with torch alone.
    import onnxruntime as ort
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from vision.train.quantize import _Batches

    float_copy = path.with_suffix(".fp32.onnx")
    path.replace(float_copy)
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(float_copy), str(prepared), skip_symbolic_shape=True)  # any input size
        quantize_static(str(prepared), str(path), _Batches("frame", frames), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True)  # fmt: skip
    sessions = [ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]) for p in (float_copy, path)]
    agree = [float(((a > 0) == (b > 0)).mean())
             for a, b in ((s0.run(None, {"frame": f})[0], s1.run(None, {"frame": f})[0])
                          for f in frames for s0, s1 in [sessions])]  # fmt: skip
    float_copy.unlink()
    return float(np.mean(agree))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train.seg_train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=6000, help="rendered tables to train on (default 6000)")
    parser.add_argument("--steps", type=int, default=6000, help="training batches (default 6000)")
    parser.add_argument("--batch", type=int, default=16, help="frames per batch (default 16)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--jobs", type=int, default=2, help="rendering processes (default 2)")
    parser.add_argument("--cache", type=Path, help="keep rendered tables here and reuse them")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "models")
    parser.add_argument(
        "--tock", type=float, help="share of face-down cards given a Tock back (default: the layouts' own)"
    )
    parser.add_argument(
        "--rows", type=float, default=0.0, help="share of tables that are rows of mostly face-down cards (default 0)"
    )
    parser.add_argument(
        "--hard",
        type=float,
        default=0.0,
        help="share of samples that are looks at hard tables, as the detector takes them (default 0)",
    )
    parser.add_argument(
        "--beyond",
        type=float,
        default=0.0,
        help="share of whole frames shown as a raised camera sees them: the table shrunk, the floor beyond (default 0)",
    )
    parser.add_argument(
        "--close",
        type=float,
        default=0.0,
        help="share of each batch drawn from whole frames with a card close to the camera, shown as they are "
        "(default 0)",
    )
    parser.add_argument(
        "--side",
        type=int,
        default=0,
        help="render this many more whole frames of a large plain card lying on its side on a plain table and "
        "train on them too, among the close frames of --close (default 0)",
    )
    parser.add_argument(
        "--side-version",
        type=int,
        default=SIDE_VERSION,
        help=f"version of the --side frames (vision.train.seg_data.SIDE_VERSION; default {SIDE_VERSION})",
    )
    parser.add_argument(
        "--anchor-all",
        action="store_true",
        help="with --anchor: anchor every frame but the looks of --surfaces (the hard looks, the side and close "
        "frames too), so that only the patterned surfaces move the network",
    )
    parser.add_argument(
        "--surfaces",
        type=int,
        default=0,
        help="render this many more looks at hard tables on patterned surfaces, some of patterns only the trainer "
        "draws (default 0)",
    )
    parser.add_argument("--init", type=Path, help="start from these weights: a detector.pt of an earlier run, or "
                        "a detector.onnx (its 8-bit weights dequantised, see dequantized)")  # fmt: skip
    parser.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (default 3e-3)")
    parser.add_argument(
        "--frozen-norms",
        action="store_true",
        help="keep the batch norms' statistics as they are while fine-tuning (the start's own normalisation)",
    )
    parser.add_argument(
        "--anchor",
        type=float,
        default=0.0,
        help="with --init: add this weight times the divergence from the starting network on the ordinary "
        "tables' crops (anchor_loss; default 0: none)",
    )
    args = parser.parse_args(argv)
    if args.anchor < 0 or (args.anchor > 0 and args.init is None):
        parser.error(f"--anchor must be 0 or more and needs --init (the network to stay close to); got {args.anchor}")
    if args.anchor_all and args.anchor <= 0:
        parser.error("--anchor-all needs --anchor WEIGHT (how closely the network is kept to its start)")
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    start = time.monotonic()
    data = _load(args.samples, args.seed, args.cache, args.jobs, args.tock, args.rows, args.hard)
    held = _load(max(args.samples // 20, 20), args.seed + 1000, args.cache, args.jobs, args.tock, args.rows, args.hard)
    rendered = len(data)
    if args.side > 0:
        data = data + _load_side(args.side, args.seed, args.cache, args.jobs, args.side_version)
    before_surfaces = len(data)
    if args.surfaces > 0:
        data = data + _load_surfaces(args.surfaces, args.seed, args.cache, args.jobs)
    close_ones = close_frames(data) if args.close > 0 else None
    if close_ones is not None:
        print(f"{len(close_ones)} of {len(data)} frames with a card close to the camera")
    ordinary = None
    if args.anchor > 0:
        close = close_ones if close_ones is not None else close_frames(data)
        ordinary = ([k < before_surfaces for k in range(len(data))] if args.anchor_all
                    else ordinary_frames(rendered, args.seed, args.hard, len(data), close))  # fmt: skip
        print(f"anchored to the start on {sum(ordinary)} of {len(data)} frames")
    net = SegNet()
    if args.init is not None and args.init.suffix == ".onnx":
        net = dequantized(args.init)
        calibration = np.random.default_rng([args.seed, 1])  # its own stream: the training batches stay the same
        renormalize(net, [_batch(data, calibration, args.batch)[0] for _ in range(8)])
        before = evaluate(net, held)
        print(f"dequantised {args.init}: held-out card IoU {before['card_iou']:.3f}, core IoU {before['core_iou']:.3f}")
    elif args.init is not None:
        net.load_state_dict(torch.load(args.init))
    teacher = None
    if args.anchor > 0:
        teacher = SegNet()
        teacher.load_state_dict(net.state_dict())
        teacher.eval()
        for parameter in teacher.parameters():
            parameter.requires_grad_(False)
    optimizer = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=args.lr, total_steps=args.steps, pct_start=0.15)
    if args.frozen_norms:  # only the weights learn; each layer keeps normalising as it did
        for module in net.modules():
            if isinstance(module, nn.BatchNorm2d):
                module.eval()
    progress = Progress(args.steps, "train segmenter")
    running, parts = 0.0, np.zeros(2)
    for step in range(args.steps):
        x, y, kinds = batch_kinds(data, rng, args.batch, args.beyond, args.close, close_ones, ordinary)
        logits = net(x)
        loss = seg_loss(logits, y)
        if teacher is not None:
            with torch.no_grad():
                start_logits = torch.zeros_like(logits)
                if bool(kinds.any()):
                    start_logits[kinds] = teacher(x[kinds])
            anchored = anchor_loss(logits, start_logits, kinds)
            now = np.array([float(loss.detach()), float(anchored.detach())])
            parts = now if step == 0 else 0.98 * parts + 0.02 * now
            loss = loss + args.anchor * anchored
        running = descend(loss, optimizer, schedule, running, first=step == 0)
        shown = f" (tables {parts[0]:.4f} + {args.anchor:g} × anchor {parts[1]:.5f})" if teacher is not None else ""
        progress(step + 1, f"loss {running:.4f}{shown}")
    figures = evaluate(net, held)
    print(f"held-out tables ({len(held)}): card IoU {figures['card_iou']:.3f}, core IoU {figures['core_iou']:.3f}")
    args.out.mkdir(parents=True, exist_ok=True)
    model_path = args.out / "detector.onnx"
    torch.save(net.state_dict(), args.out / "detector.pt")  # for fine-tuning; not shipped
    export(net, model_path)
    agreement = quantize_detector(model_path, [prepare_frame(image) for image, _ in held[:64]])
    print(f"8-bit model agrees with the float one on {agreement:.2%} of held-out pixels")
    settings = {
        "work_width": WORK_WIDTH, "card_threshold": 0.5, "core_threshold": 0.5, "stride": STRIDE,
        "out_scale": OUT_SCALE, "data_version": HARD_DATA_VERSION if args.hard > 0 else DATA_VERSION,
        "command": "python -m vision.train.seg_train " + " ".join(argv if argv is not None else sys.argv[1:]),
        "seed": args.seed, "samples": args.samples, "steps": args.steps, "batch": args.batch, "held_out": figures,
        "int8": {"weights": "per-channel int8", "activations": "uint8, calibrated on 64 held-out tables",
                 "agreement_with_float": agreement},
        "minutes": round((time.monotonic() - start) / 60, 1),
        "sha256": hashlib.sha256(model_path.read_bytes()).hexdigest(),
    }  # fmt: skip
    (args.out / "detector.json").write_text(json.dumps(settings, indent=1) + "\n")
    print(f"wrote {model_path} ({model_path.stat().st_size / 1024:.0f} KB) in {settings['minutes']} min")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
