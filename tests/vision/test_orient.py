"""Which side of a card is long, decided by reading (vision.orient and the reader's orient stage)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.orient import AMBIGUOUS, ambiguous, side_ratio, turned
from vision.reader import MODELS_DIR, CardReader
from vision.rectify import CARD_ASPECT, order_corners
from vision.render.scene import PlacedCard, SceneSpec, render_scene


def _rect(w: float, h: float, x: float = 100.0, y: float = 50.0) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64)


def test_a_card_seen_straight_down_is_never_in_doubt_and_a_square_one_is() -> None:
    upright, square, wide, squashed = _rect(63, 88), _rect(80, 84), _rect(90, 78), _rect(63, 46)
    assert abs(side_ratio(upright[None])[0] - CARD_ASPECT) < 1e-9
    assert ambiguous(np.stack([upright, square, wide])).tolist() == [False, True, True]
    # Squashed further, a card looks like one turned a quarter: its shape cannot tell, its reading must.
    assert not ambiguous(squashed[None])[0]
    assert CARD_ASPECT < AMBIGUOUS < 1.0


def test_turned_takes_the_other_sides_for_the_long_ones_and_turning_twice_gives_the_card_back() -> None:
    card = order_corners(_rect(63, 88))
    other = turned(card[None])[0]
    assert np.linalg.norm(other[0] - other[1]) > np.linalg.norm(other[1] - other[2])  # the top is now long
    assert sorted(map(tuple, other)) == sorted(map(tuple, card))  # the same four corners
    back = turned(turned(card[None]))[0]
    assert np.array_equal(back, card)  # a half turn: the same outline in order_corners' order


def _foreshortened(seed: int) -> tuple[np.ndarray, list[str]]:
    """Upright cards squashed to 55 % of their height, as a low camera sees cards lying lengthwise
    away from it: every outline is wider than tall, so its shape names the wrong side long."""
    cards = tuple(PlacedCard(name, True, (0.2 + 0.3 * k, 0.5), angle=0.0, height=0.45)
                  for k, name in enumerate(("Kh", "7c", "Ad")))  # fmt: skip
    scene = render_scene(SceneSpec(cards=cards, seed=seed, clean=True, deck=f"train-{seed}"))
    image = cv2.resize(scene.image, None, fx=1.0, fy=0.55, interpolation=cv2.INTER_AREA)
    return image, [t.card for t in scene.truth]


def test_cards_that_look_wider_than_tall_are_read_by_reading_both_turns() -> None:
    with_it = CardReader(MODELS_DIR)
    without = CardReader(MODELS_DIR, stages=[name for name in with_it.pipeline.names if name != "orient"])
    image, truth = _foreshortened(11)
    seen = with_it.read(image)
    assert len(seen) == 3
    top = seen.corners[:, 1] - seen.corners[:, 0]
    assert (np.abs(top[:, 0]) > np.abs(top[:, 1])).all()  # straightened upright: the top side runs across
    assert all(ratio < 1.0 for ratio in _height_over_width(seen.corners))  # though it is the longer one here
    assert sorted(c for c in seen.cards if c) == sorted(truth)
    assert with_it.timings["orient"] > 0.0
    unturned = without.read(image)
    assert sum(c is not None for c in unturned.cards) < 3  # the outline's shape alone gets them wrong


def _height_over_width(corners: np.ndarray) -> list[float]:
    """Each outline's card height over its width, as the reader straightened it (its order)."""
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=1), axis=2)
    return list((sides[:, 1] + sides[:, 3]) / (sides[:, 0] + sides[:, 2]))


def test_backs_and_plainly_upright_cards_are_not_turned() -> None:
    reader = CardReader(MODELS_DIR)
    cards = (PlacedCard("9s", True, (0.3, 0.5), angle=0.0, height=0.4),
             PlacedCard("2h", False, (0.7, 0.5), angle=45.0, height=0.4))  # fmt: skip
    scene = render_scene(SceneSpec(cards=cards, seed=5, clean=True, deck="train-5"))
    seen = reader.read(scene.image)
    assert seen.cards.count("9s") == 1 and (~seen.face_up).sum() == 1
    for corners in seen.corners:
        assert np.array_equal(corners, order_corners(corners))  # as the outline's shape said
