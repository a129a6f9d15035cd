"""A dry run: the host deals one hand with nobody betting, and the set-up page shows, street by
street, what the camera saw: how many cards lie in front of each seat and whether they were read,
the board's cards, and anything the tracker found odd. The host knows the table reads itself
before the guests sit down.

:class:`DryRun` follows the table views the camera produces (``observe``, called for every view,
e.g. by :class:`tocktable.tap.CameraTap`). Once started it waits for a hand: the hand begins
when a seat has cards; the street is the number of board cards (none: preflop; 3, 4, 5: flop,
turn, river; the river with a seat's cards all face up: the showdown); the hand ends when the
table is empty again. Each street keeps the last view seen during it. Seat cards are counted,
never named: a dry run can be watched by anyone at the table (face-down cards whose Tock mark was
read are counted as such; a plain back has no mark).

Each street also says what the game would do with it (:class:`tocktable.dry_game.DryGame`, the
engine, nobody betting): the blinds posted, who acts first, the pot, the board as the game takes
it (or why it waits), and at the showdown the winner and the hand, named by the engine. The
blinds and the button are the game's (``table``), else 1 and 2 and the last seat dealt in.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from table.errors import TocktableError
from table.wording import seat_word
from tocktable.dry_game import DryGame

STREETS = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}
DEFAULT_TABLE = {"small_blind": 1, "big_blind": 2, "button": None}


def _street(board: int) -> str | None:
    return STREETS.get(board)


class DryRun:
    """What the camera saw during one dealt hand, street by street (see the module's docstring)."""

    def __init__(self, table: Callable[[], dict[str, Any] | None] = lambda: None) -> None:
        self.table = table
        """The game's ``{"small_blind", "big_blind", "button"}`` (None: 1, 2 and no button)."""
        self._game: DryGame | None = None
        self._lock = threading.Lock()
        self.state = "idle"
        """``"idle"`` (not started), ``"waiting"`` (for cards), ``"dealing"``, ``"done"``."""
        self._streets: dict[str, dict[str, Any]] = {}
        self._order: list[str] = []

    def start(self) -> dict[str, Any]:
        """Forget the last dry run and wait for the next hand."""
        with self._lock:
            self.state, self._streets, self._order, self._game = "waiting", {}, [], None
        return self.report()

    def stop(self) -> dict[str, Any]:
        with self._lock:
            if self.state in ("waiting", "dealing"):
                self.state = "done" if self._order else "idle"
        return self.report()

    def observe(self, view: Any) -> None:
        """One table view (board, seats, conflicts) from the camera."""
        if view is None or self.state not in ("waiting", "dealing"):
            return
        seats = {int(seat): list(cards) for seat, cards in getattr(view, "seats", {}).items() if cards}
        board = list(getattr(view, "board", ()))
        with self._lock:
            if self.state == "waiting":
                if not seats:
                    return
                self.state = "dealing"
            if not seats and not board:
                self.state = "done"
                return
            street = _street(len(board))
            if street is None:  # one or two board cards: the flop is being laid down
                return
            if street == "river" and any(all(getattr(c, "face_up", False) for c in cards) for cards in seats.values()):
                street = "showdown"
            if street not in self._streets:
                self._order.append(street)
            self._streets[street] = {
                "street": street,
                "frame": int(getattr(view, "frame_index", 0)),
                "board": [_board_card(card) for card in board],
                "seats": [_seat(seat, cards) for seat, cards in sorted(seats.items())],
                "conflicts": [str(getattr(c, "message", c)) for c in getattr(view, "conflicts", ())],
                "game": self._what_the_game_does(street, board, seats),
            }

    def _what_the_game_does(self, street: str, board: list[Any], seats: dict[int, list[Any]]) -> dict[str, Any]:
        """The engine's part of a street (``{"waiting": why}`` when it cannot follow the hand)."""
        try:
            if self._game is None or (street == "preflop" and self._game.seats != sorted(seats)):
                table = {**DEFAULT_TABLE, **(self.table() or {})}
                blinds = {"small_blind": int(table["small_blind"]), "big_blind": int(table["big_blind"])}
                self._game = DryGame(sorted(seats), **blinds, button=table["button"])
            return self._game.street(street, board, seats)
        except (TocktableError, ValueError) as error:
            return {"waiting": f"the game cannot follow this hand: {error}", "waiting_kind": "cannot-follow",
                    "waiting_values": {"detail": str(error)}, "winners": []}  # fmt: skip

    def report(self) -> dict[str, Any]:
        """``{"state", "streets": [{"street", "frame", "board", "seats", "conflicts"}, ...]}``."""
        with self._lock:
            return {"state": self.state, "streets": [dict(self._streets[name]) for name in self._order]}


def _board_card(card: Any) -> dict[str, Any]:
    face_up = bool(getattr(card, "face_up", False))
    name = getattr(card, "card", None) if face_up else None
    return {"card": name, "face_up": face_up, "read": name is not None or not face_up}


def _seat(seat: int, cards: Sequence[Any]) -> dict[str, Any]:
    face_up = sum(bool(getattr(c, "face_up", False)) for c in cards)
    read = sum(1 for c in cards if getattr(c, "face_up", False) and getattr(c, "card", None))
    marked = sum(1 for c in cards
                 if not getattr(c, "face_up", False) and getattr(c, "mark", None) not in (None, "plain"))  # fmt: skip
    return {"seat": seat + 1, "label": seat_word(seat), "cards": len(cards), "face_up": face_up, "read": read,
            "marked": marked}  # fmt: skip


def game_table(service: Any) -> Callable[[], dict[str, Any] | None]:
    """The blinds and the button of ``service``'s game now (its published snapshot), for :class:`DryRun`."""

    def table() -> dict[str, Any] | None:
        try:
            snap = service.snapshot().to_dict()
            blinds = snap["blinds"]
            return {"small_blind": int(blinds["small_blind"]), "big_blind": int(blinds["big_blind"]),
                    "button": snap.get("button")}  # fmt: skip
        except (KeyError, TypeError, ValueError, AttributeError):  # no game yet: the defaults
            return None

    return table
