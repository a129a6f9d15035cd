"""The learning lens: each seat's chances and possibilities from what the table can see.

Its errors stay English: they report a wrong argument to this programming interface (the pages
build the lens's inputs themselves).

Tock-Poker marks the backs of its cards with the suit and a size (small 2-5, medium 6-9,
large 10-K, ace), so everyone sees a little of every card. The lens turns that into a lesson,
street by street: for each seat, how often it wins, the best hand it can still make, whether
it can hold the nuts, and why, in plain words.

* :func:`lens` - the public view: every mark and every face-up card, nothing else. Safe to show
  on every phone.
* :func:`own_view` - one player's view: the same plus their two cards. Send it to that player
  only.
* :func:`showdown` - Hold'em equity once the hands are revealed (all-in), as TV shows it.
* :class:`LensHistory` and :func:`replay` - how the chances moved over the streets of a hand.
* :func:`lens_of_hand` - the public lens of a live engine hand (what the service calls).

Every result has ``to_json()``: plain dicts, lists, strings and numbers for the dashboard.

>>> view = lens(["h:large h:large", "c:small s:ace"], ["h:large", "h:small", "h:medium", "d:small", "c:large"])
>>> view.street, view.seats[0].best.label, view.seats[1].best_hand
('preflop', 'Flush', 'Full house, fives full of kings')
>>> lesson = view.seats[0].explanation[0]  # a value; web/words/lens.py says it in a phone's language
>>> lesson.kind, lesson.fields["suit"], lesson.fields["board_count"]
('shows_flush_draw', 'h', 3)
>>> round(view.seats[0].equity, 3), view.exact
(0.984, True)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from table.cards import Card
from table.equity import MARK_INDEX, Cards, Layout, SeatEquity, equity, lay_out, read_items
from table.errors import InvalidCardsError
from table.evaluate import Category, evaluate, evaluate_seats
from table.lessons import Lesson, board_lesson, explain, summary
from table.reach import Reach, describe_target, reach
from table.tock_marks import Mark, mark_of
from table.wording import seat_numbers, seat_word

if TYPE_CHECKING:
    from table.engine import Hand

__all__ = [
    "LENS_PRECISION",
    "STREETS",
    "Lens",
    "LensHistory",
    "MarkMismatchError",
    "SeatLens",
    "lens",
    "lens_of_hand",
    "own_view",
    "replay",
    "reveal",
    "showdown",
]

LENS_PRECISION = 0.005
"""Default 95 % half-width of the lens's chances: +-0.5 percentage points."""
STREETS = ("preflop", "flop", "turn", "river")
_STREET_OF_BOARD = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}
_BOARD_OF_STREET = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}


class MarkMismatchError(InvalidCardsError):
    """A card seen face up is not the one its back's mark stands for."""


@dataclass(frozen=True)
class SeatLens:
    """One seat as the lens sees it."""

    seat: int
    """Seat index, 0 = the first seat."""
    name: str
    shows: tuple[Card | Mark | None, Card | Mark | None]
    """What the view knows of its two cards."""
    folded: bool
    win: float
    tie: float
    equity: float
    stderr: float
    hands: tuple[float, ...]
    """Chance of each final hand category (indexed by :class:`~table.evaluate.Category`)."""
    best: Category | None
    """Best hand category it can still make (None once folded)."""
    best_example: str | None
    """That best possibility in words, e.g. ``"a flush in hearts"``."""
    best_hand: str | None
    """Its best possible hand exactly, e.g. ``"Flush, ace high"``, when worked out."""
    best_key: tuple[int, ...] | None
    nuts: bool | None
    """Whether it can hold the nuts (None when there were too many boards to tell)."""
    outs: tuple[Card, ...] | None
    """With one board card to come and every live hand known: the cards that win or split for it."""
    explanation: tuple[Lesson, ...]
    """What it teaches a beginner (put into words per language at the edge)."""
    example: tuple[Card, ...] = ()
    """Cards of one way to make ``best`` (the target ``best_example`` names)."""

    def to_json(self) -> dict[str, Any]:
        """Plain data for the dashboard."""
        return {
            "seat": self.seat,
            "name": self.name,
            "shows": [_text(item) for item in self.shows],
            "folded": self.folded,
            "win": round(self.win, 4),
            "tie": round(self.tie, 4),
            "equity": round(self.equity, 4),
            "stderr": round(self.stderr, 4),
            "hands": {c.label: round(p, 4) for c, p in zip(Category, self.hands, strict=True) if p > 0},
            "best": self.best.label if self.best is not None else None,
            "best_example": self.best_example,
            # What names the example (its ranks, the suit of a flush), not its cards: they could be hidden ones.
            "example": {"ranks": [int(c.rank) for c in self.example], "suit": self.example[0].suit.char}
            if self.example
            else None,
            "best_hand": self.best_hand,
            "best_key": list(self.best_key) if self.best_key is not None else None,
            "nuts": self.nuts,
            "outs": [str(c) for c in self.outs] if self.outs is not None else None,
            "explanation": [lesson.to_json() for lesson in self.explanation],
        }


@dataclass(frozen=True)
class Lens:
    """Every seat's chances and possibilities on one street, from one point of view."""

    street: str
    """``"preflop"``, ``"flop"``, ``"turn"`` or ``"river"`` (by the face-up board cards)."""
    board: tuple[Card | Mark | None, ...]
    """The five board positions: face-up cards, marks of face-down ones, None for unseen."""
    seats: tuple[SeatLens, ...]
    viewer: int | None
    """None for the public view, else the seat whose own cards were used."""
    exact: bool
    deals: int
    """Deals enumerated, or Monte Carlo trials."""
    board_words: Lesson
    """What the board shows (:func:`table.lessons.board_lesson`)."""
    summary: Lesson
    """Who leads (:func:`table.lessons.summary`)."""

    @property
    def half_width(self) -> float:
        """The largest 95 % half-width among the seats' equities (0 when exact)."""
        return max((1.959963984540054 * s.stderr for s in self.seats), default=0.0)

    def to_json(self) -> dict[str, Any]:
        """Plain data for the dashboard: per-seat bars and sentences, and the board."""
        return {
            "street": self.street,
            "view": "public" if self.viewer is None else "seat",
            "viewer": self.viewer,
            "board": [_text(item) for item in self.board],
            "board_words": self.board_words.to_json(),
            "exact": self.exact,
            "deals": self.deals,
            "half_width": round(self.half_width, 4),
            "summary": self.summary.to_json(),
            "seats": [seat.to_json() for seat in self.seats],
        }


def _text(item: Card | Mark | None) -> str | None:
    return None if item is None else str(item)


def reveal(shown: Card | Mark | str | None, card: Card | str, *, where: str = "the card") -> Card:
    """The card turned face up at a position that showed ``shown``; a card that does not carry
    that mark raises :class:`MarkMismatchError` (so do two different face-up readings)."""
    seen = Card.parse(card) if isinstance(card, str) else card
    if not isinstance(seen, Card):
        raise InvalidCardsError(f"{where}: {card!r} is not a card")
    before = Mark.parse(shown) if isinstance(shown, str) and ":" in shown else shown
    if isinstance(before, str):
        before = Card.parse(before)
    if isinstance(before, Mark) and mark_of(seen) != before:
        raise MarkMismatchError(
            f"{where} is {seen}, whose back carries {mark_of(seen)}, but its back showed {before}, "
            f"which stands for {' '.join(map(str, before.cards()))}"
        )
    if isinstance(before, Card) and before != seen:
        raise MarkMismatchError(f"{where} was seen as {before} and now as {seen}: a card cannot change")
    return seen


def lens(
    hands: Sequence[Cards],
    board: Cards = (),
    *,
    folded: Collection[int] = (),
    names: Sequence[str] | None = None,
    precision: float | None = LENS_PRECISION,
    trials: int | None = None,
    seed: int | None = None,
    rng: np.random.Generator | None = None,
) -> Lens:
    """The public lens: each seat from every mark and face-up card on the table.

    ``hands``: one entry per seat (2-10), two items each - a Tock mark (``"h:large"``), a card
    once shown, or None when unseen; ``board``: the five positions likewise (face-up cards,
    marks of face-down cards; missing or None = unseen or not dealt). Folded seats' cards stay
    out of the deck but they no longer compete. Chances are exact when there are few deals,
    else Monte Carlo to ``precision`` (95 % half-width; see :func:`table.equity.equity`).
    """
    return _lens(
        hands, board, folded=folded, names=names, viewer=None, precision=precision, trials=trials, seed=seed, rng=rng
    )


def own_view(
    hands: Sequence[Cards],
    board: Cards = (),
    *,
    seat: int,
    cards: Cards,
    folded: Collection[int] = (),
    names: Sequence[str] | None = None,
    precision: float | None = LENS_PRECISION,
    trials: int | None = None,
    seed: int | None = None,
    rng: np.random.Generator | None = None,
) -> Lens:
    """The lens from ``seat``'s chair: the public view plus that seat's own two ``cards``
    (checked against the marks its backs showed). Private: send it to that player only."""
    layout = lay_out(hands, board)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < layout.seats:
        raise InvalidCardsError(f"{seat_word(seat)} is not at this table: seats are {seat_numbers(layout.seats)}")
    own = read_items(cards, f"seat {seat + 1}'s own cards")
    if len(own) != 2 or not all(isinstance(c, Card) for c in own):
        raise InvalidCardsError(f"seat {seat + 1}'s own cards must be two known cards, got {cards!r}")
    shown = [
        reveal(layout.items[2 * seat + i], _card(own[i]), where=f"seat {seat + 1}'s {('first', 'second')[i]} card")
        for i in range(2)
    ]
    table: list[Cards] = [list(layout.items[2 * s : 2 * s + 2]) for s in range(layout.seats)]
    table[seat] = shown
    return _lens(
        table,
        list(layout.items[2 * layout.seats : 2 * layout.seats + 5]),
        folded=folded,
        names=names,
        viewer=seat,
        precision=precision,
        trials=trials,
        seed=seed,
        rng=rng,
    )


def showdown(
    hands: Sequence[Cards],
    board: Cards = (),
    *,
    folded: Collection[int] = (),
    names: Sequence[str] | None = None,
) -> Lens:
    """Hold'em equity once the hands are revealed (an all-in showdown, as TV shows it): exact,
    with each trailing seat's outs when one board card is to come. Every seat still in the hand
    must show two cards."""
    layout = lay_out(hands, board)
    gone = _folded(folded, layout.seats)
    for seat in range(layout.seats):
        items = layout.items[2 * seat : 2 * seat + 2]
        if seat not in gone and not all(isinstance(c, Card) for c in items):
            shown = " ".join("?" if c is None else str(c) for c in items)
            raise InvalidCardsError(f"a showdown needs every live hand face up: seat {seat + 1} shows {shown}")
    return _lens(hands, board, folded=folded, names=names, viewer=None, precision=None, trials=None, seed=0, rng=None)


def lens_of_hand(hand: Hand, **options: Any) -> Lens:
    """The public lens of a live :class:`table.engine.Hand` (Tock: its marks; any variant: the
    face-up board and the hands shown at showdown; folded seats out). Only the seats dealt in
    take part, in table order, named ``"Seat N"`` by their table seat; ``options`` go to
    :func:`lens` (``precision``, ``seed``...; ``names`` replaces those names)."""
    seats = list(hand.in_hand)
    holes: list[Cards] = [list(hand.hole.get(s, hand.hole_marks.get(s, [None, None]))) for s in seats]
    board = [*hand.board, *hand.board_marks[len(hand.board) :]]
    options.setdefault("names", [f"Seat {s + 1}" for s in seats])
    folded = [i for i, s in enumerate(seats) if hand.folded[s] or s in hand.mucked]
    return lens(holes, board, folded=folded, **options)


def _folded(folded: Collection[int], seats: int) -> frozenset[int]:
    for seat in folded:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            raise InvalidCardsError(f"folded {seat_word(seat)} is not at this table: seats are {seat_numbers(seats)}")
    if len(set(folded)) >= seats:
        raise InvalidCardsError("every seat has folded: at least one must still be in the hand")
    return frozenset(folded)


def _names(names: Sequence[str] | None, seats: int) -> list[str]:
    if names is None:
        return [f"Seat {s + 1}" for s in range(seats)]
    if isinstance(names, str) or len(names) != seats or not all(isinstance(n, str) and n for n in names):
        raise InvalidCardsError(f"give one non-empty name per seat ({seats}), got {names!r}")
    return list(names)


def _lens(
    hands: Sequence[Cards],
    board: Cards,
    *,
    folded: Collection[int],
    names: Sequence[str] | None,
    viewer: int | None,
    precision: float | None,
    trials: int | None,
    seed: int | None,
    rng: np.random.Generator | None,
) -> Lens:
    layout = lay_out(hands, board)  # every check, with the table's own seat numbers
    gone = _folded(folded, layout.seats)
    labels = _names(names, layout.seats)
    live = [s for s in range(layout.seats) if s not in gone]
    holes = [layout.items[2 * s : 2 * s + 2] for s in range(layout.seats)]
    board_items = layout.items[2 * layout.seats : 2 * layout.seats + 5]
    if len(live) > 1:
        chances = equity(
            [holes[s] for s in live],
            board_items,
            dead=[c for s in sorted(gone) for c in holes[s]],
            precision=precision,
            trials=trials,
            seed=seed,
            rng=rng,
        )
    else:
        alone = tuple(float(c == Category.HIGH_CARD) for c in Category)
        chances = [SeatEquity(1.0, 0.0, 1.0, 0.0, True, 1, alone)]
    by_seat = dict(zip(live, chances, strict=True))
    reaches = dict(zip(live, reach(layout, live), strict=True))
    outs = _outs(layout, live)
    face_up = viewer is None and all(isinstance(c, Card) for s in live for c in holes[s])
    basis = "own" if viewer is not None else ("face_up" if face_up else "public")
    street = _STREET_OF_BOARD.get(sum(isinstance(c, Card) for c in board_items), "preflop")
    seats = []
    for s in range(layout.seats):
        chance, possible = by_seat.get(s), reaches.get(s)
        seat = SeatLens(
            seat=s,
            name=labels[s],
            shows=(holes[s][0], holes[s][1]),
            folded=s in gone,
            win=chance.win if chance else 0.0,
            tie=chance.tie if chance else 0.0,
            equity=chance.equity if chance else 0.0,
            stderr=chance.stderr if chance else 0.0,
            hands=chance.hands if chance else tuple(0.0 for _ in Category),
            best=possible.best if possible else None,
            best_example=_example(possible),
            best_hand=possible.best_hand if possible else None,
            best_key=evaluate(possible.best_cards).key if possible and possible.best_cards else None,
            nuts=possible.nuts if possible else None,
            outs=outs.get(s),
            explanation=(),
            example=possible.example if possible else (),
        )
        words = explain(
            seat,
            board_items,
            possible,
            viewer=viewer,
            exact=chances[0].exact,
            alone=len(live) == 1,
            basis=basis,
            face_up=face_up,
        )
        seats.append(replace(seat, explanation=words))
    return Lens(
        street=street,
        board=board_items,
        seats=tuple(seats),
        viewer=viewer,
        exact=chances[0].exact,
        deals=chances[0].deals,
        board_words=board_lesson(board_items),
        summary=summary(seats, viewer=viewer, exact=chances[0].exact, basis=basis),
    )


def _example(possible: Reach | None) -> str | None:
    return describe_target(possible.best, possible.example) if possible else None


def _outs(layout: Layout, live: list[int]) -> dict[int, tuple[Card, ...]]:
    """With every live hand known and one board card to come: per seat, the cards that win or
    split for it (empty when none)."""
    board = list(layout.board)
    open_positions = [p for p in board if not isinstance(layout.items[p], Card)]
    hole_known = all(isinstance(layout.items[p], Card) for s in live for p in (2 * s, 2 * s + 1))
    if len(open_positions) != 1 or not hole_known or len(live) < 2:
        return {}
    where = open_positions[0]
    item = layout.items[where]
    slack = layout.slack()
    candidates = [
        int(c)
        for c in layout.free
        if (mark_of(Card.from_id(int(c))) == item if isinstance(item, Mark) else slack[MARK_INDEX[c]] > 0)
    ]
    boards = np.array([[c if p == where else _card(layout.items[p]).id for p in board] for c in candidates])
    seats = [[_card(layout.items[2 * s]).id, _card(layout.items[2 * s + 1]).id] for s in live]
    hole = np.array([seats] * len(candidates))
    ranks = evaluate_seats(hole, boards)
    best = ranks == ranks.max(axis=1, keepdims=True)
    return {
        s: tuple(Card.from_id(c) for c, good in zip(candidates, best[:, i], strict=True) if good)
        for i, s in enumerate(live)
    }


def _card(item: Card | Mark | None) -> Card:
    if not isinstance(item, Card):
        raise InvalidCardsError(f"expected a known card, got {item!r}")
    return item


@dataclass(frozen=True)
class LensHistory:
    """How each seat's chances moved over the streets of one hand (one lens per street)."""

    lenses: tuple[Lens, ...] = ()

    def add(self, view: Lens) -> LensHistory:
        """A history with ``view`` appended (same seats, same point of view)."""
        if self.lenses:
            first = self.lenses[0]
            if len(view.seats) != len(first.seats) or view.viewer != first.viewer:
                raise InvalidCardsError(
                    f"a hand's history keeps one table and one point of view: {len(first.seats)} seats seen by "
                    f"{first.viewer if first.viewer is not None else 'everyone'}, got {len(view.seats)} seen by "
                    f"{view.viewer if view.viewer is not None else 'everyone'}"
                )
        return LensHistory((*self.lenses, view))

    def to_json(self) -> dict[str, Any]:
        """Plain data for a chart: a line per seat across the streets, and each street's lens."""
        names = [s.name for s in self.lenses[0].seats] if self.lenses else []
        return {
            "seats": names,
            "streets": [view.street for view in self.lenses],
            "equity": [[round(view.seats[i].equity, 4) for view in self.lenses] for i in range(len(names))],
            "win": [[round(view.seats[i].win, 4) for view in self.lenses] for i in range(len(names))],
            "folded": [[view.seats[i].folded for view in self.lenses] for i in range(len(names))],
            "lenses": [view.to_json() for view in self.lenses],
        }


def replay(
    hole_cards: Sequence[Cards],
    board_cards: Cards,
    *,
    variant: str = "tock",
    folded: Mapping[int, str] | None = None,
    names: Sequence[str] | None = None,
    precision: float | None = LENS_PRECISION,
    seed: int | None = None,
) -> LensHistory:
    """The public lens of a finished hand at each street, from its true cards (for the chart
    after the hand).

    ``variant="tock"``: what the table saw - every back's mark, the board turned up street by
    street. ``variant="holdem"``: the hands face up from the start (TV style) and exact.
    ``folded`` maps a seat to the street on which it folded: it is out from the next street on.
    """
    if variant not in ("tock", "holdem"):
        raise InvalidCardsError(f"variant must be 'tock' or 'holdem', got {variant!r}")
    layout = lay_out(hole_cards, board_cards)
    if not all(isinstance(c, Card) for c in layout.items):
        raise InvalidCardsError("replay needs every hole card and all five board cards, known")
    folds = dict(folded or {})
    for seat, street in folds.items():
        if street not in STREETS:
            raise InvalidCardsError(f"{seat_word(seat)} folded on {street!r}: streets are {', '.join(STREETS)}")
    holes = [list(layout.items[2 * s : 2 * s + 2]) for s in range(layout.seats)]
    board = list(layout.items[2 * layout.seats :])
    history = LensHistory()
    for index, street in enumerate(STREETS):
        out = [s for s, at in folds.items() if STREETS.index(at) < index]
        up = _BOARD_OF_STREET[street]
        if variant == "tock":
            seen: list[Cards] = [[mark_of(_card(c)) for c in hole] for hole in holes]
            view = lens(
                seen,
                [*board[:up], *[mark_of(_card(c)) for c in board[up:]]],
                folded=out,
                names=names,
                precision=precision,
                seed=seed,
            )
        else:
            view = showdown(holes, board[:up], folded=out, names=names)
        history = history.add(view)
    return history
