"""A whole game across hands: players and seats, stacks carried over, the button, blind levels.

A :class:`Session` is driven by commands (seat a player, start a hand, act, deal...). Every
accepted command is appended to :attr:`Session.log` as plain JSON-ready data, and
:meth:`Session.replay` rebuilds an identical session from the settings and that log: the
service persists the log and replays it after a restart. A rejected command raises a typed
error and changes nothing (not even the log).

Time is never read from the system: commands that need it take ``now`` (seconds), or read the
``clock`` callable given to the session, and the time used is written into the log.

:class:`Session` is the front of the game and keeps the log; each job is a part of its own,
which the session asks in turn: the seats and the money (:mod:`table.session_seating`), the
button (:mod:`table.session_button`), the time and blind levels (:mod:`table.session_clock`),
the hands and their records (:mod:`table.session_hands`), the commands as data
(:mod:`table.session_log`). The settings (:mod:`table.session_settings`), the players, ledger
and hand records (:mod:`table.session_records`) and the dashboard snapshot
(:mod:`table.session_snapshot`) live in their own modules; import them from here.

>>> session = Session(SessionSettings(seats=4, blinds=BlindStructure.fixed(5, 10)))
>>> session.seat_player(0, "Ann", 500); session.seat_player(2, "Bob", 500)
>>> session.seat_player(3, "Cy", 500)
>>> session.draw_for_button({0: "Kd", 2: "Ks", 3: "9c"})  # kings tie: spades beat diamonds
2
>>> hand = session.start_hand()
>>> hand.button, hand.small_blind_seat, hand.big_blind_seat, hand.to_act
(2, 3, 0, 2)
>>> session.act(2, "fold"); session.act(3, "fold")
>>> [session.snapshot()["seats"][s]["stack"] for s in (0, 2, 3)]  # the big blind won the small blind
[505, 500, 495]
>>> session.start_hand().button  # the button moves clockwise to the next seat dealt in
3
>>> replayed = Session.replay(session.settings, session.log)
>>> replayed.snapshot() == session.snapshot()
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from table.cards import Card
from table.engine import ActionKind, BlindLevel, BlindStructure, Hand, LevelClock
from table.errors import RulesError
from table.phrases import N_, Word
from table.session_button import DealerButton
from table.session_clock import SessionClock
from table.session_draw import DrawOptions
from table.session_errors import SessionError
from table.session_hands import HandPlay
from table.session_log import Command, apply_command
from table.session_records import HandRecord, LedgerLine, Player
from table.session_seating import Seating
from table.session_settings import FIRST_DEALERS, SessionSettings
from table.session_snapshot import snapshot_of
from table.tock_marks import Mark


class Session:
    """A game night at one table. See the module docstring for the command/log/replay model.

    Each command is checked and carried out by the part that owns the job (:attr:`seating`,
    :attr:`dealer_button`, :attr:`timing`, :attr:`play`), then written in :attr:`log`; a command
    that needs the table between hands first closes the finished hand."""

    def __init__(self, settings: SessionSettings | None = None, *, clock: Callable[[], float] | None = None) -> None:
        self.settings = settings if settings is not None else SessionSettings()
        if not isinstance(self.settings, SessionSettings):
            raise RulesError(N_("settings must be a table.session.SessionSettings"))
        self.seating = Seating(self.settings.seats, rebuys=self.settings.rebuys)
        self.dealer_button = DealerButton(self.settings.seats)
        self.timing = SessionClock(self.settings.blinds, clock)
        self.play = HandPlay(self.settings, self.seating)
        self.log: list[Command] = []

    # ----------------------------------------------------------------- the parts' state, read here
    @property
    def clock(self) -> Callable[[], float] | None:
        return self.timing.clock

    @clock.setter
    def clock(self, clock: Callable[[], float] | None) -> None:
        self.timing.clock = clock

    @property
    def levels(self) -> LevelClock:
        return self.timing.levels

    @property
    def players(self) -> dict[int, Player]:
        return self.seating.players

    @property
    def eliminated(self) -> list[str]:
        """Names in the order they busted without rebuying (first out first)."""
        return self.seating.eliminated

    @property
    def departed(self) -> list[LedgerLine]:
        return self.seating.departed

    @property
    def button(self) -> int | None:
        """The button of the current (or last) hand."""
        return self.dealer_button.button

    @property
    def next_button(self) -> int | None:
        """A button chosen for the next hand (by the draw or by hand), None to move it on."""
        return self.dealer_button.next_button

    @property
    def draw(self) -> dict[int, Card]:
        return self.dealer_button.draw

    @property
    def hand(self) -> Hand | None:
        """The current hand (complete but still open to corrections until the next command
        that needs the table between hands), or None before the first hand."""
        return self.play.hand

    @property
    def hands(self) -> list[Hand]:
        """Every hand started, in order (the last may be the current one)."""
        return self.play.hands

    @property
    def hand_number(self) -> int:
        return self.play.hand_number

    @property
    def hand_level(self) -> BlindLevel | None:
        return self.play.hand_level

    @property
    def records(self) -> list[HandRecord]:
        """Every closed hand's results, in order."""
        return self.play.records

    @property
    def _hand_open(self) -> bool:
        return self.play.is_open

    def _dealt_in(self) -> list[int]:
        """Seats to deal into the next hand: seated, not sitting out, with chips."""
        return self.seating.dealt_in(self.stack)

    def _between_hands(self, what: Word, seat: int | None = None) -> None:
        """Refuse ``what`` while a hand is being played (by ``seat``), else close the finished one."""
        self.play.require_between_hands(what, seat)
        self.play.close()

    def _record(self, op: str, **args: Any) -> None:
        self.log.append({"op": op, **args})

    # ----------------------------------------------------------------- players
    def seat_player(self, seat: int, name: str, chips: int) -> None:
        """A player sits down at an empty seat with ``chips`` (dealt in from the next hand)."""
        name = self.seating.seat_player(seat, name, chips)
        self._record("seat_player", seat=seat, name=name, chips=chips)

    def leave(self, seat: int) -> int:
        """The player at ``seat`` leaves with their chips (returned); not during their hand."""
        self.seating.check(seat)
        self._between_hands(Word(N_("leave")), seat)
        chips = self.seating.leave(seat)
        self._record("leave", seat=seat)
        return chips

    def sit_out(self, seat: int) -> None:
        """Skip this player from the next hand on (their chips stay at the table)."""
        self.seating.sit_out(seat)
        self._record("sit_out", seat=seat)

    def sit_in(self, seat: int) -> None:
        """Deal this player in again from the next hand."""
        self.seating.sit_in(seat)
        self._record("sit_in", seat=seat)

    def rebuy(self, seat: int, chips: int) -> None:
        """Add ``chips`` to a player's stack between their hands (if the game allows rebuys)."""
        player = self.seating.check_rebuy(seat, chips)
        self._between_hands(Word(N_("rebuy")), seat)
        self.seating.rebuy(player, chips)
        self._record("rebuy", seat=seat, chips=chips)

    # ----------------------------------------------------------------- the button
    def draw_for_button(self, draws: Mapping[int, Card | str]) -> int:
        """First dealer by the cards drawn: the highest rank wins the button, and between
        equal ranks the suit decides, spades > hearts > diamonds > clubs (no redraw).
        Returns the seat that gets the button for the next hand."""
        self.play.require_between_hands(Word(N_("draw for the button")))
        self.dealer_button.check_draw(draws)
        for seat in draws:
            self.seating.check(seat)
        cards = self.dealer_button.read_draw(draws)
        self.play.close()
        winner = self.dealer_button.drawn(cards)
        self._record("draw_for_button", draws={str(s): str(c) for s, c in self.draw.items()})
        return winner

    def set_button(self, seat: int) -> None:
        """Put the button on ``seat`` for the next hand (the host's choice)."""
        self.seating.check(seat)
        self._between_hands(Word(N_("move the button")))
        self.dealer_button.choose(seat)
        self._record("set_button", seat=seat)

    def croupier_button(self) -> int:
        """First dealer by the dealer rules: the puck goes in front of the first player to the
        croupier's right, so the croupier's left-hand neighbour posts the small blind.

        Seats are numbered clockwise from the croupier's left, so the first player to the
        croupier's right is the last seat dealt in (the highest-numbered seat with chips that
        is not sitting out). Returns that seat; the puck moves on clockwise from there."""
        self.play.require_between_hands(Word(N_("place the dealer button")))
        seat = self.dealer_button.croupier_seat(self._dealt_in())
        self.play.close()
        self.dealer_button.choose(seat)
        self._record("croupier_button")
        return seat

    # ----------------------------------------------------------------- blinds and the clock
    def start_clock(self, *, now: float | None = None) -> None:
        """Start the level clock (the first hand starts it anyway)."""
        self._record("start_clock", now=self.timing.start(now))

    def pause_clock(self, *, now: float | None = None) -> None:
        self._record("pause_clock", now=self.timing.pause(now))

    def resume_clock(self, *, now: float | None = None) -> None:
        self._record("resume_clock", now=self.timing.resume(now))

    def set_level(self, index: int, *, now: float | None = None) -> None:
        """Jump to blind level ``index`` (0-based) from the next hand; a timed level restarts now."""
        when = self.timing.set_level(index, now)
        self._record("set_level", index=index, now=when)

    # ----------------------------------------------------------------- hands
    def start_hand(self, *, now: float | None = None) -> Hand:
        """Deal a new hand to every seated player with chips who is not sitting out: the
        button moves clockwise to the next seat dealt in, blinds are posted at the level of
        the clock at ``now``."""
        when = self.timing.now(now, needed=self.settings.blinds.timed_levels)
        dealt = self._dealt_in()
        self.play.check_start(dealt)
        level = self.timing.hand_level(when)
        self.play.close()
        button = self.dealer_button.button_for(dealt)
        hand = self.play.start(level, dealt, button)
        self.dealer_button.moved_to(button)
        self._record("start_hand", now=when)
        return hand

    def act(self, seat: int, action: ActionKind | str, amount: int | None = None) -> None:
        """A betting action in the current hand (see :meth:`table.engine.Hand.act`)."""
        self.play.act(seat, action, amount)
        self._record("act", seat=seat, action=ActionKind(action).value, amount=amount)

    def deal_board(self, cards: Iterable[Card | str] | str) -> None:
        """Board cards turned face up in the current hand."""
        new = self.play.deal_board(cards)
        self._record("deal_board", cards=[str(c) for c in new])

    def deal_hole(self, seat: int, cards: Iterable[Card | str] | str) -> None:
        """A seat's hole cards, turned face up at the showdown, or at an all-in as soon as
        betting is closed for the rest of the hand (every hand is tabled before the board runs
        out; :attr:`table.engine.Hand.hands_may_be_shown`). Before that they are refused: a
        face-up hole card is a peek, never part of the game's state. In five-card draw these
        are the five cards of the hand, jokers written ``"Jk"``, shown at the showdown only."""
        new = self.play.deal_hole(seat, cards)
        self._record("deal_hole", seat=seat, cards=[str(c) for c in new])

    def draw_cards(self, seat: int, count: int) -> None:
        """Five-card draw: the player at ``seat`` exchanges ``count`` cards (0: stands pat), in
        turn from the left of the dealer (see :meth:`table.engine.draw.DrawHand.draw`). Logged
        as ``{"op": "draw", "seat": ..., "count": ...}``."""
        self.play.draw(seat, count)
        self._record("draw", seat=seat, count=count)

    def mark(self, seat: int | None, index: int, mark: Mark | str) -> None:
        """A Tock mark read on a face-down card (hole card ``index`` of ``seat``, or board
        position ``index`` when ``seat`` is None)."""
        read = self.play.mark(seat, index, mark)
        self._record("mark", seat=seat, index=index, mark=str(read))

    def muck(self, seat: int) -> None:
        self.play.open_hand().muck(seat)
        self._record("muck", seat=seat)

    def settle(self) -> None:
        """Settle the showdown now; unshown hands count as mucked."""
        self.play.open_hand().settle()
        self._record("settle")

    def undo(self) -> None:
        """Take back the last player action of the current hand (and what followed it)."""
        self.play.open_hand().undo()
        self._record("undo")

    # ----------------------------------------------------------------- log and replay
    def apply(self, command: Mapping[str, Any]) -> Any:
        """Run one command given as plain data (``{"op": "act", "seat": 2, "action": "call"}``),
        as found in :attr:`log`. Returns what the command's method returns."""
        return apply_command(self, command)

    @classmethod
    def replay(
        cls,
        settings: SessionSettings,
        log: Iterable[Mapping[str, Any]],
        *,
        clock: Callable[[], float] | None = None,
    ) -> Session:
        """Rebuild a session from its settings and command log (times come from the log)."""
        session = cls(settings)
        for command in log:
            session.apply(command)
        session.clock = clock
        return session

    # ----------------------------------------------------------------- reading
    def stack(self, seat: int) -> int:
        """The chips in front of a seat right now (live during a hand)."""
        player = self.seating.player(seat)
        if self.play.in_current_hand(seat):
            assert self.hand is not None
            return self.hand.stacks[seat]
        return player.stack

    def ledger(self) -> list[LedgerLine]:
        """Bought in and cashed out per name (seated players: their chips now count as out)."""
        return self.seating.ledger(self.stack)

    def hand_histories(self, *, event: str | None = None) -> list[str]:
        """Every finished hand as PHH text, with the players' names and the hand numbers
        (join them with :func:`table.history.to_phhs` for one file)."""
        return self.play.histories(event=event)

    @property
    def last_record(self) -> HandRecord | None:
        """The results of the last finished hand (the current one once complete)."""
        return self.play.last_record

    def snapshot(self, *, now: float | None = None) -> dict[str, Any]:
        """The table as plain JSON-ready data for the dashboard. Hole cards appear only once
        shown, at the showdown or at an all-in; ``now`` (or the clock) gives the time left in
        the level."""
        hand = self.hand if self.play.is_open else None
        return snapshot_of(self, now, hand=hand, dealt_in=len(self._dealt_in()))


__all__ = [
    "FIRST_DEALERS",
    "BlindLevel",
    "BlindStructure",
    "Command",
    "DrawOptions",
    "HandRecord",
    "LedgerLine",
    "Player",
    "Session",
    "SessionError",
    "SessionSettings",
]
