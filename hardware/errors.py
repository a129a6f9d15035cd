"""Errors raised by the hardware layer."""

from __future__ import annotations

from table.errors import TocktableError


class PinMapError(TocktableError, ValueError):
    """The pin map is unusable: a pin used twice, a pin that does not exist, a count mismatch."""


class FrameSourceError(TocktableError, OSError):
    """A frame source could not be opened or configured (bad path, bad size, no camera module)."""


class TableModelError(TocktableError, ValueError):
    """A synthetic-table request that cannot happen with a real deck on a real table: a card dealt
    twice, a card turned that is not on the table, a zone or slot that does not exist."""


class GPIOError(TocktableError, OSError):
    """The GPIO pins cannot be used here: the library for this Pi is missing, or this is not a Pi."""


class CameraRigError(TocktableError, ValueError):
    """A position the demo's movable camera cannot take (the message gives the ranges)."""
