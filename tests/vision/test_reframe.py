"""A card whose outline came out too narrow (where cards touch) is read again from outlines widened
to the frame's typical card: the geometry, and the reader reading such a card right."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detect import Outline
from vision.reader import MODELS_DIR, CardReader
from vision.rectify import order_corners
from vision.reframe import MIN_CARDS, NARROW, aspects, narrow_cards, widened
from vision.render.scene import SceneSpec, deal_rows, render_scene


def _card(x: float, y: float, w: float = 63.0, h: float = 88.0, turn: float = 0.0) -> np.ndarray:
    """Corners of an upright card (clockwise from its top left), turned by ``turn`` radians."""
    box = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    c, s = np.cos(turn), np.sin(turn)
    return box @ np.array([[c, s], [-s, c]]) + (x, y)


def test_a_card_s_aspect_is_its_width_over_its_height_whichever_way_it_lies() -> None:
    quads = np.stack([_card(100, 100), _card(300, 100, turn=0.7), _card(500, 100, w=50, turn=-2.0)])
    assert np.allclose(aspects(quads), [63 / 88, 63 / 88, 50 / 88])


def test_only_a_card_much_narrower_than_the_frame_s_typical_one_is_narrow() -> None:
    quads = np.stack([_card(100 * k, 100, turn=0.1 * k) for k in range(4)]
                     + [_card(500, 100, w=63 * (NARROW - 0.02)), _card(600, 100, w=63 * (NARROW + 0.02))])  # fmt: skip
    narrow, typical = narrow_cards(quads)
    assert typical == pytest.approx(63 / 88)
    assert narrow.tolist() == [False] * 4 + [True, False]


def test_too_few_cards_give_no_typical_card() -> None:
    quads = np.stack([_card(100, 100)] * (MIN_CARDS - 2) + [_card(300, 100, w=40)])
    narrow, typical = narrow_cards(quads)
    assert typical == 0.0 and not narrow.any()


def test_the_widened_outlines_keep_three_sides_and_take_the_typical_shape() -> None:
    narrow = _card(200, 150, w=50, turn=0.4)
    left, right = widened(narrow, 63 / 88)
    assert np.allclose(aspects(np.stack([left, right])), 63 / 88)
    assert np.allclose(left[[1, 2]], narrow[[1, 2]]) and np.allclose(right[[0, 3]], narrow[[0, 3]])
    # each moved side went outward: the left one further left of the card's centre, and so on
    axis = narrow[1] - narrow[0]
    assert (left[0] - narrow[0]) @ axis < 0 < (right[1] - narrow[1]) @ axis


def test_the_reader_reads_a_card_whose_outline_cuts_its_index_from_a_widened_outline() -> None:
    rng = np.random.default_rng(3)
    scene = render_scene(SceneSpec(cards=deal_rows(rng, touching=False), seed=3000, deck="holdout-3000"))
    quads = [order_corners(t.corners) for t in scene.truth]
    target = next(k for k, t in enumerate(scene.truth) if t.face_up)
    card = quads[target]
    image = scene.image.copy()  # a neighbour's back lying over the card's bottom-right index...
    across, up = card[3] - card[2], card[1] - card[2]  # from the bottom-right corner
    cover = card[2] + np.outer([0.0, 0.4, 0.4, 0.0], across) + np.outer([0.0, 0.0, 0.5, 0.5], up)
    cv2.fillPoly(image, [np.round(cover).astype(np.int32)], (120, 40, 30))
    cut = card.copy()
    cut[[0, 3]] += 0.22 * (cut[[1, 2]] - cut[[0, 3]])  # ...and the left side moved in: the top-left index cut off
    quads[target] = cut
    outlines = [Outline(q, partial=False, fit=1.0) for q in quads]
    with_it = CardReader(MODELS_DIR)
    without = CardReader(MODELS_DIR, stages=[name for name in with_it.pipeline.names if name != "reframe"])

    def read(*, reframe: bool) -> tuple[str | None, np.ndarray]:
        reader = with_it if reframe else without
        reader.detect = lambda frame, **_: outlines  # type: ignore[method-assign]
        seen = reader.read(image)
        return seen[target].card, seen.corners[target]

    before, corners_before = read(reframe=False)
    after, corners_after = read(reframe=True)
    assert before is None  # the cut outline reads nothing sure...
    assert after == scene.truth[target].card  # ...a widened one reads the card
    assert np.allclose(corners_before, cut)
    assert aspects(corners_after[None])[0] > aspects(cut[None])[0] + 0.1  # its outline is the widened one
