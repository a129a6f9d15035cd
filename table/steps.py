"""What the service accepts: game steps (persisted) and the inputs that produce them.

Its errors stay English: they answer scripts that send the JSON command protocol; the host's pages
send well-formed commands, and the game's refusals of them carry their own words.

A **step** changes the game and is written to the store before it is acknowledged; replaying
the steps of a session in order rebuilds the game exactly. Steps come from the button console,
from what the camera sees (a board turned, a hand shown, a mark read), from the admin page and
from the clock (an automatic confirm, a new blind level).

Everything else on the service queue is an **input** that is not persisted itself: a console
button press, a table view from the camera, a clock tick, a change of the pending bet amount.
The service turns inputs into steps.

Each step has a ``kind`` (its name in the store and in the JSON API) and a JSON payload:

>>> step = step_from_json({"kind": "act", "seat": 2, "action": "raise", "amount": 40})
>>> step
Act(seat=2, action='raise', amount=40)
>>> step_to_json(step)
{'kind': 'act', 'seat': 2, 'action': 'raise', 'amount': 40}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from enum import Enum
from typing import Any, ClassVar

from table.errors import TocktableError
from table.session_settings import SessionSettings


class CommandError(TocktableError, ValueError):
    """A command that is malformed or not allowed now; nothing was applied or written."""


# ------------------------------------------------------------------------------- steps
@dataclass(frozen=True)
class Act:
    """A betting action for the seat to act (``amount``: the seat's street total, bets and raises)."""

    kind: ClassVar[str] = "act"
    seat: int
    action: str
    amount: int | None = None


@dataclass(frozen=True)
class Undo:
    """Take back the last betting action of the hand (and anything dealt after it)."""

    kind: ClassVar[str] = "undo"


@dataclass(frozen=True)
class DealBoard:
    """Board cards turned face up, left to right (3 for the flop, then 1 and 1)."""

    kind: ClassVar[str] = "deal_board"
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Show:
    """A seat's hole cards turned face up at the showdown, or tabled at an all-in once betting is
    closed (two; five in five-card draw, shown at the showdown only, jokers as "Jk")."""

    kind: ClassVar[str] = "show"
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Draw:
    """Five-card draw: the seat to draw exchanges ``count`` cards (0: stands pat). The count is
    what the game knows; which cards were thrown and dealt stays unknown until the showdown."""

    kind: ClassVar[str] = "draw"
    seat: int
    count: int


@dataclass(frozen=True)
class Muck:
    """A seat at the showdown gives up without showing."""

    kind: ClassVar[str] = "muck"
    seat: int


@dataclass(frozen=True)
class Settle:
    """Settle the showdown now: seats that have not shown are treated as mucked."""

    kind: ClassVar[str] = "settle"


@dataclass(frozen=True)
class MarkRead:
    """A Tock mark read on a face-down card: hole card ``index`` of ``seat``, or board position
    ``index`` when ``seat`` is None."""

    kind: ClassVar[str] = "mark"
    seat: int | None
    index: int
    mark: str


@dataclass(frozen=True)
class Correct:
    """The host corrects a card the camera read: board position ``index`` (seat None) or hole
    card ``index`` of ``seat``."""

    kind: ClassVar[str] = "correct"
    seat: int | None
    index: int
    card: str


@dataclass(frozen=True)
class ChooseButton:
    """The first dealer: from the cards drawn per seat (highest wins, spades > hearts > diamonds
    > clubs), or a seat named by the host, or (neither, in a game whose ``first_dealer`` is
    ``"croupier"``) the puck in front of the first player to the croupier's right; then the
    first hand is dealt."""

    kind: ClassVar[str] = "choose_button"
    draws: Mapping[int, str] = field(default_factory=dict)
    seat: int | None = None


@dataclass(frozen=True)
class Confirm:
    """Close the settled hand (stacks carried over) and deal the next one."""

    kind: ClassVar[str] = "confirm"


@dataclass(frozen=True)
class Seat:
    """A player sits down at an empty seat with ``chips``."""

    kind: ClassVar[str] = "seat"
    seat: int
    name: str
    chips: int


@dataclass(frozen=True)
class Leave:
    """The player at ``seat`` leaves with their chips (between their hands)."""

    kind: ClassVar[str] = "leave"
    seat: int


@dataclass(frozen=True)
class Rebuy:
    """Chips added to a seat's stack between its hands."""

    kind: ClassVar[str] = "rebuy"
    seat: int
    amount: int


@dataclass(frozen=True)
class SitOut:
    """A seat sits out from the next hand (``back=True``: it is dealt in again)."""

    kind: ClassVar[str] = "sit_out"
    seat: int
    back: bool = False


@dataclass(frozen=True)
class SetLevel:
    """Jump to blind level ``index`` (0-based) from the next hand."""

    kind: ClassVar[str] = "set_level"
    index: int


@dataclass(frozen=True)
class PauseClock:
    """Pause the blind clock (``resume=True``: run it again)."""

    kind: ClassVar[str] = "pause_clock"
    resume: bool = False


Step = (
    Act | Undo | DealBoard | Show | Muck | Settle | MarkRead | Correct | ChooseButton | Confirm | Seat | Leave | Rebuy
    | SitOut | SetLevel | PauseClock | Draw
)  # fmt: skip

STEP_TYPES: dict[str, type[Any]] = {
    cls.kind: cls for cls in (Act, Undo, DealBoard, Show, Muck, Settle, MarkRead, Correct, ChooseButton, Confirm, Seat,
                              Leave, Rebuy, SitOut, SetLevel, PauseClock, Draw)
}  # fmt: skip


# ------------------------------------------------------------------------------- inputs
class ConsoleButton(Enum):
    """The dealer's buttons, with their name in the configuration file."""

    FOLD = "fold"
    CHECK_CALL = "check_call"
    BET_RAISE = "bet_raise"
    ALL_IN = "all_in"
    UNDO = "undo"
    PLUS = "plus"
    MINUS = "minus"
    NEXT = "next"

    @property
    def needs_hold(self) -> bool:
        """ALL-IN and UNDO act only when held, so that a brush does not ruin a hand."""
        return self in (ConsoleButton.ALL_IN, ConsoleButton.UNDO)

    @property
    def label(self) -> str:
        """The text printed on the button."""
        return {"check_call": "CHECK/CALL", "bet_raise": "BET/RAISE", "all_in": "ALL-IN",
                "plus": "+", "minus": "−", "next": "NEXT/CONFIRM"}.get(self.value, self.value.upper())  # fmt: skip


@dataclass(frozen=True)
class Press:
    """A console button (a :class:`ConsoleButton` value), pressed from the admin page or a test
    (the same as the real button)."""

    kind: ClassVar[str] = "press"
    button: str


@dataclass(frozen=True)
class SetBet:
    """Set the amount the BET/RAISE button will bet (the +/- buttons step it)."""

    kind: ClassVar[str] = "bet_amount"
    amount: int


@dataclass(frozen=True)
class SetDraw:
    """Five-card draw: set how many cards the seat to draw exchanges (the +/- buttons step it;
    CHECK/CALL or NEXT/CONFIRM records it)."""

    kind: ClassVar[str] = "draw_count"
    count: int


@dataclass(frozen=True)
class Tick:
    """The clock: checks automatic confirms and blind levels (no payload)."""

    kind: ClassVar[str] = "tick"


INPUT_TYPES: dict[str, type[Any]] = {cls.kind: cls for cls in (Press, SetBet, SetDraw, Tick)}


@dataclass(frozen=True)
class NewSession:
    """Close the open session in the store and open a new one with these settings and players
    (the host's "new game", or the end of the night with no players). An input from the admin
    page alone: it has no JSON form."""

    settings: SessionSettings
    players: tuple[tuple[str, int], ...] = ()


_ALLOWED_KINDS = ", ".join(sorted({*STEP_TYPES, *INPUT_TYPES} - {"tick"}))


def step_to_json(step: Any) -> dict[str, Any]:
    """A step or input as a JSON-ready dict with its ``kind``."""
    data: dict[str, Any] = {"kind": step.kind}
    for name, value in asdict(step).items():
        if isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, Mapping):
            value = {str(k): v for k, v in value.items()}
        data[name] = value
    return data


def payload_of(step: Any) -> dict[str, Any]:
    """The JSON payload stored for a step (its fields, without ``kind``)."""
    data = step_to_json(step)
    del data["kind"]
    return data


def step_from_json(data: Any) -> Any:
    """Build a step or input from JSON; :class:`CommandError` says what is wrong and what is allowed."""
    if not isinstance(data, Mapping):
        raise CommandError(f"a command is a JSON object with a 'kind' ({_ALLOWED_KINDS}), got {type(data).__name__}")
    kind = data.get("kind")
    cls = STEP_TYPES.get(kind) if isinstance(kind, str) else None
    cls = cls or (INPUT_TYPES.get(kind) if isinstance(kind, str) else None)
    if cls is None:
        raise CommandError(f"unknown command kind {kind!r}: use one of {_ALLOWED_KINDS}")
    return from_payload(cls, {k: v for k, v in data.items() if k != "kind"})


def from_payload(cls: type[Any], payload: Mapping[str, Any]) -> Any:
    """Build a step of type ``cls`` from its payload, checking every field's type."""
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(payload) - set(known))
    if unknown:
        raise CommandError(f"{cls.kind}: unknown field {unknown[0]!r}; allowed: {', '.join(known) or 'none'}")
    values: dict[str, Any] = {}
    for name, spec in known.items():
        if name not in payload:
            if spec.default is spec.default_factory:  # dataclasses.MISSING for both: required
                raise CommandError(f"{cls.kind}: missing field {name!r}; it needs {', '.join(known)}")
            continue
        values[name] = _check(cls.kind, name, str(spec.type), payload[name])
    return cls(**values)


def _check(kind: str, name: str, type_text: str, value: Any) -> Any:
    """Check one JSON value against the field's annotation (as text: ``from __future__``)."""
    optional = "None" in type_text
    if value is None:
        if optional:
            return None
        raise CommandError(f"{kind}: {name} must not be null")
    if type_text.startswith("int"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise CommandError(f"{kind}: {name} must be a whole number, got {value!r}")
        return value
    if type_text.startswith("bool"):
        if not isinstance(value, bool):
            raise CommandError(f"{kind}: {name} must be true or false, got {value!r}")
        return value
    if type_text.startswith("str"):
        if not isinstance(value, str):
            raise CommandError(f"{kind}: {name} must be text, got {value!r}")
        return value
    if type_text.startswith("tuple"):
        if isinstance(value, str):
            value = value.split()
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise CommandError(f'{kind}: {name} must be a list of cards such as ["Ah", "Kd"], got {value!r}')
        return tuple(value)
    if type_text.startswith("Mapping"):
        if not isinstance(value, Mapping):
            raise CommandError(f"{kind}: {name} must be an object of seat -> card, got {value!r}")
        out: dict[int, str] = {}
        for key, card in value.items():
            try:
                seat = int(key)
            except (TypeError, ValueError):
                raise CommandError(f"{kind}: {name} keys are seat numbers, got {key!r}") from None
            if not isinstance(card, str):
                raise CommandError(f'{kind}: {name}[{key}] must be a card such as "Ah", got {card!r}')
            out[seat] = card
        return out
    raise CommandError(f"{kind}: field {name} has a type this reader does not know ({type_text})")  # pragma: no cover
