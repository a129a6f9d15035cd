"""The rendered training data (vision.train.data): labels, reproducibility, the "focus" samples."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.classify import NO_INDEX
from vision.rectify import CROP_H, CROP_W
from vision.render.scene import CARD_ASPECT
from vision.train.data import _corners, _row_neighbour, concat, make_samples


def _area(quad: np.ndarray) -> float:
    return float(cv2.contourArea(quad.astype(np.float32)))


def test_a_row_neighbour_lies_on_an_edge_of_the_card_not_over_it() -> None:
    rng = np.random.default_rng(3)
    for _ in range(200):
        height = float(rng.uniform(110, 215))
        angle = float(rng.uniform(0, 360))
        card = _corners(np.array([300.0, 300.0]), height, angle, 0.0, rng)
        over, _ = _row_neighbour(card, height, angle, rng)
        shared, _ = cv2.intersectConvexConvex(card.astype(np.float32), over.astype(np.float32))
        share = shared / _area(card)
        assert 0.0 <= share < 0.45  # an edge strip at most, never the middle of the card
        assert np.linalg.norm(over.mean(axis=0) - card.mean(axis=0)) > 0.6 * height * CARD_ASPECT


@pytest.fixture(scope="module")
def focus() -> tuple[object, object]:
    return make_samples(60, pool="train", seed=4, focus=True)


def test_samples_are_reproducible_and_labelled_consistently(focus: tuple[object, object]) -> None:
    corner, thumb = focus
    again, _ = make_samples(60, pool="train", seed=4, focus=True)
    assert np.array_equal(corner.crops, again.crops)  # type: ignore[attr-defined]
    other, _ = make_samples(60, pool="train", seed=5, focus=True)
    assert not np.array_equal(corner.crops[:20], other.crops[:20])  # type: ignore[attr-defined]
    assert corner.crops.shape[1:] == (CROP_H, CROP_W, 3)  # type: ignore[attr-defined]
    assert len(thumb.face_up) == len(corner.pairs) == 60  # type: ignore[attr-defined]
    for (top, bottom), card_id, readable in zip(corner.pairs, corner.card_id, corner.readable, strict=True):  # type: ignore[attr-defined]
        labels = {int(corner.rank[top]), int(corner.rank[bottom])}  # type: ignore[attr-defined]
        if card_id < 0:  # a back shows no index anywhere
            assert labels == {NO_INDEX}
            assert not readable
        else:
            assert labels <= {card_id // 4, NO_INDEX}
            shown = [corner.rank[i] != NO_INDEX and corner.weight[i] > 0 for i in (top, bottom)]  # type: ignore[attr-defined]
            assert readable == any(shown)


def test_focus_samples_cover_index_corners_more_often_than_the_base_ones(focus: tuple[object, object]) -> None:
    def covered_share(corner: object) -> float:
        face_up = corner.card_id >= 0  # type: ignore[attr-defined]
        rows = corner.pairs[face_up].reshape(-1)  # type: ignore[attr-defined]
        return float((corner.rank[rows] == NO_INDEX).mean())  # type: ignore[attr-defined]

    base, _ = make_samples(60, pool="train", seed=4)
    assert covered_share(focus[0]) > covered_share(base)
    assert covered_share(focus[0]) < 0.5  # most corners still show their index


def test_concat_renumbers_the_card_pairs(focus: tuple[object, object]) -> None:
    first = focus
    second = make_samples(10, pool="train", seed=6)
    corner, thumb = concat([first, second])  # type: ignore[list-item]
    n_first = len(first[0].rank)  # type: ignore[attr-defined]
    assert len(corner.rank) == n_first + len(second[0].rank)
    assert np.array_equal(corner.pairs[60:], second[0].pairs + n_first)
    assert np.array_equal(corner.crops[corner.pairs[-1]], second[0].crops[second[0].pairs[-1]])
    assert len(thumb.face_up) == 70
