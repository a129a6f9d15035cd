"""Tock-Poker in one import: the marks on the backs (:mod:`table.tock_marks`) and the learning
lens that reads them (:mod:`table.lens`).

>>> from table.tock import Mark, lens
>>> [str(c) for c in Mark.parse("d:ace").cards()]
['Ad']
"""

from __future__ import annotations

from table.lens import Lens, LensHistory, SeatLens, lens, own_view, replay, reveal, showdown
from table.tock_marks import ALL_MARKS, Mark, MarkParseError, SizeClass, mark_of

__all__ = [
    "ALL_MARKS",
    "Lens",
    "LensHistory",
    "Mark",
    "MarkParseError",
    "SeatLens",
    "SizeClass",
    "lens",
    "mark_of",
    "own_view",
    "replay",
    "reveal",
    "showdown",
]
