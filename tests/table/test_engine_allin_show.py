"""Hands turned face up at an all-in: once betting is closed for the rest of the hand (every
player still in but at most one is all in, nobody to act), the hands are tabled before the
board runs out (TDA rule: all hands are tabled at an all-in). Before that, a hand is refused."""

import pytest

from table.cards import parse_cards
from table.engine import Hand, HoleDealt, Rules, Street
from table.engine.draw import DrawHand, DrawRules
from table.errors import IllegalActionError, IllegalDealError

NL = Rules(small_blind=1, big_blind=2)


def refused(hand: Hand, seat: int, cards: str, match: str) -> None:
    """deal_hole raises IllegalDealError saying ``match`` and changes nothing."""
    before, events = hand.snapshot(), list(hand.events)
    with pytest.raises(IllegalDealError, match=match):
        hand.deal_hole(seat, parse_cards(cards))
    assert hand.snapshot() == before and hand.events == events


def test_a_preflop_all_in_is_tabled_before_the_flop_and_the_board_runs_out():
    hand = Hand(NL, stacks=[100, 100, 50], button=0)  # 1 small blind, 2 big blind, 0 first
    assert not hand.betting_closed and not hand.hands_may_be_shown
    refused(hand, 1, "Kh Kd", r"betting is open on the preflop \(seat 1 to act\)")
    hand.act(0, "all_in")
    hand.act(1, "all_in")
    refused(hand, 0, "Ah Ad", "seat 3 to act")  # the big blind has not answered yet
    hand.act(2, "all_in")
    assert hand.betting_closed and hand.hands_may_be_shown and hand.street == Street.PREFLOP
    for seat, cards in ((0, "Ah Ad"), (1, "Kh Kd"), (2, "Qh Qd")):
        hand.deal_hole(seat, parse_cards(cards))
    assert not hand.is_complete and hand.board == []
    hand.deal_board(parse_cards("2c 7d 9h"))
    assert hand.street == Street.FLOP and hand.hands_may_be_shown
    hand.deal_board(parse_cards("Jc"))
    hand.deal_board(parse_cards("3s"))  # the river completes the board: every hand is known, settled
    assert hand.is_complete and not hand.hands_may_be_shown and hand.betting_closed
    main, side = hand.showdown
    assert main.winners == (0,) and side.winners == (0,) and hand.payoffs == [150, -100, -50]
    shows = [e.seat for e in hand.events if isinstance(e, HoleDealt)]
    assert shows == [0, 1, 2]
    first_board = next(i for i, (name, _) in enumerate(hand.inputs) if name == "deal_board")
    assert [name for name, _ in hand.inputs[first_board - 3 : first_board]] == ["deal_hole"] * 3


def test_a_covering_player_with_chips_left_closes_the_betting_by_calling():
    hand = Hand(NL, stacks=[100, 300], button=0)  # heads-up: 0 small blind and first pre-flop
    hand.act(0, "call")
    hand.act(1, "check")
    hand.deal_board(parse_cards("2c 7d 9h"))
    refused(hand, 0, "Ah Ad", "betting is open on the flop")
    hand.act(1, "check")
    hand.act(0, "all_in")
    assert not hand.hands_may_be_shown  # seat 1 has chips and must still decide
    refused(hand, 1, "Kh Kd", r"seat 2 to act")
    hand.act(1, "call")
    assert hand.betting_closed and hand.hands_may_be_shown and hand.stacks == [0, 200]
    hand.deal_hole(1, parse_cards("Kh Kd"))  # one hand tabled; the other may follow at any time
    hand.deal_board(parse_cards("Jc"))
    hand.deal_hole(0, parse_cards("Ah Ad"))
    assert hand.street == Street.TURN and not hand.is_complete
    hand.deal_board(parse_cards("3s"))
    assert hand.is_complete and hand.payoffs == [100, -100]


def test_betting_still_to_come_between_two_players_with_chips_is_not_closed():
    hand = Hand(NL, stacks=[30, 200, 200], button=0)
    hand.act(0, "all_in")
    hand.act(1, "call")
    hand.act(2, "call")
    assert hand.to_act is None and hand.street == Street.PREFLOP  # the flop is awaited
    assert not hand.betting_closed and not hand.hands_may_be_shown  # seats 1 and 2 bet on after it
    refused(hand, 0, "Ah Ad", "more betting is to come after the next board cards")
    hand.deal_board(parse_cards("2c 7d 9h"))
    hand.act(1, "all_in")
    hand.act(2, "call")  # now everyone is all in
    assert hand.hands_may_be_shown
    hand.deal_hole(0, parse_cards("Ah Ad"))


def test_no_muck_before_the_showdown_and_a_hand_won_by_a_fold_shows_nothing():
    hand = Hand(NL, stacks=[100, 100, 100], button=0)
    hand.act(0, "all_in")
    hand.act(1, "fold")
    hand.act(2, "call")
    assert hand.hands_may_be_shown
    with pytest.raises(IllegalDealError, match="mucking happens at the showdown"):
        hand.muck(2)  # every hand is tabled at an all-in: a muck waits for the showdown
    lone = Hand(NL, stacks=[100, 100], button=0)
    lone.act(0, "all_in")
    lone.act(1, "fold")
    assert lone.is_complete and lone.betting_closed and not lone.hands_may_be_shown
    refused(lone, 0, "Ah Ad", "settled")


def undo_refused(hand: Hand) -> None:
    """undo raises IllegalActionError (a hand was shown) and changes nothing."""
    before, events = hand.snapshot(), list(hand.events)
    with pytest.raises(IllegalActionError, match="the hands were shown: betting cannot reopen; correct a card"):
        hand.undo()
    assert hand.snapshot() == before and hand.events == events


def test_undo_cannot_reopen_betting_once_the_hands_were_shown_and_replay_is_exact():
    hand = Hand(NL, stacks=[50, 100, 100], button=0)  # 1 small blind, 2 big blind, 0 first
    hand.act(0, "all_in")
    hand.act(1, "fold")
    hand.deal_hole(1, parse_cards("7s 2h"))  # a folded hand known: no secret, undo still allowed
    hand.act(2, "call")
    assert [name for name, _ in hand.undo()] == ["act"] and hand.to_act == 2
    hand.act(2, "call")
    hand.deal_hole(0, parse_cards("Ah Ad"))
    undo_refused(hand)
    hand.deal_hole(2, parse_cards("Kh Kd"))
    undo_refused(hand)
    hand.deal_board(parse_cards("2c 7d 9h"))
    undo_refused(hand)
    again = Hand.replay(hand.rules, hand.starting_stacks, hand.button, hand.inputs)
    assert again.snapshot() == hand.snapshot() and again.events == hand.events


def test_undo_after_a_draw_showdown_hand_is_refused_too():
    hand = DrawHand(DrawRules(ante=1), stacks=[20, 50, 50], button=0)
    hand.act(1, "all_in")
    hand.act(2, "fold")
    hand.act(0, "call")
    hand.draw(1, 2)
    hand.draw(0, 0)
    assert hand.street == Street.SHOWDOWN
    hand.deal_hole(1, "Ah Ad Ac 7c 2s")
    undo_refused(hand)


def test_draw_hands_are_shown_at_the_showdown_only_even_all_in():
    hand = DrawHand(DrawRules(ante=1, two_players=True), stacks=[20, 50], button=0)
    hand.act(1, "all_in")
    hand.act(0, "call")  # seat 0 is all in; seat 1 has chips left but nobody to bet against
    assert hand.betting_closed and not hand.hands_may_be_shown and hand.to_draw == 1
    with pytest.raises(IllegalDealError, match="at the showdown"):
        hand.deal_hole(1, "Ah Ad Ac 7c 2s")
    hand.draw(1, 2)
    hand.draw(0, 0)
    assert hand.street == Street.SHOWDOWN and hand.hands_may_be_shown
    hand.deal_hole(1, "Ah Ad Ac 7c 2s")
    hand.deal_hole(0, "Kh Kd Ks 9c 4h")
    assert hand.is_complete and hand.showdown[0].winners == (1,)
