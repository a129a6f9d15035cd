"""The hands of a session: starting one, the commands played in it, closing it, its records.

:class:`HandPlay` keeps the current hand and every hand started. A finished hand stays open to
corrections (an undo, a late shown hand) until a command needs the table between hands; then
:meth:`HandPlay.close` writes its record and carries its stacks over to the
:class:`~table.session_seating.Seating`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from table.cards import Card, parse_cards
from table.draw import parse_draw_cards
from table.engine import ActionKind, BlindLevel, Hand
from table.engine.draw import DrawHand
from table.errors import TocktableError, phrase_of
from table.history import to_phh
from table.phrases import N_, Number, Seat, Verbatim, Word, given
from table.session_draw import DRAW_VARIANTS, MAX_PLAYERS, MIN_PLAYERS, draw_phh
from table.session_errors import SessionError
from table.session_records import HandRecord, record_of
from table.session_seating import Seating
from table.session_settings import SessionSettings
from table.tock_marks import Mark

__all__ = ["HandPlay"]


class HandPlay:
    """The hands played under ``settings`` by the players of ``seating``."""

    def __init__(self, settings: SessionSettings, seating: Seating) -> None:
        self.settings = settings
        self.seating = seating
        self.hand: Hand | None = None
        """The current hand (complete but still open to corrections until the next command
        that needs the table between hands), or None before the first hand."""
        self.hand_number = 0
        self.hands: list[Hand] = []
        """Every hand started, in order (the last may be the current one)."""
        self.records: list[HandRecord] = []
        """Every closed hand's results, in order."""
        self.hand_level: BlindLevel | None = None
        self.is_open = False
        """Whether :attr:`hand` is still open (being played, or finished but not closed)."""

    # ----------------------------------------------------------------- between hands
    def in_current_hand(self, seat: int) -> bool:
        return self.is_open and self.hand is not None and seat in self.hand.in_hand

    def require_between_hands(self, what: Word, seat: int | None = None) -> None:
        """Refuse ``what`` while a hand is being played (by ``seat``, if given)."""
        if self.hand is None or not self.is_open or self.hand.is_complete:
            return
        if seat is None or seat in self.hand.in_hand:
            if seat is not None:
                raise SessionError(
                    N_("cannot {what} now: seat {seat} is in hand {hand_number}, which is not finished"),
                    what=what,
                    seat=Seat.of(seat),
                    hand_number=Number(self.hand_number),
                )
            raise SessionError(
                N_("cannot {what} now: players are in hand {hand_number}, which is not finished"),
                what=what,
                hand_number=Number(self.hand_number),
            )

    def close(self) -> None:
        """Carry a finished hand's stacks over to the players (once)."""
        hand = self.hand
        if hand is None or not self.is_open or not hand.is_complete:
            return
        self.records.append(self.record_of(hand))
        self.is_open = False
        self.seating.carry_over(hand)

    def check_start(self, dealt: list[int]) -> None:
        """A new hand may be dealt to the seats ``dealt``: the last one is finished, and there
        are as many players as the game is played by."""
        if self.hand is not None and self.is_open and not self.hand.is_complete:
            raise SessionError(
                N_("hand {hand_number} is not finished: finish it (or undo) before the next"),
                hand_number=Number(self.hand_number),
            )
        if len(dealt) < 2:
            raise SessionError(
                N_("a hand needs at least two players with chips who are not sitting out (now {n_dealt})"),
                n_dealt=Number(len(dealt)),
            )
        if self.settings.is_draw and len(dealt) > MAX_PLAYERS:
            raise SessionError(
                N_(
                    "five-card draw deals {min_players} to {max_players} players, {n_dealt} would be dealt in: sit "
                    "some players out"
                ),
                min_players=Number(MIN_PLAYERS),
                max_players=Number(MAX_PLAYERS),
                n_dealt=Number(len(dealt)),
            )
        heads_up = self.settings.draw is not None and self.settings.draw.two_players
        if self.settings.is_draw and len(dealt) < MIN_PLAYERS and not heads_up:
            raise SessionError(
                N_(
                    "five-card draw is played by {min_players} to 6 players, {n_dealt} would be dealt in: seat "
                    "another player, or play heads-up with the house option two_players"
                ),
                min_players=Number(MIN_PLAYERS),
                n_dealt=Number(len(dealt)),
            )

    def start(self, level: BlindLevel, dealt: list[int], button: int) -> Hand:
        """Deal a hand checked by :meth:`check_start` (the last one closed) at ``level``."""
        players = self.seating.players
        stacks = [players[s].stack if s in dealt else 0 for s in range(self.settings.seats)]
        hand = self.settings.new_hand(level, stacks, button)
        self.hand = hand
        self.is_open = True
        self.hands.append(hand)
        self.hand_number += 1
        self.hand_level = level
        return hand

    # ----------------------------------------------------------------- in the hand
    def open_hand(self) -> Hand:
        """The hand being played (a :class:`SessionError` if none is open)."""
        if self.hand is None or not self.is_open:
            raise SessionError(N_("no hand is being played: start one with start_hand()"))
        return self.hand

    def act(self, seat: int, action: ActionKind | str, amount: int | None) -> None:
        self.open_hand().act(seat, action, amount)

    def deal_board(self, cards: Iterable[Card | str] | str) -> list[Card]:
        """Turn board cards face up; returns them as read."""
        hand = self.open_hand()
        try:
            new = parse_cards(cards)
        except TocktableError as exc:
            raise SessionError(N_("board cards: {error}"), error=exc.phrase) from None
        hand.deal_board(new)
        return new

    def deal_hole(self, seat: int, cards: Iterable[Card | str] | str) -> list[Card]:
        """Record a seat's shown hole cards (see :meth:`table.session.Session.deal_hole`);
        returns them as read."""
        hand = self.open_hand()
        if not hand.hands_may_be_shown:
            raise SessionError(
                N_(
                    "hole cards are recorded only at the showdown, or at an all-in once betting is closed for the "
                    "rest of the hand, when the players turn them"
                )
            )
        if seat not in hand.in_hand or hand.folded[seat]:
            raise SessionError(N_("seat {seat} has no live hand to show"), seat=Seat.of(seat))
        try:
            # A draw hand's five cards may hold jokers, which only table.draw reads.
            new = cast(list[Card], parse_draw_cards(cards)) if isinstance(hand, DrawHand) else parse_cards(cards)
        except TocktableError as exc:
            raise SessionError(N_("hole cards: {error}"), error=exc.phrase) from None
        hand.deal_hole(seat, new)
        return new

    def draw(self, seat: int, count: int) -> None:
        """Five-card draw: ``seat`` exchanges ``count`` cards."""
        hand = self.open_hand()
        if not isinstance(hand, DrawHand):
            raise SessionError(
                N_("players draw cards only in five-card draw ({variants}); this game is {variant}"),
                variants=Verbatim(", ".join(DRAW_VARIANTS)),
                variant=given(self.settings.variant),
            )
        hand.draw(seat, count)

    def mark(self, seat: int | None, index: int, mark: Mark | str) -> Mark:
        """A Tock mark read on a face-down card; returns it as read."""
        hand = self.open_hand()
        if not isinstance(mark, Mark):
            try:
                mark = Mark.parse(mark)
            except TocktableError as exc:
                raise SessionError(phrase_of(exc)) from None
        hand.mark(seat, index, mark)
        return mark

    # ----------------------------------------------------------------- records
    def record_of(self, hand: Hand) -> HandRecord:
        return record_of(hand, number=self.hand_number, level=self.hand_level, players=self.seating.players)

    def finished_unclosed(self) -> HandRecord | None:
        """The record of the current hand if it is finished but not closed yet."""
        if self.hand is not None and self.is_open and self.hand.is_complete:
            return self.record_of(self.hand)
        return None

    @property
    def last_record(self) -> HandRecord | None:
        """The results of the last finished hand (the current one once complete)."""
        pending = self.finished_unclosed()
        if pending is not None:
            return pending
        return self.records[-1] if self.records else None

    def histories(self, *, event: str | None = None) -> list[str]:
        """Every finished hand as PHH text (see :meth:`table.session.Session.hand_histories`)."""
        records = list(self.records)
        pending = self.finished_unclosed()
        if pending is not None:
            records.append(pending)
        texts = []
        for r in records:
            hand = self.hands[r.number - 1]
            if isinstance(hand, DrawHand):
                # PHH has a variant for deuce-to-seven single draw only; other draw hands are left out.
                text = draw_phh(hand, names=r.names, number=r.number, event=event)
                if text is not None:
                    texts.append(text)
            else:
                texts.append(to_phh(hand, names=r.names, number=r.number, event=event))
        return texts
