"""Pots built straight from what each seat put in: the layers, folded chips, chips above every
live seat's level, and seats that put in nothing."""

from __future__ import annotations

from table.engine.pots import Pot, build_pots


def test_each_live_level_is_a_layer_won_by_the_seats_that_covered_it() -> None:
    pots = build_pots([30, 10, 30, 20], folded=[False, False, False, False])
    assert pots == [Pot(40, (0, 1, 2, 3)), Pot(30, (0, 2, 3)), Pot(20, (0, 2))]


def test_folded_chips_stay_in_the_layers_they_reached() -> None:
    assert build_pots([25, 10, 25, 15], folded=[False, False, False, True]) == [Pot(40, (0, 1, 2)), Pot(35, (0, 2))]


def test_chips_above_every_live_level_join_the_last_pot() -> None:
    # Seat 2 folded after putting in more than any seat still in (uncalled chips not yet returned).
    assert build_pots([10, 10, 50], folded=[False, False, True]) == [Pot(70, (0, 1))]
    assert build_pots([10, 20, 50], folded=[False, False, True]) == [Pot(30, (0, 1)), Pot(50, (1,))]


def test_chips_with_every_seat_folded_make_one_pot_for_the_live_seats() -> None:
    # Nobody still in has put in a chip (the antes of folded seats only): one pot for the live seats.
    assert build_pots([0, 5, 5], folded=[False, True, True]) == [Pot(10, (0,))]


def test_a_live_seat_that_put_in_nothing_makes_no_empty_pot() -> None:
    assert build_pots([0, 10, 10], folded=[False, False, False]) == [Pot(20, (1, 2))]
    assert build_pots([0, 0, 0], folded=[False, False, False]) == []


def test_a_seat_all_in_for_one_chip_is_in_the_first_layer() -> None:
    assert build_pots([1, 10, 10], folded=[False, False, False]) == [Pot(3, (0, 1, 2)), Pot(18, (1, 2))]
