"""The game the service owns: a :class:`table.session.Session` and how each step drives it.

Each step becomes one or more session commands; the commands a step added to the session's
log are what the store keeps for it (with the step itself, for people reading the log). A
session rebuilt from those commands is identical (:meth:`Game.replay`).

:meth:`Game.apply` is atomic: a step that is not allowed raises a typed error and leaves the
game unchanged (a step of several commands whose second one fails is rolled back by replaying
the log without it). The service calls :meth:`Game.rollback` the same way when the store
cannot write a step.

Privacy by construction: the session refuses hole cards while betting is open (they are
taken at the showdown, or at an all-in once betting is closed for the rest of the hand), and
the service makes a :class:`~tocktable.steps.Show` from the camera only then. A card peeked at
earlier never enters the game, so it can be in no snapshot, store row or export.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from table.cards import Card
from table.draw import parse_draw_cards
from table.engine import Hand
from table.engine.draw import DrawHand
from table.engine.rules import Street
from table.errors import TocktableError, phrase_of
from table.phrases import N_, Number, Phrase, Seats, Verbatim
from table.phrases import Seat as SeatFigure
from table.session import Command, Session, SessionSettings
from table.steps import (
    Act,
    ChooseButton,
    CommandError,
    Confirm,
    Correct,
    DealBoard,
    Draw,
    Leave,
    MarkRead,
    Muck,
    PauseClock,
    Rebuy,
    Seat,
    SetLevel,
    Settle,
    Show,
    SitOut,
    Step,
    Undo,
)
from table.tock import Mark

EventRecord = tuple[str, dict[str, Any]]
"""An event as stored: its name and a JSON-ready payload."""

REWRITE = "rewrite"
"""Key of a stored correction: ``{"index": i, "command": {...}}`` replaces log entry ``i``."""


class Phase(Enum):
    """Where the game stands."""

    SEATING = "seating"
    """Before the first hand: waiting for the draw for the first dealer."""
    PLAYING = "playing"
    SETTLED = "settled"
    """The hand is over and shown on every phone; waiting for the host's confirm (or the clock)."""
    READY = "ready"
    """Between hands (after a rebuy or a seat change closed the last one): NEXT deals the next."""


class Game:
    """The session plus what the service needs to ask of it."""

    def __init__(self, settings: SessionSettings, *, clock: Callable[[], float] | None = None) -> None:
        self.settings = settings
        self.clock = clock
        self.session = Session(settings, clock=clock)

    # ------------------------------------------------------------------ reading
    @property
    def hand(self) -> Hand | None:
        """The open hand (being played or settled and not yet confirmed), else None."""
        s = self.session
        return s.hand if s.hand is not None and len(s.records) < s.hand_number else None

    @property
    def hand_number(self) -> int:
        return self.session.hand_number

    @property
    def button(self) -> int | None:
        return self.session.button if self.session.button is not None else self.session.next_button

    @property
    def phase(self) -> Phase:
        hand = self.hand
        if hand is not None:
            return Phase.SETTLED if hand.is_complete else Phase.PLAYING
        if self.session.hand_number == 0 and self.session.next_button is None:
            return Phase.SEATING
        return Phase.READY

    @property
    def seats(self) -> int:
        return self.settings.seats

    def dealt_in(self) -> list[int]:
        """Seats the next hand would deal: seated, not sitting out, with chips."""
        players = self.session.players
        return [s for s in sorted(players) if not players[s].sitting_out and self.session.stack(s) > 0]

    def can_deal(self) -> bool:
        return len(self.dealt_in()) >= 2

    def last_board(self) -> tuple[Card, ...]:
        """The board of the last closed hand (empty before the first)."""
        records = self.session.records
        return records[-1].board if records else ()

    def snapshot(self, *, now: float | None = None) -> dict[str, Any]:
        state = self.session.snapshot(now=now)
        state["phase"] = self.phase.value
        state["first_dealer"] = self.settings.first_dealer
        return state

    # ------------------------------------------------------------------ changing
    def apply(self, step: Step) -> list[Command]:
        """Apply one step; the session commands it added (or, for a correction, the rewrite).
        Raises a typed error, with the game unchanged, when the step is not allowed now."""
        before = len(self.session.log)
        try:
            if isinstance(step, Correct):
                return [self._correct(step)]
            self._run(step)
        except TocktableError:
            if len(self.session.log) != before:
                self.rollback(before)
            raise
        return [dict(c) for c in self.session.log[before:]]

    def rollback(self, length: int) -> None:
        """Return to the game as it was when the log had ``length`` commands."""
        self.session = Session.replay(self.settings, self.session.log[:length], clock=self.clock)

    def _run(self, step: Step) -> None:
        s = self.session
        match step:
            case Act(seat=seat, action=action, amount=amount):
                s.act(seat, action, amount)
            case Undo():
                s.undo()
            case DealBoard(cards=cards):
                s.deal_board(list(cards))
            case Show(seat=seat, cards=cards):
                s.deal_hole(seat, list(cards))
            case Draw(seat=seat, count=count):
                s.draw_cards(seat, count)
            case Muck(seat=seat):
                s.muck(seat)
            case Settle():
                s.settle()
            case MarkRead(seat=seat, index=index, mark=mark):
                s.mark(seat, index, mark)
            case ChooseButton(draws=draws, seat=seat):
                if self.phase != Phase.SEATING:
                    raise CommandError(
                        N_("the first dealer is already chosen (seat {seat})"), seat=SeatFigure.of(self.button)
                    )
                if seat is not None:
                    s.set_button(seat)
                elif not draws and self.settings.first_dealer == "croupier":
                    s.croupier_button()
                else:
                    missing = [x for x in self.dealt_in() if x not in draws]
                    if missing:
                        raise CommandError(N_("every seat playing draws a card for the button: no card yet for "
                                              "{seats}"), seats=Seats(missing))  # fmt: skip
                    s.draw_for_button(dict(draws))
                s.start_hand()
            case Confirm():
                if self.phase not in (Phase.SETTLED, Phase.READY):
                    raise CommandError(N_("nothing to confirm: {phase}"), phase=self.phase_phrase())
                s.start_hand()
            case Seat(seat=seat, name=name, chips=chips):
                s.seat_player(seat, name, chips)
            case Leave(seat=seat):
                s.leave(seat)
            case Rebuy(seat=seat, amount=amount):
                s.rebuy(seat, amount)
            case SitOut(seat=seat, back=back):
                if back:
                    s.sit_in(seat)
                else:
                    s.sit_out(seat)
            case SetLevel(index=index):
                s.set_level(index)
            case PauseClock(resume=resume):
                if resume:
                    s.resume_clock()
                else:
                    s.pause_clock()
            case _:  # pragma: no cover - every step kind is matched above
                raise CommandError(N_("no handler for {kind}"), kind=Verbatim(str(step.kind)))

    def _correct(self, step: Correct) -> Command:
        """Replace a card the camera read in the open hand, by replaying the log with it changed."""
        hand = self.hand
        if hand is None:
            raise CommandError(N_("no open hand: only the cards of the current hand can be corrected"))
        try:
            # Five-card draw hands may hold jokers ("Jk"), which Card.parse does not take.
            card = parse_draw_cards([step.card])[0] if isinstance(hand, DrawHand) else Card.parse(step.card)
        except TocktableError as exc:
            raise CommandError(N_("correct: {error}"), error=phrase_of(exc)) from None
        log = self.session.log
        start = max(i for i, c in enumerate(log) if c["op"] == "start_hand")
        index, command, old = _find_card(log, start, step.seat, step.index, str(card))
        rewritten = [*log[:index], command, *log[index + 1 :]]
        try:
            session = Session.replay(self.settings, rewritten, clock=self.clock)
        except TocktableError as exc:
            raise CommandError(
                N_("cannot correct {old} to {card}: {error}"),
                old=Verbatim(str(old)),
                card=Verbatim(str(card)),
                error=phrase_of(exc),
            ) from None
        self.session = session
        return {REWRITE: {"index": index, "command": command}}

    @classmethod
    def replay(
        cls, settings: SessionSettings, stored: Sequence[Sequence[Command]], *, clock: Callable[[], float] | None = None
    ) -> Game:
        """Rebuild a game from the commands stored for each step, in order."""
        game = cls(settings, clock=clock)
        log: list[Command] = []
        for commands in stored:
            for command in commands:
                if REWRITE in command:
                    rewrite = command[REWRITE]
                    log[rewrite["index"]] = rewrite["command"]
                    game.session = Session.replay(settings, log, clock=clock)
                else:
                    game.session.apply(command)
                    log.append(dict(command))
        return game

    def describe_phase(self) -> str:
        """What the table is waiting for, in words."""
        return self.phase_phrase().english()

    def phase_phrase(self) -> Phrase:
        """What the table is waiting for, as a phrase (:mod:`table.phrases`)."""
        phase, hand = self.phase, self.hand
        if phase == Phase.SEATING:
            if self.settings.first_dealer == "croupier":
                return Phrase(
                    N_("press NEXT/CONFIRM: the puck goes in front of the first player to the croupier's right")
                )
            return Phrase(N_("waiting for the draw for the first dealer"))
        if phase == Phase.SETTLED:
            return Phrase(N_("the hand is over: press NEXT/CONFIRM"))
        if phase == Phase.READY:
            if self.can_deal():
                return Phrase(N_("between hands: press NEXT/CONFIRM to deal"))
            return Phrase(N_("waiting for players with chips"))
        assert hand is not None
        if hand.to_act is not None:
            return Phrase(N_("seat {seat} to act"), seat=SeatFigure.of(hand.to_act))
        if isinstance(hand, DrawHand) and hand.to_draw is not None:
            return Phrase(N_("seat {seat} to draw: 0 to {most} cards (+/- then CHECK/CALL, or the admin page)"),
                          seat=SeatFigure.of(hand.to_draw), most=Number(hand.draw_rules.max_draw))  # fmt: skip
        if hand.street.name == "SHOWDOWN":
            return Phrase(N_("showdown: waiting for the hands to be turned, or NEXT to settle"))
        street = Street(min(int(hand.street), 2) + 1)
        return Phrase(N_("waiting for the board cards of {street}"), street=street.word())


def _find_card(log: Sequence[Command], start: int, seat: int | None, index: int, card: str) -> tuple[int, Command, str]:
    """The log entry holding the card to correct, that entry corrected, and the old card."""
    position = 0
    for i in range(start + 1, len(log)):
        command = log[i]
        if seat is None and command["op"] == "deal_board":
            cards = list(command["cards"])
            if position <= index < position + len(cards):
                old = cards[index - position]
                cards[index - position] = card
                return i, {**command, "cards": cards}, old
            position += len(cards)
        elif seat is not None and command["op"] == "deal_hole" and command["seat"] == seat:
            cards = list(command["cards"])
            if not 0 <= index < len(cards):
                raise CommandError(N_("seat {seat} showed cards 1 to {n}, not {index}"), seat=SeatFigure.of(seat),
                                   n=Number(len(cards)), index=Number(index + 1))  # fmt: skip
            old = cards[index]
            cards[index] = card
            return i, {**command, "cards": cards}, old
    if seat is None:
        if position == 0:
            dealt = Phrase(N_("no board card is dealt yet"))
        elif position == 1:
            dealt = Phrase(N_("only 1 board card is dealt"))
        else:
            dealt = Phrase(N_("only {n} board cards are dealt"), n=Number(position))
        raise CommandError(
            N_("there is no board card {index} to correct: {dealt}"), index=Number(index + 1), dealt=dealt
        )
    raise CommandError(N_("seat {seat}'s cards have not been shown: nothing to correct"), seat=SeatFigure.of(seat))


def jsonable(value: Any) -> Any:
    """Cards, marks and enums as text, dataclasses as dicts, tuples as lists."""
    if isinstance(value, Card | Mark):
        return str(value)
    if isinstance(value, Enum):
        return value.value if isinstance(value.value, str) else value.name.lower()
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    return value


def event_record(event: Any) -> EventRecord:
    """An engine event as (name, payload) for the store."""
    payload = jsonable(event)
    assert isinstance(payload, dict)
    return type(event).__name__, payload
