"""Poker dice: challenges, the Tour de Poker, the roll-off, and the referee of a series of games."""

from __future__ import annotations

import json

import pytest

from table.dice import (
    Announcement,
    AnnouncementError,
    DiceReferee,
    Direction,
    Face,
    IllegalTurnError,
    Roll,
    RollError,
    Side,
    challenge,
    roll_off,
    tour_de_poker_throws,
)
from table.errors import TocktableError

A = Announcement.parse


# --- challenge ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("announced", "roll", "lie"),
    [
        # Less than announced: a lie.
        ("Paire de Dames", "V V N R K", True),
        ("Brelan de Valets à l'As", "V V V K N", True),
        ("Full As Dames", "D D D A A", True),
        ("Double Paire Rois Dames", "K K V V A", True),
        ("Un As", "N R V D K", True),
        # Exactly what was announced: no lie, whatever the dice that do not count.
        ("Paire de Noirs", "N N A K D", False),
        ("Double Paire de Rouges et de Dames", "R R D D A", False),
        ("Brelan de Valets à la Dame", "V V V D N", False),
        # More than announced: "annoncer en-dessous n'est pas mentir".
        ("Paire de Noirs", "A A A A A", False),
        ("Full Dames As", "A A A D D", False),
        ("Brelan de Valets au Noir", "V V V R N", False),  # the seed's Brelan de Valets Min
        ("Un Roi", "N R V D A", False),
    ],
)
def test_challenge(announced: str, roll: str, lie: bool) -> None:
    result = challenge(A(announced), Roll.parse(roll))
    assert result.lie is lie
    assert bool(result) is lie
    assert result.loser is (Side.ANNOUNCER if lie else Side.CHALLENGER)
    assert result.actual == Roll.parse(roll).combination()
    assert result.announced == A(announced)
    assert challenge(announced, roll) == result  # text works too


def test_challenge_rejects_bad_input() -> None:
    with pytest.raises(RollError):
        challenge("Paire de Dames", "D D")
    with pytest.raises(AnnouncementError):
        challenge("Paire de Zèbres", "D D N R V")


# --- Tour de Poker ---------------------------------------------------------------------------


def test_tour_de_poker_after_a_poker_other_than_aces_is_five_throws() -> None:
    assert tour_de_poker_throws(A("Poker de Dames")) == 5
    assert tour_de_poker_throws(A("Poker de Rois"), aces_accepted_before=3) == 5


def test_tour_de_poker_along_a_chain_of_poker_d_as() -> None:
    aces = A("Poker d'As")
    assert [tour_de_poker_throws(aces, aces_accepted_before=n) for n in range(5)] == [5, 4, 3, 2, 1]
    with pytest.raises(IllegalTurnError, match="must be challenged"):
        tour_de_poker_throws(aces, aces_accepted_before=5)


def test_tour_de_poker_needs_a_poker() -> None:
    with pytest.raises(IllegalTurnError, match="follows a Poker only"):
        tour_de_poker_throws(A("Carré d'As au Roi"))
    with pytest.raises(IllegalTurnError, match="0 or more"):
        tour_de_poker_throws(A("Poker d'As"), aces_accepted_before=-1)


# --- roll-off --------------------------------------------------------------------------------


def test_roll_off_lowest_die_starts_ties_throw_again() -> None:
    assert roll_off({"Ana": "K", "Ben": "R", "Cyd": Face.AS}) == ("Ben",)
    assert roll_off({"Ana": "N", "Ben": "D", "Cyd": "N"}) == ("Ana", "Cyd")
    with pytest.raises(RollError):
        roll_off({})
    with pytest.raises(RollError):
        roll_off({"Ana": "Z"})


def test_referee_roll_off_chooses_the_first_player() -> None:
    referee = DiceReferee(["Ana", "Ben", "Cyd"])
    assert referee.roll_off({"Ana": "N", "Ben": "D", "Cyd": "N"}) == ("Ana", "Cyd")
    assert referee.to_act == "Ana"  # a tie decides nothing yet
    assert referee.roll_off({"Ana": "A", "Cyd": "V"}) == ("Cyd",)
    assert referee.to_act == "Cyd"
    with pytest.raises(IllegalTurnError, match="unknown player 'Dan'"):
        referee.roll_off({"Dan": "N"})
    referee.announce("Un As", direction="left")
    with pytest.raises(IllegalTurnError, match="only chooses who starts the first game"):
        referee.roll_off({"Ana": "N"})


# --- the referee -----------------------------------------------------------------------------


def test_referee_needs_two_distinct_players() -> None:
    with pytest.raises(IllegalTurnError, match="at least 2 players"):
        DiceReferee(["Ana"])
    with pytest.raises(IllegalTurnError, match="distinct"):
        DiceReferee(["Ana", "Ana"])
    with pytest.raises(IllegalTurnError, match="unknown player"):
        DiceReferee(["Ana", "Ben"], first="Cyd")


def test_a_whole_game_and_the_next() -> None:
    referee = DiceReferee(["Ana", "Ben", "Cyd", "Dan"], first="Ben")
    assert referee.to_act == "Ben"
    assert referee.legal_next() == A("Un Roi")
    referee.announce("Paire de Dames", direction=Direction.RIGHT)
    assert (referee.to_act, referee.announcer, referee.current) == ("Ana", "Ben", A("Paire de Dames"))
    assert referee.legal_next() == A("Paire de Rois")
    referee.announce("Supérieur")  # Paire de Rois
    assert referee.to_act == "Dan"  # going right wraps round the table
    referee.announce("Double Paire Min")
    assert referee.current == A("Double Paire de Rouges et de Noirs")
    assert [t.player for t in referee.history] == ["Ben", "Ana", "Dan"]
    # Cyd does not believe it; the dice show two pairs, Dames and Noirs: more than announced, no lie.
    outcome = referee.challenge("N N D D A")
    assert (outcome.challenger, outcome.announcer, outcome.loser) == ("Cyd", "Dan", "Cyd")
    assert not outcome.result.lie
    assert referee.points == {"Ana": 0, "Ben": 0, "Cyd": 1, "Dan": 0}
    # The loser starts the next game, with no announcement and a new direction.
    assert (referee.game, referee.to_act, referee.current, referee.direction) == (2, "Cyd", None, None)
    assert referee.history == ()
    referee.announce("Brelan de Rois à l'As", direction="gauche")
    referee.announce("Full Min")
    assert referee.to_act == "Ana"
    # Full Min is the Full de Noirs par les Rouges; Noirs par les Valets is higher: no lie, Ana loses.
    outcome = referee.challenge(Roll.parse("N N N V V"))
    assert outcome.loser == "Ana"
    referee.announce("Carré de Dames à l'As", direction="left")
    outcome = referee.challenge("D D D D K")  # less than announced: Ana lied and loses
    assert outcome.result.lie
    assert outcome.loser == "Ana"
    assert referee.points == {"Ana": 2, "Ben": 0, "Cyd": 1, "Dan": 0}
    assert referee.standings() == [("Ben", 0), ("Dan", 0), ("Cyd", 1), ("Ana", 2)]
    assert referee.to_act == "Ana"


def test_two_players_need_no_direction() -> None:
    referee = DiceReferee(["Ana", "Ben"])
    referee.announce("Un As")
    assert referee.to_act == "Ben"
    assert referee.direction is Direction.LEFT


def _unchanged_after(referee: DiceReferee, move: object, error: type[Exception], match: str) -> None:
    before = referee.snapshot()
    with pytest.raises(error, match=match) as info:
        move()  # type: ignore[operator]
    assert isinstance(info.value, TocktableError)
    assert isinstance(info.value, ValueError)
    assert referee.snapshot() == before


def test_illegal_moves_are_refused_and_change_nothing() -> None:
    referee = DiceReferee(["Ana", "Ben", "Cyd"])
    _unchanged_after(referee, lambda: referee.announce("Paire de Dames"), IllegalTurnError, "chooses the direction")
    _unchanged_after(referee, lambda: referee.challenge("N N N N N"), IllegalTurnError, "nothing to challenge")
    _unchanged_after(referee, lambda: referee.announce("Supérieur", direction="left"), AnnouncementError, "needs")
    _unchanged_after(referee, lambda: referee.announce("Paire", direction="left"), AnnouncementError, "incomplete")
    _unchanged_after(referee, lambda: referee.announce("Un As", direction="up"), IllegalTurnError, "unknown direction")
    referee.announce("Paire de Dames", direction="left")
    _unchanged_after(referee, lambda: referee.announce("Paire de Dames"), IllegalTurnError, "does not beat")
    _unchanged_after(referee, lambda: referee.announce("Paire de Valets"), IllegalTurnError, "lowest legal one is")
    _unchanged_after(referee, lambda: referee.announce("Un As", direction="right"), IllegalTurnError, "holds until")
    _unchanged_after(referee, lambda: referee.challenge("N N D"), RollError, "5 faces")
    _unchanged_after(
        referee, lambda: referee.announce("Poker de Rois", tour_de_poker=True), IllegalTurnError, "follows a Poker"
    )
    assert referee.can_announce("Paire de Rois")
    assert not referee.can_announce("Paire de Valets")
    assert not referee.can_announce("Paire de Zèbres")


def test_relative_forms_through_the_referee() -> None:
    referee = DiceReferee(["Ana", "Ben"])
    referee.announce("Full Dames Valets")
    assert referee.announce("Supérieur") == A("Full de Dames par les Rois")
    assert referee.announce("Grand Full", visible="D D A") == A("Full d'As par les Dames")
    with pytest.raises(IllegalTurnError, match="does not beat"):
        referee.announce("Petit Full", visible="D A")


def test_tour_de_poker_after_a_poker() -> None:
    referee = DiceReferee(["Ana", "Ben"])
    referee.announce("Poker de Dames")
    assert referee.tour_de_poker_throws() == 5
    with pytest.raises(IllegalTurnError, match="'Poker de Valets' does not beat 'Poker de Dames'"):
        referee.announce("Poker de Valets", tour_de_poker=True)  # a Tour de Poker ends with a higher Poker
    referee.announce("Poker de Rois", tour_de_poker=True)
    assert referee.history[-1].tour_de_poker_throws == 5
    assert referee.history[0].tour_de_poker_throws is None


def test_chain_of_poker_d_as_ends_in_a_forced_challenge() -> None:
    referee = DiceReferee(["Ana", "Ben", "Cyd"])
    referee.announce("Poker d'As", direction="left")
    throws = []
    for _ in range(5):
        throws.append(referee.tour_de_poker_throws())
        assert referee.legal_next() == A("Poker d'As")
        with pytest.raises(IllegalTurnError, match="only announcement is the Poker d'As again"):
            referee.announce("Poker de Rois")
        referee.announce("Poker d'As")
        assert referee.history[-1].tour_de_poker_throws == throws[-1]
    assert throws == [5, 4, 3, 2, 1]
    assert referee.must_challenge
    assert referee.legal_next() is None
    assert referee.tour_de_poker_throws() is None
    with pytest.raises(IllegalTurnError, match="cannot be believed"):
        referee.announce("Poker d'As")
    last_announcer = referee.history[-1].player
    outcome = referee.challenge("A A A A K")
    assert outcome.result.lie
    assert outcome.loser == outcome.announcer == last_announcer
    assert referee.points[last_announcer] == 1
    assert not referee.must_challenge  # a new game


def test_undo_takes_back_moves_one_by_one() -> None:
    referee = DiceReferee(["Ana", "Ben"])
    with pytest.raises(IllegalTurnError, match="nothing to undo"):
        referee.undo()
    start = referee.snapshot()
    referee.announce("Paire de Dames")
    after_announce = referee.snapshot()
    referee.challenge("N R V D K")
    assert referee.points == {"Ana": 1, "Ben": 0}
    referee.undo()
    assert referee.snapshot() == after_announce
    referee.undo()
    assert referee.snapshot() == start


def test_snapshot_is_json_ready_and_complete() -> None:
    referee = DiceReferee(["Ana", "Ben", "Cyd"])
    referee.announce("Poker de Dames", direction="right")
    snapshot = referee.snapshot()
    assert json.loads(json.dumps(snapshot)) == snapshot
    assert snapshot["to_act"] == "Cyd"
    assert snapshot["announcer"] == "Ana"
    assert snapshot["direction"] == "right"
    assert snapshot["current"]["french"] == "Poker de Dames"
    assert snapshot["legal_next"]["french"] == "Poker de Rois"
    assert snapshot["tour_de_poker_throws"] == 5
    assert snapshot["must_challenge"] is False
    assert [p["to_act"] for p in snapshot["players"]] == [False, False, True]
    assert snapshot["history"][0]["player"] == "Ana"
    assert snapshot["last_challenge"] is None
    referee.challenge("D D D D D")
    last = referee.snapshot()["last_challenge"]
    assert last == {
        "game": 1,
        "challenger": "Cyd",
        "announcer": "Ana",
        "announced": A("Poker de Dames").to_dict(),
        "roll": ["D", "D", "D", "D", "D"],
        "actual": A("Poker de Dames").to_dict(),
        "lie": False,
        "loser": "Cyd",
    }
    assert referee.snapshot()["standings"][-1] == {"name": "Cyd", "points": 1}
