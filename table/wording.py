"""Counts and lists in plain English, for messages people read at the table.

A message says "1 card" or "3 cards", never "3 card(s)"; "seats 2 and 4", never "seat(s) [2, 4]".

Seats are numbered for people from 1, as the dashboard, the host's pages, the console's LEDs and
the wiring diagram show them; in code, in the steps and in the JSON API a seat is its index
from 0. Every message names a seat through :func:`seat_word` or :func:`seats` (index 2 is "seat 3").

>>> counted(1, "card"), counted(3, "card"), counted(0, "joker")
('1 card', '3 cards', '0 jokers')
>>> counted(2, "face", "faces"), counted(1, "board card")
('2 faces', '1 board card')
>>> listed(["2", "4"]), listed(["1", "3", "5"], "or"), listed(["7"])
('2 and 4', '1, 3 or 5', '7')
>>> seat_word(0), seat_word(9), seat_word("x"), seats([3]), seats([1, 3]), seat_numbers(6)
('seat 1', 'seat 10', "seat 'x'", 'seat 4', 'seats 2 and 4', '1..6')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["counted", "listed", "seat_numbers", "seat_word", "seats"]


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one (``plural`` defaults to the noun plus "s")."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def listed(items: Sequence[str], last: str = "and") -> str:
    """``"a, b and c"`` (or with ``last="or"``); an empty list is ``""``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def _number(index: object) -> str:
    if isinstance(index, int) and not isinstance(index, bool):
        return str(index + 1)
    return repr(index)


def seat_word(index: object) -> str:
    """``"seat 3"`` for the seat of index 2; a value that is no index is shown as given (``"seat 'x'"``)."""
    return f"seat {_number(index)}"


def seats(indexes: Iterable[object]) -> str:
    """``"seat 3"`` or ``"seats 1, 3 and 4"`` for the seats of these indexes, in the order given."""
    shown = [_number(index) for index in indexes]
    return f"{'seat' if len(shown) == 1 else 'seats'} {listed(shown)}"


def seat_numbers(count: int) -> str:
    """The seats of a table of ``count`` as people number them: ``"1..6"``."""
    return f"1..{count}"
