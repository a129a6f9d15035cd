"""Synthetic video through the real card reader and the tracker (the tracking figures).

Frames of whole hands are rendered by the table model (``hardware.table_script``) through
``vision.render.scene``, read by ``vision.CardReader`` and tracked: cards dealt, turned, moved, hands
passing over the table. No wrong card may ever be reported in the TableView, and a card turned
(or dealt) face up is reported within 5 frames in which nothing covers it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from hardware.table_model import TableModel, TableState
from hardware.table_script import Deal, Gather, Hands, Move, Show, Step, TableScript, Turn
from tests.vision.test_track_video import (
    Camera,
    Truth,
    check_never_wrong,
    check_turned_cards_seen_soon,
    film,
)

FPS = 5  # rendering and reading a frame takes tens of milliseconds: keep the films short


@pytest.fixture(scope="module")
def reader() -> Any:
    from vision import CardReader

    return CardReader.default()  # the models ship in models/: a reader that cannot load fails here


def rendered_camera(model: TableModel, reader: Any) -> Camera:
    """Draw the table, read it; truth from the renderer (corners as drawn, camera tilt included)."""

    def read(state: TableState, t: float) -> tuple[list[Truth], list[Any], set[str]]:
        image = model.frame(t)
        rendered = model.last_render
        assert rendered is not None
        zones = {c.card: c.zone or "" for c in state.cards}
        h, w = image.shape[:2]
        truths = [Truth(d.card, d.face_up, d.mark if not d.face_up else None,
                        (float(np.mean(d.corners[:, 0])) / w, float(np.mean(d.corners[:, 1])) / h), zones[d.card])
                  for d in rendered.truth]  # fmt: skip
        visible = set() if state.hands else {d.card for d in rendered.truth}
        return truths, list(reader.read(image)), visible

    return read


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
def test_a_holdem_hand_read_from_rendered_frames(reader: Any, seed: int) -> None:
    model = TableModel(6, seed=100 + seed, deck=f"holdout-{seed}")
    script = TableScript.holdem_hand(model, seed=seed, folds=(2,), pace=1.5)
    record = film(script, rendered_camera(model, reader), fps=FPS, tail=2.5)
    check_never_wrong(record)
    check_turned_cards_seen_soon(record)
    assert all(c.kind != "changed" for v in record.views for c in v.conflicts)


@pytest.mark.slow
def test_cards_moved_turned_and_covered_read_from_rendered_frames(reader: Any) -> None:
    model = TableModel(4, seed=7, deck="holdout-4")
    steps: list[tuple[float, Step]] = [
        (0.0, Deal("Ah", zone=0)), (0.0, Deal("Kd", zone=0)),
        (0.0, Deal("7c", zone="board", face_up=True)), (0.0, Deal("8c", zone="board", face_up=True)),
        (1.0, Hands(2)), (1.6, Hands(0)),
        (2.0, Move("8c", zone="board", slot=3)),
        (3.0, Turn("Ah")), (4.0, Turn("Ah")),
        (5.0, Move("Kd", zone=2)),
        (6.0, Show(0)), (6.0, Hands(1)), (6.6, Hands(0)),
        (8.0, Gather()),
    ]  # fmt: skip
    record = film(TableScript(steps, model=model), rendered_camera(model, reader), fps=FPS, tail=2.5)
    check_never_wrong(record)
    check_turned_cards_seen_soon(record)
