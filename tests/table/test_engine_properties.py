"""Property tests: random hands on 2-10 seats, random stacks, random legal and illegal input."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from table.cards import Card, Deck
from table.engine import ActionKind, Hand, Rules, Street
from table.errors import IllegalDealError, TocktableError
from table.tock import ALL_MARKS, Mark
from tests.table.fixed_settings import fixed_settings

SETTINGS = fixed_settings(300)


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, list[int], int]:
    seats = draw(st.integers(2, 10))
    small = draw(st.integers(1, 5))
    rules = Rules(
        betting=draw(st.sampled_from(["no-limit", "fixed-limit"])),
        variant=draw(st.sampled_from(["holdem", "tock"])),
        small_blind=small,
        big_blind=small * draw(st.integers(2, 3)),
        ante=draw(st.sampled_from([0, 0, 1, 2])),
    )
    stacks = [draw(st.sampled_from([0, 1, 3, 7, 20, 45, 100, 400])) for _ in range(seats)]
    if sum(1 for s in stacks if s) < 2:
        stacks[0] = stacks[1] = 50
    button = draw(st.sampled_from([s for s, chips in enumerate(stacks) if chips]))
    return rules, stacks, button


def check_invariants(hand: Hand) -> None:
    total = sum(hand.starting_stacks)
    assert sum(hand.stacks) + (0 if hand.is_complete else hand.pot_total) == total
    assert all(s >= 0 for s in hand.stacks) and all(b >= 0 for b in hand.bets)
    assert all(p.amount > 0 for p in hand.pots)
    if not hand.is_complete:
        assert sum(p.amount for p in hand.pots) == hand.pot_total
    if hand.to_act is not None:
        seat = hand.to_act
        assert not hand.folded[seat] and hand.stacks[seat] > 0 and seat in hand.in_hand
        others = [s for s in hand.in_hand if s != seat and not hand.folded[s] and hand.stacks[s] > 0]
        assert others or hand.bets[seat] < max(hand.bets), "a seat alone with chips is asked to act for nothing"
        assert hand.legal_actions()
    if hand.hands_may_be_shown:
        assert hand.to_act is None and hand.betting_closed
    live_shown = [s for s in hand.hole if not hand.folded[s]]
    assert not live_shown or hand.betting_closed, "a live hand is known while betting is open"


def unseen(hand: Hand, count: int) -> list[Card]:
    """Cards not on the table (the deck is left alone)."""
    known = {*hand.board, *(c for cards in hand.hole.values() for c in cards)}
    return [c for c in (Card.from_id(i) for i in range(52)) if c not in known][:count]


def check_show_refused_while_betting_is_open(hand: Hand) -> None:
    """Before betting is closed, turning a live hand face up is refused and changes nothing."""
    if hand.is_complete or hand.hands_may_be_shown or hand.rules.variant != "holdem":
        return  # (Tock marks would refuse unmarked cards for another reason)
    seat = next(s for s in hand.in_hand if not hand.folded[s] and s not in hand.hole)
    before, events = hand.snapshot(), list(hand.events)
    try:
        hand.deal_hole(seat, unseen(hand, 2))
    except IllegalDealError as exc:
        assert "cannot be shown yet" in str(exc)
    else:
        raise AssertionError(f"seat {seat}'s hand was taken while betting is open")
    assert hand.snapshot() == before and hand.events == events


def table_some_hands(hand: Hand, data: st.DataObject, deck: Deck) -> None:
    """At an all-in with board cards to come, some (or all) hands are turned face up first."""
    for seat in hand.in_hand:
        if not hand.folded[seat] and seat not in hand.hole and data.draw(st.booleans()):
            hand.deal_hole(seat, deck.draw(2))


def finish(hand: Hand, data: st.DataObject, deck: Deck) -> None:
    """Play the hand to the end with random legal input, checking invariants at every step."""
    for _ in range(400):
        check_invariants(hand)
        check_show_refused_while_betting_is_open(hand)
        if hand.is_complete:
            break
        if hand.to_act is not None:
            option = data.draw(st.sampled_from(hand.legal_actions()))
            amount = None
            if option.action in (ActionKind.BET, ActionKind.RAISE):
                amount = data.draw(st.integers(option.min_to, option.max_to))
            hand.act(hand.to_act, option.action, amount)
        elif hand.street == Street.SHOWDOWN:
            seat = next(s for s in hand.in_hand if not hand.folded[s] and s not in hand.hole and s not in hand.mucked)
            choice = data.draw(st.sampled_from(["show", "muck", "settle"]))
            try:
                if choice == "muck":
                    hand.muck(seat)
                    continue
                if choice == "settle":
                    hand.settle()  # unseen hands lose where a hand is shown, win where they are alone
                    continue
            except IllegalDealError:
                pass  # the last hand in a pot cannot muck; nobody shown yet: cannot settle
            hand.deal_hole(seat, deck.draw(2))
        else:
            if hand.hands_may_be_shown:
                table_some_hands(hand, data, deck)
            hand.deal_board(deck.draw(3 if not hand.board else 1))
    assert hand.is_complete
    check_invariants(hand)
    assert sum(hand.payoffs) == 0
    assert all(hand.starting_stacks[s] + hand.payoffs[s] >= 0 for s in range(hand.seats))


@SETTINGS
@given(tables(), st.data())
def test_random_legal_play_conserves_chips(table, data):
    rules, stacks, button = table
    hand = Hand(rules, stacks, button)
    finish(hand, data, Deck(rng=data.draw(st.randoms(use_true_random=False))))
    rebuilt = Hand.replay(rules, stacks, button, hand.inputs)  # the log rebuilds the same hand
    assert rebuilt.snapshot() == hand.snapshot() and rebuilt.events == hand.events


ILLEGAL = st.one_of(
    st.tuples(st.just("act"), st.integers(-1, 10), st.sampled_from([*ActionKind, "shove"]), st.integers(-5, 500)),
    st.tuples(st.just("act"), st.integers(-1, 10), st.sampled_from(list(ActionKind)), st.none()),
    st.tuples(st.just("board"), st.integers(0, 5)),
    st.tuples(st.just("hole"), st.integers(-1, 10), st.integers(0, 3)),
    st.tuples(st.just("muck"), st.integers(-1, 10)),
    st.tuples(st.just("mark"), st.one_of(st.none(), st.integers(-1, 10)), st.integers(-1, 5),
              st.sampled_from([str(m) for m in ALL_MARKS])),
    st.tuples(st.just("seen"), st.integers(1, 3)),
    st.tuples(st.just("settle")),
    st.tuples(st.just("undo")),
)  # fmt: skip


def attempt(hand: Hand, move: tuple, deck: Deck) -> None:
    if move[0] == "act":
        hand.act(move[1], move[2], move[3])
    elif move[0] == "board":
        hand.deal_board(deck.draw(move[1]) if move[1] <= len(deck) else [])
    elif move[0] == "hole":
        hand.deal_hole(move[1], deck.draw(move[2]))
    elif move[0] == "mark":
        hand.mark(move[1], move[2], Mark.parse(move[3]))
    elif move[0] == "seen":  # cards already on the table, dealt again
        hand.deal_board([*hand.board, *(c for cards in hand.hole.values() for c in cards)][: move[1]])
    elif move[0] == "settle":
        hand.settle()
    elif move[0] == "undo":
        hand.undo()
    else:
        hand.muck(move[1])


@SETTINGS
@given(tables(), st.data())
def test_rejected_input_changes_nothing(table, data):
    rules, stacks, button = table
    hand = Hand(rules, stacks, button)
    deck = Deck(rng=data.draw(st.randoms(use_true_random=False)))
    for _ in range(40):
        if hand.is_complete:
            break
        move = data.draw(ILLEGAL)
        before, events = hand.snapshot(), list(hand.events)
        try:
            attempt(hand, move, deck)
        except TocktableError:
            assert hand.snapshot() == before and hand.events == events, move
            continue
        check_invariants(hand)  # it was legal after all: the hand must still be sound
