"""Property tests for five-card draw hands: random tables (2-8 players, antes or an opening bet,
no-limit or fixed-limit, jokers, wild rank, lowball), random legal play to the end, and random
illegal input (draws from folded seats, too many cards, second draws, out of turn, bets during
the draw, impossible shown hands), which must be refused with a typed error changing nothing."""

from __future__ import annotations

import random
import warnings
from dataclasses import replace
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from table.cards import ALL_CARDS, JOKER
from table.draw import DrawCard, LowRule
from table.engine import ActionKind
from table.engine.draw import CrowdedTableWarning, DrawHand, DrawPhase, DrawRules
from table.errors import TocktableError
from tests.table.fixed_settings import fixed_settings

SETTINGS = fixed_settings(150)


@st.composite
def tables(draw: st.DrawFn) -> tuple[DrawRules, list[int], int]:
    seats = draw(st.integers(2, 10))
    ante, opening = draw(st.sampled_from([(1, 0), (0, 2), (2, 1), (0, 0), (5, 0)]))
    rules = DrawRules(
        betting=draw(st.sampled_from(["no-limit", "fixed-limit"])),
        ante=ante,
        opening_bet=opening,
        small_bet=draw(st.integers(1, 4)),
        jokers=draw(st.integers(0, 2)),
        wild_rank=draw(st.sampled_from([None, None, "2", "7"])),
        lowball=draw(st.sampled_from([None, None, *LowRule])),
        max_draw=draw(st.sampled_from([3, 3, 5])),
    )
    stacks = [draw(st.sampled_from([0, 1, 3, 7, 20, 45, 100])) for _ in range(seats)]
    while sum(1 for s in stacks if s) > 8:
        stacks[stacks.index(max(stacks))] = 0
    if sum(1 for s in stacks if s) < 2:
        stacks[0] = stacks[1] = 50
    if sum(1 for s in stacks if s) == 2:  # heads-up is the house option
        rules = replace(rules, two_players=True)
    button = draw(st.sampled_from([s for s, chips in enumerate(stacks) if chips]))
    return rules, stacks, button


def start(table: tuple[DrawRules, list[int], int], data: st.DataObject) -> tuple[DrawHand, Shoe]:
    """A new hand (crowded tables allowed silently) and a shuffled shoe for its showdown."""
    rules, stacks, button = table
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CrowdedTableWarning)
        hand = DrawHand(rules, stacks, button)
    return hand, Shoe(rules.jokers, data.draw(st.randoms(use_true_random=False)))


def check_invariants(hand: DrawHand) -> None:
    total = sum(hand.starting_stacks)
    assert sum(hand.stacks) + (0 if hand.is_complete else hand.pot_total) == total
    assert all(s >= 0 for s in hand.stacks)
    if not hand.is_complete:
        assert sum(p.amount for p in hand.pots) == hand.pot_total
    phase = hand.phase
    assert (hand.to_draw is not None) == (phase == DrawPhase.DRAW)
    if phase == DrawPhase.DRAW:
        assert hand.to_act is None and not hand.folded[hand.to_draw]  # type: ignore[index]
    assert all(0 <= n <= hand.draw_rules.max_draw and s in hand.in_hand for s, n in hand.draws.items())
    assert sum(step.cards for step in hand.deal_plan()) == sum(hand.draws.values())
    assert all(step.cards <= 3 for step in hand.deal_plan())


class Shoe:
    """Cards for the showdown: the 52 and the deck's jokers, shuffled."""

    def __init__(self, jokers: int, rng: random.Random) -> None:
        self.cards: list[DrawCard] = [*ALL_CARDS, *[JOKER] * jokers]
        rng.shuffle(self.cards)

    def take(self, count: int) -> list[DrawCard]:
        taken, self.cards = self.cards[:count], self.cards[count:]
        return taken


def step(hand: DrawHand, data: st.DataObject, shoe: Shoe) -> None:
    """One random legal move."""
    if hand.to_act is not None:
        option = data.draw(st.sampled_from(hand.legal_actions()))
        amount = data.draw(st.integers(option.min_to, option.max_to)) if option.action in (
            ActionKind.BET, ActionKind.RAISE) else None  # fmt: skip
        hand.act(hand.to_act, option.action, amount)
    elif hand.to_draw is not None:
        hand.draw(hand.to_draw, data.draw(st.integers(0, hand.draw_rules.max_draw)))
    else:
        seat = next(s for s in hand._contenders() if s not in hand.hole)
        # The last hand left in a pot cannot muck: it wins that pot without showing.
        if data.draw(st.booleans()) or not hand.can_muck(seat):
            hand.deal_hole(seat, shoe.take(5))
        else:
            hand.muck(seat)


@SETTINGS
@given(tables(), st.data())
def test_random_legal_play_conserves_chips_and_reaches_the_end(table: Any, data: st.DataObject) -> None:
    hand, shoe = start(table, data)
    phases = [hand.phase]
    for _ in range(300):
        check_invariants(hand)
        if hand.is_complete:
            break
        step(hand, data, shoe)
        if hand.phase != phases[-1]:
            phases.append(hand.phase)
    assert hand.is_complete
    check_invariants(hand)
    assert sum(hand.payoffs) == 0
    order = list(DrawPhase)
    assert [order.index(p) for p in phases] == sorted(order.index(p) for p in phases)  # never backwards
    if len(hand.hole) > 0:
        assert hand.showdown is not None
        best = max(hand.value_of(hand.hole[s]).rank for s in hand.showdown[0].values)
        assert all(hand.showdown[0].values[w].rank == best for w in hand.showdown[0].winners)


ILLEGAL = st.one_of(
    st.tuples(st.just("draw"), st.integers(-1, 10), st.integers(-2, 7)),
    st.tuples(st.just("draw"), st.integers(0, 9), st.sampled_from([True, 1.0, "2", None])),
    st.tuples(st.just("act"), st.integers(-1, 10), st.sampled_from([*ActionKind, "stand pat"]), st.integers(-5, 300)),
    st.tuples(st.just("hole"), st.integers(-1, 10), st.integers(0, 7)),
    st.tuples(st.just("muck"), st.integers(-1, 10)),
)


def attempt(hand: DrawHand, move: tuple[Any, ...], data: st.DataObject, shoe: Shoe) -> None:
    if move[0] == "draw":
        hand.draw(move[1], move[2])
    elif move[0] == "act":
        hand.act(move[1], move[2], move[3])
    elif move[0] == "hole":
        # Sometimes cards already shown, sometimes too many jokers, sometimes the wrong count.
        reuse = [c for cards in hand.hole.values() for c in cards][:2]
        hand.deal_hole(move[1], [*reuse, *[JOKER] * (move[2] % 3), *shoe.take(move[2])][: move[2]])
    elif move[0] == "muck":
        hand.muck(move[1])
    else:
        step(hand, data, shoe)


@SETTINGS
@given(tables(), st.data())
def test_rejected_input_changes_nothing(table: Any, data: st.DataObject) -> None:
    hand, shoe = start(table, data)
    refused = 0
    for _ in range(40):
        if hand.is_complete:
            break
        # Half legal moves (to reach every phase), half attempts that are mostly illegal.
        move = ("legal",) if data.draw(st.booleans()) else data.draw(ILLEGAL)
        before, events, exchanges = hand.snapshot(), list(hand.events), list(hand.exchanges)
        try:
            attempt(hand, move, data, shoe)
        except TocktableError as error:
            assert isinstance(error, ValueError)
            assert hand.snapshot() == before and hand.events == events and hand.exchanges == exchanges, move
            refused += 1
            continue
        check_invariants(hand)  # it was legal after all: the hand must still be sound
    assert refused > 0 or hand.is_complete


@SETTINGS
@given(tables(), st.data())
def test_the_three_illegal_draws_of_the_issue(table: Any, data: st.DataObject) -> None:
    """Drawing from a folded seat, drawing more than allowed, and drawing twice are always refused."""
    hand, shoe = start(table, data)
    for _ in range(300):
        if hand.is_complete:
            break
        for seat in hand.in_hand:
            if hand.folded[seat] or seat in hand.draws:
                assert not hand.can_draw(seat, 1)
            assert not hand.can_draw(seat, hand.draw_rules.max_draw + 1)
            assert not hand.can_draw(seat, -1)
        step(hand, data, shoe)
