"""One hand of five-card draw (high, or lowball "Petite Misère"), with jokers and wild cards.

The flow of the seed rules: antes and/or an opening bet by the player left of the dealer; five
cards each; a betting round starting left of the dealer; the draw, where every player still in
exchanges 0 to 3 cards in turn (house option: up to 5, the dealer then giving at most 3 at a
time and going round again); a second betting round; the showdown, where the camera reads the
five cards of each hand still in (until then nobody's cards are known, as in Hold'em).

:class:`DrawHand` is a :class:`table.engine.Hand`: the betting (no-limit or fixed-limit, all-ins,
side pots, uncalled bets, the raise cap), the showdown rules for mucks, ``inputs`` and ``undo``
are the Hold'em engine's. The first betting round is played as the engine's ``PREFLOP`` and the
second as its ``RIVER`` (so fixed-limit uses the small bet before the draw and the big bet
after); :attr:`DrawHand.phase` names the rounds for display. The house's choices are
:class:`DrawRules` (:mod:`table.engine.draw_rules`) and the dealer's passes during the draw are
planned by :mod:`table.engine.draw_dealing`; both are re-exported here. The cards shown at the
showdown are checked and valued by :mod:`table.engine.draw_showdown`.

>>> from table.cards import parse_cards
>>> hand = DrawHand(DrawRules(ante=1, jokers=1), stacks=[50, 50, 50], button=0)
>>> hand.phase.value, hand.to_act, hand.pot_total
('first betting', 1, 3)
>>> hand.act(1, "bet", 4); hand.act(2, "call"); hand.act(0, "fold")
>>> hand.phase.value, hand.to_draw
('draw', 1)
>>> hand.draw(1, 3); hand.draw(2, 0)
>>> hand.act(1, "check"); hand.act(2, "check")
>>> hand.deal_hole(1, "Jk Ah Ad 7c 2s"); hand.deal_hole(2, "Kh Kd Ks 9c 4h")
>>> hand.showdown[0].winners, hand.showdown[0].describe(1)
((1,), 'Three of a kind, aces (with a joker)')
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from typing import Any, cast

from table.cards import Card
from table.draw import (
    DrawCard,
    DrawValue,
)
from table.engine.betting_round import BettingRound
from table.engine.draw_dealing import PER_PASS, CardsExchanged, DealStep, deal_plan
from table.engine.draw_rules import MAX_PLAYERS, MIN_PLAYERS, WARN_ABOVE, DrawRules, TooFewPlayersError
from table.engine.draw_showdown import check_against_shown, draw_value, parse_shown
from table.engine.events import BlindPosted, HandMucked, HoleDealt, StreetStarted
from table.engine.hand import Hand, Input
from table.engine.pots import build_pots
from table.engine.rules import ActionKind, Street
from table.engine.showdown import PotResult, award_pots
from table.errors import IllegalActionError, IllegalDealError, RulesError
from table.evaluate import HandValue
from table.phrases import N_, Counted, Number, Phrase, Seat, Seats, Word, card_text, given

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PER_PASS",
    "WARN_ABOVE",
    "CardsExchanged",
    "CrowdedTableWarning",
    "DealStep",
    "DrawHand",
    "DrawPhase",
    "DrawRules",
    "IllegalDrawError",
    "TooFewPlayersError",
]


class IllegalDrawError(IllegalActionError):
    """A draw the rules do not allow now (the hand is left unchanged)."""


class CrowdedTableWarning(UserWarning):
    """More players than the seed rules plan for (3 to 6): the stock may run out during the draw."""


class DrawPhase(Enum):
    """Where a draw hand is."""

    FIRST_BETTING = "first betting"
    DRAW = "draw"
    SECOND_BETTING = "second betting"
    SHOWDOWN = "showdown"
    COMPLETE = "complete"

    def word(self) -> Word:
        """Where the hand is, for a phrase ("the draw")."""
        return Word(_PHASES[self.value])


_PHASES = {
    "first betting": N_("the first betting round"),
    "draw": N_("the draw"),
    "second betting": N_("the second betting round"),
    "showdown": N_("the showdown"),
    "complete": N_("a finished hand"),
}


class DrawHand(Hand):
    """The one mutable object of a hand of five-card draw. Seats 0..n-1 clockwise (up to 10
    seats, 3 to 8 of them with chips, or 2 with :attr:`DrawRules.two_players`); a stack of 0 is
    an empty or sitting-out seat.

    ``hole`` holds, once shown at the showdown, each hand's five cards, which may include
    jokers (:class:`table.cards.Joker`), and ``showdown[i].values`` holds :class:`DrawValue`
    objects (the same ``.rank`` and ``.describe()`` as a Hold'em value).
    """

    def __init__(self, rules: DrawRules, stacks: Sequence[int], button: int) -> None:
        if not isinstance(rules, DrawRules):
            raise RulesError(N_("a DrawHand takes table.engine.draw.DrawRules"))
        players = sum(1 for chips in stacks if isinstance(chips, int) and not isinstance(chips, bool) and chips > 0)
        if players > MAX_PLAYERS:
            raise RulesError(
                N_("five-card draw takes {min_players} to {max_players} players, got {players}"),
                min_players=Number(rules.min_players),
                max_players=Number(MAX_PLAYERS),
                players=Number(players),
            )
        if players < rules.min_players:
            raise TooFewPlayersError(
                N_(
                    "five-card draw is played by {min_players} to {warn_above} players (up to {max_players}), got "
                    "{players}; two players play only with the house option two_players=True"
                ),
                min_players=Number(MIN_PLAYERS),
                warn_above=Number(WARN_ABOVE),
                max_players=Number(MAX_PLAYERS),
                players=Number(players),
            )
        self.draw_rules = rules
        self.draws: dict[int, int] = {}
        self.exchanges: list[CardsExchanged] = []
        super().__init__(rules.betting_rules, stacks, button)
        if players > WARN_ABOVE:
            warnings.warn(
                f"{players} players: the seed rules plan for 3 to 6; with more, the stock may run out "
                "during the draw (the discards are then shuffled in)",
                CrowdedTableWarning,
                stacklevel=2,
            )

    # ----------------------------------------------------------------- forced bets
    def _post_blinds(self) -> None:
        rules = self.draw_rules
        if rules.ante:
            for s in self.in_hand:
                paid = self._pay(s, rules.ante, to_bet=False)
                self.events.append(BlindPosted(s, "ante", paid, self.stacks[s] == 0))
        first = self._next_seat(self.button)
        if rules.opening_bet:
            paid = self._pay(first, rules.opening_bet)
            self.events.append(BlindPosted(first, "opening", paid, self.stacks[first] == 0))
            self.betting.current_bet = rules.opening_bet
            first = self._next_seat(first)
        self.betting.last_raise = max(rules.small_bet, rules.opening_bet)
        self.events.append(StreetStarted(Street.PREFLOP))
        self._open_round(first=first)

    # ----------------------------------------------------------------- phases
    @property
    def phase(self) -> DrawPhase:
        if self.is_complete:
            return DrawPhase.COMPLETE
        if self.street == Street.SHOWDOWN:
            return DrawPhase.SHOWDOWN
        if self.street == Street.RIVER:
            return DrawPhase.SECOND_BETTING
        return DrawPhase.DRAW if self._awaiting_board else DrawPhase.FIRST_BETTING

    @property
    def hands_may_be_shown(self) -> bool:
        """Hands are shown at the showdown only: an all-in player still draws, so a hand is not
        made before then."""
        return self.street == Street.SHOWDOWN and not self.is_complete

    def _draw_order(self) -> list[int]:
        """Players still in, clockwise from the left of the dealer."""
        return sorted(self.live, key=lambda s: (s - self.button - 1) % self.seats)

    @property
    def to_draw(self) -> int | None:
        """The seat whose draw is recorded next (None outside the draw)."""
        if self.phase != DrawPhase.DRAW:
            return None
        return next(s for s in self._draw_order() if s not in self.draws)

    def verify_draw(self, seat: int, count: int) -> None:
        """Check a draw; raises :class:`IllegalDrawError` saying what is wrong and what is allowed."""
        allowed = Phrase(N_("0 (stands pat) to {most} cards"), most=Number(self.draw_rules.max_draw))
        if isinstance(count, bool) or not isinstance(count, int):
            raise IllegalDrawError(
                N_("a draw is a whole number of cards, {allowed}; got {count}"), allowed=allowed, count=given(count)
            )
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.in_hand:
            raise IllegalDrawError(
                N_("seat {seat} is not in this hand (in the hand: {seats})"),
                seat=Seat.of(seat),
                seats=Seats(self.in_hand),
            )
        if self.folded[seat]:
            raise IllegalDrawError(N_("seat {seat} folded: only players still in the hand draw"), seat=Seat.of(seat))
        phase = self.phase
        if phase != DrawPhase.DRAW:
            when = {
                DrawPhase.FIRST_BETTING: Phrase(
                    N_("the first betting round is still open (seat {seat} to act)"), seat=Seat.of(self.to_act)
                ),
                DrawPhase.SECOND_BETTING: Phrase(N_("the draw is over: the second betting round is open")),
            }.get(phase, Phrase(N_("the draw is over")))
            raise IllegalDrawError(N_("seat {seat} cannot draw now: {when}"), seat=Seat.of(seat), when=when)
        if seat in self.draws:
            drew = (
                Counted(self.draws[seat], "{n} card", "{n} cards")
                if self.draws[seat]
                else Phrase(N_("none (stood pat)"))
            )
            raise IllegalDrawError(
                N_("seat {seat} already drew {drew}: one draw per player"), seat=Seat.of(seat), drew=drew
            )
        if seat != self.to_draw:
            raise IllegalDrawError(
                N_("it is seat {seat}'s turn to draw, not seat {tried}'s"),
                seat=Seat.of(self.to_draw),
                tried=Seat.of(seat),
            )
        if not 0 <= count <= self.draw_rules.max_draw:
            raise IllegalDrawError(
                N_("seat {seat} cannot exchange {count} cards: {allowed}"),
                seat=Seat.of(seat),
                count=Number(count),
                allowed=allowed,
            )

    def can_draw(self, seat: int, count: int) -> bool:
        """Whether :meth:`draw` would accept this, without raising."""
        try:
            self.verify_draw(seat, count)
        except IllegalDrawError:
            return False
        return True

    def draw(self, seat: int, count: int) -> None:
        """Record that the player at ``seat`` exchanges ``count`` cards (0: stands pat).

        Players draw in turn, clockwise from the left of the dealer; after the last one the
        second betting round opens, again from the left of the dealer."""
        self.verify_draw(seat, count)
        self.inputs.append(("draw", (seat, count)))
        self.draws[seat] = count
        self.exchanges.append(CardsExchanged(seat, count))
        if all(s in self.draws for s in self.live):
            self._awaiting_board = False
            self.street = Street.RIVER
            self.betting = BettingRound(self.seats, self.draw_rules.small_bet)
            self.events.append(StreetStarted(Street.RIVER))
            self._open_round(first=self._next_seat(self.button))

    def deal_plan(self) -> list[DealStep]:
        """How the dealer serves the draws declared so far: in turn from the left of the dealer,
        at most three cards at a time, going round again for the rest (house option)."""
        return deal_plan(self.exchanges, self.draws, self.draw_rules.deck_size - 5 * len(self.in_hand))

    # ----------------------------------------------------------------- betting
    def verify_act(self, seat: int, action: ActionKind | str, amount: int | None = None) -> tuple[ActionKind, int]:
        if not self.is_complete and self.phase == DrawPhase.DRAW:
            raise IllegalActionError(
                N_("betting is closed during the draw: seat {seat} draws next (record it with draw(seat, count))"),
                seat=Seat.of(self.to_draw),
            )
        return super().verify_act(seat, action, amount)

    def deal_board(self, cards: Iterable[Card]) -> None:
        """Five-card draw has no board: always raises :class:`IllegalDealError`."""
        raise IllegalDealError(N_("five-card draw has no board cards: record draws with draw(seat, count)"))

    # ----------------------------------------------------------------- showdown
    def deal_hole(self, seat: int, cards: Iterable[DrawCard | str] | str) -> None:
        """Record a player's five cards at the showdown, as the camera reads them (jokers as
        ``"Jk"``/:data:`Card.JOKER`); settles the hand once every hand still in is known."""
        new = parse_shown(seat, cards)
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.in_hand:
            raise IllegalDealError(
                N_("seat {seat} is not in this hand (in the hand: {seats})"),
                seat=Seat.of(seat),
                seats=Seats(self.in_hand),
            )
        if self.is_complete:
            raise IllegalDealError(N_("the hand is settled: its cards can no longer change"))
        if self.street != Street.SHOWDOWN:
            raise IllegalDealError(
                N_("hands are shown at the showdown; the hand is in {phase}"), phase=self.phase.word()
            )
        if self.folded[seat]:
            raise IllegalDealError(N_("seat {seat} folded: its cards stay unknown"), seat=Seat.of(seat))
        if seat in self.hole:
            raise IllegalDealError(
                N_("seat {seat}'s cards are already known: {known}"),
                seat=Seat.of(seat),
                known=card_text(self.hole[seat]),
            )
        if seat in self.mucked:
            raise IllegalDealError(N_("seat {seat} mucked: its cards stay unknown"), seat=Seat.of(seat))
        check_against_shown(new, rules=self.draw_rules, shown=self.hole)
        self.inputs.append(("deal_hole", (seat, new)))
        # The Hold'em engine types hole cards as Card; a draw hand's may be jokers.
        self.hole[seat] = cast(tuple[Card, ...], new)
        self.events.append(HoleDealt(seat, cast(tuple[Card, ...], new)))
        self._maybe_settle()

    def value_of(self, cards: Iterable[DrawCard | str] | str) -> DrawValue:
        """The value of five cards under this hand's rules (high or low, jokers, wild rank)."""
        return draw_value(self.draw_rules, cards)

    def values(self) -> dict[int, DrawValue]:
        """The value of every hand shown so far, by seat."""
        return {s: self.value_of(cards) for s, cards in self.hole.items() if not self.folded[s]}

    def _award(self) -> list[PotResult]:
        values = {s: v for s, v in self.values().items() if s in self._contenders()}
        order = [e.seat for e in self.events if isinstance(e, HandMucked)]
        pots = build_pots(self.committed, self.folded)
        # award_pots reads only .rank and .describe(), which DrawValue has as HandValue does.
        shown = cast(Mapping[int, HandValue], values)
        return award_pots(pots, values=shown, mucked=order, seats=self.seats, button=self.button)

    # ----------------------------------------------------------------- log
    @classmethod
    def rebuild(cls, rules: DrawRules, stacks: Sequence[int], button: int, inputs: Iterable[Input]) -> DrawHand:
        """Rebuild a hand from its recorded inputs (``hand.inputs``)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CrowdedTableWarning)
            hand = cls(rules, stacks, button)
        for name, args in inputs:
            getattr(hand, name)(*args)
        return hand

    def undo(self) -> list[Input]:
        """Take back the last betting action or draw and everything recorded after it."""
        last = max((i for i, (name, _) in enumerate(self.inputs) if name in ("act", "draw")), default=None)
        if last is None:
            raise IllegalActionError(N_("nothing to undo: no player has acted or drawn in this hand"))
        removed = self.inputs[last:]
        self._refuse_undo_past_show(removed)
        rebuilt = DrawHand.rebuild(self.draw_rules, self.starting_stacks, self.button, self.inputs[:last])
        self.__dict__.update(rebuilt.__dict__)
        return removed

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data; adds the variant, phase, draws and dealing plan."""
        data = super().snapshot()
        data.update(
            variant="draw",
            rules=self.draw_rules.to_dict(),
            phase=self.phase.value,
            to_draw=self.to_draw,
            draws=dict(sorted(self.draws.items())),
            deal_plan=[(step.seat, step.cards, step.round, step.reshuffle) for step in self.deal_plan()],
        )
        return data
