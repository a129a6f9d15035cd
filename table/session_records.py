"""What a :class:`table.session.Session` keeps about people and finished hands: the players at
the table, the money ledger, and the record of each closed hand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from table.cards import Card
from table.engine import BlindLevel, Hand, PotResult
from table.engine.draw import DrawHand
from table.session_draw import shown_names

__all__ = ["HandRecord", "LedgerLine", "Player", "record_of"]


@dataclass
class Player:
    """A player at the table. ``stack`` is the chips behind between hands (during a hand the
    live count is the hand's)."""

    name: str
    seat: int
    stack: int
    bought_in: int
    sitting_out: bool = False


@dataclass(frozen=True)
class LedgerLine:
    """Money in and out for one name over the whole session."""

    name: str
    bought_in: int
    cashed_out: int
    """Chips taken away when leaving (players still seated: the chips in front of them now)."""

    def to_dict(self) -> dict[str, Any]:
        net = self.cashed_out - self.bought_in
        return {"name": self.name, "bought_in": self.bought_in, "cashed_out": self.cashed_out, "net": net}


@dataclass(frozen=True)
class HandRecord:
    """A finished hand, as the dashboard shows it afterwards."""

    number: int
    button: int
    level: BlindLevel
    names: dict[int, str]
    board: tuple[Card, ...]
    shown: dict[int, tuple[Card, ...]]
    results: tuple[PotResult, ...]
    payoffs: dict[int, int]
    """Net chips per seat dealt in."""
    draws: dict[int, int] | None = None
    """Five-card draw: cards exchanged per seat that drew (None for Hold'em)."""
    hands: dict[int, str] = field(default_factory=dict)
    """Five-card draw: the name of each shown hand (Hold'em names come from the board)."""

    def to_dict(self) -> dict[str, Any]:
        data = {
            "number": self.number,
            "button": self.button,
            "level": self.level.to_dict(),
            "board": [str(c) for c in self.board],
            "shown": [
                {
                    "seat": s,
                    "name": self.names[s],
                    "cards": [str(c) for c in cards],
                    **({"hand": self.hands[s]} if s in self.hands else {}),
                }
                for s, cards in self.shown.items()
            ],
            "pots": [
                {
                    "index": r.index,
                    "amount": r.amount,
                    "eligible": list(r.eligible),
                    "winners": [
                        {"seat": s, "name": self.names[s], "amount": r.shares[s], "hand": r.describe(s)}
                        for s in r.winners
                    ],
                }
                for r in self.results
            ],
            "payoffs": [{"seat": s, "name": self.names[s], "net": net} for s, net in sorted(self.payoffs.items())],
        }
        if self.draws is not None:
            data["draws"] = [{"seat": s, "name": self.names[s], "count": n} for s, n in sorted(self.draws.items())]
        return data


def record_of(hand: Hand, *, number: int, level: BlindLevel | None, players: Mapping[int, Player]) -> HandRecord:
    """The record of hand ``number`` (played at ``level`` by ``players``), which must be complete."""
    assert hand.showdown is not None and level is not None
    names = {s: players[s].name for s in hand.in_hand}
    return HandRecord(
        number=number,
        button=hand.button,
        level=level,
        names=names,
        board=tuple(hand.board),
        shown={s: hand.hole[s] for s in hand.in_hand if s in hand.hole and not hand.folded[s]},
        results=tuple(hand.showdown),
        payoffs={s: hand.payoffs[s] for s in hand.in_hand},
        draws=dict(sorted(hand.draws.items())) if isinstance(hand, DrawHand) else None,
        hands=shown_names(hand) if isinstance(hand, DrawHand) else {},
    )
