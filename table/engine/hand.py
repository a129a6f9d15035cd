"""One hand of Hold'em or Tock-Poker: blinds, betting, board, showdown, pots.

Every operation is checked completely before anything changes, so an illegal one raises a
typed error and leaves the hand exactly as it was. Every input is kept in ``inputs``; a hand
rebuilt from its inputs (:meth:`Hand.replay`) is identical, and :meth:`Hand.undo` is a rebuild
without the last player action.

>>> from table.cards import parse_cards
>>> hand = Hand(Rules(small_blind=1, big_blind=2), stacks=[100, 100, 100], button=0)
>>> hand.to_act, hand.pot_total
(0, 3)
>>> hand.act(0, "raise", 6); hand.act(1, "fold"); hand.act(2, "call")
>>> hand.deal_board(parse_cards("Ah 7d 2c")); hand.street.name, hand.to_act
('FLOP', 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from table.cards import Card, ensure_distinct
from table.engine.betting import HandBetting, Input
from table.engine.events import BoardDealt, HandMucked, HoleDealt, MarkSeen, StreetStarted
from table.engine.marks import check_mark_pools, check_marked_cards
from table.engine.pots import build_pots
from table.engine.rules import LegalAction, Rules, Street, is_seat
from table.engine.showdown import PotResult
from table.errors import IllegalActionError, IllegalDealError, InvalidCardsError
from table.phrases import N_, Listed, Number, Phrase, Seat, Seats, Verbatim, card_text, given, pot_name
from table.tock_marks import Mark, mark_of

__all__ = ["Hand", "Input", "LegalAction", "PotResult"]


class Hand(HandBetting):
    """The one mutable object of a hand. Seats are 0..n-1 clockwise; a stack of 0 is an
    empty or sitting-out seat that is dealt no cards. The betting, pots and settling are
    :class:`table.engine.betting.HandBetting`'s; this adds the cards and the record."""

    # ----------------------------------------------------------------- cards
    def _known_cards(self) -> list[Card]:
        return [*self.board, *(c for cards in self.hole.values() for c in cards)]

    def deal_board(self, cards: Iterable[Card]) -> None:
        """Turn the next board cards face up: 3 for the flop, then 1 and 1. Several streets at
        once only when no more betting is possible (everyone all in)."""
        new = list(cards)
        if self.is_complete or self.street == Street.SHOWDOWN:
            raise IllegalDealError(N_("the board is complete: no more board cards"))
        if not self._awaiting_board:
            raise IllegalDealError(
                N_("cannot turn board cards while betting is open on {street}: seat {seat} to act"),
                street=self.street.word(),
                seat=Seat.of(self.to_act),
            )
        next_size = Street(self.street + 1).board_size - len(self.board)
        no_more_betting = len(self._able()) <= 1
        allowed = {next_size} | ({5 - len(self.board)} if no_more_betting else set())
        if len(new) not in allowed:
            want = Listed([Number(n) for n in sorted(allowed)], "or")
            street = Street(self.street + 1).word()
            if allowed == {1}:
                raise IllegalDealError(
                    N_("{street} takes {want} card, not {n_new}"), street=street, want=want, n_new=Number(len(new))
                )
            raise IllegalDealError(
                N_("{street} takes {want} cards, not {n_new}"), street=street, want=want, n_new=Number(len(new))
            )
        self._check_new_cards(new)
        first = len(self.board)
        check_marked_cards(
            new,
            self.board_marks[first:],
            where=lambda i: Phrase(N_("board card {number}"), number=Number(first + i + 1)),
        )
        self.inputs.append(("deal_board", (tuple(new),)))
        self.board.extend(new)
        self._awaiting_board = False
        while self.street.board_size < len(self.board):
            self.street = Street(self.street + 1)
        self.events.append(BoardDealt(tuple(new), self.street))
        self.events.append(StreetStarted(self.street))
        self._open_round(first=self._next_seat(self.button))

    def _check_new_cards(self, new: list[Card]) -> None:
        if not all(isinstance(c, Card) for c in new):
            raise IllegalDealError(N_("deal Card objects (table.cards.parse_cards('Ah Kd'))"))
        try:
            ensure_distinct([*self._known_cards(), *new])
        except InvalidCardsError as exc:
            raise IllegalDealError(N_("{error} (already on the table or dealt twice)"), error=exc.phrase) from None

    def deal_hole(self, seat: int, cards: Iterable[Card]) -> None:
        """Record a seat's two hole cards when they are turned face up: at the showdown, or at an
        all-in as soon as betting is closed, before the rest of the board
        (:attr:`hands_may_be_shown`). Earlier they are refused: a card seen face up while
        betting is open is a peek, not part of the hand. A folded hand's cards may be recorded
        at any time (a hand history that knows them); they play no part."""
        new = list(cards)
        if seat not in self.in_hand:
            raise IllegalDealError(
                N_("seat {seat} is not in this hand (in the hand: {seats})"),
                seat=Seat.of(seat),
                seats=Seats(self.in_hand),
            )
        if seat in self.hole:
            raise IllegalDealError(
                N_("seat {seat}'s hole cards are already known: {known}"),
                seat=Seat.of(seat),
                known=card_text(self.hole[seat]),
            )
        if seat in self.mucked:
            raise IllegalDealError(N_("seat {seat} mucked: its cards stay unknown"), seat=Seat.of(seat))
        if len(new) != 2:
            raise IllegalDealError(N_("a seat has 2 hole cards, got {n_new}"), n_new=Number(len(new)))
        self._check_new_cards(new)
        check_marked_cards(
            new,
            self.hole_marks[seat],
            where=lambda i: Phrase(N_("seat {seat}'s card {number}"), seat=Seat.of(seat), number=Number(i + 1)),
        )
        if self.is_complete:
            raise IllegalDealError(N_("the hand is settled: its cards can no longer change"))
        if not self.folded[seat] and not self.hands_may_be_shown:
            raise IllegalDealError(
                N_("seat {seat}'s hand cannot be shown yet: {why_not_shown}"),
                seat=Seat.of(seat),
                why_not_shown=self._why_not_shown(),
            )
        self.inputs.append(("deal_hole", (seat, tuple(new))))
        self.hole[seat] = tuple(new)
        self.events.append(HoleDealt(seat, tuple(new)))
        self._maybe_settle()

    @property
    def betting_closed(self) -> bool:
        """Whether betting is over for the rest of the hand: the hand is settled or at the
        showdown, or nobody is to act and at most one player still in has chips behind
        (everyone else is all in), so the rest of the board is dealt without betting."""
        if self.is_complete or self.street == Street.SHOWDOWN:
            return True
        return self.to_act is None and len(self._able()) <= 1

    @property
    def hands_may_be_shown(self) -> bool:
        """Whether the hands still in may be turned face up now (:meth:`deal_hole`): betting is
        closed for the rest of the hand and two or more hands are live. That is the showdown,
        or an all-in before the rest of the board, where every hand is tabled at once (TDA)."""
        return self.betting_closed and not self.is_complete and len(self.live) >= 2

    def _why_not_shown(self) -> Phrase:
        """Why hands cannot be shown now, and when they can."""
        if self.to_act is not None:
            return Phrase(
                N_(
                    "betting is open on {street} (seat {seat} to act); hands are turned face up at the showdown, "
                    "or at an all-in once betting is closed"
                ),
                street=self.street.word(),
                seat=Seat.of(self.to_act),
            )
        return Phrase(
            N_(
                "more betting is to come after the next board cards; hands are turned face up at the "
                "showdown, or at an all-in once betting is closed"
            )
        )

    def mark(self, seat: int | None, index: int, mark: Mark) -> None:
        """Record the Tock mark read on a face-down card: hole card ``index`` (0, 1) of ``seat``,
        or board position ``index`` (0..4) when ``seat`` is None."""
        if self.rules.variant != "tock":
            raise IllegalDealError(N_("marks are read only in Tock-Poker (variant 'tock')"))
        if not isinstance(mark, Mark):
            raise IllegalDealError(
                N_("a mark is a table.tock.Mark (Mark.parse('h:large')), got {mark}"), mark=given(mark)
            )
        if self.is_complete:
            raise IllegalDealError(N_("the hand is settled: its cards can no longer change"))
        if seat is None:
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 5:
                raise IllegalDealError(N_("board positions are 0..4, got {index}"), index=given(index))
            if index < len(self.board):
                raise IllegalDealError(
                    N_("board card {index} is already face up ({board})"),
                    index=Number(index + 1),
                    board=Verbatim(str(self.board[index])),
                )
        elif not is_seat(seat, self.seats) or seat not in self.in_hand or index not in (0, 1):
            raise IllegalDealError(
                N_("no hole card {index} for seat {seat} (in the hand: {seats})"),
                index=given(index),
                seat=Seat.of(seat),
                seats=Seats(self.in_hand),
            )
        else:
            known = self.hole.get(seat)
            if known is not None and mark_of(known[index]) != mark:
                raise IllegalDealError(
                    N_("seat {seat}'s card {index} is {known}, which carries {mark_of}"),
                    seat=Seat.of(seat),
                    index=Number(index + 1),
                    known=Verbatim(str(known[index])),
                    mark_of=Verbatim(str(mark_of(known[index]))),
                )
        check_mark_pools(
            mark,
            at=(seat, index),
            board=self.board,
            board_marks=self.board_marks,
            hole=self.hole,
            hole_marks=self.hole_marks,
        )
        self.inputs.append(("mark", (seat, index, str(mark))))
        if seat is None:
            self.board_marks[index] = mark
        else:
            self.hole_marks[seat][index] = mark
        self.events.append(MarkSeen(seat, index, mark))

    def verify_muck(self, seat: int) -> None:
        """Raise :class:`IllegalDealError` if ``seat`` may not muck now, saying why."""
        if self.street != Street.SHOWDOWN or self.is_complete:
            raise IllegalDealError(N_("mucking happens at the showdown, after the last betting round"))
        if seat not in self.live or seat in self.hole or seat in self.mucked:
            raise IllegalDealError(N_("seat {seat} has no unshown hand to muck"), seat=Seat.of(seat))
        for index, pot in enumerate(build_pots(self.committed, self.folded)):
            if seat in pot.eligible and all(s == seat or s in self.mucked for s in pot.eligible):
                raise IllegalDealError(
                    N_(
                        "seat {seat} is the last hand left in {pot}: it wins it without showing (settle the hand when "
                        "the showdown is over)"
                    ),
                    seat=Seat.of(seat),
                    pot=pot_name(index),
                )

    def can_muck(self, seat: int) -> bool:
        """Whether :meth:`muck` would accept this seat, without raising."""
        try:
            self.verify_muck(seat)
        except IllegalDealError:
            return False
        return True

    def muck(self, seat: int) -> None:
        """A seat at showdown gives up without showing (its cards stay unknown). The last hand
        left in a pot cannot muck: it wins that pot without showing."""
        self.verify_muck(seat)
        self.inputs.append(("muck", (seat,)))
        self.mucked.add(seat)
        self.events.append(HandMucked(seat))
        self._maybe_settle()

    # ----------------------------------------------------------------- log
    @classmethod
    def replay(cls, rules: Rules, stacks: Sequence[int], button: int, inputs: Iterable[Input]) -> Hand:
        """Rebuild a hand from its recorded inputs."""
        hand = cls(rules, stacks, button)
        for name, args in inputs:
            if name == "mark":
                seat, index, text = args
                hand.mark(seat, index, Mark.parse(text))
            else:
                getattr(hand, name)(*args)
        return hand

    def undo(self) -> list[Input]:
        """Take back the last player action and everything recorded after it; returns what
        was removed (the action first), so cards still on the table can be dealt again."""
        last = max((i for i, (name, _) in enumerate(self.inputs) if name == "act"), default=None)
        if last is None:
            raise IllegalActionError(N_("nothing to undo: no player has acted in this hand"))
        removed = self.inputs[last:]
        self._refuse_undo_past_show(removed)
        rebuilt = Hand.replay(self.rules, self.starting_stacks, self.button, self.inputs[:last])
        self.__dict__.update(rebuilt.__dict__)
        return removed

    def _refuse_undo_past_show(self, removed: Sequence[Input]) -> None:
        """Raise :class:`IllegalActionError` if taking back ``removed`` would reopen betting
        after a live hand was turned face up: everyone has seen those cards."""
        if any(name == "deal_hole" and not self.folded[args[0]] for name, args in removed):
            raise IllegalActionError(N_("the hands were shown: betting cannot reopen; correct a card instead"))

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data (for comparisons, persistence and display)."""
        return {
            "street": self.street.name,
            "to_act": self.to_act,
            "stacks": list(self.stacks),
            "bets": list(self.bets),
            "committed": list(self.committed),
            "folded": list(self.folded),
            "board": [str(c) for c in self.board],
            "board_marks": [str(m) if m else None for m in self.board_marks],
            "hole_marks": {s: [str(m) if m else None for m in marks] for s, marks in sorted(self.hole_marks.items())},
            "hole": {s: [str(c) for c in cards] for s, cards in sorted(self.hole.items())},
            "mucked": sorted(self.mucked),
            "pots": [(p.amount, list(p.eligible)) for p in self.pots],
            "complete": self.is_complete,
            "events": len(self.events),
            "inputs": list(self.inputs),
            "state": (self.betting.needs_action[:], self.betting.acted_to[:], self.betting.raises,
                      self.betting.current_bet, self.betting.last_raise, self._awaiting_board),
        }  # fmt: skip
