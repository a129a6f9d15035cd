"""Five-card draw in a :class:`table.session.Session`: the host's draw options, and what the
session shows and exports of a draw hand.

A session plays five-card draw when its variant is ``"draw"`` (the highest hand wins) or
``"lowball"`` (Petite Misère: the lowest hand wins). The blind level of the session gives the
stakes, so a blind clock raises them as in Hold'em:

- ``small_blind`` is the forced bet: everyone's ante (the default; a level's own ante, when it
  has one, is used instead), or with ``opening_bet=True`` the opening bet of the player left
  of the dealer (and the level's ante, if any, is paid by everyone as well);
- ``big_blind`` is the smallest bet, the fixed-limit bet before the draw (twice it after).

>>> options = DrawOptions(jokers=1, wild_rank="3")
>>> rules = options.rules(BlindLevel(5, 10), lowball=False, betting="no-limit", raise_cap=3)
>>> rules.ante, rules.opening_bet, rules.small_bet, rules.jokers, rules.wild_rank.char
(5, 0, 10, 1, '3')
>>> DrawOptions(opening_bet=True).rules(BlindLevel(5, 10, 1), lowball=True, betting="no-limit", raise_cap=3).lowball
<LowRule.ACE_TO_FIVE: 'ace-to-five'>
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from table.cards import Rank
from table.draw import LowRule, parse_low_rule, parse_ties, parse_wild_rank
from table.engine.blinds import BlindLevel
from table.engine.draw import MAX_PLAYERS, MIN_PLAYERS, WARN_ABOVE, DrawHand, DrawRules
from table.engine.events import ActionTaken, BlindPosted, HandMucked, HoleDealt, StreetStarted
from table.engine.rules import Street
from table.errors import RulesError
from table.history import phh_action, phh_closing_fields, phh_order, phh_text
from table.phrases import N_, given, setting

__all__ = [
    "DRAW_VARIANTS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "VARIANT_NAMES",
    "DrawOptions",
    "draw_phh",
    "draw_state",
    "phh_variant",
]

DRAW_VARIANTS = ("draw", "lowball")
"""Session variants played as five-card draw: high (``draw``) and Petite Misère (``lowball``)."""

VARIANT_NAMES = {
    "holdem": "Texas Hold'em",
    "tock": "Tock-Poker",
    "draw": "Five-card draw",
    "lowball": "Petite Misère (lowball)",
}
"""The name of each session variant, for people."""


@dataclass(frozen=True)
class DrawOptions:
    """How the host plays five-card draw (the house options of the seed rules).

    ``jokers``: 0, 1 or 2 jokers in the deck; ``wild_rank``: a declared wild rank such as
    ``"3"`` (None: none); ``low_rule``: the lowball convention, ``"ace-to-five"`` or
    ``"deuce-to-seven"`` (used only by the ``lowball`` variant); ``ties``: how a wild card
    counts in a tie between high hands (``"natural"``, the seed rule, or ``"substituted"``);
    ``max_draw``: the most cards one player may exchange (3; 5 as a house option);
    ``opening_bet``: the player left of the dealer opens with a forced bet (the level's small
    blind) instead of everyone paying it as an ante; ``two_players``: hands between two players
    are dealt (the seed text plans for 3 to 6; without it a hand needs three players).
    """

    jokers: int = 0
    wild_rank: str | None = None
    low_rule: str = "ace-to-five"
    ties: str = "natural"
    max_draw: int = 3
    opening_bet: bool = False
    two_players: bool = False

    def __post_init__(self) -> None:
        for name in ("opening_bet", "two_players"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(
                    N_("{name} must be true or false, got {got}"),
                    name=setting(name),
                    got=given(getattr(self, name)),
                )
        if self.wild_rank == "":
            object.__setattr__(self, "wild_rank", None)
        wild = parse_wild_rank(self.wild_rank)
        object.__setattr__(self, "wild_rank", None if wild is None else wild.char)
        object.__setattr__(self, "low_rule", parse_low_rule(self.low_rule).value)
        object.__setattr__(self, "ties", parse_ties(self.ties).value)
        # DrawRules checks the joker count and the draw limit, with messages naming what is allowed.
        self.rules(BlindLevel(1, 2), lowball=False, betting="no-limit", raise_cap=3)

    def rules(self, level: BlindLevel, *, lowball: bool, betting: str, raise_cap: int | None) -> DrawRules:
        """The rules of one draw hand played at ``level``."""
        if self.opening_bet:
            ante, opening = level.ante, level.small_blind
        else:
            ante, opening = level.ante or level.small_blind, 0
        return DrawRules(
            betting=betting,
            ante=ante,
            opening_bet=opening,
            small_bet=level.big_blind,
            raise_cap=raise_cap,
            jokers=self.jokers,
            wild_rank=self.wild_rank,
            lowball=self.low_rule if lowball else None,
            ties=self.ties,
            max_draw=self.max_draw,
            two_players=self.two_players,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "jokers": self.jokers,
            "wild_rank": self.wild_rank,
            "low_rule": self.low_rule,
            "ties": self.ties,
            "max_draw": self.max_draw,
            "opening_bet": self.opening_bet,
            "two_players": self.two_players,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DrawOptions:
        if not isinstance(data, Mapping):
            raise RulesError(N_("draw options are a mapping such as {{'jokers': 1}}, got {data}"), data=given(data))
        known = set(cls().to_dict())
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(
                N_("unknown draw options {unknown}: allowed are {known}"),
                unknown=given(unknown),
                known=given(sorted(known)),
            )
        return cls(**data)


def describe_rules(variant: str, rules: DrawRules) -> str:
    """The game in a few words: ``"Five-card draw, 1 joker, threes wild, draw up to 3"``."""
    parts = [VARIANT_NAMES[variant]]
    if rules.lowball is not None:
        parts[0] = f"{parts[0]}, {cast(LowRule, rules.lowball).value}"
    if rules.jokers:
        parts.append("1 joker" if rules.jokers == 1 else f"{rules.jokers} jokers")
    if rules.wild_rank is not None:
        parts.append(f"{cast(Rank, rules.wild_rank).plural} wild")
    parts.append(f"draw up to {rules.max_draw}")
    if rules.two_players:
        parts.append("two players allowed")
    return ", ".join(parts)


def draw_state(
    variant: str, hand: DrawHand | None, rules: DrawRules, *, dealt: int
) -> dict[str, Any]:  # fmt: skip
    """The ``draw_game`` part of a session snapshot: the game, the hand's phase, who draws next
    and how many cards each player exchanged (never which cards: they stay unknown)."""
    crowded = None
    if dealt > WARN_ABOVE:
        crowded = (f"{dealt} players: the seed rules plan for 3 to {WARN_ABOVE} (at most {MAX_PLAYERS}); the stock "
                   "may run out during the draw, the discards are then shuffled in")  # fmt: skip
    return {
        "variant": variant,
        "name": describe_rules(variant, rules),
        "rules": rules.to_dict(),
        "phase": hand.phase.value if hand is not None else None,
        "to_draw": hand.to_draw if hand is not None else None,
        "draws": [{"seat": s, "count": n} for s, n in sorted(hand.draws.items())] if hand is not None else [],
        "deal_plan": [
            {"seat": step.seat, "cards": step.cards, "round": step.round, "reshuffle": step.reshuffle}
            for step in hand.deal_plan()
        ]
        if hand is not None
        else [],
        "opening_seat": _opening_seat(hand),
        "warning": crowded,
    }


def _opening_seat(hand: DrawHand | None) -> int | None:
    if hand is None:
        return None
    return next((e.seat for e in hand.events if isinstance(e, BlindPosted) and e.kind == "opening"), None)


# ------------------------------------------------------------------------------ PHH
def phh_variant(rules: DrawRules) -> str | None:
    """The PHH variant code a draw hand can be written as, or None when PHH has none.

    PHH (as of its 11 variants) knows one single-draw game: ``N2L1D``, no-limit deuce-to-seven
    lowball. A Petite Misère hand played deuce-to-seven, no-limit, without jokers or a wild rank,
    on antes only, is exactly that game; every other draw hand (high draw, jokers, wild cards,
    ace-to-five, fixed-limit, an opening bet) has no PHH variant."""
    standard = (
        rules.lowball is not None
        and cast(LowRule, rules.lowball) is LowRule.DEUCE_TO_SEVEN
        and rules.jokers == 0
        and rules.wild_rank is None
        and rules.betting == "no-limit"
        and rules.opening_bet == 0
    )
    return "N2L1D" if standard else None


def draw_phh(
    hand: DrawHand, *, names: Mapping[int, str] | None = None, number: int | None = None, event: str | None = None
) -> str | None:
    """A draw hand as PHH text when PHH has its variant (see :func:`phh_variant`), else None.

    Cards never seen are written ``??``: the five dealt, the discards and the replacements; a
    hand shown at the showdown is written with the five cards it showed."""
    rules = hand.draw_rules
    code = phh_variant(rules)
    if code is None:
        return None
    order = phh_order(hand)
    player = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
    actions = [f"d dh {player[s]} {'??' * 5}" for s in order]
    bets: dict[int, int] = {}
    winners = {s for result in hand.showdown or [] for s in result.winners}
    for item in hand.events:
        if isinstance(item, ActionTaken):
            actions.append(phh_action(player[item.seat], item, top=max(bets.values(), default=0)))
            bets[item.seat] = item.to
        elif isinstance(item, StreetStarted) and item.street == Street.RIVER:
            # Every player still in declares a draw, then the dealer serves them in the same order.
            actions += [f"{player[e.seat]} sd {'??' * e.count}".rstrip() for e in hand.exchanges]
            actions += [f"d dh {player[e.seat]} {'??' * e.count}" for e in hand.exchanges if e.count]
            bets = {}
        elif isinstance(item, HoleDealt):
            actions.append(f"{player[item.seat]} sm {''.join(map(str, item.cards))}")
        elif isinstance(item, HandMucked) and item.seat not in winners:
            actions.append(f"{player[item.seat]} sm")
    fields: dict[str, Any] = {
        "variant": code,
        "ante_trimming_status": True,
        "antes": [rules.ante] * len(order),
        "blinds_or_straddles": [0] * len(order),
        "min_bet": rules.small_bet,
        "starting_stacks": [hand.starting_stacks[s] for s in order],
        "actions": actions,
        **phh_closing_fields(hand, order, names=names, number=number, event=event),
    }
    return phh_text(fields)


def shown_names(hand: DrawHand) -> dict[int, str]:
    """The name of every hand shown at the showdown (``"Five of a kind, kings (with a joker)"``)."""
    return {seat: value.describe() for seat, value in hand.values().items()}
