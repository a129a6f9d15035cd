"""Errors raised by the hardware layer."""

from __future__ import annotations

from table.errors import TocktableError


class PinMapError(TocktableError, ValueError):
    """The pin map is unusable: a pin used twice, a pin that does not exist, a count mismatch."""


class FrameSourceError(TocktableError, OSError):
    """A frame source could not be opened or configured (bad path, bad size, no camera module)."""
