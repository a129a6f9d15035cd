"""Scenario tests for the hand engine, one per rule (seed rules and standard tournament rules)."""

import pytest

from table.cards import parse_cards
from table.engine import ActionKind, BetReturned, Hand, Rules, Street
from table.errors import IllegalActionError, IllegalDealError, RulesError, TocktableError
from table.tock import Mark

NL = Rules(small_blind=1, big_blind=2)
FL = Rules(betting="fixed-limit", small_blind=1, big_blind=2)


def actions(hand: Hand) -> dict[str, tuple[int, int]]:
    return {a.action.value: (a.min_to, a.max_to) for a in hand.legal_actions()}


def play_to_flop(hand: Hand, flop: str = "2c 7d 9h") -> None:
    while hand.to_act is not None:
        hand.act(hand.to_act, "call" if "call" in actions(hand) else "check")
    hand.deal_board(parse_cards(flop))


# -- blinds and positions -----------------------------------------------------------------
def test_blinds_and_first_to_act_three_handed():
    hand = Hand(NL, stacks=[100, 100, 100], button=0)
    assert (hand.small_blind_seat, hand.big_blind_seat) == (1, 2)
    assert hand.bets == [0, 1, 2] and hand.stacks == [100, 99, 98]
    assert hand.to_act == 0  # left of the big blind
    play_to_flop(hand)
    assert hand.street == Street.FLOP and hand.to_act == 1  # first seat left of the button


def test_heads_up_button_posts_small_blind_acts_first_preflop_and_last_after():
    hand = Hand(NL, stacks=[100, 100], button=1)
    assert (hand.small_blind_seat, hand.big_blind_seat) == (1, 0)
    assert hand.to_act == 1
    hand.act(1, "call")
    assert hand.to_act == 0 and "check" in actions(hand)  # the big blind's option
    hand.act(0, "check")
    hand.deal_board(parse_cards("2c 7d 9h"))
    assert hand.to_act == 0  # big blind first after the flop


def test_antes_are_dead_money():
    hand = Hand(Rules(small_blind=1, big_blind=2, ante=1), stacks=[50, 50, 50], button=0)
    assert hand.pot_total == 6 and hand.bets == [0, 1, 2]
    assert actions(hand)["call"] == (2, 2)


def test_empty_seats_are_skipped():
    hand = Hand(NL, stacks=[100, 0, 100, 100], button=0)
    assert (hand.small_blind_seat, hand.big_blind_seat) == (2, 3)
    assert hand.to_act == 0 and hand.folded[1]
    with pytest.raises(IllegalDealError, match="seat 2 is not in this hand"):
        hand.deal_hole(1, parse_cards("Ah Kh"))


# -- betting rules --------------------------------------------------------------------------
def test_minimum_raise_is_the_last_full_raise():
    hand = Hand(NL, stacks=[500, 500, 500], button=0)
    assert actions(hand)["raise"] == (4, 500)  # at least the big blind more
    hand.act(0, "raise", 10)  # raises by 8
    assert actions(hand)["raise"] == (18, 500)
    with pytest.raises(IllegalActionError, match=r"cannot raise to 17: raise to 18\.\.500"):
        hand.act(1, "raise", 17)


def test_short_all_in_does_not_reopen_the_betting():
    hand = Hand(NL, stacks=[500, 15, 500], button=2)  # 0 small blind, 1 big blind, 2 first
    hand.act(2, "raise", 10)
    hand.act(0, "call")
    hand.act(1, "all_in")  # to 15: a raise of 5, less than the 8 a full raise needs
    assert hand.to_act == 2
    options = actions(hand)
    assert "raise" not in options and "all_in" not in options and options["call"] == (15, 15)
    with pytest.raises(IllegalActionError, match="not reopened"):
        hand.act(2, "raise", 40)
    hand.act(2, "call")
    assert hand.to_act == 0 and "raise" not in actions(hand)


def test_full_all_in_raise_reopens():
    hand = Hand(NL, stacks=[500, 30, 500], button=2)
    hand.act(2, "raise", 10)
    hand.act(0, "call")
    hand.act(1, "all_in")  # to 30: a full raise
    assert actions(hand)["raise"] == (50, 500)


def test_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting():
    # TDA rule 43: a player who acted may raise again once the bet has risen by a full raise
    # since, several short all-ins counting together.
    hand = Hand(Rules(small_blind=5, big_blind=10), stacks=[500, 500, 125, 140], button=3)
    hand.act(2, "raise", 100)  # seats 0, 1 blinds; 2 opens with a raise of 90
    hand.act(3, "all_in")  # to 140: +40, short
    hand.act(0, "call")  # the small blind had not acted: it could raise, calls 140
    assert hand.to_act == 1
    hand.act(1, "call")
    assert hand.to_act == 2 and "raise" not in actions(hand)  # short all-in: 2 cannot raise
    hand.act(2, "all_in")  # to 125 (less than the 140 to call): a call for less
    assert hand.to_act is None


def test_cumulative_short_all_ins_reopen():
    hand = Hand(Rules(small_blind=5, big_blind=10), stacks=[1000, 1000, 1000, 150, 170], button=4)
    hand.act(2, "raise", 100)  # +90: a full raise of 90
    hand.act(3, "all_in")  # 150: +50, short
    assert "raise" in actions(hand)  # seat 4 has not acted yet
    hand.act(4, "all_in")  # 170: +20, short; together +70 since seat 2 raised: still short
    hand.act(0, "call")
    hand.act(1, "call")
    assert hand.to_act == 2 and "raise" not in actions(hand)
    other = Hand(Rules(small_blind=5, big_blind=10), stacks=[1000, 1000, 1000, 150, 200], button=4)
    other.act(2, "raise", 100)
    other.act(3, "all_in")  # +50
    other.act(4, "all_in")  # 200: +50 more, 100 in all since seat 2 raised: at least a full raise of 90
    other.act(0, "call")
    other.act(1, "call")
    assert other.to_act == 2 and actions(other)["raise"] == (290, 1000)  # the last full raise was 90


def test_fixed_limit_all_in_of_half_a_bet_is_a_raise():
    fl = Rules(betting="fixed-limit", small_blind=5, big_blind=10)  # bets of 10 and 20
    hand = Hand(fl, stacks=[500, 500, 500, 15], button=2)  # 3 small blind, 0 big blind, 1 first
    hand.act(1, "call")
    hand.act(2, "call")
    hand.act(3, "all_in")  # to 15: +5, half of a 10 bet: a raise (reopens, counts toward the cap)
    assert actions(hand)["raise"] == (25, 25)  # the big blind raises a full bet over 15
    hand.act(0, "raise", 25)
    assert actions(hand)["raise"] == (35, 35)  # seat 1 called 10 before the all-in: it may raise
    hand.act(1, "raise", 35)  # the third raise after the big blind's opening bet: the cap
    assert hand.to_act == 2 and "raise" not in actions(hand)
    short = Hand(fl, stacks=[500, 500, 500, 14], button=2)
    short.act(1, "call")
    short.act(2, "call")
    short.act(3, "all_in")  # to 14: +4, less than half a bet: not a raise
    assert actions(short)["raise"] == (24, 24)  # the big blind has not acted: it may raise
    short.act(0, "call")
    assert short.to_act == 1 and "raise" not in actions(short)


def test_a_short_big_blind_is_still_a_full_big_blind_to_call():
    hand = Hand(Rules(small_blind=5, big_blind=10), stacks=[100, 100, 6], button=0)  # 1 small, 2 big (6)
    assert hand.bets == [0, 5, 6] and hand.stacks[2] == 0
    assert actions(hand)["call"] == (10, 10)  # the standard rule: call the full big blind
    hand.act(0, "call")
    hand.act(1, "call")
    assert hand.to_act is None  # the big blind is all in: nobody left to decide
    assert [(p.amount, p.eligible) for p in hand.pots] == [(18, (0, 1, 2)), (8, (0, 1))]


def test_a_big_blind_all_in_for_less_than_the_small_blind_leaves_nothing_to_decide():
    hand = Hand(Rules(small_blind=2, big_blind=4), stacks=[100, 1], button=0)  # heads-up: 0 small, 1 big
    assert hand.to_act is None and hand.committed == [1, 1]
    assert any(isinstance(e, BetReturned) and e.seat == 0 and e.amount == 1 for e in hand.events)
    hand.deal_board(parse_cards("2c 7d 9h Jc 3s"))
    assert hand.street == Street.SHOWDOWN


def test_check_only_when_nothing_is_owed_and_call_only_when_something_is():
    hand = Hand(NL, stacks=[100, 100, 100], button=0)
    with pytest.raises(IllegalActionError, match="there is a bet of 2 to call; allowed: fold, call"):
        hand.act(0, "check")
    play_to_flop(hand)
    with pytest.raises(IllegalActionError, match="there is nothing to call"):
        hand.act(1, "call")


def test_fold_is_allowed_whenever_it_is_your_turn():
    hand = Hand(NL, stacks=[100, 100, 100], button=0)
    play_to_flop(hand)
    hand.act(1, "fold")  # could have checked
    assert hand.folded[1] and hand.to_act == 2


def test_out_of_turn_and_unknown_actions():
    hand = Hand(NL, stacks=[100, 100, 100], button=0)
    with pytest.raises(IllegalActionError, match="it is seat 1's turn, not seat 3's"):
        hand.act(2, "call")
    with pytest.raises(IllegalActionError, match="unknown action 'shove': use one of fold, check"):
        hand.act(0, "shove")
    with pytest.raises(IllegalActionError, match="needs an amount"):
        hand.act(0, "raise")
    assert hand.can_act(0, "call") and not hand.can_act(0, "check")


def test_uncalled_chips_are_returned():
    hand = Hand(NL, stacks=[500, 40, 500], button=2)
    hand.act(2, "fold")
    hand.act(0, "raise", 300)
    hand.act(1, "all_in")  # calls for 40 only
    assert any(isinstance(e, BetReturned) and e.seat == 0 and e.amount == 260 for e in hand.events)
    assert hand.pot_total == 80 and hand.stacks[0] == 460


def test_all_in_player_is_skipped_and_the_board_runs_out():
    hand = Hand(NL, stacks=[100, 20, 100], button=0)
    hand.act(0, "call")
    hand.act(1, "all_in")
    hand.act(2, "call")
    hand.act(0, "call")
    hand.deal_board(parse_cards("2c 7d 9h"))
    assert hand.to_act == 2  # seat 1 is all in: skipped
    hand.act(2, "check")
    hand.act(0, "check")
    hand.deal_board(parse_cards("Jc"))
    assert hand.to_act == 2


def test_hand_ends_early_when_one_player_is_left_without_hole_cards():
    hand = Hand(NL, stacks=[100, 100, 100], button=0)
    hand.act(0, "raise", 8)
    hand.act(1, "fold")
    hand.act(2, "fold")
    assert hand.is_complete and hand.payoffs == [3, -1, -2]
    assert hand.showdown[0].winners == (0,) and hand.showdown[0].describe(0) == "everyone else folded"
    with pytest.raises(IllegalActionError, match="the hand is over"):
        hand.act(0, "check")


# -- the board ------------------------------------------------------------------------------
def test_board_only_after_the_round_closes_and_in_order():
    hand = Hand(NL, stacks=[100, 100, 100], button=0)
    with pytest.raises(IllegalDealError, match="betting is open on the preflop: seat 1 to act"):
        hand.deal_board(parse_cards("2c 7d 9h"))
    while hand.to_act is not None:
        hand.act(hand.to_act, "call" if "call" in actions(hand) else "check")
    with pytest.raises(IllegalDealError, match="the flop takes 3 card"):
        hand.deal_board(parse_cards("2c"))
    hand.deal_board(parse_cards("2c 7d 9h"))
    while hand.to_act is not None:
        hand.act(hand.to_act, "check")
    with pytest.raises(IllegalDealError, match="duplicate cards 7d"):
        hand.deal_board(parse_cards("7d"))
    with pytest.raises(IllegalDealError, match="the turn takes 1 card"):
        hand.deal_board(parse_cards("Jc Qc"))


def test_all_in_runout_may_deal_the_rest_at_once():
    hand = Hand(NL, stacks=[50, 50], button=0)
    hand.act(0, "all_in")
    hand.act(1, "call")
    hand.deal_board(parse_cards("2c 7d 9h Jc Qs"))
    assert hand.street == Street.SHOWDOWN and not hand.is_complete


# -- showdown, pots and splits --------------------------------------------------------------
def test_side_pots_go_to_the_best_eligible_hand():
    hand = Hand(NL, stacks=[100, 30, 60], button=0)
    hand.act(0, "all_in")
    hand.act(1, "all_in")
    hand.act(2, "all_in")
    assert [(p.amount, p.eligible) for p in hand.pots] == [(90, (0, 1, 2)), (60, (0, 2))]
    assert hand.stacks == [40, 0, 0]  # 40 uncalled returned to seat 0
    hand.deal_board(parse_cards("2c 7d 9h Jc 3s"))
    hand.deal_hole(1, parse_cards("Ah Ad"))  # best hand, short stack
    hand.deal_hole(0, parse_cards("Kh Kd"))
    hand.deal_hole(2, parse_cards("Qh Qd"))
    assert hand.is_complete
    main, side = hand.showdown
    assert main.winners == (1,) and main.shares == {1: 90}
    assert side.winners == (0,) and side.shares == {0: 60}
    assert main.describe(1) == "Pair of aces"
    assert hand.payoffs == [0, 60, -60] and sum(hand.payoffs) == 0


def test_split_pot_odd_chip():
    hand = Hand(Rules(small_blind=1, big_blind=2, ante=1), stacks=[50, 50, 50], button=1)
    # seat 2 small blind, seat 0 big blind, seat 1 (button) first
    hand.act(1, "fold")
    hand.act(2, "call")
    hand.act(0, "check")
    for cards in ("Ah Kd Qc", "Js", "Ts"):
        hand.deal_board(parse_cards(cards))
        while hand.to_act is not None:
            hand.act(hand.to_act, "check")
    assert hand.pot_total == 7  # three antes and two big blinds
    hand.deal_hole(2, parse_cards("2c 3d"))
    hand.deal_hole(0, parse_cards("4c 5d"))
    result = hand.showdown[0]
    assert set(result.winners) == {0, 2}
    assert result.shares == {2: 4, 0: 3}  # seat 2 is the first winner left of the button


def test_muck_and_settle_with_unknown_cards():
    hand = Hand(NL, stacks=[100, 100, 100], button=0)
    play_to_flop(hand)
    for card in ("Jc", "3s"):
        while hand.to_act is not None:
            hand.act(hand.to_act, "check")
        hand.deal_board(parse_cards(card))
    while hand.to_act is not None:
        hand.act(hand.to_act, "check")
    assert hand.street == Street.SHOWDOWN
    hand.deal_hole(1, parse_cards("Ah Ad"))
    hand.muck(2)
    assert not hand.is_complete  # seat 0 has not shown yet
    hand.settle()  # seat 0's cards stay unknown: it mucks
    assert hand.showdown[0].winners == (1,) and 0 in hand.mucked
    assert hand.payoffs == [-2, 4, -2]


def test_a_muck_leaves_the_last_hand_the_winner():
    hand = Hand(NL, stacks=[100, 100], button=0)
    hand.act(0, "call")
    hand.act(1, "check")
    for cards in ("2c 7d 9h", "Jc", "3s"):
        hand.deal_board(parse_cards(cards))
        while hand.to_act is not None:
            hand.act(hand.to_act, "check")
    hand.muck(0)
    assert hand.is_complete and hand.showdown[0].winners == (1,)


# -- fixed limit ------------------------------------------------------------------------------
def test_fixed_limit_bet_sizes_and_raise_cap():
    hand = Hand(FL, stacks=[500, 500, 500], button=0)
    assert actions(hand)["raise"] == (4, 4)  # small bet pre-flop
    hand.act(0, "raise", 4)
    hand.act(1, "raise", 6)
    hand.act(2, "raise", 8)  # third raise (the big blind was the bet)
    assert "raise" not in actions(hand) and "all_in" not in actions(hand)
    with pytest.raises(IllegalActionError, match="raise cap of 3"):
        hand.act(0, "raise", 10)
    while hand.to_act is not None:
        hand.act(hand.to_act, "call")
    hand.deal_board(parse_cards("2c 7d 9h"))
    assert actions(hand)["bet"] == (2, 2)  # small bet on the flop
    while hand.to_act is not None:
        hand.act(hand.to_act, "check")
    hand.deal_board(parse_cards("Jc"))
    assert actions(hand)["bet"] == (4, 4)  # big bet on the turn


def test_rules_validation():
    with pytest.raises(RulesError, match=r"big blind \(3\) must be at least twice the small blind \(2\)"):
        Rules(small_blind=2, big_blind=3)
    with pytest.raises(RulesError, match="betting 'pot-limit' is not known"):
        Rules(betting="pot-limit")
    with pytest.raises(RulesError, match="2 to 10 seats"):
        Hand(NL, stacks=[100] * 11, button=0)
    with pytest.raises(RulesError, match="the button must be on a seat with chips"):
        Hand(NL, stacks=[100, 0, 100], button=1)
    assert isinstance(RulesError("x"), TocktableError)


# -- Tock --------------------------------------------------------------------------------------
def test_tock_marks_are_kept_and_checked_when_cards_turn():
    hand = Hand(Rules(variant="tock", small_blind=5, big_blind=10), stacks=[200, 200], button=0)
    for position, text in enumerate(["h:large", "s:small", "d:ace", "c:medium", "h:small"]):
        hand.mark(None, position, Mark.parse(text))
    hand.mark(0, 0, Mark.parse("s:ace"))
    assert [str(m) for m in hand.board_marks] == ["h:large", "s:small", "d:ace", "c:medium", "h:small"]
    hand.act(0, "call")
    hand.act(1, "check")
    with pytest.raises(IllegalDealError, match="board card 1 was marked h:large but 2h carries h:small"):
        hand.deal_board(parse_cards("2h 3s Ad"))
    hand.deal_board(parse_cards("Kh 3s Ad"))
    with pytest.raises(IllegalDealError, match="seat 1's card 1 was marked s:ace"):
        hand.deal_hole(0, parse_cards("Ks Qd"))


def test_marks_only_in_tock():
    hand = Hand(NL, stacks=[100, 100], button=0)
    with pytest.raises(IllegalDealError, match="only in Tock-Poker"):
        hand.mark(None, 0, Mark.parse("h:ace"))


# -- log, replay, undo ---------------------------------------------------------------------------
def played_hand() -> Hand:
    hand = Hand(NL, stacks=[100, 60, 100, 80], button=3)
    hand.act(2, "raise", 6)
    hand.act(3, "call")
    hand.act(0, "fold")
    hand.act(1, "raise", 20)
    hand.act(2, "call")
    hand.act(3, "call")
    hand.deal_board(parse_cards("2c 7d 9h"))
    hand.act(1, "check")
    hand.act(2, "check")
    return hand


def test_replay_from_the_log_is_identical():
    hand = played_hand()
    again = Hand.replay(hand.rules, hand.starting_stacks, hand.button, hand.inputs)
    assert again.snapshot() == hand.snapshot() and again.events == hand.events


def test_undo_takes_back_the_last_action_and_what_followed():
    hand = played_hand()
    before_check = Hand.replay(hand.rules, hand.starting_stacks, hand.button, hand.inputs[:-1])
    removed = hand.undo()
    assert removed == [("act", (2, "check", None))]
    assert hand.snapshot() == before_check.snapshot()
    hand.undo()  # seat 1's check
    removed = hand.undo()  # seat 3's call closed the round: the flop goes too
    assert removed[0] == ("act", (3, "call", None)) and removed[1][0] == "deal_board"
    assert hand.street == Street.PREFLOP and hand.to_act == 3 and hand.board == []


def test_undo_with_nothing_to_undo():
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        Hand(NL, stacks=[100, 100], button=0).undo()


def test_illegal_input_leaves_the_hand_unchanged():
    hand = played_hand()
    before = hand.snapshot()
    events = list(hand.events)
    for bad in (
        lambda: hand.act(3, "raise", 10),
        lambda: hand.act(2, "raise", 5),
        lambda: hand.act(hand.to_act, "call"),
        lambda: hand.deal_board(parse_cards("Jc")),
        lambda: hand.deal_hole(1, parse_cards("2c 3c")),
        lambda: hand.act(hand.to_act, ActionKind.BET, 10**6),
    ):
        with pytest.raises(TocktableError):
            bad()
        assert hand.snapshot() == before and hand.events == events


def check_around(hand: Hand, board: str = "Ah Kd Qc Js Ts") -> None:
    """Deal ``board`` street by street, everyone still able to act checking."""
    for cards in (board[:8], board[9:11], board[12:]):
        while hand.to_act is not None:
            hand.act(hand.to_act, "check")
        hand.deal_board(parse_cards(cards))
    while hand.to_act is not None:
        hand.act(hand.to_act, "check")


def test_three_way_split_gives_two_odd_chips_clockwise_from_the_button_wrapping_past_seat_0():
    # Button seat 2: seat 3 small blind, seat 0 big blind, seat 1 first to act. Antes of 2.
    hand = Hand(Rules(small_blind=1, big_blind=2, ante=2), stacks=[50, 50, 50, 50], button=2)
    hand.act(1, "call")
    hand.act(2, "fold")
    hand.act(3, "call")
    hand.act(0, "check")
    check_around(hand)  # a broadway board: every hand still in plays it
    assert hand.pot_total == 14  # four antes of 2 and three bets of 2: 3 x 4 and 2 odd chips
    for seat, cards in ((3, "2c 3d"), (0, "4c 5d"), (1, "6c 7d")):
        hand.deal_hole(seat, parse_cards(cards))
    (result,) = hand.showdown
    assert result.winners == (0, 1, 3)
    # Clockwise from the first seat left of the button: 3, then 0 (past the last seat), then 1.
    assert result.shares == {3: 5, 0: 5, 1: 4}
    assert hand.payoffs == [1, 0, -2, 1]


def test_odd_chips_of_a_main_and_a_side_pot_each_go_clockwise_from_the_button_among_its_winners():
    # Button seat 2; seat 3 (small blind) has 5 chips and goes all in before the flop.
    hand = Hand(Rules(small_blind=1, big_blind=2), stacks=[20, 20, 20, 5], button=2)
    hand.act(1, "call")
    hand.act(2, "call")
    hand.act(3, "raise", 5)
    for seat in (0, 1, 2):
        hand.act(seat, "call")
    hand.deal_board(parse_cards("Ah Kd Qc"))
    hand.act(0, "bet", 3)
    hand.act(1, "call")
    hand.act(2, "call")
    hand.deal_board(parse_cards("Js"))
    hand.act(0, "bet", 4)
    hand.act(1, "call")
    hand.act(2, "fold")  # seat 2's 8 chips stay in: 5 in the main pot, 3 in the side pot
    hand.deal_board(parse_cards("Ts"))
    hand.act(0, "check")
    hand.act(1, "check")
    for seat, cards in ((3, "2c 3d"), (0, "4c 5d"), (1, "6c 7d")):
        hand.deal_hole(seat, parse_cards(cards))
    main, side = hand.showdown
    assert main.amount == 20 and main.winners == (0, 1, 3)
    assert main.shares == {3: 7, 0: 7, 1: 6}  # 6 each, odd chips to seats 3 then 0
    assert side.amount == 17 and side.winners == (0, 1)
    assert side.shares == {0: 9, 1: 8}  # seat 3 is not in it: seat 0 is the first winner left of the button
    assert hand.payoffs == [4, 2, -8, 2] and sum(hand.payoffs) == 0
