"""Five-card draw hands: the seed's flow (forced bets, first betting round from the left of the
dealer, the draw, second round, showdown), draw rules and their errors, pots, lowball, undo."""

from __future__ import annotations

import pytest

from table.cards import Rank
from table.draw import LowRule, WildTies
from table.engine import ActionKind, Street
from table.engine.draw import (
    CardsExchanged,
    CrowdedTableWarning,
    DealStep,
    DrawHand,
    DrawPhase,
    DrawRules,
    IllegalDrawError,
    TooFewPlayersError,
)
from table.errors import IllegalActionError, IllegalDealError, RulesError, TocktableError


def checked_round(hand: DrawHand, *actions: tuple[int, str] | tuple[int, str, int]) -> None:
    for seat, action, *amount in actions:
        hand.act(seat, action, *amount)


def to_draw_phase(hand: DrawHand) -> None:
    """Everyone checks or calls the first round."""
    while hand.phase == DrawPhase.FIRST_BETTING:
        seat = hand.to_act
        assert seat is not None
        legal = {a.action for a in hand.legal_actions()}
        hand.act(seat, "check" if ActionKind.CHECK in legal else "call")


def check_conserved(hand: DrawHand) -> None:
    pot = 0 if hand.is_complete else hand.pot_total
    assert sum(hand.stacks) + pot == sum(hand.starting_stacks)


# ----------------------------------------------------------------------------- the flow
def test_antes_then_betting_from_the_left_of_the_dealer_then_draw_then_second_round() -> None:
    hand = DrawHand(DrawRules(ante=2), stacks=[100, 100, 100, 100], button=2)
    assert hand.pot_total == 8 and hand.stacks == [98, 98, 98, 98]
    assert hand.phase == DrawPhase.FIRST_BETTING and hand.to_act == 3  # left of the dealer
    checked_round(hand, (3, "check"), (0, "bet", 10), (1, "fold"), (2, "call"), (3, "call"))
    assert hand.phase == DrawPhase.DRAW and hand.to_act is None
    assert hand.to_draw == 3  # the draw also starts left of the dealer, folded seats skipped
    hand.draw(3, 2)
    hand.draw(0, 0)
    assert hand.to_draw == 2
    hand.draw(2, 3)
    assert hand.exchanges == [CardsExchanged(3, 2), CardsExchanged(0, 0), CardsExchanged(2, 3)]
    assert hand.phase == DrawPhase.SECOND_BETTING and hand.street == Street.RIVER and hand.to_act == 3
    checked_round(hand, (3, "check"), (0, "bet", 20), (2, "fold"), (3, "call"))
    assert hand.phase == DrawPhase.SHOWDOWN and hand.to_act is None
    hand.deal_hole(0, "Ah Ad Ac 7s 2d")
    assert not hand.is_complete
    hand.deal_hole(3, "Kh Kd Ks Kc 2h")
    assert hand.is_complete and hand.phase == DrawPhase.COMPLETE
    assert hand.showdown is not None and hand.showdown[0].winners == (3,)
    assert hand.showdown[0].describe(3) == "Four of a kind, kings"
    assert hand.payoffs == [-32, -2, -12, 46]
    check_conserved(hand)


def test_an_opening_bet_is_posted_left_of_the_dealer_who_keeps_the_option() -> None:
    hand = DrawHand(DrawRules(ante=0, opening_bet=2, small_bet=2), stacks=[50, 50, 50], button=0)
    assert hand.bets == [0, 2, 0] and hand.to_act == 2
    checked_round(hand, (2, "call"), (0, "call"))
    assert hand.to_act == 1 and {a.action for a in hand.legal_actions()} >= {ActionKind.CHECK, ActionKind.RAISE}
    hand.act(1, "raise", 6)
    assert hand.to_act == 2
    checked_round(hand, (2, "call"), (0, "fold"))
    assert hand.phase == DrawPhase.DRAW and hand.to_draw == 1


def test_fixed_limit_bets_the_small_bet_before_the_draw_and_the_big_bet_after() -> None:
    hand = DrawHand(DrawRules(betting="fixed-limit", ante=1, small_bet=5), stacks=[200, 200, 200], button=0)
    bet = {a.action: a for a in hand.legal_actions()}[ActionKind.BET]
    assert (bet.min_to, bet.max_to) == (5, 5)
    hand.act(1, "bet", 5)
    checked_round(hand, (2, "raise", 10), (0, "raise", 15), (1, "raise", 20))
    assert ActionKind.RAISE not in {a.action for a in hand.legal_actions()}  # three raises: the cap
    checked_round(hand, (2, "call"), (0, "call"))
    for seat in (1, 2, 0):
        hand.draw(seat, 1)
    bet = {a.action: a for a in hand.legal_actions()}[ActionKind.BET]
    assert (bet.min_to, bet.max_to) == (10, 10)


def test_no_limit_minimum_bet_is_the_small_bet_before_and_after_the_draw() -> None:
    hand = DrawHand(DrawRules(ante=1, small_bet=1, two_players=True), stacks=[40, 40], button=0)
    bet = {a.action: a for a in hand.legal_actions()}[ActionKind.BET]
    assert (bet.min_to, bet.max_to) == (1, 39)
    checked_round(hand, (1, "check"), (0, "check"))
    hand.draw(1, 1)
    hand.draw(0, 2)
    bet = {a.action: a for a in hand.legal_actions()}[ActionKind.BET]
    assert (bet.min_to, bet.max_to) == (1, 39)


def test_everyone_folds_to_one_player_before_the_draw() -> None:
    hand = DrawHand(DrawRules(ante=1), stacks=[30, 30, 30], button=0)
    checked_round(hand, (1, "bet", 5), (2, "fold"), (0, "fold"))
    assert hand.is_complete and hand.payoffs == [-1, 2, -1] and hand.to_draw is None
    with pytest.raises(IllegalDrawError, match="seat 2 cannot draw now: the draw is over"):
        hand.draw(1, 2)


def test_all_in_before_the_draw_still_draws_then_goes_straight_to_the_showdown() -> None:
    hand = DrawHand(DrawRules(ante=1), stacks=[30, 20, 50], button=0)
    checked_round(hand, (1, "all_in"), (2, "call"), (0, "call"))
    assert hand.phase == DrawPhase.DRAW
    hand.draw(1, 3)
    hand.draw(2, 1)
    hand.draw(0, 0)
    assert hand.phase == DrawPhase.SECOND_BETTING and hand.to_act is not None  # seats 0 and 2 still bet
    checked_round(hand, (2, "bet", 10), (0, "all_in"))
    assert hand.phase == DrawPhase.SHOWDOWN
    hand.deal_hole(1, "Ah Kh Qh Jh Th")
    hand.deal_hole(0, "2c 2d 5s 7c 9d")
    hand.deal_hole(2, "3c 3d 5h 7d 9s")
    assert hand.showdown is not None
    assert [r.winners for r in hand.showdown] == [(1,), (2,)]
    check_conserved(hand)


# ----------------------------------------------------------------------------- illegal draws
def at_draw(**rules: object) -> DrawHand:
    hand = DrawHand(DrawRules(ante=1, **rules), stacks=[50, 50, 50, 50], button=0)  # type: ignore[arg-type]
    checked_round(hand, (1, "bet", 4), (2, "fold"), (3, "call"), (0, "call"))
    return hand


@pytest.mark.parametrize(
    ("seat", "count", "message"),
    [
        (2, 1, "seat 3 folded: only players still in the hand draw"),
        (1, 4, "seat 2 cannot exchange 4 cards: 0 \\(stands pat\\) to 3 cards"),
        (1, -1, "cannot exchange -1 cards"),
        (3, 1, "it is seat 2's turn to draw, not seat 4's"),
        (7, 1, r"seat 8 is not in this hand \(in the hand: seats 1, 2, 3 and 4\)"),
        (1, 1.5, "a whole number of cards"),
        (1, True, "a whole number of cards"),
    ],
)
def test_illegal_draws_are_rejected_and_change_nothing(seat: int, count: int, message: str) -> None:
    hand = at_draw()
    before = hand.snapshot()
    with pytest.raises(IllegalDrawError, match=message) as caught:
        hand.draw(seat, count)
    assert isinstance(caught.value, TocktableError) and isinstance(caught.value, ValueError)
    assert hand.snapshot() == before and not hand.can_draw(seat, count)


def test_a_player_draws_only_once() -> None:
    hand = at_draw()
    hand.draw(1, 2)
    before = hand.snapshot()
    with pytest.raises(IllegalDrawError, match="seat 2 already drew 2 cards: one draw per player"):
        hand.draw(1, 1)
    assert hand.snapshot() == before


def test_draws_are_refused_while_betting_is_open_and_bets_while_drawing() -> None:
    hand = DrawHand(DrawRules(), stacks=[50, 50, 50], button=0)
    with pytest.raises(IllegalDrawError, match="the first betting round is still open \\(seat 2 to act\\)"):
        hand.draw(1, 1)
    to_draw_phase(hand)
    before = hand.snapshot()
    with pytest.raises(IllegalActionError, match="betting is closed during the draw: seat 2 draws next"):
        hand.act(1, "check")
    assert hand.snapshot() == before
    for seat in (1, 2, 0):
        hand.draw(seat, 0)
    with pytest.raises(IllegalDrawError, match="the second betting round is open"):
        hand.draw(1, 1)
    with pytest.raises(IllegalDealError, match="no board"):
        hand.deal_board([])


def test_house_option_up_to_five_cards_dealt_three_at_a_time() -> None:
    hand = at_draw(max_draw=5)
    hand.draw(1, 5)
    hand.draw(3, 2)
    hand.draw(0, 4)
    assert hand.deal_plan() == [
        DealStep(1, 3, 1),
        DealStep(3, 2, 1),
        DealStep(0, 3, 1),
        DealStep(1, 2, 2),
        DealStep(0, 1, 2),
    ]
    with pytest.raises(IllegalDrawError, match="0 \\(stands pat\\) to 3 cards"):
        at_draw().draw(1, 5)


def test_the_plan_says_when_the_discards_must_be_shuffled_in() -> None:
    with pytest.warns(CrowdedTableWarning, match="8 players: the seed rules plan for 3 to 6"):
        hand = DrawHand(DrawRules(ante=1, jokers=1), stacks=[20] * 8, button=7)
    to_draw_phase(hand)
    for seat in range(8):
        hand.draw(seat, 3 if seat < 5 else 0)
    # 53 cards - 40 dealt = 13 in the stock: four players get 12, the fifth needs the discards.
    plan = hand.deal_plan()
    assert [s.reshuffle for s in plan] == [False, False, False, False, True]
    assert hand.snapshot()["deal_plan"][4] == (4, 3, 1, True)


def test_table_size_three_to_eight_with_a_warning_above_six_and_two_by_the_house_option() -> None:
    with pytest.warns(CrowdedTableWarning):
        DrawHand(DrawRules(), stacks=[10] * 7, button=0)
    with pytest.raises(RulesError, match="five-card draw takes 3 to 8 players, got 9"):
        DrawHand(DrawRules(), stacks=[10] * 9, button=0)
    with pytest.raises(TooFewPlayersError, match=r"played by 3 to 6 players .*got 2; two players play only with"):
        DrawHand(DrawRules(), stacks=[10, 0, 10], button=0)
    assert issubclass(TooFewPlayersError, RulesError) and issubclass(TooFewPlayersError, ValueError)
    assert DrawHand(DrawRules(two_players=True), stacks=[10, 0, 10], button=0).in_hand == (0, 2)
    assert DrawHand(DrawRules(), stacks=[10, 10, 10], button=0).in_hand == (0, 1, 2)
    assert DrawRules().min_players == 3 and DrawRules(two_players=True).min_players == 2
    assert DrawRules(two_players=True).to_dict()["two_players"] is True
    with pytest.raises(RulesError, match="two_players must be true or false"):
        DrawRules(two_players=1)  # type: ignore[arg-type]
    hand = DrawHand(DrawRules(), stacks=[10, 0, 10, 0, 0, 0, 10, 10, 10, 10], button=0)  # 6 players, 10 seats
    assert hand.in_hand == (0, 2, 6, 7, 8, 9)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"jokers": 3}, "jokers must be 0, 1 or 2"),
        ({"max_draw": 6}, "max_draw must be 1 to 5"),
        ({"max_draw": 0}, "max_draw must be 1 to 5"),
        ({"ante": -1}, "ante must be a whole number of chips, 0 or more"),
        ({"small_bet": 0}, "small_bet must be a whole number of chips, 1 or more"),
        ({"big_bet": 0}, "big_bet must be a whole number"),
        ({"wild_rank": "Z"}, "wild_rank 'Z' is not a rank"),
        ({"lowball": "ace-to-six"}, "low rule 'ace-to-six' is not known: use one of 'ace-to-five', 'deuce-to-seven'"),
        ({"ties": "best"}, "tie rule 'best' is not known: use one of 'natural', 'substituted'"),
        ({"betting": "pot-limit"}, "betting 'pot-limit' is not known"),
    ],
)
def test_bad_rules_are_refused_with_what_is_allowed(options: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        DrawRules(**options)  # type: ignore[arg-type]


def test_a_draw_hand_needs_draw_rules() -> None:
    from table.engine import Rules

    with pytest.raises(RulesError, match="DrawRules"):
        DrawHand(Rules(), stacks=[10, 10], button=0)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- showdown
def at_showdown(rules: DrawRules, stacks: list[int] | None = None) -> DrawHand:
    hand = DrawHand(rules, stacks=stacks or [100, 100, 100], button=0)
    to_draw_phase(hand)
    while hand.to_draw is not None:
        hand.draw(hand.to_draw, 1)
    while hand.to_act is not None:
        hand.act(hand.to_act, "check")
    assert hand.phase == DrawPhase.SHOWDOWN
    return hand


def test_a_natural_hand_beats_the_same_hand_with_a_joker() -> None:
    hand = at_showdown(DrawRules(ante=5, jokers=1, two_players=True), stacks=[100, 100])
    hand.deal_hole(0, "Jk Qh Jd Tc 9s")
    hand.deal_hole(1, "Kh Qs Jc Th 9c")
    assert hand.showdown is not None and hand.showdown[0].winners == (1,)
    assert hand.showdown[0].describe(0) == "Straight, queen high (with a joker)"


def test_equal_hands_split_the_pot_odd_chip_left_of_the_button() -> None:
    hand = at_showdown(DrawRules(ante=3))
    hand.deal_hole(0, "Ah Kd 9c 7s 3h")
    hand.deal_hole(1, "Ad Kc 9s 7h 3d")
    hand.deal_hole(2, "Qh Jd 9h 7d 2c")
    assert hand.showdown is not None and hand.showdown[0].winners == (0, 1)
    assert hand.showdown[0].shares == {1: 5, 0: 4}


def test_petite_misere_the_lowest_hand_wins_by_its_convention() -> None:
    cards = {0: "5h 4d 3c 2s Ah", 1: "7h 5d 4c 3s 2h", 2: "Kh Kd 9c 7s 3h"}
    for rule, winner in ((LowRule.ACE_TO_FIVE, 0), (LowRule.DEUCE_TO_SEVEN, 1)):
        hand = at_showdown(DrawRules(ante=2, lowball=rule))
        for seat, text in cards.items():
            hand.deal_hole(seat, text)
        assert hand.showdown is not None and hand.showdown[0].winners == (winner,)
        assert hand.snapshot()["rules"]["lowball"] == rule.value


def test_wild_rank_and_tie_rule_come_from_the_rules() -> None:
    hand = at_showdown(DrawRules(ante=2, wild_rank="3", ties=WildTies.SUBSTITUTED, two_players=True), stacks=[50, 50])
    assert hand.draw_rules.wild_rank is Rank.THREE
    hand.deal_hole(0, "3h Qh Jd Tc 9s")  # the three is a king: king-high straight
    hand.deal_hole(1, "Qd Js Th 9h 8c")
    assert hand.showdown is not None and hand.showdown[0].winners == (0,)
    assert hand.showdown[0].describe(0) == "Straight, king high (with a wild card)"


@pytest.mark.parametrize(
    ("jokers", "shown", "message"),
    [
        (0, ["Jk Ah Kd 7c 2s"], "the deck has no joker; 1 would be on the table"),
        (1, ["Jk Ah Kd 7c 2s", "Jk Qh Qd 7d 2c"], "the deck has 1 joker; 2 would be on the table"),
        (2, ["Jk Ah Kd 7c 2s", "Jk Jk Qd 7d 2c"], "the deck has 2 jokers; 3 would be on the table"),
        (1, ["Ah Kd 7c 2s 3s", "Qh Qd 7d 2c Ah"], "Ah already shown in another hand"),
        (1, ["Ah Kd 7c 2s"], "a draw hand has 5 cards, got 4"),
        (1, ["Ah Ah 7c 2s 3s"], "duplicate cards Ah"),
        (1, ["Ah Kd 7c 2s Xx"], "cannot read card 'Xx'"),
    ],
)
def test_impossible_shown_hands_are_refused(jokers: int, shown: list[str], message: str) -> None:
    hand = at_showdown(DrawRules(ante=1, jokers=jokers))
    for seat, text in enumerate(shown[:-1]):
        hand.deal_hole(seat, text)
    before = hand.snapshot()
    with pytest.raises(IllegalDealError, match=message):
        hand.deal_hole(len(shown) - 1, shown[-1])
    assert hand.snapshot() == before


def test_cards_are_read_only_at_the_showdown_and_only_for_players_still_in() -> None:
    hand = DrawHand(DrawRules(ante=1), stacks=[50, 50, 50], button=0)
    with pytest.raises(IllegalDealError, match="hands are shown at the showdown; the hand is in the first betting"):
        hand.deal_hole(1, "Ah Kd 7c 2s 3s")
    hand.act(1, "fold")
    to_draw_phase(hand)
    for seat in (2, 0):
        hand.draw(seat, 1)
    checked_round(hand, (2, "check"), (0, "check"))
    with pytest.raises(IllegalDealError, match="seat 2 folded: its cards stay unknown"):
        hand.deal_hole(1, "Ah Kd 7c 2s 3s")
    hand.muck(2)
    assert hand.is_complete and hand.showdown is not None and hand.showdown[0].winners == (0,)
    with pytest.raises(IllegalDealError, match="settled"):
        hand.deal_hole(0, "Ah Kd 7c 2s 3s")


# ----------------------------------------------------------------------------- log, undo, snapshot
def test_undo_takes_back_draws_and_actions_and_rebuild_replays_the_inputs() -> None:
    hand = at_draw(jokers=1)
    hand.draw(1, 2)
    hand.draw(3, 1)
    removed = hand.undo()
    assert removed == [("draw", (3, 1))] and hand.to_draw == 3 and hand.draws == {1: 2}
    hand.draw(3, 3)
    hand.draw(0, 0)
    hand.act(1, "check")
    assert hand.undo() == [("act", (1, "check", None))] and hand.to_act == 1
    checked_round(hand, (1, "bet", 8), (3, "call"), (0, "fold"))
    hand.deal_hole(1, "Jk 9h 9d 9s 2c")
    hand.deal_hole(3, "Ah Ad Kc Ks 2d")
    rebuilt = DrawHand.rebuild(hand.draw_rules, hand.starting_stacks, hand.button, hand.inputs)
    assert rebuilt.snapshot() == hand.snapshot() and rebuilt.payoffs == hand.payoffs
    assert hand.showdown is not None and hand.showdown[0].winners == (1,)


def test_nothing_to_undo_at_the_start() -> None:
    hand = DrawHand(DrawRules(), stacks=[10, 10, 10], button=0)
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        hand.undo()


def test_snapshot_names_the_variant_phase_draws_and_keeps_cards_private_until_shown() -> None:
    hand = at_draw(jokers=2, wild_rank="2", max_draw=5)
    hand.draw(1, 4)
    snap = hand.snapshot()
    assert snap["variant"] == "draw" and snap["phase"] == "draw" and snap["to_draw"] == 3
    assert snap["draws"] == {1: 4} and snap["deal_plan"] == [(1, 3, 1, False), (1, 1, 2, False)]
    assert snap["hole"] == {}
    assert snap["rules"] == {
        "betting": "no-limit", "ante": 1, "opening_bet": 0, "small_bet": 2, "big_bet": 4, "raise_cap": 3,
        "jokers": 2, "wild_rank": "2", "lowball": None, "ties": "natural", "max_draw": 5, "two_players": False,
    }  # fmt: skip
