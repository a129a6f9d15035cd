"""Errors of the poker dice referee, all under :class:`table.errors.TocktableError`."""

from __future__ import annotations

from table.errors import TocktableError


class DiceError(TocktableError, ValueError):
    """Root of the poker dice errors; also a ``ValueError``."""


class RollError(DiceError):
    """Dice that cannot be read or are not five faces of a poker die."""


class AnnouncementError(DiceError):
    """An announcement that cannot be read or cannot exist.

    ``suggestions`` holds the closest valid announcements (French labels), best first, so a
    page can offer them as buttons; the message already quotes the first ones.
    """

    def __init__(self, message: str, *, suggestions: tuple[str, ...] = ()) -> None:
        if suggestions:
            quoted = " or ".join(repr(s) for s in suggestions[:3])
            message = f"{message}; did you mean {quoted}?"
        super().__init__(message)
        self.suggestions = suggestions


class IllegalTurnError(DiceError):
    """A move the rules do not allow now (the referee's state is left unchanged)."""


class ThrowError(IllegalTurnError):
    """A throw, a look under the cup or a shown die that the throwing phase does not allow
    (the referee's state is left unchanged)."""
