"""The joker check: is a card a joker, read from its two index corners.

A joker prints "JOKER" (often stacked letter by letter, or written down the side) or a star where
another card prints its index, and a picture in the middle (:mod:`vision.render.joker_faces` draws them).
The corner models know the 52 cards only: a joker's corner is "no index" to them, or an index they
may even read (the J of a stacked "JOKER" looks like a jack's). So a small CNN of its own
(``models/joker.onnx``, trained by ``python -m vision.train.joker``) looks at the same two index
crops and says, for each, how likely it is a joker's corner:

- a card one of whose corners reaches the threshold of ``joker.json`` is the joker, ``"Jk"``
  (:data:`table.cards.JOKER_ID` in arrays), face up whatever the card model said;
- a card one of whose corners reaches :data:`JokerCheck.doubt` is never named as one of the 52
  (it may be a joker the check is not sure of: unsure is better than a wrong card in a pot), and,
  when the corner models do not surely name it (the small-card reader's naming does not count:
  it knows only the 52), is looked at again (:meth:`JokerCheck.second_look`):
  its outline may be a little off, the mark cut at the crop's edge; it is the joker when two of
  those looks pass the threshold. A card the corner models surely name stays unsure: two looks of
  fifteen are too weak a cue against them (a king whose corner crop a neighbour's edge cut was
  doubted, and two of its looks passed);
- a card taken for face up that nothing names, whose outline the finder drew poorly (matching its
  patch of card pixels poorly: :data:`POOR_FIT`; an outline completed from a corner that fits its
  card well is not enough, or every card cut by the frame's edge would cost a wide look) or that the check
  faintly suspects (:data:`FAINT`), is looked for more widely (:meth:`JokerCheck.wide_look`): an
  outline drawn that badly is turned, moved and sized wrong by more than the second look's steps
  (the finder's outline of a card on a pale cloth, or of a card in a touching row pulled onto its
  neighbour), and the mark is often in none of the second look's crops. Backs are never looked
  at so widely: a back's white border turned and moved over its dark middle can pass for a
  joker's corner in a crop or two.

The reader asks it about the cards its corner models (or, for a card shorter than the corner
models' smallest, the small-card reader) do not surely name, and those they name a court card or
an ace (the stage ``joker`` of :mod:`vision.stages`), down to ``joker.json``'s
``min_card_height``: the smallest card the check was trained on.

The threshold was chosen above every other card's corner of the training fonts' check set
(``joker.json`` says by how much and what the check found on the hold-out fonts).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.classify import prepare_crops, softmax
from vision.errors import ModelError
from vision.rectify import Pyramid, index_crops

DOUBT = 0.5
"""A corner this likely a joker's keeps its card from being named as one of the 52."""
LOOK_SCALES = (0.94, 1.0, 1.06)
LOOK_SHIFTS = ((0.0, 0.0), (-0.04, 0.0), (0.04, 0.0), (0.0, -0.03), (0.0, 0.03))
"""A second look at a doubted card: its outline grown or shrunk by these factors about its centre,
and moved by these fractions of its width and height (15 outlines): a joker whose outline is a
little off (a row of cards lying on one another) shows its whole mark in some of them."""
LOOKS_AGREEING = 2
"""A doubted card is the joker when at least this many of its second looks pass the threshold."""
FAINT = 0.1
"""A corner this likely a joker's (below :data:`DOUBT`) has its card looked for widely when
nothing names it."""
POOR_FIT = 0.8
"""An outline that matches its patch of card pixels less than this (:attr:`vision.detect.Outline.fit`)
was drawn poorly: its card, when nothing names it, is looked for widely."""
WIDE_TURNS = (-24.0, -16.0, -8.0, 0.0, 8.0, 16.0, 24.0)
WIDE_SCALES = (0.9, 1.0, 1.1)
WIDE_SHIFTS = (-0.1, 0.0, 0.1)
"""The wide look about a poorly drawn outline: turned by these angles (degrees) about its centre,
grown or shrunk by these factors, and moved by these fractions of its width and height, along and
across (189 outlines; a poor outline found on the benchmark's tables is off by up to 25 degrees,
18 % of its width and a fifth of its size)."""
WIDE_AGREEING = 3
"""A card looked at widely is the joker when at least this many of those outlines pass the
threshold: more looks give a stray crop more chances than the second look's 15."""
MIN_HEIGHT = 75.0
"""The smallest card (pixels tall) a check is asked about when its ``joker.json`` does not say."""


@dataclass
class JokerCheck:
    """The joker model and its threshold (``joker.onnx``, ``joker.json``)."""

    session: Any
    threshold: float
    doubt: float = DOUBT
    min_height: float = MIN_HEIGHT
    """Cards shorter than this (pixels) are not asked: smaller than any the check was trained on."""

    @staticmethod
    def load(models_dir: Path, *, providers: Sequence[str] = ("CPUExecutionProvider",),
             options: Any = None) -> JokerCheck:  # fmt: skip
        """The check of ``models_dir``; ModelError naming the file when it cannot be used."""
        import onnxruntime as ort

        settings = models_dir / "joker.json"
        try:
            data = json.loads(settings.read_text())
            threshold = float(data["threshold"])
            min_height = float(data.get("min_card_height", MIN_HEIGHT))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            raise ModelError(f"cannot read the joker check's settings {settings}: {error}") from None
        if not DOUBT <= threshold < 1.0:
            raise ModelError(f"{settings}: threshold must be in {DOUBT}..1, got {threshold}")
        if not 16.0 <= min_height <= 1000.0:
            raise ModelError(f"{settings}: min_card_height must be 16..1000 pixels, got {min_height}")
        path = models_dir / "joker.onnx"
        try:
            session = ort.InferenceSession(str(path), options, providers=list(providers))
        except Exception as error:  # onnxruntime raises its own untyped errors
            raise ModelError(f"cannot load model {path}: {error}") from None
        return JokerCheck(session, threshold, min_height=min_height)

    def second_look(self, frame: np.ndarray, quads: np.ndarray, *, pyramid: Pyramid | None = None) -> np.ndarray:
        """A joker score for each card outline ``quads`` (N×4×2) from the :data:`LOOK_SCALES` ×
        :data:`LOOK_SHIFTS` outlines about it: the :data:`LOOKS_AGREEING`-th highest of their
        scores (each the larger of its two corners'), so one lucky crop names no joker."""
        quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
        looks = [
            (quad - quad.mean(axis=0)) * scale + quad.mean(axis=0) + dx * (quad[1] - quad[0]) + dy * (quad[3] - quad[0])
            for quad in quads
            for scale in LOOK_SCALES
            for dx, dy in LOOK_SHIFTS
        ]
        if not looks:
            return np.zeros(0)
        scores = self.corner_scores(index_crops(frame, looks, pyramid=pyramid)).max(axis=1).reshape(len(quads), -1)
        out: np.ndarray = -np.sort(-scores, axis=1)[:, LOOKS_AGREEING - 1]
        return out

    def wide_look(self, frame: np.ndarray, quads: np.ndarray, *, pyramid: Pyramid | None = None) -> np.ndarray:
        """A joker score for each card outline ``quads`` (N×4×2) from the :data:`WIDE_TURNS` ×
        :data:`WIDE_SCALES` × :data:`WIDE_SHIFTS` outlines about it: the :data:`WIDE_AGREEING`-th
        highest of their scores (each the larger of its two corners')."""
        quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
        looks = [look for quad in quads for look in wide_outlines(quad)]
        if not looks:
            return np.zeros(0)
        scores = self.corner_scores(index_crops(frame, looks, pyramid=pyramid)).max(axis=1).reshape(len(quads), -1)
        out: np.ndarray = -np.sort(-scores, axis=1)[:, WIDE_AGREEING - 1]
        return out

    def corner_scores(self, crops: np.ndarray) -> np.ndarray:
        """Index crops, two per card (top left, bottom right; BGR uint8) → (N, 2) P(a joker's corner)."""
        if len(crops) % 2:
            raise ValueError(f"the joker check takes two index crops per card, got {len(crops)}")
        if not len(crops):
            return np.zeros((0, 2))
        (logits,) = self.session.run(None, {"crops": prepare_crops(crops)})
        p: np.ndarray = softmax(logits.astype(np.float64))[:, 1].reshape(-1, 2)
        return p


def wide_outlines(quad: np.ndarray) -> list[np.ndarray]:
    """The outlines of a wide look about ``quad`` (4×2): turned, sized and moved as
    :data:`WIDE_TURNS`, :data:`WIDE_SCALES` and :data:`WIDE_SHIFTS` say, in that nesting."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    centre = quad.mean(axis=0)
    across, along = quad[1] - quad[0], quad[3] - quad[0]
    out = []
    for degrees in WIDE_TURNS:
        a = np.deg2rad(degrees)
        turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        turned = (quad - centre) @ turn.T
        for scale in WIDE_SCALES:
            for dx in WIDE_SHIFTS:
                for dy in WIDE_SHIFTS:
                    out.append(turned * scale + centre + dx * across + dy * along)
    return out
