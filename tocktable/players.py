"""Simulated players for the demo: each seat has a style and decides from its own cards.

A decision is a list of console buttons to press (the demo presses them on mock GPIO pins,
exactly as a dealer would on the real console): ``[PLUS, PLUS, BET_RAISE]`` raises two steps
above the minimum. Strength is a rough 0..1 score from the hole cards and the board; the style
sets how much strength a seat wants before it calls, raises or goes all in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hardware.pins import ConsoleButton
from table.cards import Card
from table.evaluate import Category, evaluate


@dataclass(frozen=True)
class Style:
    """How a simulated player plays."""

    name: str
    call: float
    """Strength needed to call a bet (less when the price is small)."""
    raise_: float
    """Strength needed to bet or raise."""
    aggression: float
    """Chance to bet or raise when strong enough."""
    bluff: float
    """Chance to bet with a weak hand when nobody has bet."""


STYLES = (
    Style("tight", call=0.45, raise_=0.7, aggression=0.6, bluff=0.03),
    Style("loose", call=0.28, raise_=0.6, aggression=0.4, bluff=0.08),
    Style("aggressive", call=0.35, raise_=0.5, aggression=0.8, bluff=0.15),
    Style("calling station", call=0.2, raise_=0.85, aggression=0.2, bluff=0.0),
)


def strength(hole: Sequence[str], board: Sequence[str]) -> float:
    """A rough 0..1 score of a hand: pre-flop from the two cards, later from the made hand."""
    cards = [Card.parse(c) for c in hole]
    if len(cards) != 2:
        return 0.3
    high, low = sorted((int(c.rank) for c in cards), reverse=True)
    if not board:
        if high == low:
            return 0.55 + high / 30
        score = (high + low) / 24 * 0.6
        score += 0.06 if cards[0].suit == cards[1].suit else 0.0
        score += 0.05 if high - low == 1 else 0.0
        return min(score, 0.8)
    value = evaluate([*cards, *(Card.parse(c) for c in board)])
    base = {
        Category.HIGH_CARD: 0.12, Category.PAIR: 0.42, Category.TWO_PAIR: 0.66, Category.THREE_OF_A_KIND: 0.76,
        Category.STRAIGHT: 0.84, Category.FLUSH: 0.88, Category.FULL_HOUSE: 0.94, Category.FOUR_OF_A_KIND: 0.98,
        Category.STRAIGHT_FLUSH: 1.0,
    }[value.category]  # fmt: skip
    board_only = evaluate([Card.parse(c) for c in board]).category if len(board) >= 5 else None
    if board_only is not None and board_only >= value.category:
        base -= 0.25  # the hand is all on the board: everyone has it
    return max(0.0, min(1.0, base + high / 120))


def decide(
    style: Style, hole: Sequence[str], board: Sequence[str], legal: Sequence[Mapping[str, Any]], *,
    bet: int, pot: int, rng: random.Random,
) -> list[ConsoleButton]:  # fmt: skip
    """The buttons to press for the seat to act."""
    options = {a["action"]: a for a in legal}
    score = strength(hole, board) + rng.uniform(-0.08, 0.08)
    to_call = options["call"]["min_to"] - bet if "call" in options else 0
    price = to_call / (pot + to_call) if to_call else 0.0
    raise_kind = "bet" if "bet" in options else ("raise" if "raise" in options else None)
    if score > 0.93 and "all_in" in options and rng.random() < 0.25:
        return [ConsoleButton.ALL_IN]
    strong = score >= style.raise_ and rng.random() < style.aggression
    bluffing = to_call == 0 and rng.random() < style.bluff
    if raise_kind is not None and (strong or bluffing):
        steps = rng.choice((0, 0, 1, 2, 3)) if strong else 0
        return [ConsoleButton.PLUS] * steps + [ConsoleButton.BET_RAISE]
    if to_call == 0:
        return [ConsoleButton.CHECK_CALL]
    if score >= style.call or price < score * 0.5:
        return [ConsoleButton.CHECK_CALL]
    return [ConsoleButton.FOLD]
