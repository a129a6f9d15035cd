"""The showdown of a five-card draw hand: the cards a player shows, checked, and their value.

A draw hand's cards are known only when shown at the showdown, as the camera reads them; they
may be jokers. :func:`parse_shown` reads them, :func:`check_against_shown` checks five shown
cards against the deck (its jokers, each card once) and the hands shown before, and
:func:`draw_value` values them under the house's rules (high or lowball, jokers, a wild rank).
:class:`table.engine.draw.DrawHand` checks whether a seat may show now, records what these accept
and settles with their values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from table.cards import Card, Joker
from table.draw import DrawCard, DrawValue, evaluate_draw, evaluate_low, parse_draw_cards
from table.engine.draw_rules import DrawRules
from table.errors import IllegalDealError, InvalidCardsError, phrase_of
from table.phrases import N_, Counted, Number, Phrase, Seat, Verbatim

__all__ = ["check_against_shown", "draw_value", "parse_shown"]


def parse_shown(seat: int, cards: Iterable[DrawCard | str] | str) -> tuple[DrawCard, ...]:
    """The cards ``seat`` shows, parsed (jokers as ``"Jk"``); :class:`IllegalDealError` naming the
    seat if they do not parse."""
    try:
        return tuple(parse_draw_cards(cards))
    except (InvalidCardsError, ValueError) as exc:
        raise IllegalDealError(N_("seat {seat}'s cards: {error}"), seat=Seat.of(seat), error=phrase_of(exc)) from None


def check_against_shown(new: Sequence[DrawCard], *, rules: DrawRules, shown: Mapping[int, Sequence[DrawCard]]) -> None:
    """:class:`IllegalDealError` unless ``new`` is five cards that the deck can hold beside the
    hands ``shown`` before: no more jokers than it has, no natural card twice."""
    if len(new) != 5:
        raise IllegalDealError(N_("a draw hand has 5 cards, got {n_new}"), n_new=Number(len(new)))
    before = [c for cards in shown.values() for c in cards]
    jokers = sum(1 for c in [*before, *new] if isinstance(c, Joker))
    if jokers > rules.jokers:
        deck = Counted(rules.jokers, "{n} joker", "{n} jokers") if rules.jokers else Phrase(N_("no joker"))
        raise IllegalDealError(
            N_("the deck has {deck}; {jokers} would be on the table"), deck=deck, jokers=Number(jokers)
        )
    taken = {c for c in before if isinstance(c, Card)}
    again = [str(c) for c in new if isinstance(c, Card) and c in taken]
    if again:
        raise IllegalDealError(
            N_("{cards} already shown in another hand: a deck holds each card once"), cards=Verbatim(" ".join(again))
        )


def draw_value(rules: DrawRules, cards: Iterable[DrawCard | str] | str) -> DrawValue:
    """The value of five cards under ``rules`` (high or low, jokers, wild rank)."""
    if rules.lowball is None:
        return evaluate_draw(cards, wild_rank=rules.wild_rank, ties=rules.ties)
    return evaluate_low(cards, wild_rank=rules.wild_rank, rule=rules.lowball)
