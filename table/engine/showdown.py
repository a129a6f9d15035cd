"""Who wins each pot at the showdown, and with what.

A pot goes to the best hand shown among its eligible seats that did not muck; ties split it
(odd chips clockwise from the button, see :func:`table.engine.pots.split_pot`). A seat whose
cards were never seen wins a pot only when no one else is left in it (the last hand in a pot
cannot be mucked: :meth:`table.engine.Hand.muck` refuses it).

>>> from table.cards import parse_cards
>>> from table.evaluate import evaluate
>>> board = parse_cards("2c 7d 9h Js 3c")
>>> values = {0: evaluate([*parse_cards("Ah Ad"), *board]), 2: evaluate([*parse_cards("Kh Kd"), *board])}
>>> [r.winners for r in award_pots([Pot(30, (0, 1, 2)), Pot(40, (1, 2))], values=values, mucked=[], seats=3, button=0)]
[(0,), (2,)]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from table.engine.pots import Pot, split_pot
from table.errors import IllegalDealError
from table.evaluate import HandValue
from table.phrases import N_, Seats, pot_name


@dataclass(frozen=True)
class PotResult:
    """How one pot was settled."""

    index: int
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: dict[int, int]
    values: dict[int, HandValue] = field(default_factory=dict)
    """Each shown seat's hand value (empty when the pot went to the last seat standing)."""

    def describe(self, seat: int) -> str:
        value = self.values.get(seat)
        return value.describe() if value is not None else "everyone else folded"


def award_pots(
    pots: Sequence[Pot],
    *,
    values: Mapping[int, HandValue],
    mucked: Collection[int],
    seats: int,
    button: int,
) -> list[PotResult]:
    """Settle every pot. ``values`` holds the shown hands, ``mucked`` the seats that mucked.
    Raises :class:`IllegalDealError` when a pot has no shown hand and several seats whose
    cards are unknown (someone must show, or muck), or nobody left at all."""
    results = []
    for index, pot in enumerate(pots):
        candidates = [s for s in pot.eligible if s not in mucked]
        shown = [s for s in candidates if s in values]
        if shown:
            best = max(values[s].rank for s in shown)
            winners = tuple(s for s in shown if values[s].rank == best)
        elif len(candidates) == 1:
            winners = (candidates[0],)
        else:
            raise IllegalDealError(
                N_("{pot} ({seats}) has no hand shown: show at least one of them, or muck all but one"),
                pot=pot_name(index),
                seats=Seats(pot.eligible),
            )
        shares = split_pot(pot.amount, winners=winners, seats=seats, button=button)
        results.append(PotResult(index, pot.amount, pot.eligible, winners, shares, {s: values[s] for s in shown}))
    return results
