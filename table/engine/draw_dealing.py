"""What the dealer does in the draw: each exchange declared, and the plan of passes that serves
them (at most three cards at a time, going round again, a reshuffle when the stock runs out).

:func:`deal_plan` is computed from the exchanges alone, so the dealer's page and the tests can
ask it at any moment of the draw; :meth:`table.engine.draw.DrawHand.deal_plan` gives it for a
hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["PER_PASS", "CardsExchanged", "DealStep", "deal_plan"]

PER_PASS = 3
"""The dealer gives at most three cards at a time to one player (the seed's house rule)."""


@dataclass(frozen=True)
class CardsExchanged:
    """A player discarded ``count`` cards and is to receive as many (0: stands pat)."""

    seat: int
    count: int


@dataclass(frozen=True)
class DealStep:
    """One pass of the dealer to one player during the draw: give ``cards`` cards.

    ``reshuffle`` marks the first step the stock cannot cover: the discards are shuffled into
    a new stock before it."""

    seat: int
    cards: int
    round: int
    reshuffle: bool = False


def deal_plan(exchanges: Sequence[CardsExchanged], draws: Mapping[int, int], stock: int) -> list[DealStep]:
    """How the dealer serves ``exchanges`` (``draws``: the cards each seat asked for) from a
    stock of ``stock`` cards: in the order the players drew, at most :data:`PER_PASS` cards at a
    time, going round again for the rest."""
    # In the order the players drew (a player who folds afterwards was still served).
    order = [e.seat for e in exchanges if e.count > 0]
    steps: list[DealStep] = []
    left = {s: draws[s] for s in order}
    round_number = 1
    reshuffled = False
    while any(left.values()):
        for seat in order:
            give = min(left[seat], PER_PASS)
            if give:
                needs = not reshuffled and give > stock
                reshuffled = reshuffled or needs
                stock -= give
                left[seat] -= give
                steps.append(DealStep(seat, give, round_number, needs))
        round_number += 1
    return steps
