"""The parts a Session asks (seating, the dealer button, the clock, the command log, the draw's
deal plan), each on its own. The session-level behaviour is in test_session*.py."""

from __future__ import annotations

import pytest

from table.cards import parse_cards
from table.engine import BlindStructure, Rules
from table.engine.draw import CardsExchanged, DealStep, deal_plan
from table.engine.hand import Hand
from table.session import SessionError
from table.session_button import DealerButton
from table.session_clock import SessionClock
from table.session_log import OPS, apply_command
from table.session_seating import Seating


def test_the_button_moves_to_the_next_seat_dealt_in_or_to_the_one_chosen() -> None:
    button = DealerButton(6)
    assert button.button_for([1, 3, 4]) == 1  # the first hand, nothing chosen: the first seat
    button.moved_to(4)
    assert button.button_for([1, 3, 4]) == 1  # after 4, round the table
    assert button.button_for([0, 5]) == 5
    button.choose(2)
    assert button.button_for([1, 3, 4]) == 3  # at or after the seat chosen
    button.moved_to(3)
    assert (button.button, button.next_button) == (3, None)
    with pytest.raises(SessionError, match="seat the players first"):
        DealerButton.croupier_seat([])
    assert DealerButton.croupier_seat([0, 2, 5]) == 5


def test_the_draw_for_the_button_reads_the_cards_and_gives_it_to_the_highest() -> None:
    button = DealerButton(4)
    cards = button.read_draw({3: "Kd", 0: "Ks", 1: "9c"})
    assert button.drawn(cards) == 0
    assert list(button.draw) == [0, 1, 3] and button.next_button == 0
    with pytest.raises(SessionError, match="the draw for the button"):
        button.read_draw({0: "Ks", 1: "Ks"})


def test_seating_carries_a_hand_over_and_a_rejoining_name_sums_in_the_ledger() -> None:
    seating = Seating(4, rebuys=False)
    seating.seat_player(0, "Ann", 100)
    seating.seat_player(1, " Bob ", 50)
    assert seating.players[1].name == "Bob"
    hand = Hand(Rules(small_blind=25, big_blind=50), [100, 50, 0, 0], button=0)
    hand.act(0, "call")  # the big blind is all in: betting is closed, the hands are shown
    hand.deal_hole(0, parse_cards("As Ah"))
    hand.deal_hole(1, parse_cards("Kc Kd"))
    for cards in ("2c 3d 4h", "5s", "9c"):
        hand.deal_board(parse_cards(cards))
    assert hand.is_complete
    seating.carry_over(hand)
    assert [seating.players[s].stack for s in (0, 1)] == [150, 0]
    assert seating.eliminated == ["Bob"]
    assert seating.leave(0) == 150
    seating.seat_player(2, "Ann", 30)
    assert [(line.name, line.bought_in, line.cashed_out) for line in seating.ledger(lambda s: 7)] == [
        ("Ann", 130, 157),
        ("Bob", 50, 7),
    ]


def test_seating_refuses_with_what_is_allowed() -> None:
    seating = Seating(3, rebuys=False)
    with pytest.raises(SessionError, match=r"there is no seat 4: seats are 1\.\.3"):
        seating.check(3)
    with pytest.raises(SessionError, match=r"seat 2 is empty \(occupied: none\)"):
        seating.check(1)
    seating.seat_player(1, "Ann", 10)
    with pytest.raises(SessionError, match="no rebuys"):
        seating.check_rebuy(1, 10)
    with pytest.raises(SessionError, match="whole number of chips above 0"):
        seating.seat_player(2, "Bob", 0)
    assert 2 not in seating.players


def test_the_clock_uses_the_time_given_or_the_clock_and_refuses_neither_when_needed() -> None:
    timed = BlindStructure.timed([(5, 10), (10, 20)], minutes=10)
    clock = SessionClock(timed, None)
    with pytest.raises(SessionError, match="this needs the time"):
        clock.start(None)
    with pytest.raises(SessionError, match="now must be a number"):
        clock.now(True, needed=False)  # type: ignore[arg-type]
    clock.clock = lambda: 100.0
    assert clock.start(None) == 100.0
    assert clock.hand_level(100.0 + 10 * 60).big_blind == 20
    assert SessionClock(BlindStructure.fixed(5, 10), None).set_level(0, None) is None


def test_a_logged_command_is_checked_before_it_runs() -> None:
    calls: list[tuple[object, ...]] = []

    class Target:
        def rebuy(self, seat: int, chips: int) -> str:
            calls.append((seat, chips))
            return "ok"

    assert apply_command(Target(), {"op": "rebuy", "seat": 1, "chips": 5}) == "ok"
    with pytest.raises(SessionError, match="unknown command 'fly'"):
        apply_command(Target(), {"op": "fly"})
    with pytest.raises(SessionError, match=r"takes \['seat', 'chips'\], not \['extra'\]"):
        apply_command(Target(), {"op": "rebuy", "seat": 1, "chips": 5, "extra": 1})
    assert calls == [(1, 5)]
    assert "draw" in OPS and OPS["act"] == ("seat", "action", "amount")


def test_the_deal_plan_gives_three_at_a_time_and_reshuffles_once_the_stock_runs_out() -> None:
    exchanges = [CardsExchanged(1, 5), CardsExchanged(3, 0), CardsExchanged(2, 4)]
    plan = deal_plan(exchanges, {1: 5, 3: 0, 2: 4}, stock=6)
    assert plan == [DealStep(1, 3, 1), DealStep(2, 3, 1), DealStep(1, 2, 2, reshuffle=True), DealStep(2, 1, 2)]
    assert deal_plan(exchanges, {1: 5, 3: 0, 2: 4}, stock=20)[2].reshuffle is False
