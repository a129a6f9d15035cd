"""The settings of a :class:`table.session.Session`: what the host chose when creating the game."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from table.engine import BlindLevel, BlindStructure, Hand, Rules
from table.engine.draw import CrowdedTableWarning, DrawHand, DrawRules
from table.errors import RulesError
from table.phrases import N_, Listed, Verbatim, given
from table.session_draw import DRAW_VARIANTS, DrawOptions

__all__ = ["FIRST_DEALERS", "SessionSettings"]

FIRST_DEALERS = ("draw", "croupier")
"""How the first dealer of a game is chosen: ``"draw"``, a card drawn per seat (highest deals) or
a seat named by the host; ``"croupier"``, the dealer rules' puck, in front of the first player
to the croupier's right (:meth:`table.session.Session.croupier_button`)."""


@dataclass(frozen=True)
class SessionSettings:
    """What the host chose when creating the game.

    ``seats`` is the number of places at the table (2-10, numbered 0.. clockwise).
    ``rebuys`` lets a player buy more chips between hands (a cash game); without it a player
    who busts is out and takes the next finishing place (a tournament).

    ``variant`` is ``"holdem"``, ``"tock"``, or five-card draw: ``"draw"`` (high) or
    ``"lowball"`` (Petite Misère), played with the :class:`DrawOptions` in ``draw`` (the
    defaults when None); see :mod:`table.session_draw` for how a blind level sets a draw
    game's ante, opening bet and smallest bet.

    ``first_dealer`` is one of :data:`FIRST_DEALERS`: how the game's first dealer is chosen
    by default (the host may always name a seat instead)."""

    seats: int = 10
    betting: str = "no-limit"
    variant: str = "holdem"
    blinds: BlindStructure = field(default_factory=lambda: BlindStructure.fixed(1, 2))
    raise_cap: int | None = 3
    rebuys: bool = True
    draw: DrawOptions | None = None
    first_dealer: str = "draw"

    def __post_init__(self) -> None:
        if isinstance(self.seats, bool) or not isinstance(self.seats, int) or not 2 <= self.seats <= 10:
            raise RulesError(N_("a table has 2 to 10 seats, got {seats}"), seats=given(self.seats))
        if self.first_dealer not in FIRST_DEALERS:
            raise RulesError(
                N_(
                    "first_dealer must be {allowed} (a card drawn per seat, or the puck to the croupier's right), "
                    "got {first_dealer}"
                ),
                allowed=Listed([given(d) for d in FIRST_DEALERS], "or"),
                first_dealer=given(self.first_dealer),
            )
        if not isinstance(self.blinds, BlindStructure):
            raise RulesError(N_("blinds must be a table.engine.BlindStructure"))
        if self.is_draw:
            if self.draw is None:
                object.__setattr__(self, "draw", DrawOptions())
            if not isinstance(self.draw, DrawOptions):
                raise RulesError(N_("draw options must be a table.session.DrawOptions"))
            for level in self.blinds.levels:  # betting and raise cap checked by DrawRules
                self.draw_rules_for(level)
            return
        if self.draw is not None:
            raise RulesError(
                N_("draw options apply to the five-card draw variants ({variants}), not to {variant}"),
                variants=Verbatim(", ".join(DRAW_VARIANTS)),
                variant=given(self.variant),
            )
        self.rules_for(self.blinds.levels[0])  # betting, variant and raise cap checked by Rules

    @property
    def is_draw(self) -> bool:
        """Whether hands are five-card draw (high or lowball) rather than Hold'em."""
        return self.variant in DRAW_VARIANTS

    def draw_rules_for(self, level: BlindLevel) -> DrawRules:
        """The rules of a draw hand played at ``level`` (draw variants only)."""
        if not self.is_draw or self.draw is None:
            raise RulesError(
                N_("{variant} is not a five-card draw variant ({variants})"),
                variant=given(self.variant),
                variants=Verbatim(", ".join(DRAW_VARIANTS)),
            )
        return self.draw.rules(level, lowball=self.variant == "lowball", betting=self.betting,
                               raise_cap=self.raise_cap)  # fmt: skip

    def new_hand(self, level: BlindLevel, stacks: list[int], button: int) -> Hand:
        """A new hand of this game (a :class:`DrawHand` for the draw variants)."""
        if not self.is_draw:
            return Hand(self.rules_for(level), stacks, button)
        with warnings.catch_warnings():  # a crowded table is shown in the snapshot instead
            warnings.simplefilter("ignore", CrowdedTableWarning)
            return DrawHand(self.draw_rules_for(level), stacks, button)

    def rules_for(self, level: BlindLevel) -> Rules:
        """The rules of a hand played at ``level``."""
        return Rules(
            betting=self.betting,
            variant=self.variant,
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=level.ante,
            raise_cap=self.raise_cap,
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seats": self.seats,
            "betting": self.betting,
            "variant": self.variant,
            "blinds": self.blinds.to_dict(),
            "raise_cap": self.raise_cap,
            "rebuys": self.rebuys,
            "first_dealer": self.first_dealer,
        }
        if self.draw is not None:
            data["draw"] = self.draw.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SessionSettings:
        known = {"seats", "betting", "variant", "blinds", "raise_cap", "rebuys", "draw", "first_dealer"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(
                N_("unknown session settings {unknown}: allowed are {known}"),
                unknown=given(unknown),
                known=given(sorted(known)),
            )
        values = dict(data)
        if "blinds" in values:
            values["blinds"] = BlindStructure.from_dict(values["blinds"])
        if values.get("draw") is not None:
            values["draw"] = DrawOptions.from_dict(values["draw"])
        return cls(**values)
