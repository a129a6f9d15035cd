"""Cards a grid's outlines leave out, found where every neighbour holds a card."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.detect
from vision.detect import find_cards, quad_iou
from vision.grid_holes import GRID, holes, pairs
from vision.reader import CardReader
from vision.render.scene import render_scene
from vision.render.scene_layouts import deal_hard

CARD_W, CARD_H = 50, 70


def _grid(rows: int = 4, columns: int = 5, *, tilt: float = 0.0) -> list[np.ndarray]:
    """The outlines (clockwise from the upright top left) of a grid of touching cards, turned by
    ``tilt`` degrees about the frame's middle."""
    quads = []
    turn = cv2.getRotationMatrix2D((320.0, 240.0), tilt, 1.0)
    for r in range(rows):
        for c in range(columns):
            x, y = 180 + c * CARD_W, 100 + r * CARD_H
            quad = np.array([[x, y], [x + CARD_W, y], [x + CARD_W, y + CARD_H], [x, y + CARD_H]], np.float64)
            quads.append(quad @ turn[:, :2].T + turn[:, 2])
    return quads


def _frame(quads: list[np.ndarray]) -> np.ndarray:
    """A dark cloth with a light card (a printed mark in its middle, a thin dark rim) at each of ``quads``."""
    frame = np.full((480, 640, 3), (40, 60, 35), np.uint8)
    frame += np.random.default_rng(0).integers(0, 6, frame.shape, dtype=np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(frame, np.round(quad).astype(np.int32), (225, 230, 235))
        cv2.polylines(frame, [np.round(quad).astype(np.int32)], True, (150, 150, 150), 1)
        cx, cy = quad.mean(axis=0)
        cv2.circle(frame, (int(cx), int(cy)), 8, (30, 30, 200), -1)
    return frame


@pytest.mark.parametrize("tilt", [0.0, 12.0])
def test_a_card_the_outlines_leave_out_of_a_grid_is_found_where_it_lies(tilt: float) -> None:
    quads = _grid(tilt=tilt)
    frame = _frame(quads)
    for left_out in (6, 0, 2):  # inside the grid, at its corner, along its edge
        given = [q for k, q in enumerate(quads) if k != left_out]
        found = holes(frame, np.stack(given))
        if left_out == 0:  # a corner has two neighbours: not surrounded enough to be sure
            assert found == []
            continue
        assert len(found) == 1, f"card {left_out}"
        assert quad_iou(found[0], quads[left_out]) > 0.95


def test_a_place_showing_the_table_is_no_card() -> None:
    quads = _grid()
    frame = _frame([q for k, q in enumerate(quads) if k != 6])  # the card taken away: the cloth shows
    assert holes(frame, np.stack([q for k, q in enumerate(quads) if k != 6])) == []


def test_places_beyond_the_grid_and_small_tables_are_not_looked_at() -> None:
    quads = _grid()
    frame = _frame(quads)
    assert holes(frame, np.stack(quads)) == []  # every place round the grid has at most two neighbours
    few = quads[: GRID - 1]
    assert holes(_frame(few), np.stack(few[:-1])) == []


def _run_together(quads: list[np.ndarray], first: int) -> list[np.ndarray]:
    """``quads`` with cards ``first`` and ``first + 1`` (side by side in a row) given as one outline."""
    a, b = quads[first], quads[first + 1]
    pair = np.array([a[0], b[1], b[2], a[3]])
    return [q for k, q in enumerate(quads) if k not in (first, first + 1)] + [pair]


@pytest.mark.parametrize("tilt", [0.0, 12.0])
def test_two_cards_of_a_grid_run_together_are_split(tilt: float) -> None:
    quads = _grid(tilt=tilt)
    given = _run_together(quads, 6)
    split = pairs(_frame(quads), np.stack(given))
    assert list(split) == [len(given) - 1]
    halves = split[len(given) - 1]
    assert sorted(round(max(quad_iou(h, quads[k]) for h in halves), 2) > 0.95 for k in (6, 7)) == [True, True]


def test_an_outline_over_a_card_and_the_table_is_not_split() -> None:
    quads = _grid()
    given = _run_together(quads, 6)
    frame = _frame([q for k, q in enumerate(quads) if k != 7])  # one of the two places shows the cloth
    assert pairs(frame, np.stack(given)) == {}


def test_cards_left_out_of_a_grid_of_52_are_found() -> None:
    # A hard table of the bench (a grid of 52 on dark cloth, two checked backs among the faces):
    # the network leaves the backs out; the grid's holes find them.
    segmenter = CardReader.default().segmenter
    assert segmenter is not None
    seed = 2_000_100_000
    cards, options = deal_hard(np.random.default_rng(seed), kind="grid")
    scene = render_scene(options.spec(cards, seed=seed, deck=f"holdout-{seed}"))
    whole = [t for t in scene.truth if not t.cut]

    def found() -> int:
        outlines = find_cards(scene.image, segmenter=segmenter)
        return sum(max((quad_iou(t.corners, o.corners) for o in outlines), default=0.0) >= 0.5 for t in whole)

    with_holes = found()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vision.detect, "holes", lambda frame, quads: [])
        without = found()
    assert with_holes > without, (with_holes, without)
