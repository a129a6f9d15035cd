"""The button of a session: the first dealer (by the draw, by hand or by the croupier's rule)
and its move clockwise from hand to hand.

:class:`DealerButton` keeps the button of the current (or last) hand and the one chosen for the next.
The session checks the seats named and that no hand is being played before asking it.
"""

from __future__ import annotations

from collections.abc import Mapping

from table.cards import Card, parse_cards
from table.errors import TocktableError
from table.phrases import N_
from table.session_errors import SessionError

__all__ = ["DealerButton"]


class DealerButton:
    """Where the button is, at a table of ``seats`` seats."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.button: int | None = None
        """The button of the current (or last) hand."""
        self.next_button: int | None = None
        """A button chosen for the next hand (by the draw or by hand), None to move it on."""
        self.draw: dict[int, Card] = {}
        """The cards of the last draw for the button, by seat."""

    @staticmethod
    def check_draw(draws: object) -> None:
        """A draw names at least two seats (the session then checks each is occupied)."""
        if not isinstance(draws, Mapping) or len(draws) < 2:
            raise SessionError(N_("the draw needs one card for each of at least two players: {seat: card}"))

    @staticmethod
    def read_draw(draws: Mapping[int, Card | str]) -> dict[int, Card]:
        """The cards drawn, by seat, each read and all different."""
        try:
            cards = {seat: c if isinstance(c, Card) else Card.parse(c) for seat, c in draws.items()}
            parse_cards(list(cards.values()))
        except TocktableError as exc:
            raise SessionError(N_("the draw for the button: {error}"), error=exc.phrase) from None
        return cards

    def drawn(self, cards: Mapping[int, Card]) -> int:
        """Give the next button to the highest card drawn (rank first, then suit: clubs <
        diamonds < hearts < spades, which is the order of :class:`Card`); returns its seat."""
        winner = max(cards, key=lambda s: cards[s])
        self.draw = dict(sorted(cards.items()))
        self.next_button = winner
        return winner

    def choose(self, seat: int) -> None:
        """The next hand's button goes to ``seat``."""
        self.next_button = seat

    @staticmethod
    def croupier_seat(dealt: list[int]) -> int:
        """The first dealer by the croupier's rule: the last seat dealt in (the croupier's right)."""
        if not dealt:
            raise SessionError(N_("the puck goes in front of a player: seat the players first"))
        return dealt[-1]

    def button_for(self, dealt: list[int]) -> int:
        """The button of a hand dealt to ``dealt``: at or after the one chosen, else the seat
        after the last button, else the first seat dealt in."""

        def at_or_after(seat: int) -> int:
            return min(dealt, key=lambda s: (s - seat) % self.seats)

        if self.next_button is not None:
            return at_or_after(self.next_button)
        if self.button is not None:
            return at_or_after(self.button + 1)
        return dealt[0]

    def moved_to(self, button: int) -> None:
        """A hand is dealt with the button at ``button``: the choice for the next hand is used up."""
        self.button = button
        self.next_button = None
