"""bench.small_cards: tables of small cards of one height, and the per-band report."""

from __future__ import annotations

import numpy as np

from bench.small_cards import report, scene
from vision.rectify import card_heights


def test_a_table_holds_fifteen_face_up_cards_of_one_height_rows_on_odd_numbers() -> None:
    for number in (40000, 40001):
        drawn = scene("train", number)
        assert len(drawn.truth) == 15 and all(t.face_up for t in drawn.truth)
        heights = card_heights(np.stack([t.corners for t in drawn.truth]))
        assert heights.max() - heights.min() < 0.1 * heights.mean() + 3  # one height (the camera's blur aside)
        assert 0.09 * 720 < heights.mean() < 0.21 * 720
    rows = scene("train", 40001).truth
    ys = sorted({round(float(t.corners[:, 1].mean()) / 40) for t in rows})
    assert len(ys) == 3  # three rows of five


def test_the_report_counts_each_band_with_and_without_the_caution() -> None:
    rows = [{"height": 80.0, "posterior": 0.995, "right": False, "kept": False},
            {"height": 80.0, "posterior": 0.99999, "right": True, "kept": True},
            {"height": 125.0, "posterior": 0.9995, "right": True, "kept": True},
            {"height": 125.0, "posterior": 0.99, "right": True, "kept": False}]  # fmt: skip
    lines = report(rows)
    assert lines[0].startswith("   70- 90 px:    2 named,   1 wrong (50.00 %); with the caution 1 right, 0 wrong")
    assert "120-135 px:    2 named,   0 wrong" in lines[1] and "with the caution 1 right, 0 wrong" in lines[1]
    assert lines[-1] == "  all: 4 named, 1 wrong; with the caution 2 right, 0 wrong (0.00 %)"
