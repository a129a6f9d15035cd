"""The error of a session command refused (:class:`table.session.Session` and its parts)."""

from __future__ import annotations

from table.errors import TocktableError

__all__ = ["SessionError"]


class SessionError(TocktableError, ValueError):
    """A session command that is not allowed now (seat taken, hand still running...)."""
