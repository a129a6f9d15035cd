"""A model of the physical table that a demo dealer (or a test) changes while the camera runs.

Cards are dealt into zones (the board, each seat) or at a point, turned, moved, mucked and
gathered; hands can pass over the table. Every change is checked first and applied whole, under
a lock, so the capture thread always renders a consistent table. The synthetic camera draws it
with ``vision.render.scene.render_scene`` (imported only when a frame is drawn)::

    model = TableModel(6, seed=3)
    with SyntheticTableSource(model, fps=10) as camera:
        model.deal_hole(0, ["Ah", "Kd"])        # face down, side by side in seat 0's zone
        model.deal_board(["7c", "8c", "9h"])    # the flop, face up, left to right
        model.show(0)                           # showdown: seat 0 turns its cards
        model.gather()                          # the dealer takes every card back

The scene seed stays fixed for the model's life, so the deck and the table look the same in
every frame, as they do in a real game.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from hardware.errors import TableModelError
from hardware.frames import Image
from hardware.table_layout import BOARD, Point, TableLayout, Zone, seat_zone, zone_name
from table.cards import Card
from table.errors import CardParseError
from table.wording import seat_numbers, seat_word

if TYPE_CHECKING:  # vision is imported when a frame is drawn, never when hardware is imported
    from vision.render.scene import RenderedScene, SceneSpec

_BACKS = ("plain", "tock")


@dataclass(frozen=True)
class TableCard:
    """One card on the table, where and how it lies."""

    card: str
    face_up: bool
    center: Point
    """Normalised image coordinates (0..1)."""
    angle: float
    """Degrees, counter-clockwise on the picture."""
    zone: str | None
    """``"board"``, ``"seat:N"``, or None for a card placed at a point."""
    slot: int | None


@dataclass(frozen=True)
class TableState:
    """The whole table at one moment: cards in the order they were put down (later on top)."""

    cards: tuple[TableCard, ...]
    hands: int
    version: int

    def in_zone(self, zone: str | int) -> tuple[TableCard, ...]:
        """The cards of a zone, by slot (left to right as the player sees them)."""
        name = zone_name(zone)
        return tuple(sorted((c for c in self.cards if c.zone == name), key=lambda c: c.slot or 0))

    def find(self, card: str) -> TableCard | None:
        """Where a card lies, or None when it is not on the table."""
        wanted = _card_text(card)
        return next((c for c in self.cards if c.card == wanted), None)


JOKERS = ("Jk", "Jk2")
"""The deck's two jokers on the table (the first printed in colour, the second in black): two
cards here, both the card ``"Jk"`` to the game and to the camera."""


def _card_text(card: str) -> str:
    if card in JOKERS:
        return card
    try:
        return str(Card.parse(card))
    except CardParseError as exc:
        raise TableModelError(f"{card!r} is not a card: {exc}; the deck's jokers are {' and '.join(JOKERS)}") from exc


class TableModel:
    """The cards on a table of ``seats`` seats (2..10), drawn at ``size`` pixels.

    ``board_zone``/``seat_zones``: polygons in 0..1 image coordinates (the configuration's zones);
    None lays them out round an oval. ``card_height``: fraction of the image height; None picks the
    largest size at which every zone holds its cards. ``seed``: the scene's look (table cloth, deck
    style, light); None picks one for this model. ``back``: ``"plain"`` or ``"tock"`` (marked backs).
    ``table``, ``deck`` and ``clean`` go to the renderer (a surface name, a deck style name, and
    no camera blur/noise/tilt for tests that want crisp pixels).
    """

    def __init__(
        self,
        seats: int = 6,
        *,
        board_zone: Sequence[Sequence[float]] | None = None,
        seat_zones: Sequence[Sequence[Sequence[float]]] | None = None,
        size: tuple[int, int] = (1280, 720),
        hole_cards: int = 2,
        card_height: float | None = None,
        seed: int | None = None,
        back: str = "plain",
        table: str | None = None,
        deck: str | None = None,
        clean: bool = False,
    ) -> None:
        if back not in _BACKS:
            raise TableModelError(f"card back {back!r} is not known: use one of {', '.join(_BACKS)}")
        self.layout = TableLayout.build(
            seats, board=board_zone, seat_zones=seat_zones, size=size, hole_cards=hole_cards, card_height=card_height
        )
        self.seed = random.randrange(2**31) if seed is None else int(seed)
        self.back = back
        self.table, self.deck, self.clean = table, deck, clean
        self._lock = threading.RLock()
        self._cards: tuple[TableCard, ...] = ()
        self._hands = 0
        self._version = 0
        self._placed = 0  # how many cards were ever put down: varies each placement's wobble
        self._render_lock = threading.Lock()
        self._rendered_version = -1
        self._image: Image | None = None
        self.last_render: RenderedScene | None = None
        """The renderer's last result: the image and the exact truth of every card drawn."""

    def blank(self) -> TableModel:
        """A new, empty model with the same table, zones, card size and look."""
        return TableModel(
            self.seats, board_zone=self.layout.board, seat_zones=self.layout.seats, size=self.size,
            hole_cards=self.layout.hole_cards, card_height=self.card_height, seed=self.seed,
            back=self.back, table=self.table, deck=self.deck, clean=self.clean,
        )  # fmt: skip

    # -- what the table is ------------------------------------------------------------
    @property
    def seats(self) -> int:
        return len(self.layout.seats)

    @property
    def size(self) -> tuple[int, int]:
        return self.layout.size

    @property
    def card_height(self) -> float:
        """Card height as a fraction of the image height."""
        return self.layout.card_height

    @property
    def zones(self) -> dict[str, Zone]:
        """Every zone by name: ``"board"``, ``"seat:0"``, ..."""
        return {name: self.layout.zone(name) for name in self.layout.zone_names()}

    def state(self) -> TableState:
        """An immutable snapshot of the table."""
        with self._lock:
            return TableState(self._cards, self._hands, self._version)

    # -- what the dealer does ---------------------------------------------------------
    def deal(
        self,
        card: str,
        *,
        zone: str | int | None = None,
        slot: int | None = None,
        at: Point | None = None,
        angle: float = 0.0,
        face_up: bool = False,
    ) -> TableCard:
        """Put a card from the deck on the table: into a zone (the next free slot unless ``slot``
        is given) or at a point ``at`` (normalised x, y; then ``angle`` applies)."""
        with self._lock:
            text = self._absent(card)
            placed = self._place(text, face_up, zone=zone, slot=slot, at=at, angle=angle, cards=self._cards)
            self._commit((*self._cards, placed), placed=1)
            return placed

    def deal_hole(self, seat: int, cards: Iterable[str], *, face_up: bool = False) -> tuple[TableCard, ...]:
        """Deal cards to a seat, side by side in its zone (all or none)."""
        return self._deal_many(seat_zone(self._seat(seat)), cards, face_up)

    def deal_board(self, cards: Iterable[str], *, face_up: bool = True) -> tuple[TableCard, ...]:
        """Deal board cards left to right (face up for hold'em; Tock deals all five face down)."""
        return self._deal_many(BOARD, cards, face_up)

    def _deal_many(self, zone: str, cards: Iterable[str], face_up: bool) -> tuple[TableCard, ...]:
        with self._lock:
            texts = [_card_text(c) for c in cards]
            if len(set(texts)) != len(texts):
                raise TableModelError(f"the same card twice in {' '.join(texts)}: a deck has one of each card")
            current = self._cards
            placed: list[TableCard] = []
            for text in texts:
                self._absent(text)
                card = self._place(text, face_up, zone=zone, slot=None, at=None, angle=0.0, cards=current,
                                   wobble=len(placed))  # fmt: skip
                placed.append(card)
                current = (*current, card)
            self._commit(current, placed=len(placed))
            return tuple(placed)

    def turn(self, card: str, *, face_up: bool | None = None) -> TableCard:
        """Turn a card over (or to the side given by ``face_up``), where it lies."""
        with self._lock:
            old = self._require(card)
            new = replace(old, face_up=(not old.face_up) if face_up is None else face_up)
            self._commit(tuple(new if c is old else c for c in self._cards))
            return new

    def show(self, seat: int) -> tuple[TableCard, ...]:
        """A player turns every card in front of them face up (showdown)."""
        with self._lock:
            name = seat_zone(self._seat(seat))
            cards = tuple(replace(c, face_up=True) if c.zone == name else c for c in self._cards)
            self._commit(cards)
            return self.state().in_zone(name)

    def move(
        self,
        card: str,
        *,
        zone: str | int | None = None,
        slot: int | None = None,
        at: Point | None = None,
        angle: float = 0.0,
    ) -> TableCard:
        """Slide a card to another zone or point, keeping its side; it goes on top of the others."""
        with self._lock:
            old = self._require(card)
            rest = tuple(c for c in self._cards if c is not old)
            new = self._place(old.card, old.face_up, zone=zone, slot=slot, at=at, angle=angle, cards=rest)
            self._commit((*rest, new), placed=1)
            return new

    def remove(self, card: str) -> TableCard:
        """Take one card off the table (a burn card, a card mucked on its own)."""
        with self._lock:
            old = self._require(card)
            self._commit(tuple(c for c in self._cards if c is not old))
            return old

    def muck(self, seat: int) -> tuple[TableCard, ...]:
        """A player folds: the cards in their zone leave the table."""
        with self._lock:
            name = seat_zone(self._seat(seat))
            gone = self.state().in_zone(name)
            self._commit(tuple(c for c in self._cards if c.zone != name))
            return gone

    def gather(self) -> tuple[TableCard, ...]:
        """The dealer takes every card back (end of the hand)."""
        with self._lock:
            gone = self._cards
            self._commit(())
            return gone

    def set_hands(self, count: int) -> None:
        """How many hands or arms are over the table right now (0 when nobody reaches in)."""
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 4:
            raise TableModelError(f"hands over the table must be 0..4, not {count!r}")
        with self._lock:
            if count != self._hands:
                self._hands = count
                self._version += 1

    # -- drawing ----------------------------------------------------------------------
    def scene_spec(self, state: TableState | None = None) -> SceneSpec:
        """The table as a ``vision.render.scene.SceneSpec`` (vision is imported here, not before)."""
        # The renderer (OpenCV drawing, the fonts) loads when a frame is first drawn, not with hardware.
        from vision.render.scene import PlacedCard, SceneSpec

        state = self.state() if state is None else state
        placed = tuple(
            PlacedCard(c.card, c.face_up, c.center, angle=c.angle, height=self.card_height, back=self.back)
            for c in state.cards
        )
        return SceneSpec(placed, size=self.size, table=self.table, seed=self.seed, hands=state.hands, deck=self.deck,
                         clean=self.clean)  # fmt: skip

    def frame(self, t: float = 0.0) -> Image:
        """The camera's picture of the table now (``t`` is ignored: the table is what changes).

        A table that has not changed since the last frame is not drawn again."""
        from vision.render.scene import render_scene  # the renderer loads with the first frame drawn

        with self._render_lock:
            state = self.state()
            if state.version != self._rendered_version or self._image is None:
                rendered = render_scene(self.scene_spec(state))
                self.last_render = rendered
                self._image = np.asarray(rendered.image, dtype=np.uint8)
                self._rendered_version = state.version
            return self._image

    __call__ = frame

    # -- inside -----------------------------------------------------------------------
    def _seat(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise TableModelError(f"there is no {seat_word(seat)}: seats are {seat_numbers(self.seats)}")
        return seat

    def _absent(self, card: str) -> str:
        """The card's text, once it is known not to be on the table yet."""
        text = _card_text(card)
        if self.state().find(text) is not None:
            raise TableModelError(f"{text} is already on the table: a deck has one of each card")
        return text

    def _require(self, card: str) -> TableCard:
        found = self.state().find(card)
        if found is None:
            raise TableModelError(f"{_card_text(card)} is not on the table")
        return found

    def _commit(self, cards: tuple[TableCard, ...], *, placed: int = 0) -> None:
        self._cards = cards
        self._placed += placed
        self._version += 1

    def _place(
        self,
        text: str,
        face_up: bool,
        *,
        zone: str | int | None,
        slot: int | None,
        at: Point | None,
        angle: float,
        cards: tuple[TableCard, ...],
        wobble: int = 0,
    ) -> TableCard:
        if (zone is None) == (at is None):
            raise TableModelError("say where the card goes: a zone (with an optional slot) or a point 'at', not both")
        if at is not None:
            if slot is not None:
                raise TableModelError("a slot only applies to a zone, not to a point 'at'")
            x, y = (float(v) for v in at)
            if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
                raise TableModelError(f"point ({x}, {y}) is outside the picture: use 0..1 for x and y")
            return TableCard(text, face_up, (x, y), float(angle), None, None)
        assert zone is not None
        name = zone_name(zone)
        if name != BOARD:
            self._seat(int(name.partition(":")[2]))
        taken = {c.slot for c in cards if c.zone == name}
        capacity = self.layout.capacity(name)
        if slot is None:
            free = [i for i in range(capacity) if i not in taken]
            if not free:
                raise TableModelError(f"{name} is full: it holds {capacity} cards")
            slot = free[0]
        elif isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < capacity:
            raise TableModelError(f"{name} has slots 0..{capacity - 1}, not {slot!r}")
        elif slot in taken:
            raise TableModelError(f"slot {slot} of {name} already holds a card")
        base = self.layout.slot(name, slot)
        # A card put down by hand is never exactly on its mark; the wobble is fixed at placement
        # (the card does not shiver from frame to frame) and differs for every placement.
        rng = random.Random(f"{self.seed}/{text}/{self._placed + wobble}")
        width = self.card_height * self.size[1] * 63 / 88
        shift = 0.03 * width
        spin = 2.5 if name == BOARD else 6.0
        center = (
            min(max(base.center[0] + rng.uniform(-shift, shift) / self.size[0], 0.0), 1.0),
            min(max(base.center[1] + rng.uniform(-shift, shift) / self.size[1], 0.0), 1.0),
        )
        return TableCard(text, face_up, center, base.angle + rng.uniform(-spin, spin), name, slot)
