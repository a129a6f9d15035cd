"""Blind levels and the level clock: fixed and timed structures, pauses, jumps, bad input."""

from __future__ import annotations

import pytest

from table.engine import BlindLevel, BlindStructure, LevelClock
from table.errors import RulesError

TIMED = BlindStructure.timed([(5, 10), (10, 20), (25, 50, 5)], minutes=10)


def test_a_fixed_structure_never_changes_by_itself():
    clock = LevelClock(BlindStructure.fixed(5, 10, ante=1))
    clock.start(now=0.0)
    assert clock.level(now=10**9) == BlindLevel(5, 10, 1) and clock.seconds_left(now=50.0) is None
    clock.set_level(0, now=None)
    with pytest.raises(RulesError, match=r"levels are numbered 0\.\.0"):
        clock.set_level(1, now=None)


def test_levels_follow_running_time_only():
    clock = LevelClock(TIMED)
    assert clock.level_index(now=10**6) == 0  # not started
    clock.start(now=100.0)
    assert [clock.level_index(now=t) for t in (100.0, 699.9, 700.0, 1300.0, 10**6)] == [0, 0, 1, 2, 2]
    clock.pause(now=200.0)
    assert clock.level_index(now=5000.0) == 0 and clock.seconds_left(now=5000.0) == 500.0
    clock.resume(now=5000.0)
    assert clock.seconds_left(now=5100.0) == 400.0
    clock.set_level(2, now=5100.0)
    assert clock.level(now=5100.0) == BlindLevel(25, 50, 5) and clock.seconds_left(now=5100.0) is None
    clock.set_level(0, now=5200.0)  # back down: level 0 restarts its full ten minutes
    assert clock.level_index(now=5200.0) == 0 and clock.seconds_left(now=5200.0) == 600.0


def test_a_level_set_before_the_start_counts_from_the_start():
    clock = LevelClock(TIMED)
    clock.set_level(1, now=0.0)
    clock.start(now=50.0)
    assert clock.level_index(now=50.0) == 1 and clock.seconds_left(now=60.0) == 590.0


def test_clock_misuse_is_refused():
    clock = LevelClock(TIMED)
    with pytest.raises(RulesError, match="not running"):
        clock.pause(now=1.0)
    with pytest.raises(RulesError, match="not paused"):
        clock.resume(now=1.0)
    clock.start(now=10.0)
    with pytest.raises(RulesError, match="already started"):
        clock.start(now=11.0)
    with pytest.raises(RulesError, match="time runs forward"):
        clock.pause(now=9.0)
    with pytest.raises(RulesError, match="needs the time"):
        clock.set_level(1, now=None)
    with pytest.raises(RulesError, match="a number of seconds"):
        clock.pause(now=float("nan"))


def test_structures_are_validated_and_round_trip():
    with pytest.raises(RulesError, match="at least one level"):
        BlindStructure(())
    with pytest.raises(RulesError, match="twice the small blind"):
        BlindStructure.timed([(5, 10), (10, 15)], minutes=5)
    with pytest.raises(RulesError, match="0 \\(no clock\\) or more"):
        BlindStructure((BlindLevel(1, 2),), level_seconds=-1)
    with pytest.raises(RulesError, match="whole number of chips"):
        BlindLevel(1, 2, ante=-1)
    with pytest.raises(RulesError, match="a blind structure is"):
        BlindStructure.from_dict({"levels": [{"small": 1}]})
    assert BlindStructure.from_dict(TIMED.to_dict()) == TIMED
    assert TIMED.timed_levels and not BlindStructure.fixed(1, 2).timed_levels
