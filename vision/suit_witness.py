"""A second witness for the suit: the suit symbols printed on the card's body.

The corner models read the suit from the index, where the symbol is small (6-12 pixels in a frame
of a table); in some fonts a small club looks like a spade, a small heart like a diamond, and both
corners of a card are printed alike, so they agree on the wrong suit. The body shows the suit
again: a number card's pips, an ace's big pip, the small symbols beside a court card's picture.

:func:`suit_evidence` straightens the body of each card whose suit the corners leave in doubt,
finds blobs of ink of a symbol's size outside the index corners, reads each with a small CNN
(``models/suits.onnx``, made by ``python -m vision.train.suits``: club, diamond, heart, spade or
"not a suit symbol") and answers a likelihood over the four suits per card. The symbols of one
card are one drawing printed several times, so they are pooled as one witness (a weighted
geometric mean), not multiplied as independent ones; when they disagree, or none is found, the
card's row is all ones (the body says nothing). The reader multiplies each card's posterior over
the 52 cards by its row (expanded over the ranks) and renormalises.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from table.cards import COURT_RANKS
from vision.classify import prepare_crops, softmax
from vision.errors import FrameError, ModelError
from vision.mark_reader import card_regions
from vision.rectify import Pyramid
from vision.suit_symbols import CLASSES, SYMBOL, crop_symbol

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"

BODY = (150, 210)
"""Width and height in pixels of the straightened card whose symbols are read."""

_INDEX_X, _INDEX_Y = 0.19, 0.45
"""A blob whose centre lies within this share of the card's width and height from a corner belongs
to an index (all four corners: some decks print four), not to the body."""

_PART_OF = 0.3
"""A blob no wider or taller than this share of the card's width is looked at again in parts."""

_SIZE = (7, 105)
"""The longer side of a symbol's box, in body pixels (a court card's small symbol to an ace's)."""


@dataclass(frozen=True)
class WitnessSettings:
    """How sure the witness must be, and how much it is believed (fitted on calibration scenes)."""

    doubt: float = 0.005
    """A card is asked when another suit of its best card's rank holds at least this posterior."""
    symbol: float = 0.5
    """A blob counts as a suit symbol when the model gives "not a symbol" less than 1 - this."""
    agree: float = 0.6
    """The symbols naming the same suit must hold at least this share of a card's symbols' weight."""
    power: float = 1.0
    """The pooled likelihood is raised to this power (below 1: believed less)."""
    floor: float = 0.02
    """Every suit keeps at least this likelihood, so the body alone never rules a suit out."""
    court_floor: float = 0.1
    """The same for a card the corners take for a jack, queen or king: a court card's small symbols
    sit against its picture and are read less surely (on 300 calibration scenes the bodies of 397
    of 429 court cards named the right suit, of 2,033 number cards and aces 2,031)."""

    def __post_init__(self) -> None:
        shares = {"doubt": self.doubt, "symbol": self.symbol, "agree": self.agree, "floor": self.floor,
                  "court_floor": self.court_floor}  # fmt: skip
        bad = [f"{name}={value!r}" for name, value in shares.items() if not 0.0 <= value <= 1.0]
        if not 0.0 < self.power <= 4.0:
            bad.append(f"power={self.power!r}")
        if bad:  # NaN fails every comparison, so it lands here too
            raise ModelError(f"suit witness settings out of range: {', '.join(bad)} (shares lie in 0..1, "
                             "the power in (0, 4])")  # fmt: skip


class SuitWitness:
    """The suit model and its settings. ``SuitWitness.load()`` takes the shipped ``models/suits.onnx``."""

    def __init__(self, model: Path, settings: WitnessSettings | None = None) -> None:
        import onnxruntime as ort

        if not model.is_file():
            raise ModelError(f"suit model {model} is missing; train it with python -m vision.train.suits")
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self._session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        except Exception as error:  # onnxruntime raises its own untyped errors
            raise ModelError(f"cannot load suit model {model}: {error}") from None
        (given,), outputs = self._session.get_inputs(), self._session.get_outputs()
        if given.name != "symbols" or list(given.shape[1:]) != [2, SYMBOL, SYMBOL] or len(outputs) != 1 or (
                outputs[0].shape[-1] != len(CLASSES)):  # fmt: skip
            raise ModelError(f"{model} is not a suit model: it takes {given.name} {given.shape} and gives "
                             f"{[o.shape for o in outputs]}; expected symbols N×2×{SYMBOL}×{SYMBOL} → "
                             f"N×{len(CLASSES)} logits (python -m vision.train.suits)")  # fmt: skip
        self.settings = settings or WitnessSettings()

    @staticmethod
    def load(models_dir: Path = MODELS_DIR) -> SuitWitness:
        """The model in ``models_dir`` with the settings of its ``suits.json`` (defaults if it has none)."""
        path = models_dir / "suits.json"
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            raise ModelError(f"cannot read suit model settings {path}: {error}") from None
        if not isinstance(data, dict) or not isinstance(data.get("witness", {}), dict):
            raise ModelError(f"{path} must hold a JSON object (classes, symbol, witness settings)")
        if list(data.get("classes", ())) != list(CLASSES) or data.get("symbol") != SYMBOL:
            raise ModelError(
                f"{path} was made for other classes or symbol size; retrain with python -m vision.train.suits"
            )
        try:
            settings = WitnessSettings(**data.get("witness", {}))
        except TypeError as error:
            raise ModelError(f"{path}: unusable witness settings: {error}") from None
        return SuitWitness(models_dir / "suits.onnx", settings)

    def read_symbols(self, crops: np.ndarray) -> np.ndarray:
        """Symbol crops (N, SYMBOL, SYMBOL, 3) BGR → class probabilities (N, 5): c, d, h, s, none."""
        if not len(crops):
            return np.zeros((0, len(CLASSES)))
        (logits,) = self._session.run(None, {"symbols": prepare_crops(crops)})
        out: np.ndarray = softmax(logits.astype(np.float64))
        return out

    def bodies(self, corners: np.ndarray, *, pyramid: Pyramid) -> np.ndarray:
        """The straightened cards (N, BODY height, BODY width, 3) of ``corners`` in the reader's order."""
        return card_regions(pyramid, list(corners), (0.0, 0.0, 1.0, 1.0), BODY, ordered=True)

    def body_likelihood(self, body: np.ndarray, *, court: bool = False) -> np.ndarray | None:
        """The suit likelihood (4,) one straightened card's body gives, or None when it says nothing."""
        (probabilities,) = self.body_symbols([body])
        return self.pool(probabilities, court=court) if len(probabilities) else None

    def body_symbols(self, bodies: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Class probabilities (M, 5) of the symbol-like blobs of each straightened card.

        A small blob the model takes for no symbol is looked at again in parts (the box shrunk to
        55 % and 75 %, kept at each of its corners): a court card's symbol often runs into its
        picture's frame or paint, and the blob's box is then larger than the symbol. The likeliest
        symbol among the parts stands for the blob when it is one.
        """
        all_boxes = [symbol_boxes(body) for body in bodies]
        crops = [crop_symbol(body, box) for body, boxes in zip(bodies, all_boxes, strict=True) for box in boxes]
        found = self.read_symbols(np.stack(crops) if crops else np.zeros((0, SYMBOL, SYMBOL, 3), np.uint8))
        out: list[np.ndarray] = []
        again: list[tuple[int, int]] = []
        parts: list[np.ndarray] = []
        start = 0
        for k, (body, boxes) in enumerate(zip(bodies, all_boxes, strict=True)):
            probabilities = found[start : start + len(boxes)].copy()
            start += len(boxes)
            for j, box in enumerate(boxes):
                if probabilities[j, -1] >= 1.0 - self.settings.symbol and max(box[2] - box[0], box[3] - box[1]) <= (
                    _PART_OF * body.shape[1]
                ):
                    again.append((k, j))
                    parts.extend(crop_symbol(body, part) for part in _parts(box))
            out.append(probabilities)
        if again:
            looks = self.read_symbols(np.stack(parts)).reshape(len(again), -1, len(CLASSES))
            for (k, j), look in zip(again, looks, strict=True):
                best = look[int(np.argmin(look[:, -1]))]
                if best[-1] < 1.0 - self.settings.symbol:
                    out[k][j] = best
        return out

    def pool(self, probabilities: np.ndarray, *, court: bool = False) -> np.ndarray | None:
        """One card's symbols' class probabilities (M, 5) → suit likelihood (4,), or None (no symbol,
        or symbols that disagree). ``court``: the card is taken for a jack, queen or king.

        The symbols are grouped by the suit each names; the largest group (by how surely each is a
        symbol) must hold ``agree`` of the weight. Its symbols are one drawing printed several times,
        so they are pooled by a weighted geometric mean (as sure as one of them, not as their
        product), and the dissenting share is mixed back in as "any suit"."""
        s = self.settings
        weight = 1.0 - probabilities[:, -1]
        keep = weight >= s.symbol
        if not keep.any():
            return None
        suits = probabilities[keep, :4] / np.maximum(probabilities[keep, :4].sum(axis=1, keepdims=True), 1e-9)
        w = weight[keep]
        named = suits.argmax(axis=1)
        shares = np.bincount(named, weights=w, minlength=4) / w.sum()
        best = int(np.argmax(shares))
        if shares[best] < s.agree:
            return None
        group = named == best
        pooled = np.exp((w[group, None] * np.log(suits[group] + 1e-6)).sum(axis=0) / w[group].sum())
        pooled = shares[best] * pooled / pooled.sum() + (1.0 - shares[best]) / 4.0
        likelihood: np.ndarray = pooled**s.power
        likelihood = np.maximum(likelihood / likelihood.max(), s.court_floor if court else s.floor)
        return likelihood

    def asked(self, posterior: np.ndarray, *, threshold: float | np.ndarray = 0.0, least: float | None = None
              ) -> np.ndarray:  # fmt: skip
        """Which cards' suit the voted posterior (N, 52) leaves in doubt (bool per card).

        With a ``threshold`` (the reader's, or one per card: the posterior each card's height asks,
        :attr:`vision.evidence.Evidence.required`), only the cards the body could still settle are
        asked: those for which the likeliest answer the body can give (one suit at full weight, the
        others at the floor) lifts some card to it. A card whose rank is in deep doubt stays unsure
        whatever its suit, and looking at its body (a court card's picture: many blobs) would only
        cost time. With ``least`` (the reader's own threshold), a card whose best posterior reaches
        ``least`` but not its own ``threshold`` is in doubt however little the other suits hold:
        below the caution height the corners take a small club for a spade at 0.99 and more, and
        the body's symbols, larger than the index's, are the witness that can settle it."""
        n = len(posterior)
        best = posterior.argmax(axis=1)
        rank = best // 4
        suits = posterior.reshape(n, 13, 4)[np.arange(n), rank]  # (N, 4): the best rank's four suits
        other = np.where(np.arange(4)[None, :] == (best % 4)[:, None], -1.0, suits).max(axis=1)
        out: np.ndarray = other >= self.settings.doubt
        if least is not None:
            top = posterior[np.arange(n), best]
            out |= (top >= least) & (top < threshold)
        if np.any(np.asarray(threshold) > 0.0):
            by_suit = posterior.reshape(n, 13, 4)
            mass, top_by_suit = by_suit.sum(axis=1), by_suit.max(axis=1)  # (N, 4) each
            court = (rank >= COURT_RANKS[0]) & (rank <= COURT_RANKS[-1])  # np.isin costs 0.1 ms here
            floor = np.where(court, self.settings.court_floor, self.settings.floor)[:, None]
            reachable = (top_by_suit / np.maximum(mass + floor * (1.0 - mass), 1e-12)).max(axis=1)
            out &= reachable >= threshold
        return out

    def evidence(self, frame: np.ndarray, corners: np.ndarray, posterior: np.ndarray, *,
                 pyramid: Pyramid | None = None, asked: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
        """Suit likelihoods (N, 4) (c, d, h, s; rows of ones where the body is silent or not asked).

        ``frame`` BGR uint8, ``corners`` (N, 4, 2) in the reader's order (clockwise from the card's
        upright top left), ``posterior`` (N, 52) the corners' voted posterior (card id = rank * 4 +
        suit); ``asked`` (N,) bool overrides which cards are looked at (default :meth:`asked`).
        """
        corners, posterior = _check(frame, corners, posterior)
        out = np.ones((len(corners), 4))
        which = self.asked(posterior) if asked is None else np.asarray(asked, bool)
        if which.shape != (len(corners),):
            raise FrameError(f"asked must be one bool per card ({len(corners)}), got shape {which.shape}")
        picked = np.flatnonzero(which)
        if not len(picked):
            return out
        bodies = self.bodies(corners[picked], pyramid=pyramid or Pyramid(frame))
        return self.likelihoods(self.body_symbols(list(bodies)), posterior, picked)

    def likelihoods(self, symbols: Sequence[np.ndarray], posterior: np.ndarray, picked: np.ndarray) -> np.ndarray:
        """Suit likelihoods (N, 4) of the cards ``picked`` (rows of ``posterior``, (N, 52)) from
        their bodies' symbols (:meth:`body_symbols`, one array per picked card); rows of ones for
        the others and where a body is silent."""
        out = np.ones((len(posterior), 4))
        court = np.isin(posterior.argmax(axis=1) // 4, COURT_RANKS)
        for i, probabilities in zip(picked, symbols, strict=True):
            row = self.pool(probabilities, court=bool(court[i])) if len(probabilities) else None
            if row is not None:
                out[i] = row
        return out


def _check(frame: Any, corners: Any, posterior: Any) -> tuple[np.ndarray, np.ndarray]:
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        got = f"{frame.dtype} {frame.shape}" if isinstance(frame, np.ndarray) else type(frame).__name__
        raise FrameError(f"frame must be an H×W×3 uint8 BGR array, got {got}")
    if min(frame.shape[:2]) < 1:
        raise FrameError(f"frame is empty (shape {frame.shape})")
    c = np.asarray(corners, np.float64)
    if c.ndim != 3 or c.shape[1:] != (4, 2) or not np.isfinite(c).all():
        raise FrameError(f"corners must be finite (N, 4, 2) pixel coordinates, got shape {c.shape}")
    p = np.asarray(posterior, np.float64)
    if p.shape != (len(c), 52) or not np.isfinite(p).all() or (p < 0).any():
        raise FrameError(
            f"posterior must be (N, 52) non-negative finite numbers for {len(c)} cards, got shape {p.shape}"
        )
    return c, p


def symbol_boxes(body: np.ndarray) -> list[tuple[float, float, float, float]]:
    """Boxes (x0, y0, x1, y1 body pixels) of the blobs of ink in a straightened card's body that may
    be suit symbols: of a symbol's size and shape, clear of the index corners and of the card's edge.

    Ink is what Otsu's threshold splits from the paper in the body's middle; a symbol touching a
    thin line (a court picture's frame) is also looked for with the thin lines opened away.
    """
    h, w = body.shape[:2]
    grey = cv2.cvtColor(body, cv2.COLOR_BGR2GRAY)
    margin_x, margin_y = int(w * 0.06), int(h * 0.04)
    inner = grey[margin_y : h - margin_y, margin_x : w - margin_x]
    level, _ = cv2.threshold(inner, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    flat = inner.ravel()
    paper = float(np.partition(flat, int(0.9 * (len(flat) - 1)))[int(0.9 * (len(flat) - 1))])  # its 90th percentile
    if paper - level < 25:  # no ink that stands out from the paper (a blank or washed-out card)
        return []
    ink = np.zeros_like(grey)
    ink[margin_y : h - margin_y, margin_x : w - margin_x] = (inner < level).astype(np.uint8) * 255
    masks = [ink, *_dark_ink(inner, level, (margin_x, margin_y), grey.shape)]
    for size in (3, 5):  # thin lines opened away, then the symbol's own thin parts (a stem) put back
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        opened = cv2.morphologyEx(ink, cv2.MORPH_OPEN, kernel)
        masks.append(cv2.bitwise_and(cv2.dilate(opened, kernel), ink))
    found = []
    for mask in masks:
        _, _, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
        x, y, bw, bh, area = stats[1:].T
        cx, cy = centres[1:].T
        side, short = np.maximum(bw, bh), np.minimum(bw, bh)
        fill = area / np.maximum(bw * bh, 1)
        shaped = (side >= _SIZE[0]) & (side <= _SIZE[1]) & (short >= 0.4 * side) & (fill >= 0.25) & (fill <= 0.95)
        in_index = ((cx < _INDEX_X * w) | (cx > (1 - _INDEX_X) * w)) & ((cy < _INDEX_Y * h) | (cy > (1 - _INDEX_Y) * h))
        # a blob cut by the edge of the looked-at region is not a whole symbol
        inside = (x > margin_x) & (y > margin_y) & (x + bw < w - margin_x) & (y + bh < h - margin_y)
        k = shaped & ~in_index & inside
        found.append(np.stack([x[k], y[k], x[k] + bw[k], y[k] + bh[k]], axis=1).astype(np.float64))
    candidates = np.concatenate(found)
    overlap = _iou(candidates)
    kept: list[int] = []
    for i in range(len(candidates)):  # the first of blobs found again by a later mask stands for them
        if not (overlap[i, kept] > 0.6).any():
            kept.append(i)
    return [(float(a), float(b), float(c), float(d)) for a, b, c, d in candidates[kept]]


def _dark_ink(inner: np.ndarray, level: float, offset: tuple[int, int], shape: tuple[int, ...]) -> list[np.ndarray]:
    """The darkest ink alone, when the ink is of two clearly different greys (a black symbol touching
    a court picture's blue or yellow paint): Otsu's threshold again, among the ink's pixels."""
    values = inner[inner < level]
    if len(values) < 30:
        return []
    dark_level, _ = cv2.threshold(values.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    dark, light = values[values <= dark_level], values[values > dark_level]
    if not len(dark) or not len(light) or float(light.mean()) - float(dark.mean()) < 40:
        return []
    out = np.zeros(shape, np.uint8)
    x, y = offset
    out[y : y + inner.shape[0], x : x + inner.shape[1]] = (inner <= dark_level).astype(np.uint8) * 255
    return [out]


def _parts(box: tuple[float, float, float, float]) -> list[tuple[float, float, float, float]]:
    """Smaller boxes inside ``box``: 55 % and 75 % of its size, at each of its four corners."""
    x0, y0, x1, y1 = box
    out = []
    for share in (0.55, 0.75):
        w, h = (x1 - x0) * share, (y1 - y0) * share
        side = max(w, h)
        for ax, ay in ((x0, y0), (x1 - side, y0), (x0, y1 - side), (x1 - side, y1 - side)):
            out.append((ax, ay, ax + side, ay + side))
    return out


def _iou(boxes: np.ndarray) -> np.ndarray:
    """Intersection over union of every pair of boxes (M, 4) → (M, M)."""
    x0, y0, x1, y1 = boxes.T
    ix = np.clip(np.minimum(x1[:, None], x1[None]) - np.maximum(x0[:, None], x0[None]), 0.0, None)
    iy = np.clip(np.minimum(y1[:, None], y1[None]) - np.maximum(y0[:, None], y0[None]), 0.0, None)
    inter = ix * iy
    area = (x1 - x0) * (y1 - y0)
    union = area[:, None] + area[None] - inter
    out: np.ndarray = np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0)
    return out


_DEFAULT_LOCK = threading.Lock()


@functools.cache
def _default() -> SuitWitness:
    return SuitWitness.load()


def suit_evidence(frame: np.ndarray, corners: np.ndarray, posterior: np.ndarray, *, pyramid: Pyramid,
                  asked: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """Suit likelihoods (N, 4) from the cards' bodies with the shipped suit model (rows of ones where
    the body says nothing or the corners leave no doubt): see :meth:`SuitWitness.evidence`.
    ``asked`` (N,) bool, e.g. the face-up cards in doubt, overrides which cards are looked at."""
    with _DEFAULT_LOCK:
        witness = _default()
    return witness.evidence(frame, corners, posterior, pyramid=pyramid, asked=asked)


def apply_evidence(posterior: np.ndarray, likelihood: np.ndarray) -> np.ndarray:
    """Each card's posterior (N, 52) times its suit likelihood (N, 4) over every rank, renormalised."""
    out = posterior * np.tile(likelihood, (1, 13))
    result: np.ndarray = out / np.maximum(out.sum(axis=1, keepdims=True), 1e-300)
    return result
