"""One street's betting state (table.engine.betting_round.BettingRound), on its own.

The hand-level behaviour (TDA 43, raise caps, who acts when) is checked against pokerkit in
test_engine_pokerkit.py; these pin the round's own bookkeeping that the hand relies on.
"""

from __future__ import annotations

from table.engine.betting_round import BettingRound


def test_open_marks_every_able_seat_and_starts_at_the_first_able_at_or_after_first() -> None:
    betting = BettingRound(6, 10)
    # Seats 1 and 2 are all in or folded: the first able seat at or after 1 is 3.
    assert betting.open([0, 3, 5], first=1) == 3
    assert betting.needs_action == [True, False, False, True, False, True]
    # Wrapping round the table.
    assert BettingRound(6, 10).open([0, 2], first=3) == 0


def test_next_to_act_skips_seats_that_acted_and_is_none_when_nobody_must_act() -> None:
    betting = BettingRound(4, 10)
    betting.open([0, 1, 2, 3], first=1)
    betting.acted(1, 0, full=False, sizes_raises=True, able=[0, 1, 2, 3], bets=[0, 0, 0, 0])
    betting.folded(2)
    assert betting.next_to_act(1, [0, 1, 3]) == 3
    betting.acted(3, 0, full=False, sizes_raises=True, able=[0, 1, 3], bets=[0, 0, 0, 0])
    assert betting.next_to_act(3, [0, 1, 3]) == 0
    betting.acted(0, 0, full=False, sizes_raises=True, able=[0, 1, 3], bets=[0, 0, 0, 0])
    assert betting.next_to_act(0, [0, 1, 3]) is None


def test_a_full_raise_reopens_everyone_counts_as_a_raise_and_sets_the_raise_size() -> None:
    betting = BettingRound(3, 10, current_bet=10)
    betting.open([0, 1, 2], first=0)
    betting.acted(0, 10, full=False, sizes_raises=True, able=[0, 1, 2], bets=[10, 5, 10])
    betting.acted(1, 30, full=True, sizes_raises=True, able=[0, 1, 2], bets=[10, 30, 10])
    assert (betting.current_bet, betting.last_raise, betting.raises) == (30, 20, 1)
    assert betting.needs_action == [True, False, True]
    assert betting.acted_to == [10, 30, None]
    # In fixed limit the raise size stays the bet size.
    fixed = BettingRound(2, 10, current_bet=10)
    fixed.acted(0, 20, full=True, sizes_raises=False, able=[0, 1], bets=[20, 10])
    assert (fixed.current_bet, fixed.last_raise, fixed.raises) == (20, 10, 1)


def test_the_first_bet_of_a_street_is_not_a_raise() -> None:
    betting = BettingRound(2, 10)
    betting.acted(0, 10, full=True, sizes_raises=True, able=[0, 1], bets=[10, 0])
    assert (betting.current_bet, betting.raises) == (10, 0)
    assert betting.capped(0) is True and betting.capped(1) is False and betting.capped(None) is False


def test_a_short_all_in_reopens_only_those_below_it_and_short_rises_add_up() -> None:
    betting = BettingRound(3, 20, current_bet=20)
    betting.acted(0, 20, full=False, sizes_raises=True, able=[0, 1, 2], bets=[20, 20, 0])
    betting.acted(1, 20, full=False, sizes_raises=True, able=[0, 1, 2], bets=[20, 20, 0])
    # Seat 2 goes all in for 30: a rise of 10, short of the 20 that reopens the betting.
    betting.acted(2, 30, full=False, sizes_raises=True, able=[0, 1], bets=[20, 20, 30])
    assert betting.needs_action == [True, True, False]
    assert betting.last_raise == 20 and betting.raises == 0
    assert not betting.reopened(0, 20)
    # A second short rise to 40 brings seat 0's gap to 20: reopened for it.
    betting.current_bet = 40
    assert betting.reopened(0, 20)
    assert BettingRound(3, 20).reopened(2, 20)  # a seat that has not acted may always raise
