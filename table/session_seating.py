"""Who sits where in a session: seating, sitting out and in, rebuys, leaving, busting out.

:class:`Seating` keeps the players and the money that left the table, and checks each seat
command against them. It knows nothing of the hand being played: the session makes sure a
command waits until the player's hand is over, and hands each finished hand to
:meth:`Seating.carry_over`.
"""

from __future__ import annotations

from collections.abc import Callable

from table.engine import Hand
from table.phrases import N_, Seat, Seats, Verbatim, Word, given
from table.session_errors import SessionError
from table.session_records import LedgerLine, Player
from table.wording import seat_numbers

__all__ = ["Seating", "whole_chips"]


def whole_chips(chips: int, what: Word) -> int:
    """``chips`` if it is a whole number above 0, else a :class:`SessionError` naming ``what``."""
    if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
        raise SessionError(
            N_("{what} must be a whole number of chips above 0, got {chips}"), what=what, chips=given(chips)
        )
    return chips


class Seating:
    """The players at a table of ``seats`` seats, and those who left or busted out."""

    def __init__(self, seats: int, *, rebuys: bool) -> None:
        self.seats = seats
        self.rebuys = rebuys
        self.players: dict[int, Player] = {}
        self.eliminated: list[str] = []
        """Names in the order they busted without rebuying (first out first)."""
        self.departed: list[LedgerLine] = []
        """What each player who left bought in and took away, in the order they left."""

    def check(self, seat: int, *, occupied: bool = True) -> Player | None:
        """The player at ``seat`` (None for an empty seat when ``occupied`` is False); a
        :class:`SessionError` for a seat the table does not have, or an empty one."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise SessionError(
                N_("there is no seat {seat}: seats are {seat_numbers}"),
                seat=Seat.of(seat),
                seat_numbers=Verbatim(seat_numbers(self.seats)),
            )
        player = self.players.get(seat)
        if occupied and player is None:
            if not self.players:
                raise SessionError(N_("seat {seat} is empty (occupied: none)"), seat=Seat.of(seat))
            raise SessionError(
                N_("seat {seat} is empty (occupied: {taken})"), seat=Seat.of(seat), taken=Seats(sorted(self.players))
            )
        return player

    def player(self, seat: int) -> Player:
        """The player at ``seat`` (a :class:`SessionError` if there is none)."""
        player = self.check(seat)
        assert player is not None
        return player

    def seat_player(self, seat: int, name: str, chips: int) -> str:
        """Sit a player down at an empty seat; returns the name as kept (stripped)."""
        self.check(seat, occupied=False)
        if seat in self.players:
            raise SessionError(
                N_("seat {seat} is taken by {name}: choose an empty seat"),
                seat=Seat.of(seat),
                name=Verbatim(self.players[seat].name),
            )
        if not isinstance(name, str) or not name.strip():
            raise SessionError(N_("a player needs a name, got {name}"), name=given(name))
        clean = name.strip()
        if any(p.name.casefold() == clean.casefold() for p in self.players.values()):
            raise SessionError(N_("{name} is already at the table: names must differ"), name=given(clean))
        whole_chips(chips, Word(N_("a buy-in")))
        self.players[seat] = Player(clean, seat, chips, chips)
        return clean

    def leave(self, seat: int) -> int:
        """The player at ``seat`` leaves with their chips (returned), written in :attr:`departed`."""
        player = self.player(seat)
        del self.players[seat]
        self.departed.append(LedgerLine(player.name, player.bought_in, player.stack))
        return player.stack

    def sit_out(self, seat: int) -> None:
        player = self.player(seat)
        if player.sitting_out:
            raise SessionError(
                N_("{name} (seat {seat}) is already sitting out"), name=Verbatim(player.name), seat=Seat.of(seat)
            )
        player.sitting_out = True

    def sit_in(self, seat: int) -> None:
        player = self.player(seat)
        if not player.sitting_out:
            raise SessionError(
                N_("{name} (seat {seat}) is not sitting out"), name=Verbatim(player.name), seat=Seat.of(seat)
            )
        player.sitting_out = False

    def check_rebuy(self, seat: int, chips: int) -> Player:
        """The player at ``seat``, if they may add ``chips`` (the game allows rebuys)."""
        player = self.player(seat)
        if not self.rebuys:
            raise SessionError(N_("this game has no rebuys (a tournament): a player who busts is out"))
        whole_chips(chips, Word(N_("a rebuy")))
        return player

    @staticmethod
    def rebuy(player: Player, chips: int) -> None:
        """Add ``chips`` checked by :meth:`check_rebuy` to the player's stack and buy-in."""
        player.stack += chips
        player.bought_in += chips

    def carry_over(self, hand: Hand) -> None:
        """A finished hand's stacks become the players' chips; without rebuys, those left with
        none are out."""
        for seat in hand.in_hand:
            self.players[seat].stack = hand.stacks[seat]
        if not self.rebuys:
            busted = [s for s in hand.in_hand if hand.stacks[s] == 0]
            # Two players out in the same hand: the one who started it with fewer chips is out first.
            for seat in sorted(busted, key=lambda s: (hand.starting_stacks[s], -s)):
                self.eliminated.append(self.players[seat].name)

    def dealt_in(self, stack: Callable[[int], int]) -> list[int]:
        """Seats to deal into the next hand: seated, not sitting out, with chips (``stack``
        tells a seat's chips now)."""
        return sorted(s for s, p in self.players.items() if not p.sitting_out and stack(s) > 0)

    def ledger(self, stack: Callable[[int], int]) -> list[LedgerLine]:
        """Bought in and cashed out per name; a seated player's chips now (``stack``) count as out."""
        lines: dict[str, tuple[int, int]] = {}
        for line in self.departed:
            bought, out = lines.get(line.name, (0, 0))
            lines[line.name] = (bought + line.bought_in, out + line.cashed_out)
        for seat, player in sorted(self.players.items()):
            bought, out = lines.get(player.name, (0, 0))
            lines[player.name] = (bought + player.bought_in, out + stack(seat))
        return [LedgerLine(name, bought, out) for name, (bought, out) in lines.items()]
