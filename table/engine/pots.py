"""Main and side pots from what each seat put in, and how a pot is split between winners.

>>> [(p.amount, p.eligible) for p in build_pots([100, 40, 100, 10], folded=[False, False, False, True])]
[(130, (0, 1, 2)), (120, (0, 2))]
>>> split_pot(10, winners=[4, 1], seats=6, button=2)
{4: 5, 1: 5}
>>> split_pot(11, winners=[4, 1], seats=6, button=2)
{4: 6, 1: 5}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Pot:
    """Chips and the seats that can win them (main pot first)."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(committed: Sequence[int], folded: Sequence[bool]) -> list[Pot]:
    """Layer the chips by the amounts live seats put in: each layer is a pot that every live
    seat who covered it can win. Folded chips stay in the layers they reached; chips above
    the highest live level (only possible when uncalled chips were not returned) join the
    last pot. Each layer has its own eligible seats: the seats that put in exactly the layer
    below it are not in it."""
    live = [s for s in range(len(committed)) if not folded[s]]
    levels = sorted({committed[s] for s in live if committed[s] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in committed)
        pots.append(Pot(amount, tuple(s for s in live if committed[s] >= level)))
        previous = level
    leftover = sum(max(c - previous, 0) for c in committed)
    if leftover:
        if pots:
            pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
        else:
            pots.append(Pot(leftover, tuple(live)))
    return pots


def split_pot(amount: int, *, winners: Sequence[int], seats: int, button: int) -> dict[int, int]:
    """Share a pot evenly; odd chips go one by one to the winners in clockwise order from
    the first seat left of the button."""
    order = sorted(winners, key=lambda s: (s - button - 1) % seats)
    share, odd = divmod(amount, len(order))
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(order)}
