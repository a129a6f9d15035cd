"""Blind levels: fixed blinds for a cash game, or a structure of timed levels for a tournament.

Time is never read here: every method takes ``now`` (seconds on whatever clock the caller
uses), so a session rebuilt from its log reaches exactly the same levels.

>>> structure = BlindStructure((BlindLevel(5, 10), BlindLevel(10, 20), BlindLevel(25, 50, ante=5)), level_seconds=600)
>>> clock = LevelClock(structure)
>>> clock.start(now=1000.0)
>>> clock.level_index(now=1599.0), clock.level_index(now=1600.0), clock.level_index(now=99999.0)
(0, 1, 2)
>>> clock.pause(now=1700.0); clock.resume(now=2000.0)
>>> clock.level_index(now=2000.0), clock.seconds_left(now=2000.0)
(1, 500.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from table.errors import RulesError
from table.phrases import N_, Chips, Number, Verbatim, given, setting


@dataclass(frozen=True)
class BlindLevel:
    """The forced bets of one level."""

    small_blind: int
    big_blind: int
    ante: int = 0

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "ante"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RulesError(
                    N_("a blind level's {name} must be a whole number of chips, 0 or more, got {value}"),
                    name=setting(name),
                    value=given(value),
                )
        if self.small_blind < 1 or self.big_blind < 2 * self.small_blind:
            raise RulesError(
                N_(
                    "blind level {small_blind}/{big_blind}: the small blind must be at least 1 and the big blind at "
                    "least twice the small blind"
                ),
                small_blind=Chips(self.small_blind),
                big_blind=Chips(self.big_blind),
            )

    def to_dict(self) -> dict[str, int]:
        return {"small_blind": self.small_blind, "big_blind": self.big_blind, "ante": self.ante}


@dataclass(frozen=True)
class BlindStructure:
    """Levels in order. ``level_seconds`` is the length of every level; 0 means no clock: the
    blinds stay at the first level (a cash game) unless set by hand. The last level lasts for
    ever."""

    levels: tuple[BlindLevel, ...]
    level_seconds: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.levels, tuple) or not self.levels:
            raise RulesError(N_("a blind structure needs at least one level (a tuple of BlindLevel)"))
        if not all(isinstance(level, BlindLevel) for level in self.levels):
            raise RulesError(N_("blind structure levels must be BlindLevel values"))
        seconds = self.level_seconds
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not math.isfinite(seconds):
            raise RulesError(N_("level_seconds must be a number of seconds, got {seconds}"), seconds=given(seconds))
        if seconds < 0:
            raise RulesError(N_("level_seconds must be 0 (no clock) or more, got {seconds}"), seconds=Number(seconds))

    @classmethod
    def fixed(cls, small_blind: int, big_blind: int, ante: int = 0) -> BlindStructure:
        """One level for the whole game (a cash game)."""
        return cls((BlindLevel(small_blind, big_blind, ante),))

    @classmethod
    def timed(cls, levels: Sequence[tuple[int, int] | tuple[int, int, int]], *, minutes: float) -> BlindStructure:
        """A tournament structure from ``(small, big[, ante])`` tuples, ``minutes`` per level."""
        return cls(tuple(BlindLevel(*level) for level in levels), level_seconds=float(minutes) * 60)

    @property
    def timed_levels(self) -> bool:
        return self.level_seconds > 0 and len(self.levels) > 1

    def to_dict(self) -> dict[str, Any]:
        return {"levels": [level.to_dict() for level in self.levels], "level_seconds": self.level_seconds}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BlindStructure:
        try:
            levels = tuple(BlindLevel(**level) for level in data["levels"])
            return cls(levels, level_seconds=data.get("level_seconds", 0.0))
        except (KeyError, TypeError) as exc:
            shape = "{'levels': [{'small_blind', 'big_blind', 'ante'}, ...], 'level_seconds'}"
            raise RulesError(
                N_("a blind structure is {shape}: {error}"), shape=Verbatim(shape), error=Verbatim(str(exc))
            ) from None


class LevelClock:
    """Which level is running: started, paused and resumed at given times, or set by hand.

    The running time is the time since :meth:`start` minus the time spent paused, plus any
    shift made by :meth:`set_level`; with no clock (``level_seconds == 0``) the level only
    changes through :meth:`set_level`."""

    def __init__(self, structure: BlindStructure) -> None:
        self.structure = structure
        self.started_at: float | None = None
        self.paused_at: float | None = None
        self._paused_total = 0.0
        self._shift = 0.0
        self._manual_level = 0
        self._last_change = -math.inf

    @property
    def running(self) -> bool:
        return self.started_at is not None and self.paused_at is None

    def _check_now(self, now: float) -> None:
        if isinstance(now, bool) or not isinstance(now, int | float) or not math.isfinite(now):
            raise RulesError(N_("a time must be a number of seconds, got {now}"), now=given(now))
        if now < self._last_change:
            raise RulesError(
                N_("time runs forward: {now} is before the clock's last change at {last_change}"),
                now=Number(now),
                last_change=Number(self._last_change),
            )

    def start(self, *, now: float) -> None:
        self._check_now(now)
        if self.started_at is not None:
            raise RulesError(N_("the level clock is already started"))
        self.started_at = self._last_change = float(now)

    def pause(self, *, now: float) -> None:
        self._check_now(now)
        if not self.running:
            raise RulesError(N_("the level clock is not running: nothing to pause"))
        self.paused_at = self._last_change = float(now)

    def resume(self, *, now: float) -> None:
        self._check_now(now)
        if self.paused_at is None:
            raise RulesError(N_("the level clock is not paused: nothing to resume"))
        self._paused_total += now - self.paused_at
        self.paused_at = None
        self._last_change = float(now)

    def elapsed(self, *, now: float) -> float:
        """Running seconds (0 before the start; frozen while paused)."""
        if self.started_at is None:
            return self._shift
        until = self.paused_at if self.paused_at is not None else now
        return max(until - self.started_at - self._paused_total, 0.0) + self._shift

    def level_index(self, *, now: float) -> int:
        last = len(self.structure.levels) - 1
        if self.structure.level_seconds <= 0:
            return min(self._manual_level, last)
        return min(int(self.elapsed(now=now) // self.structure.level_seconds), last)

    def level(self, *, now: float) -> BlindLevel:
        return self.structure.levels[self.level_index(now=now)]

    def seconds_left(self, *, now: float) -> float | None:
        """Seconds until the next level, or None when no level follows (or there is no clock)."""
        index = self.level_index(now=now)
        if self.structure.level_seconds <= 0 or index == len(self.structure.levels) - 1:
            return None
        return (index + 1) * self.structure.level_seconds - self.elapsed(now=now)

    def set_level(self, index: int, *, now: float | None) -> None:
        """Jump to level ``index``; a timed level starts its full length ``now`` (which only
        a timed structure needs)."""
        last = len(self.structure.levels) - 1
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= last:
            raise RulesError(N_("levels are numbered 0..{last}, got {index}"), last=Number(last), index=given(index))
        timed = self.structure.timed_levels
        if timed and now is None:
            raise RulesError(N_("a timed level needs the time it starts (now=)"))
        if now is not None:
            self._check_now(now)
        self._manual_level = index
        if timed and now is not None:
            self._shift += index * self.structure.level_seconds - self.elapsed(now=now)
            self._last_change = float(now)
