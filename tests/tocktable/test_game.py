import pytest

from table.engine import BlindStructure
from table.errors import TocktableError
from table.session import SessionSettings
from tocktable.game import Game, Phase
from tocktable.steps import (
    Act,
    ChooseButton,
    CommandError,
    Confirm,
    Correct,
    DealBoard,
    Leave,
    Rebuy,
    Seat,
    Settle,
    Show,
    SitOut,
)


def seated(seats=3, chips=500):
    game = Game(SessionSettings(seats=seats, blinds=BlindStructure.fixed(5, 10)), clock=lambda: 100.0)
    for seat in range(seats):
        game.apply(Seat(seat, f"P{seat}", chips))
    return game


def test_phases_of_a_night():
    game = seated()
    assert game.phase == Phase.SEATING
    with pytest.raises(CommandError, match="nothing to confirm"):
        game.apply(Confirm())
    commands = game.apply(ChooseButton(draws={0: "2c", 1: "Ah", 2: "Kd"}))
    assert [c["op"] for c in commands] == ["draw_for_button", "start_hand"]
    assert game.phase == Phase.PLAYING and game.button == 1
    with pytest.raises(CommandError, match="already chosen"):
        game.apply(ChooseButton(seat=0))
    game.apply(Act(1, "fold"))
    game.apply(Act(2, "fold"))
    assert game.phase == Phase.SETTLED
    game.apply(Confirm())
    assert game.phase == Phase.PLAYING and game.hand_number == 2 and game.button == 2


def test_every_seat_playing_must_draw():
    game = seated()
    with pytest.raises(CommandError, match=r"no card yet for seat 3$"):
        game.apply(ChooseButton(draws={0: "2c", 1: "Ah"}))
    assert game.phase == Phase.SEATING and game.session.log[-1]["op"] == "seat_player"


def test_the_croupiers_puck_chooses_the_first_dealer_without_a_draw():
    from tocktable.watch import ViewInterpreter
    from vision.view import SeenCard, TableView

    game = Game(SessionSettings(seats=4, blinds=BlindStructure.fixed(5, 10), first_dealer="croupier"))
    for seat in range(3):  # seat 3 stays empty
        game.apply(Seat(seat, f"P{seat}", 500))
    assert "croupier's right" in game.describe_phase() and game.snapshot()["first_dealer"] == "croupier"
    # A card turned face up in the seating phase is no draw for the button here.
    corners = ((0.0, 0.0), (0.1, 0.0), (0.1, 0.1), (0.0, 0.1))
    faces = ("Ah", "2c", "9d")
    view = TableView(0, 0.0, seats={s: (SeenCard(faces[s], True, None, f"seat{s}", 0.99, corners),) for s in range(3)})
    assert ViewInterpreter().read(game, view).steps == ()
    commands = game.apply(ChooseButton())
    assert [c["op"] for c in commands] == ["croupier_button", "start_hand"]
    assert game.button == 2  # the first player to the croupier's right: the last seat dealt in
    assert Game.replay(game.settings, [game.session.log]).button == 2


def test_without_the_croupier_option_a_first_dealer_needs_a_draw_or_a_seat():
    game = seated()
    with pytest.raises(CommandError, match="every seat playing draws a card for the button"):
        game.apply(ChooseButton())
    assert game.phase == Phase.SEATING and game.snapshot()["first_dealer"] == "draw"


def test_a_step_of_several_commands_is_rolled_back_whole():
    game = seated(chips=500)
    game.apply(SitOut(1))
    game.apply(SitOut(2))
    log = list(game.session.log)
    with pytest.raises(TocktableError, match="at least two players"):
        game.apply(ChooseButton(seat=0))  # the button is set, then the hand cannot start: both undone
    assert game.session.log == log and game.phase == Phase.SEATING and game.session.next_button is None


def test_shown_cards_only_at_the_showdown_and_never_for_a_folded_seat():
    game = seated()
    game.apply(ChooseButton(seat=0))
    with pytest.raises(TocktableError, match="only at the showdown"):
        game.apply(Show(1, ("Ah", "Kd")))
    game.apply(Act(0, "fold"))
    game.apply(Act(1, "call"))
    game.apply(Act(2, "check"))
    for cards in (("2c", "7d", "9h"), ("Tc",), ("Jd",)):
        game.apply(DealBoard(cards))
        game.apply(Act(1, "check"))
        game.apply(Act(2, "check"))
    with pytest.raises(TocktableError, match="no live hand"):
        game.apply(Show(0, ("Ah", "Kd")))
    game.apply(Show(1, ("Ah", "Kd")))
    game.apply(Settle())
    assert game.phase == Phase.SETTLED
    assert game.snapshot()["seats"][2]["hole"] == []  # seat 2 never showed: it stays unknown


def test_a_correction_is_a_rewrite_that_replays_to_the_same_game():
    game = seated()
    stored = [game.apply(ChooseButton(seat=0))]
    for step in (Act(0, "call"), Act(1, "call"), Act(2, "check"), DealBoard(("2c", "7d", "9h"))):
        stored.append(game.apply(step))
    stored.append(game.apply(Correct(None, 1, "7s")))
    assert stored[-1][0]["rewrite"]["command"]["cards"] == ["2c", "7s", "9h"]
    assert game.snapshot()["board"] == ["2c", "7s", "9h"]
    with pytest.raises(CommandError, match="there is no board card 4 to correct: only 3 board cards are dealt"):
        game.apply(Correct(None, 3, "Kd"))
    with pytest.raises(CommandError, match="seat 2's cards have not been shown"):
        game.apply(Correct(1, 0, "Kd"))
    rebuilt = Game.replay(game.settings, [[{"op": "seat_player", "seat": s, "name": f"P{s}", "chips": 500}]
                                          for s in range(3)] + stored)  # fmt: skip
    assert rebuilt.snapshot(now=0) == game.snapshot(now=0)


def test_seats_change_between_hands():
    game = seated()
    game.apply(ChooseButton(seat=0))
    with pytest.raises(TocktableError, match="not finished"):
        game.apply(Rebuy(0, 100))
    game.apply(Act(0, "fold"))
    game.apply(Act(1, "fold"))
    game.apply(Rebuy(0, 100))  # closes the settled hand
    assert game.phase == Phase.READY
    game.apply(Leave(1))
    game.apply(Seat(1, "Newcomer", 300))
    game.apply(Confirm())
    assert game.phase == Phase.PLAYING and game.session.players[1].name == "Newcomer"
