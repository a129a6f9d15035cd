"""Turning camera frames into card observations (detect, rectify, classify, track).

The reader is imported lazily so that ``import vision`` stays light (no onnxruntime) for code
that only needs the renderer or the view contract.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.reader import CardReader, Observation, Observations

__all__ = ["CardReader", "Observation", "Observations"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from vision import reader

        return getattr(reader, name)
    raise AttributeError(f"module 'vision' has no attribute {name!r}")
