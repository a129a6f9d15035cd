"""Turning camera frames into card observations (detect, rectify, classify, track).

``vision.CardReader.default().read(frame)`` is the entry point (see :mod:`vision.reader`).
onnxruntime is only imported when a reader is made.
"""

from __future__ import annotations

from vision.reader import CardReader, Observation, Observations

__all__ = ["CardReader", "Observation", "Observations"]
