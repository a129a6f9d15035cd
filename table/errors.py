"""The one error root of tocktable and its typed subclasses.

Every error the project raises on purpose derives from :class:`TocktableError` and
also from the matching built-in, so callers can catch either ``TocktableError`` or
``ValueError`` as they prefer. Messages say what was wrong and what is allowed.

An error is raised with its words as a value (:mod:`table.phrases`): an English template marked
with ``N_`` and the figures that fill it, ``raise IllegalActionError(N_("Seat {seat} cannot check:
{owed} to call."), seat=Seat(2), owed=Chips(40))``. ``str(error)`` is the English sentence;
:attr:`TocktableError.phrase` keeps the template and figures so a page says it in its phone's
language. An error raised with a plain string (the configuration file, the command line, the
programming interface) is that English text.
"""

from __future__ import annotations

from table.phrases import Figure, Phrase


class TocktableError(Exception):
    """Root of every error tocktable raises on purpose.

    ``TocktableError(template, **figures)`` or ``TocktableError(phrase)``; :attr:`phrase` is what
    a page translates, ``str(error)`` the English sentence.
    """

    phrase: Phrase

    def __init__(self, message: str | Phrase = "", /, *args: object, **figures: Figure) -> None:
        self.phrase = message if isinstance(message, Phrase) else Phrase(str(message), figures)
        super().__init__(self.phrase.english(), *args)


class CardParseError(TocktableError, ValueError):
    """A card or list of cards could not be read from text."""


class InvalidCardsError(TocktableError, ValueError):
    """A set of cards is unusable: wrong count, duplicates, ids out of range, bad dtype."""


class DeckEmptyError(TocktableError, LookupError):
    """More cards were asked of a deck than it still holds."""


class IllegalActionError(TocktableError, ValueError):
    """A betting action that the rules do not allow now (the hand is left unchanged)."""


class IllegalDealError(TocktableError, ValueError):
    """Cards dealt out of order, twice, or when the hand cannot take them (hand unchanged)."""


class RulesError(TocktableError, ValueError):
    """Game rules or table settings that cannot be played (blinds, stacks, seats)."""


def phrase_of(error: BaseException) -> Phrase:
    """What ``error`` says, as a phrase: a tocktable error's own, else its English text."""
    return error.phrase if isinstance(error, TocktableError) else Phrase(str(error))
