"""Jokers drawn by the renderer: a deck's two jokers (one in colour, one in black), their corner
marks and pictures, hold-out designs, and jokers placed in scenes."""

from __future__ import annotations

import numpy as np
import pytest

from table.cards import Card
from vision.errors import SceneError
from vision.render.faces import FACE_H, FACE_W, deck_style, render_face
from vision.render.joker_faces import CORNERS, PICTURES, joker_design, render_joker, scene_joker
from vision.render.scene import PlacedCard, SceneSpec, render_scene

CORNER = (slice(0, int(0.42 * FACE_H)), slice(0, int(0.2 * FACE_W)))


def _red(image: np.ndarray) -> np.ndarray:
    b, g, r = (image[..., k].astype(int) for k in range(3))
    out: np.ndarray = (r - np.maximum(g, b)) > 60
    return out


@pytest.mark.parametrize("seed", range(6))
def test_a_decks_two_jokers_differ_the_first_in_colour_the_second_in_black(seed: int) -> None:
    style = deck_style(seed, "train")
    first, second = render_joker(style, 0), render_joker(style, 1)
    assert first.shape == second.shape == (FACE_H, FACE_W, 4)
    assert _red(first[CORNER]).sum() > 20, "the first joker's corner mark is printed red"
    assert _red(second[CORNER]).sum() == 0, "the second joker is printed in black"
    assert np.abs(first.astype(int) - second.astype(int)).mean() > 2


def test_a_jokers_corner_carries_a_mark_no_card_of_the_deck_prints() -> None:
    style = deck_style(3, "train")
    joker = render_joker(style, 1)[CORNER].astype(int)
    ink = (joker[..., :3].mean(axis=2) < 128).sum()
    assert ink > 30, "the corner shows the joker's mark"
    for card in ("Jc", "Js", "Ac", "Ks", "Qs"):
        face = render_face(style, Card.parse(card))[CORNER].astype(int)
        assert np.abs(face - joker).mean() > 3, card


def test_jokers_are_point_symmetric_like_the_cards_indices() -> None:
    joker = render_joker(deck_style(5, "holdout"), 0)
    top = joker[: int(0.1 * FACE_H), : int(0.15 * FACE_W), :3].astype(int)
    bottom = joker[::-1, ::-1][: int(0.1 * FACE_H), : int(0.15 * FACE_W), :3].astype(int)
    assert np.abs(top - bottom).mean() < 3


def test_designs_vary_over_decks_and_fat_stars_are_for_hold_out_decks_only() -> None:
    train = [joker_design(deck_style(seed, "train"), 0) for seed in range(60)]
    holdout = [joker_design(deck_style(seed, "holdout"), 0) for seed in range(60)]
    assert {d.corner for d in train} == set(CORNERS) and {d.picture for d in train} == set(PICTURES)
    assert any(d.outline_star for d in train) and not all(d.outline_star for d in train)
    fattest = max(d.star_inner / (0.4 if d.star_points == 5 else 0.5) for d in train)
    assert fattest <= 1.15 and any(d.star_inner / (0.4 if d.star_points == 5 else 0.5) > 1.3 for d in holdout)
    assert all(d.coloured for d in train) and not any(joker_design(deck_style(s, "train"), 1).coloured
                                                      for s in range(10))  # fmt: skip


def test_a_deck_has_two_jokers_only() -> None:
    with pytest.raises(SceneError, match="jokers 0 and 1"):
        joker_design(deck_style(1, "train"), 2)


def test_scenes_place_jokers_by_their_names_and_the_truth_calls_both_jk() -> None:
    assert (scene_joker("Jk"), scene_joker("Jk2"), scene_joker("Jh")) == (0, 1, None)
    spec = SceneSpec(cards=(PlacedCard("Jk", True, (0.3, 0.5)), PlacedCard("Jk2", True, (0.6, 0.5)),
                            PlacedCard("Jk", False, (0.85, 0.5))), seed=4, deck="holdout-4", clean=True)  # fmt: skip
    scene = render_scene(spec)
    assert [t.card for t in scene.truth] == ["Jk", "Jk", "Jk"]
    assert [t.mark for t in scene.truth] == [None, None, None]


def test_a_joker_with_a_tock_back_or_a_made_up_card_is_refused() -> None:
    with pytest.raises(SceneError, match="a joker has no Tock mark"):
        PlacedCard("Jk", False, (0.5, 0.5), back="tock")
    with pytest.raises(SceneError, match="'Jk'/'Jk2' for a joker"):
        PlacedCard("Jk3", True, (0.5, 0.5))
