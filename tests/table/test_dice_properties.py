"""Poker dice properties: the announcement order is total and agrees with ranking real rolls."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from table.dice import Announcement, Combination, Face, Roll, all_announcements, challenge, next_above
from tests.table.fixed_settings import fixed_settings

SETTINGS = fixed_settings(100)
"""Derandomized, no deadline: the same examples whatever else runs (a loaded machine cannot fail them)."""

ANNOUNCEMENTS = all_announcements()
announcements = st.sampled_from(ANNOUNCEMENTS)
dice = st.lists(st.sampled_from(list(Face)), min_size=5, max_size=5)


def reference_strength(faces: list[Face]) -> tuple[int, ...]:
    """The seed's tables, written out one kind at a time, independently of table.dice."""
    counts = Counter(faces)
    by_count: dict[int, list[int]] = {}
    for face, count in counts.items():
        by_count.setdefault(count, []).append(int(face))
    for group in by_count.values():
        group.sort(reverse=True)
    if 5 in by_count:  # Poker: the face
        return (6, by_count[5][0])
    if 4 in by_count:  # Carré: the four, then the last die
        return (5, by_count[4][0], by_count[1][0])
    if 3 in by_count and 2 in by_count:  # Full: the three, then the pair
        return (4, by_count[3][0], by_count[2][0])
    if 3 in by_count:  # Brelan: the three, then the highest remaining die
        return (3, by_count[3][0], max(by_count[1]))
    if len(by_count.get(2, [])) == 2:  # Double Paire: the higher pair, then the other; no fifth die
        high, low = by_count[2]
        return (2, high, low)
    if 2 in by_count:  # Paire: only the pair
        return (1, by_count[2][0])
    return (0, max(int(f) for f in faces))  # Salade: only the highest die


def compare(a: Combination, b: Combination) -> int:
    return (a > b) - (a < b)


@SETTINGS
@given(announcements, announcements)
def test_order_is_total_and_antisymmetric(a: Announcement, b: Announcement) -> None:
    assert [a < b, a == b, a > b].count(True) == 1
    assert (a <= b) == (a < b or a == b)
    assert (a >= b) == (a > b or a == b)
    assert (a == b) == (a.french == b.french) == (a.english == b.english)
    if a == b:
        assert hash(a) == hash(b)


@SETTINGS
@given(announcements, announcements, announcements)
def test_order_is_transitive(a: Announcement, b: Announcement, c: Announcement) -> None:
    if a <= b and b <= c:
        assert a <= c
    if a < b and b < c:
        assert a < c


@SETTINGS
@given(dice, dice)
def test_roll_order_follows_the_seed_rules(left: list[Face], right: list[Face]) -> None:
    a, b = Roll.of(left).combination(), Roll.of(right).combination()
    strength_left, strength_right = reference_strength(left), reference_strength(right)
    expected = (strength_left > strength_right) - (strength_left < strength_right)
    assert compare(a, b) == expected
    # The announcement naming each roll orders exactly like the rolls.
    assert compare(Announcement.of(a), Announcement.of(b)) == expected
    assert compare(Announcement.parse(a.french), Announcement.parse(b.french)) == expected


@SETTINGS
@given(dice, st.permutations(range(5)))
def test_a_roll_is_worth_the_same_in_any_order(faces: list[Face], order: list[int]) -> None:
    assert Roll.of([faces[i] for i in order]).combination() == Roll.of(faces).combination()


@SETTINGS
@given(announcements, dice)
def test_a_lie_is_exactly_showing_less(announced: Announcement, faces: list[Face]) -> None:
    roll = Roll.of(faces)
    result = challenge(announced, roll)
    assert result.lie == (roll.combination() < announced)
    if roll.combination() == announced:
        assert not result.lie  # announcing exactly what is there is never a lie


@SETTINGS
@given(announcements)
def test_superieur_is_the_next_one_up(announced: Announcement) -> None:
    above = next_above(announced)
    if above is None:
        assert announced == ANNOUNCEMENTS[-1]
        return
    assert above > announced
    assert not any(announced < other < above for other in ANNOUNCEMENTS)


def test_a_higher_announcement_is_never_true_more_often() -> None:
    # Exhaustive: whenever the dice make an announcement true, they make every lower one true.
    rolls = list(Roll.all())
    truth = [frozenset(r for r in rolls if not challenge(a, r).lie) for a in ANNOUNCEMENTS]
    for lower, higher in itertools.pairwise(truth):
        assert higher <= lower
    # Each attainable announcement is true for strictly fewer rolls than the attainable one below it; one that no
    # roll makes exactly (the seed's "Brelan de Valets au Noir") is the same claim as the announcement above it.
    attainable = [i for i, a in enumerate(ANNOUNCEMENTS) if a.attainable]
    for lower, higher in itertools.pairwise(attainable):
        assert truth[higher] < truth[lower]
    for index, announced in enumerate(ANNOUNCEMENTS):
        if not announced.attainable:
            assert truth[index] == truth[index + 1]
    # Un Roi, the lowest, is always true; the Poker d'As only for five As.
    assert truth[0] == frozenset(rolls)
    assert truth[-1] == {Roll.parse("A A A A A")}


def test_every_roll_value_is_an_announcement_with_the_same_strength_order() -> None:
    values = sorted({r.combination() for r in Roll.all()})
    assert values == sorted(values, key=lambda c: reference_strength(list(_roll_for(c).faces)))
    assert all(v in ANNOUNCEMENTS for v in values)


def _roll_for(value: Combination) -> Roll:
    return next(r for r in Roll.all() if r.combination() == value)
