"""Typed errors of the vision package (all under :class:`table.errors.TocktableError`)."""

from __future__ import annotations

from table.errors import TocktableError


class VisionError(TocktableError):
    """Root of the errors the vision package raises on purpose."""


class FrameError(VisionError, ValueError):
    """An image the reader cannot use: wrong type, dtype, shape or size."""


class SceneError(VisionError, ValueError):
    """A scene description the renderer cannot draw (bad card, size, position or style)."""


class ModelError(VisionError, RuntimeError):
    """A model file is missing, unreadable or does not match its label file."""


class FontsMissingError(VisionError, RuntimeError):
    """The renderer found no usable fonts to draw card indices with (see :mod:`vision.render.fonts`)."""


class FontSourceError(VisionError, ValueError):
    """``TOCKTABLE_FONTS`` names no font source the renderer knows."""
