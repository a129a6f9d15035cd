"""A timed script for the synthetic table: what the dealer does, and when.

A script is a list of ``(seconds, step)``; each step is a small value (``Deal``, ``Turn``,
``Move``, ``Show``, ``Muck``, ``Gather``, ``Hands``) or any function of the model. The script is
checked whole when it is made (a card dealt twice fails then, naming the step), and replays
exactly, so a test knows what every frame shows::

    script = TableScript([
        (0.0, Deal("Ah", zone=0)), (0.0, Deal("Kd", zone=0)),
        (1.0, Deal("7c", zone="board", face_up=True)),
        (2.0, Show(0)),
        (3.0, Gather()),
    ], model=TableModel(6, seed=1))
    camera = SyntheticTableSource(script, fps=10)
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hardware.errors import TableModelError
from hardware.frames import Image
from hardware.table_layout import Point
from hardware.table_model import TableModel, TableState
from table.cards import Deck

if TYPE_CHECKING:
    from vision.render.scene import RenderedScene

Step = Callable[[TableModel], object]
"""Anything that changes the model: one of the step values below, or a function."""


@dataclass(frozen=True)
class Deal:
    """Deal a card into a zone (seat number, ``"seat:N"`` or ``"board"``) or at a point."""

    card: str
    zone: str | int | None = None
    slot: int | None = None
    at: Point | None = None
    angle: float = 0.0
    face_up: bool = False

    def __call__(self, model: TableModel) -> object:
        return model.deal(self.card, zone=self.zone, slot=self.slot, at=self.at, angle=self.angle,
                          face_up=self.face_up)  # fmt: skip


@dataclass(frozen=True)
class Turn:
    """Turn a card over (or to the side ``face_up``)."""

    card: str
    face_up: bool | None = None

    def __call__(self, model: TableModel) -> object:
        return model.turn(self.card, face_up=self.face_up)


@dataclass(frozen=True)
class Move:
    """Slide a card to another zone or point."""

    card: str
    zone: str | int | None = None
    slot: int | None = None
    at: Point | None = None
    angle: float = 0.0

    def __call__(self, model: TableModel) -> object:
        return model.move(self.card, zone=self.zone, slot=self.slot, at=self.at, angle=self.angle)


@dataclass(frozen=True)
class Show:
    """A seat turns its cards face up."""

    seat: int

    def __call__(self, model: TableModel) -> object:
        return model.show(self.seat)


@dataclass(frozen=True)
class Muck:
    """A seat folds: its cards leave the table."""

    seat: int

    def __call__(self, model: TableModel) -> object:
        return model.muck(self.seat)


@dataclass(frozen=True)
class Gather:
    """Every card leaves the table."""

    def __call__(self, model: TableModel) -> object:
        return model.gather()


@dataclass(frozen=True)
class Hands:
    """``count`` hands are over the table from now on (0: nobody reaches in)."""

    count: int

    def __call__(self, model: TableModel) -> object:
        model.set_hands(self.count)
        return None


class TableScript:
    """Steps at set times, applied to ``model`` as the camera's clock passes them.

    ``loop``: start again (from an empty table) ``pause`` seconds after the last step. A clock that
    goes back (a test asking for an earlier frame) replays from the start, so a frame depends
    only on ``t``.
    """

    def __init__(
        self,
        steps: Iterable[tuple[float, Step]],
        *,
        model: TableModel | None = None,
        loop: bool = False,
        pause: float = 1.0,
    ) -> None:
        timed = list(steps)
        for index, item in enumerate(timed):
            if not (isinstance(item, tuple) and len(item) == 2 and callable(item[1])):
                raise TableModelError(f"script step {index} must be (seconds, step), got {item!r}")
            if isinstance(item[0], bool) or not isinstance(item[0], int | float) or item[0] < 0:
                raise TableModelError(f"script step {index} has time {item[0]!r}: use seconds from 0 up")
        if pause < 0:
            raise TableModelError(f"the pause before the script loops must be 0 s or more, not {pause}")
        # Stable sort: steps at the same time keep the order they were written in.
        self.steps: tuple[tuple[float, Step], ...] = tuple(sorted(timed, key=lambda item: item[0]))
        self.model = model if model is not None else TableModel()
        self.loop = loop
        self.pause = pause
        self._check()
        self._lock = threading.Lock()
        self._done = 0
        self._time = -1.0
        self.reset()

    @property
    def duration(self) -> float:
        """Seconds from the start to the last step."""
        return self.steps[-1][0] if self.steps else 0.0

    def _check(self) -> None:
        trial = self.model.blank()
        for index, (at, step) in enumerate(self.steps):
            try:
                step(trial)
            except TableModelError as exc:
                raise TableModelError(f"script step {index} at {at:g} s ({step!r}): {exc}") from exc

    def reset(self) -> None:
        """Back to the start: an empty table, nobody reaching in."""
        self.model.gather()
        self.model.set_hands(0)
        self._done = 0
        self._time = -1.0

    def advance(self, t: float) -> TableState:
        """Apply every step due by ``t`` seconds and return the table then."""
        with self._lock:
            if self.loop and self.steps:
                t = t % (self.duration + self.pause) if self.duration + self.pause > 0 else 0.0
            if t < self._time:
                self.reset()
            self._time = t
            while self._done < len(self.steps) and self.steps[self._done][0] <= t:
                self.steps[self._done][1](self.model)
                self._done += 1
            return self.model.state()

    def frame(self, t: float) -> Image:
        """The camera's picture at ``t`` seconds from the start."""
        self.advance(t)
        return self.model.frame(t)

    __call__ = frame

    def render_at(self, times: Iterable[float]) -> list[RenderedScene]:
        """The picture and exact truth at each of ``times`` (seconds), without waiting for a clock:
        for tests and replays that want every frame of a hand, e.g. ``script.render_at([0, 0.5, 1])``."""
        out = []
        for t in times:
            self.frame(t)
            assert self.model.last_render is not None
            out.append(self.model.last_render)
        return out

    @classmethod
    def holdem_hand(
        cls,
        model: TableModel,
        *,
        seed: int = 0,
        pace: float = 1.0,
        players: Sequence[int] | None = None,
        folds: Sequence[int] = (),
        loop: bool = False,
    ) -> TableScript:
        """One hold'em hand as a dealer would run it, one ``pace`` apart: hole cards face down,
        round by round; ``folds`` muck after the deal; flop, turn and river face up; the others
        show; everything is gathered. Cards come from a deck shuffled by ``seed``."""
        seats = list(range(model.seats)) if players is None else list(players)
        deck = Deck(rng=random.Random(seed))
        steps: list[tuple[float, Step]] = []
        t = 0.0
        for _round in range(2):
            for seat in seats:
                steps.append((t, Deal(str(deck.draw()[0]), zone=seat)))
                t += pace / 4
        t += pace
        for seat in folds:
            steps.append((t, Muck(seat)))
        t += pace
        steps.append((t, Hands(1)))
        for card in deck.draw(3):
            steps.append((t, Deal(str(card), zone="board", face_up=True)))
        steps.append((t + pace / 2, Hands(0)))
        for _street in range(2):
            t += 2 * pace
            steps.append((t, Deal(str(deck.draw()[0]), zone="board", face_up=True)))
        t += 2 * pace
        for seat in seats:
            if seat not in folds:
                steps.append((t, Show(seat)))
        steps.append((t + 2 * pace, Gather()))
        return cls(steps, model=model, loop=loop)
