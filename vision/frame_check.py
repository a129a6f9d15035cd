"""The one check every picture passes before the reader's stages see it: a BGR uint8 image, or a
:class:`vision.errors.FrameError` saying what is wrong. Below the reader, the enrollment and the
mark reader, which all use it."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.errors import FrameError

__all__ = ["check_frame"]


def check_frame(frame: Any, *, what: str = "frame") -> np.ndarray:
    """A BGR uint8 (H, W, 3) view of ``frame``, or FrameError saying what is wrong.

    Grey (H, W) and BGRA (H, W, 4) images are accepted and converted.
    """
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"{what} must be a numpy array (H×W×3 uint8 BGR), got {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise FrameError(f"{what} must have dtype uint8 (0..255 BGR), got {frame.dtype}")
    if frame.size == 0:
        raise FrameError(f"{what} is empty (shape {frame.shape}); expected H×W×3 BGR")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise FrameError(f"{what} must be H×W×3 BGR (or H×W grey, H×W×4 BGRA), got shape {frame.shape}")
    return frame
