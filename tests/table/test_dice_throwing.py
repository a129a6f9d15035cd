"""The throwing phase of poker dice, held by the referee when it is told of the throws: who threw
which dice, who looked under the cup; a die thrown in the phase is not thrown again; looking
commits to believing and to throwing at least one die; no die stays hidden under the cup
unthrown (it is shown first); the first turn throws all five; the Tour de Poker."""

from __future__ import annotations

from typing import Any

import pytest

from table.dice import DiceReferee, IllegalTurnError, ThrowError


def referee() -> DiceReferee:
    """Ana opens game 1 to her left (Ben, then Cyd) with all five dice under the cup."""
    ref = DiceReferee(["Ana", "Ben", "Cyd"], track_throws=True)
    ref.throw([0, 1, 2, 3, 4], under_cup=True)
    ref.announce("Paire de Dames", direction="left")
    return ref


def refused(ref: DiceReferee, move: Any, match: str) -> None:
    """``move`` raises a ThrowError matching ``match`` and changes nothing."""
    before = ref.snapshot()
    hidden, phase = ref.hidden, ref.phase
    with pytest.raises(ThrowError, match=match) as caught:
        move()
    assert isinstance(caught.value, IllegalTurnError) and isinstance(caught.value, ValueError)
    assert ref.snapshot() == before and ref.hidden == hidden and ref.phase == phase


def test_the_first_turn_of_a_game_throws_all_five_dice() -> None:
    ref = DiceReferee(["Ana", "Ben", "Cyd"], track_throws=True)
    refused(ref, lambda: ref.announce("Paire de Dames", direction="left"), r"all five dice are thrown first")
    refused(ref, ref.look, "nothing under the cup yet")
    ref.throw([0, 1, 2], under_cup=False)
    refused(ref, lambda: ref.announce("Paire de Dames", direction="left"), r"not yet: \[3, 4\]")
    ref.throw([3, 4], under_cup=True)
    assert ref.hidden == {3, 4}
    ref.announce("Paire de Dames", direction="left")
    turn = ref.history[0]
    assert turn.phase is not None and turn.phase.player == "Ana" and turn.phase.thrown == {0, 1, 2, 3, 4}
    assert [(t.dice, t.under_cup) for t in turn.phase.throws] == [((0, 1, 2), False), ((3, 4), True)]


def test_a_die_already_thrown_in_the_phase_is_not_thrown_again() -> None:
    ref = referee()
    ref.look()
    ref.show([0, 1, 2])
    ref.throw([0], under_cup=False)
    refused(ref, lambda: ref.throw([0, 1]), r"dice \[0\] were already thrown in this phase.*still free: \[1, 2, 3, 4\]")
    ref.throw([1, 2])
    refused(ref, lambda: ref.throw([2]), r"dice \[2\] were already thrown")
    ref.announce("Paire de Rois")
    # The next player's phase starts afresh: dice thrown by earlier players may be thrown again.
    ref.look()
    ref.show([3, 4])
    ref.throw([0, 1, 2, 3, 4])
    ref.announce("Paire d'As")


def test_looking_under_the_cup_commits_to_believing_and_to_throwing_at_least_one_die() -> None:
    ref = referee()
    ref.look()
    assert ref.phase is not None and ref.phase.looked and ref.phase.player == "Ben"
    refused(ref, lambda: ref.announce("Paire de Rois"), "looked under the cup: at least one die is thrown")
    refused(ref, lambda: ref.challenge("D D K N R"), "that is believing the announcement")
    refused(ref, ref.look, "already looked")
    ref.show([4])
    ref.throw([4])
    ref.announce("Paire de Rois")
    assert ref.history[-1].phase is not None and ref.history[-1].phase.looked


def test_believing_without_throwing_is_an_announcement_without_looking() -> None:
    ref = referee()
    ref.announce("Paire de Rois")  # Ben believes, does not look, throws nothing
    assert ref.history[-1].phase is None and ref.hidden == {0, 1, 2, 3, 4}
    outcome = ref.challenge("K K N R V")  # Cyd does not believe, before looking: allowed
    assert outcome.loser == "Cyd"
    assert ref.hidden == frozenset() and ref.phase is None  # a new game: no die kept


def test_dice_kept_out_of_a_throw_under_the_cup_are_shown_first() -> None:
    ref = referee()
    ref.look()
    refused(ref, lambda: ref.throw([0, 1], under_cup=True), r"dice \[2, 3, 4\] are under the cup and not thrown")
    refused(ref, lambda: ref.show([9]), "die numbers 0 to 4")
    ref.show([2, 3, 4])
    refused(ref, lambda: ref.show([2]), r"dice \[2\] are not under the cup")
    assert ref.hidden == {0, 1}
    ref.throw([0, 1], under_cup=True)
    assert ref.hidden == {0, 1}
    assert ref.snapshot()["throwing"]["current"] == {
        "player": "Ben", "looked": True, "tour_de_poker": False, "shown": [2, 3, 4],
        "throws": [{"dice": [0, 1], "under_cup": True}],
    }  # fmt: skip
    ref.announce("Paire de Rois")
    snapshot = ref.snapshot()["throwing"]
    assert snapshot["hidden"] == [0, 1] and snapshot["current"] is None  # the next player has not begun
    assert snapshot["phases"][-1] == {
        "player": "Ben", "looked": True, "tour_de_poker": False, "shown": [2, 3, 4],
        "throws": [{"dice": [0, 1], "under_cup": True}],
    }  # fmt: skip


def test_a_throw_on_the_table_takes_dice_from_under_the_cup_into_view() -> None:
    ref = referee()
    ref.look()
    ref.throw([0, 1])  # on the table: seen by all
    assert ref.hidden == {2, 3, 4}
    refused(ref, lambda: ref.throw([4], under_cup=True), r"dice \[2, 3\] are under the cup and not thrown")


def test_the_tour_de_poker_takes_back_all_five_dice_and_counts_its_throws() -> None:
    ref = referee()
    ref.announce("Poker de Rois")  # Ben believes without looking
    refused(ref, ref.start_tour_de_poker, "once the player has looked under the cup")
    ref.look()
    refused(ref, lambda: ref.announce("Poker d'As", tour_de_poker=True), "a Tour de Poker is played first")
    assert ref.start_tour_de_poker() == 5
    refused(ref, lambda: ref.announce("Poker d'As", tour_de_poker=True), "at least one die is thrown")
    refused(ref, lambda: ref.throw([0, 1]), "its first throw is all five, none kept")
    for _ in range(3):
        ref.throw([0, 1, 2, 3, 4])
    ref.throw([3, 4])  # keeping three, throwing two: a die may be thrown again in a Tour de Poker
    ref.throw([4], under_cup=False)
    refused(ref, lambda: ref.throw([4]), "5 throws, all used")
    refused(ref, lambda: ref.announce("Poker d'As"), "announce with tour_de_poker=True")
    ref.announce("Poker d'As", tour_de_poker=True)
    assert ref.history[-1].tour_de_poker_throws == 5


def test_the_poker_d_as_is_re_announced_only_after_a_tour_de_poker() -> None:
    ref = referee()
    ref.announce("Poker d'As")
    refused(ref, lambda: ref.announce("Poker d'As"), "a Tour de Poker is played first")
    ref.look()
    assert ref.start_tour_de_poker() == 5
    ref.throw(range(5), under_cup=True)
    ref.announce("Poker d'As")
    ref.look()
    assert ref.start_tour_de_poker() == 4  # the next along the chain has one throw fewer


def test_a_tour_de_poker_follows_a_poker_only() -> None:
    ref = referee()
    ref.look()
    refused(ref, ref.start_tour_de_poker, "follows a Poker received")


def test_undo_takes_back_throws_looks_and_shows_one_by_one() -> None:
    ref = referee()
    start = ref.snapshot()
    ref.look()
    ref.show([1])
    ref.throw([1])
    for _ in range(3):
        ref.undo()
    assert ref.snapshot() == start and ref.phase is None and ref.hidden == {0, 1, 2, 3, 4}


def test_an_untracked_referee_judges_announcements_only() -> None:
    ref = DiceReferee(["Ana", "Ben"])
    ref.announce("Paire de Dames")  # nothing thrown: the referee is not told of throws
    refused(ref, ref.look, "create it with track_throws=True")
    refused(ref, lambda: ref.throw([0]), "create it with track_throws=True")
    assert "throwing" not in ref.snapshot()


@pytest.mark.parametrize("dice", [[], [5], [-1], [True], [0, 0], "01", None])
def test_bad_die_numbers_are_refused(dice: Any) -> None:
    ref = referee()
    ref.look()
    refused(ref, lambda: ref.throw(dice), "die numbers 0 to 4|each die once")
