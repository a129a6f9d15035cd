"""The rules of a game: betting structure, variant, blinds and limits."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, IntEnum

from table.errors import RulesError
from table.phrases import N_, NP_, Chips, Listed, Phrase, Verbatim, Word, given, setting


class Street(IntEnum):
    """Betting rounds in order; SHOWDOWN once the last round is over."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3
    SHOWDOWN = 4

    @property
    def board_size(self) -> int:
        """Board cards face up during this street."""
        return (0, 3, 4, 5, 5)[self]

    def word(self) -> Word:
        """The street with its article, for a phrase ("the flop")."""
        return Word(_STREETS[self])


_STREETS = (N_("the preflop"), N_("the flop"), N_("the turn"), N_("the river"), N_("the showdown"))


class ActionKind(Enum):
    """What a player can do when it is their turn."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"


@dataclass(frozen=True)
class LegalAction:
    """An action the seat to act may take; ``min_to``/``max_to`` bound the street total for
    bets and raises (equal for a call, a check, a fold, or a fixed-limit bet)."""

    action: ActionKind
    min_to: int
    max_to: int

    def phrase(self) -> Phrase:
        """In words, as refusals list what is allowed: "raise to 4..100", "call (2)"."""
        action = action_word(self.action)
        if self.action in (ActionKind.BET, ActionKind.RAISE):
            if self.min_to == self.max_to:
                return Phrase(N_("{action} to {amount}"), action=action, amount=Chips(self.min_to))
            return Phrase(
                N_("{action} to {low}..{high}"), action=action, low=Chips(self.min_to), high=Chips(self.max_to)
            )
        if self.action in (ActionKind.CALL, ActionKind.ALL_IN):
            return Phrase(N_("{action} ({amount})"), action=action, amount=Chips(self.min_to))
        return Phrase(N_("{action}"), action=action)

    def describe(self) -> str:
        """In words, as error messages list what is allowed: "raise to 4..100", "call (2)"."""
        if self.action in (ActionKind.BET, ActionKind.RAISE):
            if self.min_to == self.max_to:
                return f"{self.action.value} to {self.min_to}"
            return f"{self.action.value} to {self.min_to}..{self.max_to}"
        if self.action in (ActionKind.CALL, ActionKind.ALL_IN):
            return f"{self.action.value} ({self.min_to})"
        return str(self.action.value)


_ACTIONS = {
    "fold": NP_("action", "fold"),
    "check": NP_("action", "check"),
    "call": NP_("action", "call"),
    "bet": NP_("action", "bet"),
    "raise": NP_("action", "raise"),
    "all_in": NP_("action", "all_in"),
}


def action_word(kind: ActionKind) -> Word:
    """The action as a verb for a phrase ("cannot {action}": "check", "se coucher")."""
    return Word(_ACTIONS[kind.value], "action")


def allowed_actions(options: Iterable[LegalAction]) -> Listed:
    """Each legal action in words, as a list."""
    return Listed([option.phrase() for option in options], ",")


BETTING = ("no-limit", "fixed-limit")
VARIANTS = ("holdem", "tock")


@dataclass(frozen=True)
class Rules:
    """How a hand is played.

    ``small_bet``/``big_bet`` are the fixed-limit bet sizes (pre-flop and flop / turn and river);
    they default to the big blind and twice the big blind. ``raise_cap`` is the number of raises
    allowed in a betting round after the opening bet (the seed rules: "le nombre de Raises est
    limité à 3"); it applies to fixed-limit only, None for no cap.
    """

    betting: str = "no-limit"
    variant: str = "holdem"
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    small_bet: int | None = None
    big_bet: int | None = None
    raise_cap: int | None = 3

    def __post_init__(self) -> None:
        if self.betting not in BETTING:
            raise RulesError(
                N_("betting {betting} is not known: use one of {allowed}"),
                betting=given(self.betting),
                allowed=Listed([Verbatim(b) for b in BETTING], "or"),
            )
        if self.variant not in VARIANTS:
            raise RulesError(
                N_("variant {variant} is not known: use one of {allowed}"),
                variant=given(self.variant),
                allowed=Listed([Verbatim(v) for v in VARIANTS], "or"),
            )
        for name in ("small_blind", "big_blind", "ante"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RulesError(
                    N_("{name} must be a whole number of chips, 0 or more, got {value}"),
                    name=setting(name),
                    value=given(value),
                )
        if self.small_blind < 1:
            raise RulesError(
                N_("the small blind must be at least 1 chip, got {small_blind}"), small_blind=Chips(self.small_blind)
            )
        if self.big_blind < 2 * self.small_blind:
            raise RulesError(
                N_("the big blind ({big_blind}) must be at least twice the small blind ({small_blind})"),
                big_blind=Chips(self.big_blind),
                small_blind=Chips(self.small_blind),
            )
        for name in ("small_bet", "big_bet"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise RulesError(
                    N_("{name} must be a whole number of chips above 0, got {value}"),
                    name=setting(name),
                    value=given(value),
                )
        if self.raise_cap is not None and (not isinstance(self.raise_cap, int) or self.raise_cap < 0):
            raise RulesError(
                N_("raise_cap must be 0 or more raises, or None for no cap, got {raise_cap}"),
                raise_cap=given(self.raise_cap),
            )

    @property
    def fixed_limit(self) -> bool:
        return self.betting == "fixed-limit"

    def bet_size(self, street: Street) -> int:
        """The fixed-limit bet on a street: the small bet pre-flop and on the flop, the big bet after."""
        if street <= Street.FLOP:
            return self.small_bet if self.small_bet is not None else self.big_blind
        return self.big_bet if self.big_bet is not None else 2 * (self.small_bet or self.big_blind)


def is_seat(seat: object, seats: int) -> bool:
    """Whether ``seat`` is a seat number (not a bool) of a table of ``seats``."""
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats
