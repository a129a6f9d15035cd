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


def test_reshaped_glyphs_are_bent_reproducibly_and_slanted_the_way_asked() -> None:
    from vision.render.faces import _text_bitmap, reshaped_glyph
    from vision.render.fonts import index_fonts

    font = index_fonts("train")[0].path
    plain = _text_bitmap(font, "I", 0)
    bent = reshaped_glyph(font, "R", 0, 0.0, 0.04, 11)
    assert np.array_equal(bent, reshaped_glyph(font, "R", 0, 0.0, 0.04, 11))
    assert not np.array_equal(bent, reshaped_glyph(font, "R", 0, 0.0, 0.04, 12))
    assert abs(bent.shape[0] - _text_bitmap(font, "R", 0).shape[0]) < 0.25 * plain.shape[0]  # a bend, not a new size
    for shear in (0.15, -0.15):  # a slanted stem: its ink's top row leans the way asked
        slanted = reshaped_glyph(font, "I", 0, shear, 0.0, 0)
        top, bottom = (float(np.average(np.arange(slanted.shape[1]), weights=slanted[y] + 1e-9)) for y in (2, -3))
        assert np.sign(top - bottom) == np.sign(shear)
        assert slanted.shape[1] > plain.shape[1] + 0.1 * plain.shape[0]


def test_about_half_the_training_decks_are_reshaped_and_no_hold_out_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.train.data as data
    from vision.render.faces import deck_style
    from vision.train.data import RESHAPED, reshape_index

    rng = np.random.default_rng(1)
    styles = [reshape_index(deck_style(k, "train"), rng) for k in range(200)]
    reshaped = [s for s in styles if s.index.warp > 0]
    assert abs(len(reshaped) / len(styles) - RESHAPED) < 0.1
    assert all(s.index.shear == 0 and s.index.warp_seed == 0 for s in styles if s.index.warp == 0)
    pools: list[str] = []
    monkeypatch.setattr(data, "reshape_index", lambda style, rng: pools.append(style.name) or style)
    make_samples(8, pool="holdout", seed=2, cards_per_style=4, letters="varied")
    assert pools == []  # the hold-out decks are drawn as their fonts draw them
    make_samples(8, pool="train", seed=2, cards_per_style=4, letters="mix")
    assert pools == []  # and so are the decks of the other letter sets
    make_samples(8, pool="train", seed=2, cards_per_style=4, letters="varied")
    assert len(pools) == 2 and all(name.startswith("train-") for name in pools)
