"""Showdown corner cases (mucks, unknown cards, side pots) and Tock marks against the cards."""

from __future__ import annotations

import pytest

from table.cards import parse_cards
from table.engine import Hand, Rules, Street
from table.errors import IllegalActionError, IllegalDealError
from table.tock import Mark

NL = Rules(small_blind=1, big_blind=2)


def side_pot_showdown() -> Hand:
    """Seat 0 all in for 20, seats 1 and 2 all in for 100: a main pot of 60 and a side pot of 160."""
    hand = Hand(NL, stacks=[20, 100, 100], button=2)  # 0 small blind, 1 big blind, 2 first
    hand.act(2, "all_in")
    hand.act(0, "all_in")
    hand.act(1, "call")
    hand.deal_board(parse_cards("2c 7d 9h Js 3c"))
    assert hand.street == Street.SHOWDOWN
    assert [(p.amount, p.eligible) for p in hand.pots] == [(60, (0, 1, 2)), (160, (1, 2))]
    return hand


def test_the_short_stack_wins_the_main_pot_and_the_next_best_the_side_pot():
    hand = side_pot_showdown()
    hand.deal_hole(0, parse_cards("Ah Ad"))
    hand.deal_hole(1, parse_cards("Kh Kd"))
    hand.deal_hole(2, parse_cards("Qh Qd"))
    assert [r.winners for r in hand.showdown] == [(0,), (1,)]
    assert hand.payoffs == [40, 60, -100]
    assert hand.showdown[1].describe(1) == "Pair of kings"


def test_the_last_hand_in_a_pot_cannot_muck_it_wins_it_unseen():
    hand = side_pot_showdown()
    hand.deal_hole(0, parse_cards("Ah Ad"))
    hand.muck(1)  # gives up both pots
    before = hand.snapshot(), list(hand.events)
    assert hand.can_muck(0) is False and hand.can_muck(2) is False  # 0 showed; 2 is alone in the side pot
    with pytest.raises(IllegalDealError, match="seat 3 is the last hand left in side pot 1: it wins it"):
        hand.muck(2)
    assert (hand.snapshot(), hand.events) == before
    hand.settle()  # seat 2 does not show: it loses the main pot, wins the side pot
    assert [r.winners for r in hand.showdown] == [(0,), (2,)]
    assert hand.payoffs == [40, -100, 60]


def test_an_unseen_hand_wins_the_pot_no_one_else_is_left_in():
    hand = side_pot_showdown()
    hand.deal_hole(0, parse_cards("Ah Ad"))
    hand.muck(1)
    assert not hand.is_complete  # seat 2 may still show to fight for the main pot
    hand.settle()  # it does not: it loses the main pot, wins the side pot unseen
    assert [r.winners for r in hand.showdown] == [(0,), (2,)]
    assert 2 not in hand.mucked and 1 in hand.mucked


def test_settle_refuses_a_pot_nobody_showed():
    hand = side_pot_showdown()
    hand.deal_hole(0, parse_cards("Ah Ad"))
    before = hand.snapshot()
    with pytest.raises(IllegalDealError, match=r"side pot 1 \(seats 2 and 3\) has no hand shown"):
        hand.settle()
    assert hand.snapshot() == before
    hand.deal_hole(2, parse_cards("Qh Qd"))
    hand.settle()  # seat 1 never showed: it mucks
    assert [r.winners for r in hand.showdown] == [(0,), (2,)] and 1 in hand.mucked
    assert [r.index for r in hand.showdown] == [0, 1]
    nobody = side_pot_showdown()
    message = r"the main pot \(seats 1, 2 and 3\) has no hand shown: show at least one of them, or muck all but one"
    with pytest.raises(IllegalDealError, match=message):
        nobody.settle()


def checked_down(hand: Hand) -> Hand:
    for cards in ("2c 7d 9h", "Jc", "3s"):
        while hand.to_act is not None:
            hand.act(hand.to_act, "check" if hand.can_act(hand.to_act, "check") else "call")
        hand.deal_board(parse_cards(cards))
    while hand.to_act is not None:
        hand.act(hand.to_act, "check")
    assert hand.street == Street.SHOWDOWN
    return hand


def test_the_last_hand_cannot_muck_and_folded_seats_cannot_show_down():
    hand = checked_down(Hand(NL, stacks=[50, 50, 50], button=0))
    with pytest.raises(IllegalDealError, match="no unshown hand to muck"):
        hand.muck(5)
    hand.muck(1)
    assert not hand.is_complete  # seats 0 and 2 are still in
    hand.muck(2)
    assert hand.is_complete and hand.showdown[0].winners == (0,)  # the last hand wins unseen
    with pytest.raises(IllegalDealError, match="at the showdown"):
        hand.muck(0)
    folded = Hand(NL, stacks=[50, 50, 50], button=0)
    folded.act(0, "fold")
    checked_down(folded)
    with pytest.raises(IllegalDealError, match="seat 1 has no unshown hand to muck"):
        folded.muck(0)


def test_seats_must_be_whole_numbers():
    hand = Hand(NL, stacks=[50, 50], button=1)
    with pytest.raises(IllegalActionError, match="seat 2's turn"):
        hand.act(True, "call")  # True == 1 but is not a seat
    from table.errors import RulesError

    with pytest.raises(RulesError, match="button"):
        Hand(NL, stacks=[50, 50], button="0")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="whole numbers"):
        Hand(NL, stacks=[50, "50"], button=0)  # type: ignore[list-item]


# -- Tock marks -----------------------------------------------------------------------------
TOCK = Rules(variant="tock", small_blind=1, big_blind=2)


def test_a_mark_cannot_stand_for_more_cards_than_it_has():
    hand = Hand(TOCK, stacks=[50, 50, 50], button=0)
    hand.mark(None, 0, Mark.parse("s:ace"))
    with pytest.raises(IllegalDealError, match="s:ace stands for 1 card"):
        hand.mark(1, 0, Mark.parse("s:ace"))
    hand.mark(None, 0, Mark.parse("h:ace"))  # the same position re-read: the old mark goes
    hand.mark(1, 0, Mark.parse("s:ace"))
    for position in range(1, 5):
        hand.mark(None, position, Mark.parse("d:large"))
    before = hand.snapshot(), list(hand.events)
    with pytest.raises(IllegalDealError, match="d:large stands for 4 card"):
        hand.mark(2, 1, Mark.parse("d:large"))
    assert (hand.snapshot(), hand.events) == before


def test_marks_are_checked_against_face_up_cards():
    hand = Hand(TOCK, stacks=[50, 50], button=0)
    hand.act(0, "call")
    hand.act(1, "check")
    hand.deal_board(parse_cards("As Kd 2c"))
    with pytest.raises(IllegalDealError, match="already face up"):
        hand.mark(None, 0, Mark.parse("s:ace"))
    with pytest.raises(IllegalDealError, match="s:ace stands for 1 card"):
        hand.mark(0, 0, Mark.parse("s:ace"))  # the ace of spades is on the board
    with pytest.raises(IllegalDealError, match=r"table\.tock\.Mark"):
        hand.mark(0, 0, "h:large")  # type: ignore[arg-type]


def test_a_mark_read_after_the_card_must_match_it():
    hand = checked_down(Hand(TOCK, stacks=[50, 50], button=0))
    hand.deal_hole(0, parse_cards("Ah Kd"))
    assert hand.is_complete is False
    with pytest.raises(IllegalDealError, match="Kd, which carries d:large"):
        hand.mark(0, 1, Mark.parse("d:small"))
    hand.mark(1, 0, Mark.parse("c:small"))
    hand.deal_hole(1, parse_cards("5c 4c"))
    assert hand.is_complete
    with pytest.raises(IllegalDealError, match="settled"):
        hand.mark(1, 1, Mark.parse("c:small"))
