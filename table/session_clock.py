"""The time a session reads and its blind level clock.

Time is never read from the system: a command that needs it is given ``now`` (seconds), or the
session's ``clock`` callable is read. :class:`SessionClock` does that and drives the
:class:`~table.engine.LevelClock`; each method returns the time it used, which the session logs.
"""

from __future__ import annotations

from collections.abc import Callable

from table.engine import BlindLevel, BlindStructure, LevelClock
from table.phrases import N_, given
from table.session_errors import SessionError

__all__ = ["SessionClock"]


class SessionClock:
    """The blind levels of ``structure`` and where the time comes from."""

    def __init__(self, structure: BlindStructure, clock: Callable[[], float] | None) -> None:
        self.structure = structure
        self.clock = clock
        self.levels = LevelClock(structure)

    def now(self, now: float | None, *, needed: bool) -> float | None:
        """``now``, or the clock's time when not given; a :class:`SessionError` if ``needed``
        and neither is there, or if ``now`` is not a number."""
        if now is None and self.clock is not None:
            now = float(self.clock())
        if now is None and needed:
            raise SessionError(N_("this needs the time: pass now= (seconds) or give the session a clock"))
        if now is not None and (isinstance(now, bool) or not isinstance(now, int | float)):
            raise SessionError(N_("now must be a number of seconds, got {now}"), now=given(now))
        return None if now is None else float(now)

    def _needed(self, now: float | None) -> float:
        when = self.now(now, needed=True)
        assert when is not None
        return when

    def start(self, now: float | None) -> float:
        when = self._needed(now)
        self.levels.start(now=when)
        return when

    def pause(self, now: float | None) -> float:
        when = self._needed(now)
        self.levels.pause(now=when)
        return when

    def resume(self, now: float | None) -> float:
        when = self._needed(now)
        self.levels.resume(now=when)
        return when

    def set_level(self, index: int, now: float | None) -> float | None:
        """Jump to level ``index`` (a timed level restarts at the time returned)."""
        when = self.now(now, needed=self.structure.timed_levels)
        self.levels.set_level(index, now=when)
        return when

    def hand_level(self, when: float | None) -> BlindLevel:
        """The level a hand starting at ``when`` is played at (the first timed hand starts the clock)."""
        if self.structure.timed_levels and self.levels.started_at is None:
            assert when is not None
            self.levels.start(now=when)
        return self.levels.level(now=when if when is not None else 0.0)
