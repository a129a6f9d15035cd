"""Errors of the poker dice referee, all under :class:`table.errors.TocktableError`."""

from __future__ import annotations

from table.errors import TocktableError
from table.phrases import N_, Figure, Listed, Phrase, given


class DiceError(TocktableError, ValueError):
    """Root of the poker dice errors; also a ``ValueError``."""


class RollError(DiceError):
    """Dice that cannot be read or are not five faces of a poker die."""


class AnnouncementError(DiceError):
    """An announcement that cannot be read or cannot exist.

    ``suggestions`` holds the closest valid announcements (French labels), best first, so a
    page can offer them as buttons; the message already quotes the first ones.
    """

    def __init__(self, message: str | Phrase, /, *, suggestions: tuple[str, ...] = (), **figures: Figure) -> None:
        phrase = message if isinstance(message, Phrase) else Phrase(message, figures)
        if suggestions:
            quoted = Listed([given(s) for s in suggestions[:3]], "or")
            phrase = Phrase(N_("{refusal}; did you mean {suggestions}?"), refusal=phrase, suggestions=quoted)
        super().__init__(phrase)
        self.suggestions = suggestions


class IllegalTurnError(DiceError):
    """A move the rules do not allow now (the referee's state is left unchanged)."""


class ThrowError(IllegalTurnError):
    """A throw, a look under the cup or a shown die that the throwing phase does not allow
    (the referee's state is left unchanged)."""
