"""How the joker check's trainer labels crops cut at the reader's own outlines
(:func:`vision.train.joker.crop_labels`): a crop is a joker's only when it holds the joker's mark,
uncovered and upright; a crop holding part of a mark is left out."""

from __future__ import annotations

import numpy as np
import pytest

from vision.render.scene import CardTruth

pytest.importorskip("torch", reason="the joker trainer needs torch: pip install -e '.[train]'")
from vision.train.joker import crop_labels


def _card(x: float, y: float, *, card: str = "Jk", face_up: bool = True, height: float = 140.0) -> CardTruth:
    w = height * 0.714
    return CardTruth(card, face_up, None, np.array([[x, y], [x + w, y], [x + w, y + height], [x, y + height]]))


def test_a_jokers_own_outline_gives_two_joker_crops_and_another_cards_none() -> None:
    joker, seven = _card(100, 100), _card(400, 100, card="7c")
    labels, weights = crop_labels((joker, seven), np.stack([joker.corners, seven.corners]))
    assert labels.tolist() == [1, 1, 0, 0]
    assert weights.tolist() == [1, 1, 1, 1]


def test_the_same_outline_turned_half_round_still_holds_both_marks() -> None:
    joker = _card(100, 100)
    labels, weights = crop_labels((joker,), joker.corners[[2, 3, 0, 1]][None])
    assert labels.tolist() == [1, 1] and weights.tolist() == [1, 1]


def test_an_outline_cut_into_one_mark_leaves_that_crop_out_and_one_cut_past_it_is_no_joker() -> None:
    joker = _card(100, 100)  # the mark 2-18 % of the width in from the left side
    left = np.array([[1.0, 0], [0, 0], [0, 0], [1.0, 0]])
    labels, weights = crop_labels((joker,), (joker.corners + 10 * left)[None])  # the left side pulled into the mark
    assert labels.tolist() == [0, 1]  # the bottom-right crop still holds all of its mark
    assert weights.tolist() == [0, 1]  # the top-left one part of it: neither a joker's nor none
    labels, weights = crop_labels((joker,), (joker.corners + 25 * left)[None])  # pulled in past it
    assert labels.tolist() == [0, 1] and weights.tolist() == [1, 1]  # the top-left crop shows no mark


def test_a_mark_covered_by_a_card_on_top_is_not_a_jokers_crop() -> None:
    joker = _card(100, 100)
    over = _card(60, 80, card="Kd")  # drawn later: lies on the joker's top-left corner
    labels, weights = crop_labels((joker, over), np.stack([joker.corners]))
    assert labels.tolist() == [0, 1]
    assert weights.tolist() == [0, 1]


def test_a_face_down_joker_and_an_outline_turned_a_quarter_are_no_jokers_crops() -> None:
    down = _card(100, 100, face_up=False)
    labels, weights = crop_labels((down,), down.corners[None])
    assert labels.tolist() == [0, 0] and weights.tolist() == [1, 1]
    joker = _card(100, 100, height=100.0)
    centre = joker.corners.mean(axis=0)
    turned = (joker.corners - centre) @ np.array([[0.0, 1.0], [-1.0, 0.0]]) + centre
    labels, _ = crop_labels((joker,), turned[[1, 2, 3, 0]][None])
    assert labels.tolist() == [0, 0]
