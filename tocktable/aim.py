"""The set-up page's aim advice, worked out on the Pi: the camera's latest picture (as taken, not
drawn on), the cards the reader's card finder sees on it, and :func:`hardware.aim.aim_advice`.
Only the advice (words and numbers) goes to the page; the picture the page shows is the camera
page's, with its privacy masks.

In the demo the synthetic camera is on a :class:`hardware.camera_rig.CameraRig` that the page
can move (:meth:`AimCheck.move`); a real camera is moved by hand, and ``movable`` is False.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from hardware.aim import aim_advice
from hardware.camera_rig import CameraRig
from hardware.mounting import CAMERA_MODULE_3, Lens

Finder = Callable[[np.ndarray], Sequence[np.ndarray]]
"""A BGR frame → the pixel outlines (4 x 2) of the cards on it."""

MIN_SECONDS = 0.4
"""The advice is worked out at most this often, however many phones ask."""


def card_finder() -> Finder:
    """The card reader's own card finder: the learned one with the shipped detector model, else
    the classical steps of :func:`vision.detect.find_cards` (vision loads here, not at import)."""
    # the card finder (OpenCV, onnxruntime, the detector model) loads when the set-up page first asks
    from vision.detect import find_cards

    segmenter = None
    try:
        # the learned finder when onnxruntime and the shipped detector model are there
        import onnxruntime as ort

        from vision.reader import MODELS_DIR
        from vision.segment import CardSegmenter

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        segmenter = CardSegmenter.load(MODELS_DIR, options, ["CPUExecutionProvider"])
    except Exception:  # no onnxruntime or no model: the classical finder still measures
        segmenter = None

    def find(image: np.ndarray) -> list[np.ndarray]:
        return [np.asarray(outline.corners, np.float64) for outline in find_cards(image, segmenter=segmenter)]

    return find


class AimCheck:
    """Aim advice for the latest frame of ``frames`` (``() → (index, BGR image) | None``, e.g.
    :meth:`tocktable.tap.CameraTap.raw`); ``find`` gives the card outlines (default
    :func:`card_finder`, made on first use); ``rig`` the demo's movable camera."""

    def __init__(self, frames: Callable[[], tuple[int, np.ndarray] | None], *, find: Finder | None = None,
                 rig: CameraRig | None = None, lens: Lens = CAMERA_MODULE_3,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.frames = frames
        self._find = find
        self.rig = rig
        self.lens = lens
        self.clock = clock
        self._lock = threading.Lock()
        self._last: tuple[int | None, dict[str, float] | None, float, dict[str, Any]] | None = None
        """Frame index, camera position, when, and the advice worked out."""

    @property
    def movable(self) -> bool:
        return self.rig is not None

    def camera(self) -> dict[str, float] | None:
        """Where the demo's camera is (lift, tilt, blur), or None for a real camera."""
        return self.rig.settings.to_dict() if self.rig is not None else None

    def move(self, **settings: Any) -> dict[str, float]:
        """Move the demo's camera (:class:`hardware.errors.CameraRigError` for a position it cannot
        take; ``LookupError`` when the camera is a real one)."""
        if self.rig is None:
            raise LookupError("this camera is a real one: move it by hand")
        return self.rig.set(**settings).to_dict()

    def cards(self) -> tuple[list[np.ndarray], tuple[int, int]] | None:
        """The card outlines on the latest frame and its (width, height); None before the first."""
        latest = self.frames()
        if latest is None:
            return None
        image = np.asarray(latest[1])
        with self._lock:
            if self._find is None:
                self._find = card_finder()
            find = self._find
        return list(find(image)), (int(image.shape[1]), int(image.shape[0]))

    def advice(self) -> dict[str, Any]:
        """``{"frame": index or None, "advice": [items]}`` for the latest frame. Worked out again
        for a new frame or a moved camera, but not more often than every ``MIN_SECONDS`` for
        new frames of an unmoved camera."""
        with self._lock:
            now, position = self.clock(), self.camera()
            last = self._last
            if last is not None and last[1] == position and now - last[2] < MIN_SECONDS:
                return last[3]
            latest = self.frames()
            if latest is None:
                result: dict[str, Any] = {"frame": None, "advice": []}
            elif last is not None and last[0] == latest[0] and last[1] == position:
                result = last[3]
            else:
                index, image = latest
                if self._find is None:
                    self._find = card_finder()
                items = aim_advice(np.asarray(image), self._find(np.asarray(image)), lens=self.lens)
                result = {"frame": int(index), "advice": [item.to_dict() for item in items]}
            self._last = (result["frame"], position, now, result)
            return result
