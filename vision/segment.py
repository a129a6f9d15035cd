"""Learned card segmentation: which pixels are card, and which lie deep inside one card.

A small fully convolutional network (``models/detector.onnx``, trained on rendered tables by
``python -m vision.train.seg_train``) looks at the detector's small copy of the frame and answers,
at half that resolution, two probabilities per pixel:

- **card**: the pixel shows a card (any card, face up or down);
- **core**: the pixel lies inside one card's visible part, at least a fifth of that card's width
  from its visible edge.

Cores of touching or overlapping cards never touch, so each connected core is one card. Each card's
pixels are the card pixels nearest its core; their outline becomes a quad, which the detector then
moves onto the card's rim at full resolution (:func:`vision.detect.refine`). No threshold depends
on the table's colour or the room's light: the network learned them from thousands of rendered
tables.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import ModelError

STRIDE = 16
"""Input sides are padded to a multiple of this (the network downsamples four times)."""

OUT_SCALE = 2
"""The network answers at 1/OUT_SCALE of its input's resolution."""

CORE_FRACTION = 0.2
"""A core pixel lies at least this fraction of its card's shorter side inside the card's visible part."""


def prepare_frame(small_bgr: np.ndarray) -> np.ndarray:
    """BGR uint8 (H, W, 3) → float32 (1, 3, H', W'), H' and W' padded up to a multiple of STRIDE.

    Each channel is centred on the frame's own mean and divided by the frame's spread, so the
    room's brightness and the camera's exposure do not matter. Shared by training and run time.
    """
    h, w = small_bgr.shape[:2]
    mean, deviation = cv2.meanStdDev(small_bgr)
    mean, deviation = mean.ravel() / 255, deviation.ravel() / 255
    # The spread of all three channels together, from each channel's mean and deviation.
    spread = float(np.sqrt(max(float(np.mean(deviation**2 + mean**2) - np.mean(mean) ** 2), 0.0))) + 0.05
    ph, pw = -h % STRIDE, -w % STRIDE
    if ph or pw:
        small_bgr = cv2.copyMakeBorder(small_bgr, 0, ph, 0, pw, cv2.BORDER_REFLECT)
    blob: np.ndarray = cv2.dnn.blobFromImage(small_bgr, 1 / (255 * spread), mean=tuple(float(v) * 255 for v in mean),
                                             swapRB=False, crop=False)  # fmt: skip
    return blob


@dataclass(frozen=True)
class SegmenterSettings:
    """From ``models/detector.json``: the work width the network was trained for, thresholds."""

    work_width: int
    card_threshold: float
    core_threshold: float

    @staticmethod
    def load(path: Path) -> SegmenterSettings:
        try:
            data = json.loads(path.read_text())
            return SegmenterSettings(int(data["work_width"]), float(data["card_threshold"]),
                                     float(data["core_threshold"]))  # fmt: skip
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ModelError(f"cannot read detector settings {path}: {error}") from None


class CardSegmenter:
    """Runs ``detector.onnx`` on a small frame: card and core probabilities at the frame's size."""

    def __init__(self, session: Any, settings: SegmenterSettings) -> None:
        self._session = session
        self._input = session.get_inputs()[0].name
        self.settings = settings

    @classmethod
    def load(cls, models_dir: Path, options: Any, providers: list[str]) -> CardSegmenter | None:
        """The segmenter in ``models_dir``, or None when the folder has no ``detector.onnx``."""
        import onnxruntime as ort

        path = models_dir / "detector.onnx"
        if not path.is_file():
            return None
        settings = SegmenterSettings.load(models_dir / "detector.json")
        try:
            session = ort.InferenceSession(str(path), options, providers=providers)
        except Exception as error:  # onnxruntime raises its own untyped errors
            raise ModelError(f"cannot load model {path}: {error}") from None
        return cls(session, settings)

    def probabilities(self, small_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Card and core probabilities (float32, H×W each) for a small BGR frame."""
        h, w = small_bgr.shape[:2]
        (logits,) = self._session.run(None, {self._input: prepare_frame(small_bgr)})
        half = logits[0, :, : -(-h // OUT_SCALE), : -(-w // OUT_SCALE)]
        prob = 1.0 / (1.0 + np.exp(-half.astype(np.float32)))
        card = cv2.resize(prob[0], (w, h), interpolation=cv2.INTER_LINEAR)
        core = cv2.resize(prob[1], (w, h), interpolation=cv2.INTER_LINEAR)
        return card, core


_CRUMB = 0.15
_SPLIT_LEVELS = (0.65, 0.8, 0.9)
_COMPACT = 0.35
_SURE = 0.8
_HYSTERESIS = 0.7


@dataclass(frozen=True)
class Instance:
    """One card's pixels: ``mask`` (uint8, 1 = the card's) covers the box whose top left is (x, y)."""

    x: int
    y: int
    mask: np.ndarray

    def full(self, shape: tuple[int, ...]) -> np.ndarray:
        """The mask at the size of the whole map (H, W)."""
        out = np.zeros(shape[:2], np.uint8)
        h, w = self.mask.shape
        out[self.y : self.y + h, self.x : self.x + w] = self.mask
        return out


Cores = tuple[int, np.ndarray, np.ndarray]
"""Connected cores: their count, label map and connectedComponentsWithStats rows."""


def cores(core: np.ndarray, *, core_threshold: float = 0.5, min_area: float = 20.0, split: bool = False) -> Cores:
    """The cores of :func:`instances` (``split`` as there): regions the network is fairly sure of,
    each split, with ``split``, into the parts where it is surer."""
    # Hysteresis: a core is a region the network is fairly sure of (above 0.7 of the threshold) that
    # holds at least one sure pixel. A sticker or a big pip in a card's middle makes the network
    # unsure there; it is not sure of anything in the gap between two cards' cores.
    weak = (core > core_threshold * _HYSTERESIS).astype(np.uint8)
    # 8-connected, as distanceTransformWithLabels numbers the cores below.
    count, labels, stats, _ = cv2.connectedComponentsWithStats(weak, connectivity=8)
    return split_cores(core, (count, labels, stats), min_area) if split else (count, labels, stats)


def split_cores(core: np.ndarray, found: Cores, min_area: float) -> Cores:
    """The cores ``found`` with each split into the parts it has where the network is surer (above
    each of :data:`_SPLIT_LEVELS` in turn). As many cores as before: none split, and the same."""
    count, labels, stats = found
    for level in _SPLIT_LEVELS:
        count, labels, stats = _split_cores(core, level, count, labels, stats, max(min_area * 0.1, 3))
    return count, labels, stats


def instances(card: np.ndarray, core: np.ndarray, *, card_threshold: float = 0.5, core_threshold: float = 0.5,
              min_area: float = 20.0, split: bool = False, found: Cores | None = None) -> list[Instance]:  # fmt: skip
    """One instance per card: each core with the card pixels of its patch nearest to it.

    A core alone on its patch of card pixels takes the whole patch. Where several cores share a
    patch (cards touching), a pixel joins the nearest core only if it is no further from it than
    the core's own size suggests the card's rim can be (cores lie a fifth of a card's width inside).

    With ``split``, a core that holds two parts or more where the network is surer (above each of
    :data:`_SPLIT_LEVELS` in turn) is split among them: the cores of cards packed close (a grid
    seen from afar) run together where the network is only fairly sure. Not by default: the core
    of a court card can part the same way across its picture. ``found``: the :func:`cores` of
    ``core`` (with ``split`` as given), when the caller has them.
    """
    pixels = card > card_threshold
    count, labels, stats = found if found is not None else cores(core, core_threshold=core_threshold,
                                                                 min_area=min_area, split=split)  # fmt: skip
    surely = core > core_threshold
    on_sure = labels[surely]
    sure = np.bincount(on_sure, minlength=count) > 0
    sure[0] = False
    area = stats[:, cv2.CC_STAT_AREA]
    keep = np.flatnonzero(sure & (area >= max(min_area * 0.1, 3)))
    if not len(keep):
        return []
    _, blobs, blob_stats, _ = cv2.connectedComponentsWithStats((pixels | sure[labels]).astype(np.uint8),
                                                               connectivity=8)  # fmt: skip
    blob_of = np.zeros(count, np.int64)
    blob_of[on_sure] = blobs[surely]  # every pixel of a sure core lies on its blob, and it has sure ones
    # A crumb of core beside a much larger one on the same patch of card is a piece of it broken
    # off (a close card's busy face), not a card of its own: it goes. Beside it: within the larger
    # core's box grown by half its size (cores far apart on one patch are cards of their own, on a
    # cloth the network took for card).
    if len(keep) > 1:  # a crumb is beside another core
        keep = keep[~_crumbs(stats[keep], blob_of[keep])]
    on_blob = np.bincount(blob_of[keep], minlength=len(blob_stats))
    seeds = np.zeros(count, bool)
    seeds[keep] = True  # specks and crumbs claim no pixels
    out = []
    shared: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for k in keep:
        b = int(blob_of[k])
        bx, by, bw, bh = (int(v) for v in blob_stats[b, :4])
        patch = blobs[by : by + bh, bx : bx + bw] == b
        if on_blob[b] > 1:  # cards touching: each pixel goes to the nearest core, within reach
            if b not in shared:
                free = (~(seeds[labels[by : by + bh, bx : bx + bw]] & patch)).astype(np.uint8)
                shared[b] = cv2.distanceTransformWithLabels(free, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_CCOMP)
            distance, nearest = shared[b]
            x, y, w, h = (int(v) for v in stats[k, :4])
            own_core = (labels[y : y + h, x : x + w] == k).astype(np.uint8)
            contours, _ = cv2.findContours(own_core, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            rim = np.concatenate(contours).reshape(-1, 2)
            own = nearest[y + rim[0, 1] - by, x + rim[0, 0] - bx]
            sides = cv2.minAreaRect(rim.astype(np.float32))[1]
            # A whole core lies a fifth of the card's width inside it; a broken one (a close card
            # with a busy face) may be thin, so its length bounds the reach too.
            reach = max(2.5, (min(sides) + 1) * CORE_FRACTION / (1 - 2 * CORE_FRACTION) * 1.6 + 1.5, 0.6 * max(sides))
            patch = patch & (nearest == own) & (distance <= reach)
        mask = patch.astype(np.uint8)
        # A card is a card throughout: a patch the network is only half sure of is not one (the
        # vignetted edge of a dark cloth, a glare).
        if cv2.countNonZero(mask) >= min_area and cv2.mean(card[by : by + bh, bx : bx + bw], mask)[0] >= _SURE:
            out.append(Instance(bx, by, mask))
    return out


def _crumbs(stats: np.ndarray, blob: np.ndarray) -> np.ndarray:
    """Which cores (their connected-component ``stats`` rows, on patches ``blob``) are crumbs: less
    than :data:`_CRUMB` of the area of a compact core (filling :data:`_COMPACT` of its box at
    least, as a card's does even turned 45°) on the same patch whose box, grown by half its size,
    holds their centre."""
    x, y, w, h, area = (stats[:, k].astype(np.float64) for k in range(5))
    cx, cy = x + w / 2, y + h / 2
    grow = np.maximum(w, h) / 2
    near = ((cx[:, None] >= x[None] - grow[None]) & (cx[:, None] <= x[None] + w[None] + grow[None])
            & (cy[:, None] >= y[None] - grow[None]) & (cy[:, None] <= y[None] + h[None] + grow[None]))  # fmt: skip
    compact = area >= _COMPACT * w * h  # a card's core, not a cloth's scattered patches taken for one
    larger = (area[:, None] < _CRUMB * area[None]) & (blob[:, None] == blob[None]) & compact[None]
    out: np.ndarray = (near & larger).any(axis=1)
    return out


def _split_cores(core: np.ndarray, level: float, count: int, labels: np.ndarray, stats: np.ndarray, least: float
                 ) -> tuple[int, np.ndarray, np.ndarray]:  # fmt: skip
    """The cores (connected components ``labels`` of ``count`` labels, with their ``stats``) with each
    one that holds two parts or more above ``level`` (each at least ``least`` pixels and
    :data:`_CRUMB` of the largest part) split among those parts, every pixel to the nearest."""
    parts_count, parts, part_stats, _ = cv2.connectedComponentsWithStats((core > level).astype(np.uint8),
                                                                         connectivity=8)  # fmt: skip
    if parts_count <= 2:
        return count, labels, stats
    owner = np.zeros(parts_count, np.int64)
    owner[parts] = labels  # each part lies within one core
    area = part_stats[:, cv2.CC_STAT_AREA]
    largest = np.zeros(count, np.int64)
    np.maximum.at(largest, owner[1:], area[1:])
    real = (area >= least) & (area >= _CRUMB * largest[owner])
    real[0] = False
    per_core = np.bincount(owner[real], minlength=count)
    per_core[0] = 0
    split = np.flatnonzero(per_core >= 2)
    if not len(split):
        return count, labels, stats
    labels = labels.copy()
    for k in split:
        x, y, w, h = (int(v) for v in stats[k, :4])
        own = labels[y : y + h, x : x + w] == k
        mine = np.flatnonzero(real & (owner == k))
        seeds = np.isin(parts[y : y + h, x : x + w], mine) & own
        _, nearest = cv2.distanceTransformWithLabels((~seeds).astype(np.uint8), cv2.DIST_L2, 5,
                                                     labelType=cv2.DIST_LABEL_CCOMP)  # fmt: skip
        # Renumber: the first part keeps the core's label, the others get new ones.
        ids = np.unique(nearest[seeds])
        new = np.concatenate([[k], count + np.arange(len(ids) - 1)])
        lookup = np.zeros(int(nearest.max()) + 1, np.int64)
        lookup[ids] = new
        region = labels[y : y + h, x : x + w]
        region[own] = lookup[nearest[own]]
        count += len(ids) - 1
    return count, labels, _stats(labels, count)


def _stats(labels: np.ndarray, count: int) -> np.ndarray:
    """The rows (x, y, width, height, area) of labels 0..count-1 of ``labels``, as
    connectedComponentsWithStats gives them (the background's row is left empty)."""
    ys, xs = np.nonzero(labels)
    lab = labels[ys, xs]
    low = np.stack([np.full(count, labels.shape[1]), np.full(count, labels.shape[0])])
    high = np.full((2, count), -1)
    for axis, values in enumerate((xs, ys)):
        np.minimum.at(low[axis], lab, values)
        np.maximum.at(high[axis], lab, values)
    stats = np.zeros((count, 5), np.int32)
    stats[:, 0], stats[:, 1] = low
    stats[:, 2], stats[:, 3] = np.maximum(high - low + 1, 0)
    stats[:, 4] = np.bincount(lab, minlength=count)
    return stats
