"""How a hand of five-card draw is played: the house's choices (:class:`DrawRules`) and how
many players the game is dealt to.

The rules are a value checked once when made; :class:`table.engine.draw.DrawHand` plays a hand
under them, and :mod:`table.engine.draw` re-exports every name here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from table.cards import Rank
from table.draw import LowRule, WildTies, parse_low_rule, parse_ties, parse_wild_rank
from table.engine.rules import Rules, Street
from table.errors import RulesError
from table.phrases import N_, Number, given, setting

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "WARN_ABOVE", "DrawRules", "TooFewPlayersError"]

MIN_PLAYERS = 3
MAX_PLAYERS = 8
WARN_ABOVE = 6
"""The seed text says 3 to 6 players ("Nombre de joueurs : 3 à 6"). Two play only with the house
option :attr:`DrawRules.two_players`; 7 or 8 are allowed with a warning (the stock runs low)."""


class TooFewPlayersError(RulesError):
    """Fewer players than five-card draw is played by (3, or 2 with the house option)."""


@dataclass(frozen=True)
class DrawRules:
    """How a hand of five-card draw is played.

    ``ante`` is paid by every player; ``opening_bet`` is a forced bet by the player left of the
    dealer (the seed: "Le joueur situé après le donneur ... place sa mise"); either or both may
    be used. ``small_bet`` is the smallest bet (and raise) in no-limit, and the fixed-limit bet
    before the draw; ``big_bet`` the fixed-limit bet after it (twice the small bet by default).
    ``jokers``: jokers in the deck (0, 1 or 2); ``wild_rank``: a declared wild rank ("3").
    ``lowball``: None for the classic game (highest hand wins) or a :class:`LowRule` for Petite
    Misère. ``ties``: how a wild card counts in a tie (high hands; the seed rule by default).
    ``max_draw``: the most cards one player may exchange (3; the house option is 5).
    ``two_players``: the house option of a hand between two players (the text plans for 3 to 6).
    """

    betting: str = "no-limit"
    ante: int = 1
    opening_bet: int = 0
    small_bet: int = 2
    big_bet: int | None = None
    raise_cap: int | None = 3
    jokers: int = 0
    wild_rank: Rank | str | None = None
    lowball: LowRule | str | None = None
    ties: WildTies | str = WildTies.NATURAL
    max_draw: int = 3
    two_players: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.two_players, bool):
            raise RulesError(
                N_("two_players must be true or false, got {two_players}"), two_players=given(self.two_players)
            )
        for name, least in (("ante", 0), ("opening_bet", 0), ("small_bet", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise RulesError(
                    N_("{name} must be a whole number of chips, {least} or more, got {value}"),
                    name=setting(name),
                    least=Number(least),
                    value=given(value),
                )
        if self.big_bet is not None and (
            isinstance(self.big_bet, bool) or not isinstance(self.big_bet, int) or self.big_bet < 1
        ):
            raise RulesError(
                N_("big_bet must be a whole number of chips above 0, or None, got {big_bet}"),
                big_bet=given(self.big_bet),
            )
        if isinstance(self.jokers, bool) or self.jokers not in (0, 1, 2):
            raise RulesError(
                N_("jokers must be 0, 1 or 2 (a deck has at most two), got {jokers}"), jokers=given(self.jokers)
            )
        if isinstance(self.max_draw, bool) or not isinstance(self.max_draw, int) or not 1 <= self.max_draw <= 5:
            raise RulesError(
                N_("max_draw must be 1 to 5 cards (3 by the seed rules, 5 as a house option), got {max_draw}"),
                max_draw=given(self.max_draw),
            )
        object.__setattr__(self, "wild_rank", parse_wild_rank(self.wild_rank))
        object.__setattr__(self, "ties", parse_ties(self.ties))
        object.__setattr__(self, "lowball", None if self.lowball is None else parse_low_rule(self.lowball))
        self.betting_rules  # noqa: B018 - the Hold'em rules check betting and raise_cap

    @property
    def betting_rules(self) -> Rules:
        """The :class:`Rules` that the betting machinery runs on."""
        # Blinds are not posted by a draw hand: the big blind only sets the engine's default
        # minimum raise, which DrawHand overrides with the small bet.
        return Rules(
            betting=self.betting,
            small_blind=1,
            big_blind=max(2, self.small_bet),
            small_bet=self.small_bet,
            big_bet=self.big_bet if self.big_bet is not None else 2 * self.small_bet,
            raise_cap=self.raise_cap,
        )

    @property
    def deck_size(self) -> int:
        return 52 + self.jokers

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain data (for snapshots and logs)."""
        return {
            "betting": self.betting,
            "ante": self.ante,
            "opening_bet": self.opening_bet,
            "small_bet": self.small_bet,
            "big_bet": self.betting_rules.bet_size(Street.RIVER),
            "raise_cap": self.raise_cap,
            "jokers": self.jokers,
            "wild_rank": None if self.wild_rank is None else cast(Rank, self.wild_rank).char,
            "lowball": None if self.lowball is None else cast(LowRule, self.lowball).value,
            "ties": cast(WildTies, self.ties).value,
            "max_draw": self.max_draw,
            "two_players": self.two_players,
        }

    @property
    def min_players(self) -> int:
        """The fewest players a hand is dealt to: 3, or 2 with the house option."""
        return 2 if self.two_players else MIN_PLAYERS
