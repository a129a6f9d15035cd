"""Where the hard hold-out loses cards: every card counted by what makes it hard, one dimension at
a time (used by :mod:`bench.vision`).

A hard table mixes several difficulties (a grid on wood under a tilted camera), so the kinds of
table alone do not say which one costs the cards. Each card not cut by the frame's edge is put
in one bin per dimension:

- ``size``: its height as a share of the frame's height (the longer side of the rectangle round
  its outline as drawn): under 5 %, 5-10 %, 10-20 %, 20-40 %, 40 % and more;
- ``tilt``: the camera's tilt from straight down: none, under 15°, 15-30°, 30-45°;
- ``surface``: the table it lies on: a plain table (:data:`vision.render.scene.TABLES`) or the name
  of a procedural surface (:data:`vision.render.scene_surfaces.SURFACES`: wood, patterned or dark cloth);
- ``grid``: whether it lies in a dense grid (the ``grid`` kind: 52 cards touching) or not;
- ``clutter``: whether things lie beside the cards (paper, a keyboard, a phone).

Each bin counts its cards, the found ones, the face-up ones and those read right.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.render.scene_layouts import SceneOptions
from vision.render.scene_surfaces import SURFACES

DIMENSIONS = ("size", "tilt", "surface", "grid", "clutter")
"""The dimensions a hard card is counted by, in the order they are printed."""

SIZE_BINS = ((0.05, "<5%"), (0.10, "5-10%"), (0.20, "10-20%"), (0.40, "20-40%"), (float("inf"), ">=40%"))
"""Upper bounds (share of the frame's height, exclusive) and names of the size bins."""

TILT_BINS = ((0.0, "none"), (15.0, "<15°"), (30.0, "15-30°"), (float("inf"), "30-45°"))
"""Upper bounds (degrees, inclusive for "none", exclusive otherwise) and names of the tilt bins."""


def card_height(corners: np.ndarray, frame_height: int) -> float:
    """A card's height as a share of the frame's: the longer side of the rectangle round its outline."""
    return float(max(cv2.minAreaRect(np.asarray(corners, np.float32))[1])) / frame_height


def size_bin(share: float) -> str:
    return next(name for bound, name in SIZE_BINS if share < bound)


def tilt_bin(tilt: float) -> str:
    if tilt <= TILT_BINS[0][0]:
        return TILT_BINS[0][1]
    return next(name for bound, name in TILT_BINS[1:] if tilt < bound)


def card_bins(corners: np.ndarray, options: SceneOptions, kind: str) -> dict[str, str]:
    """The bin of one card (``corners`` as drawn) of a hard table of ``kind`` in every dimension."""
    table = options.table or ""
    return {
        "size": size_bin(card_height(corners, options.size[1])),
        "tilt": tilt_bin(options.camera.tilt if options.camera is not None else 0.0),
        "surface": table if table in SURFACES else "plain",
        "grid": "grid" if kind == "grid" else "not grid",
        "clutter": "clutter" if options.clutter else "none",
    }


@dataclass
class Breakdown:
    """Counts per dimension and bin: cards, found, face up, read right."""

    counts: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)

    def add(self, bins: dict[str, str], *, found: bool, face_up: bool, right: bool) -> None:
        """Count one card (``right``: face up and named correctly) in each of its ``bins``."""
        for dimension, name in bins.items():
            c = self.counts.setdefault(dimension, {}).setdefault(name, dict.fromkeys(("cards", "found", "face_up",
                                                                                        "right"), 0))  # fmt: skip
            c["cards"] += 1
            c["found"] += found
            c["face_up"] += face_up
            c["right"] += right

    def lines(self) -> list[str]:
        """One line per dimension: each bin's found and read-right shares and the cards lost there."""
        out = []
        for dimension in DIMENSIONS:
            bins = self.counts.get(dimension, {})
            parts = []
            for name in sorted(bins, key=lambda n: _order(dimension, n)):
                c = bins[name]
                parts.append(f"{name} {c['found']}/{c['cards']} found ({c['found'] / max(c['cards'], 1):.0%}), "
                             f"{c['right']}/{c['face_up']} read")  # fmt: skip
            out.append(f"{dimension:<8} " + "; ".join(parts))
        return out


def _order(dimension: str, name: str) -> tuple[int, str]:
    """Bins in their natural order (sizes and tilts ascending), the others by name."""
    table = {"size": [n for _, n in SIZE_BINS], "tilt": [n for _, n in TILT_BINS]}.get(dimension)
    if table is not None and name in table:
        return table.index(name), name
    return (0 if name in ("plain", "not grid", "none") else 1), name
