"""The one error root of tocktable and its typed subclasses.

Every error the project raises on purpose derives from :class:`TocktableError` and
also from the matching built-in, so callers can catch either ``TocktableError`` or
``ValueError`` as they prefer. Messages say what was wrong and what is allowed.
"""

from __future__ import annotations


class TocktableError(Exception):
    """Root of every error tocktable raises on purpose."""


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
