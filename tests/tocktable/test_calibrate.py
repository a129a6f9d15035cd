"""Zones made from cards laid on the table: one in front of every seat, one in the middle."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware.table_model import TableModel
from tocktable.calibrate import CalibrationError, number_from, propose
from tocktable.table_zones import check_zones


def inside(point: tuple[float, float], polygon: list[list[float]]) -> bool:
    contour = np.array(polygon, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0


@pytest.mark.parametrize(("seats", "seed"), [(6, 3), (4, 8), (9, 21)])
def test_each_seat_zone_holds_its_seats_card_once_seat_one_is_tapped(seats: int, seed: int) -> None:
    model = TableModel(seats, seed=seed, clean=True)
    deck = ["2c", "3d", "4h", "5s", "6c", "7d", "8h", "9s", "Tc", "Jd"]
    for seat in range(seats):
        model.deal(deck[seat], zone=seat, face_up=True)
    model.deal("Ah", zone="board", slot=2, face_up=True)
    model.frame()
    assert model.last_render is not None
    outlines = [t.corners for t in model.last_render.truth]
    rng = np.random.default_rng(seed)
    outlines = [outlines[i] for i in rng.permutation(len(outlines))]  # the finder's order is any order
    proposal = propose(outlines, model.size, seats)
    where = {c.card: c.center for c in model.state().cards}
    first = next(k for k, polygon in enumerate(proposal["ring"]) if inside(where[deck[0]], polygon))
    zones = check_zones(number_from(proposal, first), seats)
    assert inside(where["Ah"], zones["board"])
    for seat in range(seats):
        holding = [name for name, polygon in zones.items() if inside(where[deck[seat]], polygon)]
        assert holding == [f"seat:{seat}"], (seat, holding)


def test_the_wrong_number_of_cards_says_what_to_lay_down() -> None:
    square = [[0, 0], [63, 0], [63, 88], [0, 88]]
    with pytest.raises(CalibrationError, match=r"2 cards seen: lay exactly one card face up in front of each of the "
                                               r"6 seats and one in the middle of the board \(7 cards\)"):  # fmt: skip
        propose([square, square], (1280, 720), 6)
    with pytest.raises(CalibrationError, match="seat 5 of the ring does not exist: there are 2"):
        number_from({"board": [], "ring": [[], []]}, 4)
