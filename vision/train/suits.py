"""Train the suit model: one suit symbol (a pip, an ace's pip, a court card's small symbol) → club,
diamond, heart, spade or "not a suit symbol".

    python -m vision.train.suits                       # 60,000 drawn symbols, 6 epochs, seed 1
    python -m vision.train.suits --samples 8000 --epochs 1 --out /tmp/s/models   # a quick try

Every sample is drawn here: suits from :class:`vision.render.suits.SuitShape` (random shapes and the
glyph fonts, as every deck style draws them), 5-44 pixels tall as they lie in a frame, upright or
upside down, leaning a little, squeezed by perspective, on tinted paper with neighbouring ink
(another pip, a frame line, a rank glyph), blurred, noisy, JPEG-compressed, sometimes scaled up
again as the straightened card is. Negatives: rank glyphs of the "train" index fonts, windows of
drawn court art and card backs of "train" decks, card corners and edges, blobs and strokes of
ink, and suit symbols cut in half by a neighbour. Never a real photo, never the hold-out fonts.
The model (``models/suits.onnx``, labels and settings in ``models/suits.json``) is run by
:mod:`vision.suit_witness`.
"""

from __future__ import annotations

import argparse
import functools
import json
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from table.cards import Card, Rank, Suit
from vision.classify import prepare_crops
from vision.render.faces import FACE_H, FACE_W, _text_bitmap, deck_style, render_back, render_face
from vision.render.fonts import index_fonts, suit_glyph_fonts
from vision.render.suits import SuitShape, suit_mask
from vision.suit_symbols import CLASSES, SYMBOL, crop_symbol
from vision.train.__main__ import Progress, descend

NONE = len(CLASSES) - 1
_RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_INKS = {"black": (25, 25, 25), "red": (45, 35, 195), "blue": (170, 70, 20), "green": (40, 120, 20)}


# --- drawing ---------------------------------------------------------------------------------


def _jitter_color(rng: np.random.Generator, base: tuple[int, int, int], spread: int) -> np.ndarray:
    return np.clip(np.asarray(base, np.float32) + rng.integers(-spread, spread + 1, 3), 0, 255)


def _ink_of(rng: np.random.Generator, suit: int) -> np.ndarray:
    if suit in (1, 2):  # diamonds, hearts
        name = "blue" if suit == 1 and rng.random() < 0.05 else "red"
    else:
        name = "green" if suit == 0 and rng.random() < 0.05 else "black"
    return _jitter_color(rng, _INKS[name], 35)


def _paint(canvas: np.ndarray, mask: np.ndarray, color: np.ndarray, x: int, y: int) -> None:
    """Paint ``color`` through ``mask`` with its top left at (x, y), clipped to the canvas."""
    h, w = mask.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, canvas.shape[1]), min(y + h, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    m = mask[y0 - y : y1 - y, x0 - x : x1 - x, None]
    canvas[y0:y1, x0:x1] = canvas[y0:y1, x0:x1] * (1.0 - m) + m * color


def _pose(mask: np.ndarray, rng: np.random.Generator, *, flip: bool = True) -> np.ndarray:
    """Upside down (half the time), a small lean and a perspective squeeze; cropped to its ink."""
    if flip and rng.random() < 0.5:
        mask = mask[::-1, ::-1]
    h, w = mask.shape
    pad = max(h, w) // 3 + 2
    big = cv2.copyMakeBorder(np.ascontiguousarray(mask), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    angle = float(rng.normal(0.0, 4.0))
    sx, sy = float(rng.uniform(0.85, 1.15)), float(rng.uniform(0.9, 1.1))
    c = (big.shape[1] / 2.0, big.shape[0] / 2.0)
    matrix = cv2.getRotationMatrix2D(c, angle, 1.0)
    matrix[0] *= sx
    matrix[1] *= sy
    matrix[0, 2] += c[0] * (1 - sx)
    matrix[1, 2] += c[1] * (1 - sy)
    out = cv2.warpAffine(big, matrix, (big.shape[1], big.shape[0]), flags=cv2.INTER_LINEAR)
    ys, xs = np.nonzero(out > 0.15)
    if not len(ys):
        return mask
    return np.ascontiguousarray(out[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def _suit(rng: np.random.Generator, suit: int, height: int) -> np.ndarray:
    shape = SuitShape.random(rng, suit_glyph_fonts())
    return suit_mask.__wrapped__(shape, Suit(suit), height)  # type: ignore[attr-defined,no-any-return]


@functools.cache
def _train_fonts() -> tuple[str, ...]:
    return tuple(face.path for face in index_fonts("train"))


def _glyph(rng: np.random.Generator, height: int) -> np.ndarray:
    fonts = _train_fonts()
    bitmap = _text_bitmap(fonts[int(rng.integers(len(fonts)))], str(rng.choice(_RANK_TEXT)), int(rng.integers(0, 2)))
    width = max(round(bitmap.shape[1] * height / bitmap.shape[0] * rng.uniform(0.6, 1.15)), 2)
    return cv2.resize(bitmap, (width, max(height, 2)), interpolation=cv2.INTER_AREA)


@functools.cache
def _pictures() -> tuple[np.ndarray, ...]:
    """Court faces' middles and backs of a few "train" decks (BGR float), windows of which are negatives."""
    out = []
    for seed in range(24):
        style = deck_style(900 + seed, "train")
        for rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
            face = render_face(style, Card(rank, Suit(seed % 4)))[:, :, :3].astype(np.float32)
            # the art without its frame's corners, where the small suit symbols are
            out.append(face[int(FACE_H * 0.24) : int(FACE_H * 0.76), int(FACE_W * 0.3) : int(FACE_W * 0.7)])
        out.append(render_back(style)[:, :, :3].astype(np.float32))
    return tuple(out)


def _blob(rng: np.random.Generator, height: int) -> np.ndarray:
    """A shape of ink that is no suit: an ellipse, a polygon, a thick stroke, a ring or a bar."""
    side = max(height, 4) * 4
    canvas = np.zeros((side, side), np.uint8)
    kind = int(rng.integers(5))
    c = (side // 2, side // 2)
    if kind == 0:
        axes = (int(side * rng.uniform(0.15, 0.45)), int(side * rng.uniform(0.15, 0.45)))
        cv2.ellipse(canvas, c, axes, float(rng.uniform(0, 180)), 0, 360, 255, -1)
    elif kind == 1:
        pts = rng.integers(0, side, size=(int(rng.integers(3, 7)), 2)).astype(np.int32)
        cv2.fillPoly(canvas, [cv2.convexHull(pts) if rng.random() < 0.5 else pts], 255)
    elif kind == 2:
        for _ in range(int(rng.integers(1, 4))):
            p = rng.integers(0, side, size=4)
            cv2.line(
                canvas, (int(p[0]), int(p[1])), (int(p[2]), int(p[3])), 255, max(int(side * rng.uniform(0.05, 0.2)), 1)
            )
    elif kind == 3:
        cv2.circle(canvas, c, int(side * 0.35), 255, max(int(side * rng.uniform(0.06, 0.15)), 1))
    else:
        w, h = int(side * rng.uniform(0.1, 0.9)), int(side * rng.uniform(0.1, 0.9))
        cv2.rectangle(canvas, (c[0] - w // 2, c[1] - h // 2), (c[0] + w // 2, c[1] + h // 2), 255, -1)
    small = cv2.resize(canvas, (max(height, 4), max(height, 4)), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    ys, xs = np.nonzero(small > 0.15)
    if not len(ys):
        return np.ones((3, 3), np.float32)
    return np.ascontiguousarray(small[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def _cut(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A symbol with 40-65 % of it hidden behind a straight edge (a neighbour lying over it)."""
    h, w = mask.shape
    yy, xx = np.mgrid[0:h, 0:w]
    angle = rng.uniform(0, 2 * np.pi)
    d = (xx - w / 2) * np.cos(angle) + (yy - h / 2) * np.sin(angle)
    cut = np.quantile(d[mask > 0.5], rng.uniform(0.4, 0.65)) if (mask > 0.5).any() else 0.0
    out = np.where(d < cut, mask, 0.0).astype(np.float32)
    ys, xs = np.nonzero(out > 0.15)
    if not len(ys):
        return mask
    return np.ascontiguousarray(out[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def draw_sample(rng: np.random.Generator, *, negative_share: float = 0.4) -> tuple[np.ndarray, int]:
    """One training sample: a SYMBOL × SYMBOL BGR crop (as :func:`crop_symbol` cuts it) and its class."""
    height = round(np.exp(rng.uniform(np.log(5), np.log(44))))
    label = NONE if rng.random() < negative_share else int(rng.integers(4))
    suit = int(rng.integers(4)) if label == NONE else label
    ink = _ink_of(rng, suit)
    picture: np.ndarray | None = None
    if label != NONE:
        mask = _pose(_suit(rng, suit, height), rng)
    else:
        kind = int(rng.integers(6))
        if kind == 0:
            mask = _pose(_glyph(rng, height), rng)
        elif kind == 1:
            mask = _pose(_blob(rng, height), rng)
        elif kind == 2:
            mask = _cut(_pose(_suit(rng, suit, height), rng), rng)
        else:  # a window of court art or a back, or a card's corner: no single mask
            mask = np.zeros((height, max(int(height * rng.uniform(0.6, 1.2)), 3)), np.float32)
            picture = _window(rng, kind, mask.shape)
    h, w = mask.shape
    pad = max(h, w)
    size = (h + 2 * pad, w + 2 * pad)
    light = float(rng.uniform(0.55, 1.0))
    paper = _jitter_color(rng, (235, 238, 240), 18) * light
    canvas = np.empty((*size, 3), np.float32)
    canvas[:] = paper
    if picture is not None:
        canvas[pad : pad + h, pad : pad + w] = picture * light
        if rng.random() < 0.5:  # the picture's ink may spill a little past its box
            canvas[pad - 1 : pad + h + 1, pad - 1 : pad + w + 1] = cv2.resize(picture, (w + 2, h + 2)) * light
    _neighbours(rng, canvas, (pad, pad, pad + w, pad + h), ink * light, height)
    _paint(canvas, mask, ink * light, pad, pad)
    image = _degrade(rng, canvas)
    box = np.array([pad, pad, pad + w, pad + h], np.float64)
    box += rng.normal(0.0, 0.06, 4) * max(h, w)  # the box a run-time blob would give, not exact
    scale = image.shape[0] / size[0]
    return crop_symbol(image, tuple(float(v) for v in box * scale)), label  # type: ignore[arg-type]


def _window(rng: np.random.Generator, kind: int, shape: tuple[int, int]) -> np.ndarray:
    h, w = shape
    if kind in (3, 4):
        pictures = _pictures()
        picture = pictures[int(rng.integers(len(pictures)))]
        zoom = float(rng.uniform(0.6, 4.0))  # a window 1-4 symbol sizes wide of the picture
        ph, pw = max(int(h * zoom), 2), max(int(w * zoom), 2)
        ph, pw = min(ph, picture.shape[0] - 1), min(pw, picture.shape[1] - 1)
        y, x = int(rng.integers(picture.shape[0] - ph)), int(rng.integers(picture.shape[1] - pw))
        return cv2.resize(picture[y : y + ph, x : x + pw], (w, h), interpolation=cv2.INTER_AREA)
    # a card's corner or edge on a table: paper on one side, a table colour on the other
    out = np.empty((h, w, 3), np.float32)
    out[:] = _jitter_color(rng, (235, 238, 240), 15)
    table = _jitter_color(rng, tuple(int(v) for v in rng.integers(20, 160, 3)), 10)  # type: ignore[arg-type]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = float(rng.uniform(0.3, 1.0)) * min(h, w)
    if rng.random() < 0.5:
        outside = (np.hypot(np.maximum(r - xx, 0), np.maximum(r - yy, 0)) > r) | (xx < 1) | (yy < 1)
    else:
        outside = xx < w * rng.uniform(0.2, 0.6)
    out[outside] = table
    if rng.random() < 0.5:
        out = out[::-1, ::-1]
    return np.ascontiguousarray(out)


def _neighbours(rng: np.random.Generator, canvas: np.ndarray, box: tuple[int, int, int, int],
                ink: np.ndarray, height: int) -> None:  # fmt: skip
    """Ink near the symbol: another pip, a frame line or a rank glyph, outside its box."""
    x0, y0, x1, y1 = box
    for _ in range(int(rng.choice([0, 0, 1, 1, 2]))):
        kind = int(rng.integers(5))
        gap = int(rng.integers(0, max(height // 3, 2) + 1))
        side = int(rng.integers(4))
        if kind == 3:  # the corner of a court picture's frame, the symbol tucked into it
            thick = int(rng.integers(1, 3))
            lx = x0 - gap - thick if side % 2 == 0 else x1 + gap
            ly = y0 - gap - thick if side < 2 else y1 + gap
            sx = slice(max(lx, 0), None) if side % 2 == 0 else slice(0, max(lx + thick, 0))
            sy = slice(max(ly, 0), None) if side < 2 else slice(0, max(ly + thick, 0))
            canvas[max(ly, 0) : max(ly + thick, 0), sx] = ink
            canvas[sy, max(lx, 0) : max(lx + thick, 0)] = ink
            continue
        if kind == 1:  # a frame line along one side
            thick = int(rng.integers(1, 3))
            if side == 0:
                canvas[:, max(x0 - gap - thick, 0) : x0 - gap] = ink
            elif side == 1:
                canvas[:, x1 + gap : x1 + gap + thick] = ink
            elif side == 2:
                canvas[max(y0 - gap - thick, 0) : y0 - gap, :] = ink
            else:
                canvas[y1 + gap : y1 + gap + thick, :] = ink
            continue
        if kind == 4:  # a stroke or blob of a court picture's paint
            other = _blob(rng, int(height * rng.uniform(0.5, 1.5)))
            color = _jitter_color(
                rng, ((40, 200, 240), (40, 40, 200), (160, 80, 30), (60, 140, 60))[int(rng.integers(4))], 30
            )
        else:
            other = _suit(rng, int(rng.integers(4)), height) if kind == 0 else _glyph(rng, height)
            color = _jitter_color(rng, tuple(int(v) for v in ink), 20)  # type: ignore[arg-type]
        oh, ow = other.shape
        if side == 0:
            x, y = x0 - gap - ow, y0 + int(rng.integers(-oh // 2, oh // 2 + 1))
        elif side == 1:
            x, y = x1 + gap, y0 + int(rng.integers(-oh // 2, oh // 2 + 1))
        elif side == 2:
            x, y = x0 + int(rng.integers(-ow // 2, ow // 2 + 1)), y0 - gap - oh
        else:
            x, y = x0 + int(rng.integers(-ow // 2, ow // 2 + 1)), y1 + gap
        _paint(canvas, other, color, x, y)


def _degrade(rng: np.random.Generator, canvas: np.ndarray) -> np.ndarray:
    """Camera and straightening: blur, noise, a light gradient, JPEG, sometimes scaled up again."""
    h, w = canvas.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gradient = 1.0 + rng.uniform(-0.15, 0.15) * (xx / w - 0.5) + rng.uniform(-0.15, 0.15) * (yy / h - 0.5)
    image = canvas * gradient[:, :, None]
    if rng.random() < 0.1:  # colour washed out (dim light, white balance)
        grey = image.mean(axis=2, keepdims=True)
        image = grey + (image - grey) * rng.uniform(0.2, 0.6)
    sigma = float(rng.uniform(0.0, 1.1))
    if sigma > 0.2:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    image = image + rng.normal(0.0, rng.uniform(0.0, 8.0), image.shape).astype(np.float32)
    out = np.clip(image, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        _, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    up = float(rng.uniform(1.0, 2.5)) if rng.random() < 0.6 else 1.0
    if up > 1.05:
        out = cv2.resize(out, (round(w * up), round(h * up)), interpolation=cv2.INTER_LINEAR)
    return out


def draw_set(count: int, seed: int, *, label: str) -> tuple[np.ndarray, np.ndarray]:
    """``count`` samples from ``seed``: model inputs (N, 2, SYMBOL, SYMBOL) float32 and classes (N,)."""
    rng = np.random.default_rng([seed, 4242])
    crops = np.empty((count, SYMBOL, SYMBOL, 3), np.uint8)
    labels = np.empty(count, np.int64)
    progress = Progress(count, label)
    for k in range(count):
        crops[k], labels[k] = draw_sample(rng)
        progress(k + 1)
    return prepare_crops(crops), labels


# --- the model ---------------------------------------------------------------------------------


def _conv(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class SuitNet(nn.Module):
    """One symbol (2 × 24 × 24: grey and redness) → logits of club, diamond, heart, spade, none."""

    def __init__(self, widths: tuple[int, int, int] = (16, 32, 48)) -> None:
        super().__init__()
        a, b, c = widths
        self.features = nn.Sequential(
            _conv(2, a), nn.MaxPool2d(2),  # 12
            _conv(a, b), nn.MaxPool2d(2),  # 6
            _conv(b, c), nn.MaxPool2d(2),  # 3
        )  # fmt: skip
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.1), nn.Linear(c * 9, 64), nn.ReLU(inplace=True),
                                  nn.Linear(64, len(CLASSES)))  # fmt: skip

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Prepared symbol crops (N, 2, 24, 24) → class logits (N, 5): c, d, h, s, none."""
        out: torch.Tensor = self.head(self.features(x))
        return out


def train(net: SuitNet, x: np.ndarray, y: np.ndarray, *, epochs: int, batch: int, seed: int) -> None:
    """Adam with a cosine schedule; each batch also flipped upside down at random (a pip's other half)."""
    gen = torch.Generator().manual_seed(seed)
    xs, ys = torch.from_numpy(x), torch.from_numpy(y)
    steps_per_epoch = len(x) // batch
    total = epochs * steps_per_epoch
    opt = torch.optim.Adam(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=total, pct_start=0.15)
    progress = Progress(total, "train suit model")
    net.train()
    step, running = 0, 0.0
    for _ in range(epochs):
        order = torch.randperm(len(x), generator=gen)
        for k in range(steps_per_epoch):
            idx = order[k * batch : (k + 1) * batch]
            xb, yb = xs[idx], ys[idx]
            flip = torch.rand(len(idx), generator=gen) < 0.5
            xb = torch.where(flip[:, None, None, None], xb.flip(2, 3), xb)
            loss = F.cross_entropy(net(xb), yb, label_smoothing=0.02)
            step += 1
            running = descend(loss, opt, sched, running, first=step == 1)
            progress(step, f"loss {running:.3f}")


def evaluate(net: SuitNet, x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Top-1 accuracy over all classes, over the suits alone, and the share of suits called "none"."""
    net.eval()
    with torch.no_grad():
        pred = torch.cat([net(torch.from_numpy(x[k : k + 1024])).argmax(1) for k in range(0, len(x), 1024)]).numpy()
    suits = y < NONE
    return {
        "top1": float((pred == y).mean()),
        "suits_top1": float((pred[suits] == y[suits]).mean()),
        "suits_called_none": float((pred[suits] == NONE).mean()),
        "none_called_suit": float((pred[~suits] != NONE).mean()),
        "club_spade_confusions": int(((y == 0) & (pred == 3)).sum() + ((y == 3) & (pred == 0)).sum()),
        "heart_diamond_confusions": int(((y == 1) & (pred == 2)).sum() + ((y == 2) & (pred == 1)).sum()),
    }


def export(net: SuitNet, path: Path) -> None:
    """The trained model as ONNX at ``path`` (float32; input ``symbols``, output ``logits``)."""
    net.eval()
    example = torch.zeros(1, 2, SYMBOL, SYMBOL)
    torch.onnx.export(net, (example,), str(path), input_names=["symbols"], output_names=["logits"], opset_version=17,
                      dynamic_axes={"symbols": {0: "n"}, "logits": {0: "n"}}, dynamo=False)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """The command line: draw the symbols, train, export ``suits.onnx`` and write ``suits.json``."""
    parser = argparse.ArgumentParser(prog="python -m vision.train.suits", description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=60000, help="drawn training symbols (default 60000)")
    parser.add_argument("--held", type=int, default=6000, help="drawn held-out symbols, another seed (default 6000)")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "models")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    start = time.monotonic()
    x, y = draw_set(args.samples, args.seed, label="draw symbols")
    hx, hy = draw_set(args.held, args.seed + 1000, label="draw held-out")
    net = SuitNet()
    train(net, x, y, epochs=args.epochs, batch=args.batch, seed=args.seed)
    figures = evaluate(net, hx, hy)
    args.out.mkdir(parents=True, exist_ok=True)
    export(net, args.out / "suits.onnx")
    settings = {"classes": list(CLASSES), "symbol": SYMBOL, "samples": args.samples, "epochs": args.epochs,
                "seed": args.seed, "held_out": {"samples": args.held, "seed": args.seed + 1000, **figures},
                "minutes": round((time.monotonic() - start) / 60, 1)}  # fmt: skip
    (args.out / "suits.json").write_text(json.dumps(settings, indent=1) + "\n")
    print(json.dumps(settings, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
