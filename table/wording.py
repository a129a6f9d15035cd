"""Counts and lists in plain English, for messages people read at the table.

A message says "1 card" or "3 cards", never "3 card(s)"; "seats 2 and 4", never "seat(s) [2, 4]".

>>> counted(1, "card"), counted(3, "card"), counted(0, "joker")
('1 card', '3 cards', '0 jokers')
>>> counted(2, "face", "faces"), counted(1, "board card")
('2 faces', '1 board card')
>>> listed(["2", "4"]), listed(["1", "3", "5"], "or"), listed(["7"])
('2 and 4', '1, 3 or 5', '7')
>>> seats([4]), seats([2, 4])
('seat 4', 'seats 2 and 4')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["counted", "listed", "seats"]


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one (``plural`` defaults to the noun plus "s")."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def listed(items: Sequence[str], last: str = "and") -> str:
    """``"a, b and c"`` (or with ``last="or"``); an empty list is ``""``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def seats(numbers: Iterable[int]) -> str:
    """``"seat 3"`` or ``"seats 1, 3 and 4"``, in the numbers given."""
    shown = [str(n) for n in numbers]
    return f"{'seat' if len(shown) == 1 else 'seats'} {listed(shown)}"
