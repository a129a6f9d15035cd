"""The small-card reader: cards too small for their index to be read, named from the whole card.

A card under about 75 px tall (a whole table seen by a 2304-pixel camera, the far side of a tilted
one) shows an index only a few pixels high, smaller than any the corner models were trained on.
What still tells it apart is the whole card: the index, the number and the layout of the pips, a
court card's picture, the colour. :class:`SmallReader` straightens each such card to
``SMALL_W × SMALL_H`` pixels (:func:`whole_cards`) and reads it with one small CNN
(``models/small.onnx``, made by ``python -m vision.train.small``), which names one of the 52 cards
or "nothing to name" (:data:`NOTHING`: a back, a card straightened a quarter turn wrong, a piece
of the table). Its temperature and its own "unsure" threshold were fitted on rendered calibration
cards (``models/small.json``); the reader trusts it only for the card heights it was trained on.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.classify import prepare_crops, softmax
from vision.errors import ModelError
from vision.rectify import Pyramid, _samplings, card_homography

SMALL_W, SMALL_H = 40, 56
"""Size in pixels of a small card straightened for the small-card reader (the card's aspect)."""

NOTHING = 52
"""The reader's class for "nothing to name" (card ids are 0..51)."""


def whole_cards(frame: np.ndarray, cards: list[np.ndarray], *, pyramid: Pyramid | None = None) -> np.ndarray:
    """Every card (corners in the reader's order) straightened whole to (SMALL_H, SMALL_W): (N, H, W, 3) BGR."""
    if not len(cards):
        return np.empty((0, SMALL_H, SMALL_W, 3), np.uint8)
    pyramid = pyramid or Pyramid(frame)
    homographies = np.stack([card_homography(c) for c in cards])
    to_frames, shrinks = _samplings(homographies, (0.0, 0.0, 1.0, 1.0), (SMALL_W, SMALL_H), False)
    return np.stack(pyramid.warp_many(to_frames, shrinks, (SMALL_W, SMALL_H)))


@dataclass(frozen=True)
class SmallSettings:
    """The reader's temperature, its "unsure" threshold, and the card heights (px) it was trained on."""

    temperature: float
    threshold: float
    heights: tuple[float, float]

    @staticmethod
    def load(path: Path) -> SmallSettings:
        try:
            data = json.loads(path.read_text())
            settings = SmallSettings(float(data["temperature"]), float(data["threshold"]),
                                     (float(data["heights"][0]), float(data["heights"][1])))  # fmt: skip
        except (OSError, ValueError) as error:
            raise ModelError(f"cannot read small-card reader settings {path}: {error}") from None
        except (KeyError, TypeError, IndexError) as error:
            raise ModelError(f"small-card reader settings {path} lack a temperature, threshold or heights "
                             f"({error}); retrain with python -m vision.train.small") from None  # fmt: skip
        if not (settings.temperature > 0 and 0.0 < settings.threshold <= 1.0
                and 0 < settings.heights[0] < settings.heights[1]):  # fmt: skip
            raise ModelError(f"small-card reader settings {path} are out of range: {settings}")
        return settings


def both_ways(crops: np.ndarray) -> np.ndarray:
    """Each of :func:`whole_cards`' crops (N, H, W, 3) followed by the same crop turned half a turn:
    (2N, H, W, 3). A card is printed the same both ways up (an index in two opposite corners), so
    the turned crop is a second look at the same card, which the network was trained to read
    either way up; :func:`pooled` joins the two."""
    out: np.ndarray = np.stack([crops, crops[:, ::-1, ::-1]], axis=1).reshape(-1, *crops.shape[1:])
    return out


def pooled(logits: np.ndarray) -> np.ndarray:
    """The logits (2N, 53) of :func:`both_ways`' crops → (N, 53): each card's two looks averaged.
    Averaged, the reading is the same whichever way up the card was straightened."""
    out: np.ndarray = np.asarray(logits, np.float64).reshape(-1, 2, logits.shape[-1]).mean(axis=1)
    return out


class SmallReader:
    """The small-card model and its settings; ``SmallReader(models_dir)`` loads ``small.onnx`` and ``small.json``."""

    def __init__(self, models_dir: Path) -> None:
        import onnxruntime as ort

        model = models_dir / "small.onnx"
        if not model.is_file():
            raise ModelError(f"small-card model {model} is missing; train it with python -m vision.train.small")
        self.settings = SmallSettings.load(models_dir / "small.json")
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self._session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        except Exception as error:  # onnxruntime raises its own untyped errors
            raise ModelError(f"cannot load small-card model {model}: {error}") from None
        (given,), outputs = self._session.get_inputs(), self._session.get_outputs()
        classes = outputs[0].shape[-1] if len(outputs) == 1 else None
        if list(given.shape[1:]) != [2, SMALL_H, SMALL_W] or classes != NOTHING + 1:
            raise ModelError(f"{model} is not a small-card model: it takes {given.shape} and gives "
                             f"{[o.shape for o in outputs]}; expected N×2×{SMALL_H}×{SMALL_W} → "
                             f"N×{NOTHING + 1}")  # fmt: skip
        self._input = given.name
        self._lock = threading.Lock()

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """P(card) for each of :func:`whole_cards`' crops: (N, 53), the last column "nothing to name".
        Each card is read both ways up and its two looks averaged (:func:`both_ways`)."""
        if not len(crops):
            return np.zeros((0, NOTHING + 1))
        with self._lock:
            (logits,) = self._session.run(None, {self._input: prepare_crops(both_ways(crops))})
        out: np.ndarray = softmax(pooled(logits) / self.settings.temperature, axis=1)
        return out

    def reads(self, heights: np.ndarray) -> np.ndarray:
        """Which card heights (px) this reader is meant for: from its smallest training card up to
        (not including) the corner models' smallest, which it is only asked below."""
        low, _ = self.settings.heights
        out: np.ndarray = np.asarray(heights) >= low
        return out
