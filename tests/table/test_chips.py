"""Chip sets: the seed's boxes, breaking amounts into the fewest chips, sharing a box evenly."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.chips import CHIP_SETS, DEALER, TOCK, WHITE_RED_BLUE_GREEN, ChipSet, custom_chip_set
from table.errors import RulesError, TocktableError


def brute_force(chip_set: ChipSet, amount: int, limits: dict[int, int]) -> int | None:
    """The fewest chips by trying every count of the larger chips; the smallest chip pays
    the rest (small amounts only)."""
    values = chip_set.values
    smallest = values[-1]
    best = None
    ranges = [range(min(limits[v], amount // v) + 1) for v in values[:-1]]
    for counts in itertools.product(*ranges):
        rest = amount - sum(v * n for v, n in zip(values[:-1], counts, strict=True))
        if rest >= 0 and rest % smallest == 0 and rest // smallest <= limits[smallest]:
            total = sum(counts) + rest // smallest
            best = total if best is None or total < best else best
    return best


def test_the_seed_sets():
    assert TOCK.total == 20 * (5 + 20 + 50 + 100) and sum(c.count for c in TOCK.chips) == 80
    assert [c.value for c in WHITE_RED_BLUE_GREEN.chips] == [1, 2, 10, 25]
    assert [(c.value, c.colour) for c in DEALER.chips] == [
        (1, "white"), (5, "red"), (10, "blue"), (25, "green"), (100, "black"),
    ]  # fmt: skip
    assert set(CHIP_SETS) == {"tock", "white-red-blue-green", "dealer"}


def fewest_unlimited(chip_set: ChipSet, up_to: int) -> list[int | None]:
    """Textbook coin change: the fewest chips for every amount 0..up_to, chips unlimited."""
    best: list[int | None] = [0] + [None] * up_to
    for amount in range(1, up_to + 1):
        options = [best[amount - v] for v in chip_set.values if v <= amount and best[amount - v] is not None]
        best[amount] = min(options) + 1 if options else None  # type: ignore[operator]
    return best


@pytest.mark.parametrize("chip_set", [TOCK, WHITE_RED_BLUE_GREEN, DEALER], ids=lambda s: s.name)
def test_break_amount_uses_the_fewest_chips(chip_set):
    reference = fewest_unlimited(chip_set, 1500)
    for amount, best in enumerate(reference):
        if best is None:
            with pytest.raises(RulesError, match="cannot be made"):
                chip_set.break_amount(amount)
            continue
        counts = chip_set.break_amount(amount)
        assert sum(v * n for v, n in counts.items()) == amount
        assert sum(counts.values()) == best, amount


def test_break_large_amounts_quickly_and_exactly():
    counts = WHITE_RED_BLUE_GREEN.break_amount(1_000_030)
    assert counts == {25: 40_000, 10: 3}  # 40 003 chips: the fewest (40 001 x 25 + 2 + 2 + 1 is 40 004)
    assert sum(v * n for v, n in counts.items()) == 1_000_030
    assert TOCK.break_amount(10**9) == {100: 10**7}


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.integers(0, 150), st.lists(st.integers(0, 6), min_size=4, max_size=4))
def test_break_amount_within_what_is_available(amount, counts):
    limits = dict(zip(WHITE_RED_BLUE_GREEN.values, counts, strict=True))
    best = brute_force(WHITE_RED_BLUE_GREEN, amount, limits)
    if best is None:
        with pytest.raises(RulesError):
            WHITE_RED_BLUE_GREEN.break_amount(amount, available=limits)
    else:
        got = WHITE_RED_BLUE_GREEN.break_amount(amount, available=limits)
        assert sum(v * n for v, n in got.items()) == amount
        assert all(n <= limits[v] for v, n in got.items())
        assert sum(got.values()) == best


def test_split_evenly_gives_everyone_the_same_and_keeps_the_rest():
    share = DEALER.split_evenly(3)
    assert share.per_player == {1: 33, 5: 33, 10: 16, 25: 16, 100: 8}
    assert share.left_over == {1: 1, 5: 1, 10: 2, 25: 2, 100: 1}
    assert share.value_per_player == 33 + 165 + 160 + 400 + 800
    assert 3 * share.value_per_player + sum(v * n for v, n in share.left_over.items()) == DEALER.total
    assert TOCK.split_evenly(10).per_player == {5: 2, 20: 2, 50: 2, 100: 2}


def test_bad_input_is_refused_with_typed_errors():
    for call in (
        lambda: TOCK.break_amount(-5),
        lambda: TOCK.break_amount(7),
        lambda: TOCK.break_amount(10, available={3: 1}),
        lambda: TOCK.break_amount(10, available={5: -1}),
        lambda: TOCK.break_amount(10_000, available={100: 20}),
        lambda: TOCK.split_evenly(0),
        lambda: TOCK.split_evenly(11),
        lambda: TOCK.chip(7),
        lambda: custom_chip_set("x", {}),
        lambda: custom_chip_set("x", {5: 10, 0: 3}),
        lambda: custom_chip_set("x", {5: -1}),
        lambda: custom_chip_set("x", {5: 1}, colours={10: "blue"}),
        lambda: custom_chip_set(" ", {5: 1}),
    ):
        with pytest.raises(RulesError) as info:
            call()
        assert isinstance(info.value, TocktableError) and isinstance(info.value, ValueError)


def test_custom_sets():
    home = custom_chip_set("home", {25: 40, 5: 60, 100: 20}, colours={5: "red"})
    assert [c.value for c in home.chips] == [5, 25, 100] and home.chip(5).colour == "red"
    assert home.break_amount(135) == {100: 1, 25: 1, 5: 2}
    assert home.to_dict()["total"] == 60 * 5 + 40 * 25 + 20 * 100
