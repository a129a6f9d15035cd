"""Choosing the scale of a second look from a patch of card pixels (vision.scale)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.rectify import CARD_ASPECT
from vision.scale import (
    FAR_HEIGHT,
    TRAINED_HEIGHT,
    explanation,
    look_closer,
    looks_again,
    off_size,
    owners,
    patches,
    shrink,
    tiles,
)


def _card(h: float, cx: float, cy: float) -> np.ndarray:
    w = h * CARD_ASPECT
    return np.array([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2], [cx + w / 2, cy + h / 2],
                     [cx - w / 2, cy + h / 2]])  # fmt: skip


def _map(shape: tuple[int, int], quads: list[np.ndarray]) -> np.ndarray:
    card = np.zeros(shape, np.float32)
    for quad in quads:
        cv2.fillConvexPoly(card, np.round(quad).astype(np.int32), 1.0)
    return card


def test_shrink_averages_like_an_area_resize_and_is_close_to_one_for_large_factors() -> None:
    rng = np.random.default_rng(1)
    frame = cv2.GaussianBlur(rng.integers(0, 255, (720, 1280, 3)).astype(np.uint8), (0, 0), 3)
    exact = cv2.resize(frame, (320, 180), interpolation=cv2.INTER_AREA)
    assert np.array_equal(shrink(frame, (320, 180)), exact)  # four times smaller: the area resize itself
    big = cv2.resize(frame, (4608, 2592), interpolation=cv2.INTER_LINEAR)
    assert np.abs(shrink(big, (320, 180)).astype(float) - exact).mean() < 2.0


def test_a_tall_card_shaped_patch_is_looked_at_from_further_and_a_short_one_closer() -> None:
    card = _map((400, 400), [_card(300, 200, 200)])
    labels, found = patches(card, 0.5, 50)
    (look,) = looks_again(labels, found[0], [], 0.25, (0, 0), (1600, 1600))
    assert abs(look.scale * 300 / 0.25 - FAR_HEIGHT) < 0.05 * FAR_HEIGHT  # the card at the far look's height
    x0, _, x1, _ = look.box
    assert x0 <= 200 / 0.25 - 150 * CARD_ASPECT / 0.25 and x1 >= 200 / 0.25 + 150 * CARD_ASPECT / 0.25
    card = _map((400, 400), [_card(14, 200, 200)])
    labels, found = patches(card, 0.5, 20)
    (look,) = looks_again(labels, found[0], [], 0.25, (0, 0), (1600, 1600))
    assert abs(look.scale * 14 / 0.25 - TRAINED_HEIGHT) < 0.05 * TRAINED_HEIGHT
    # A card of a size the network knows in which no card was kept (dropped as far larger than the
    # frame's other cards) is looked at alone: further, at the trained size, where the cards found
    # are hidden from the look; or, if not taller than the trained size, a little closer.
    labels, found = patches(_map((400, 400), [_card(60, 200, 200)]), 0.5, 20)
    (look,) = looks_again(labels, found[0], [], 0.25, (0, 0), (1600, 1600))
    assert look.scale < 0.25 and abs(look.scale * 60 / 0.25 - TRAINED_HEIGHT) < 0.05 * TRAINED_HEIGHT
    labels, found = patches(_map((400, 400), [_card(36, 200, 200)]), 0.5, 20)
    (look,) = looks_again(labels, found[0], [], 0.25, (0, 0), (1600, 1600))
    assert look.scale >= 0.25 * 1.2
    # With a card found in it, it is explained or not by that card: not looked at alone.
    assert looks_again(labels, found[0], [_card(30, 200, 200)], 0.25, (0, 0), (1600, 1600)) == []


def test_a_wide_patch_of_several_cards_is_looked_at_closer_and_further() -> None:
    # A row of 8 touching cards 25 pixels tall: not card-shaped; nothing found in it.
    row = [_card(25, 50 + k * 25 * CARD_ASPECT, 100) for k in range(8)]
    labels, found = patches(_map((200, 300), row), 0.5, 20)
    looks = looks_again(labels, found[0], [], 0.25, (0, 0), (800, 1200))
    assert len(looks) == 2
    assert max(look.scale for look in looks) == 0.5  # twice closer at least
    assert min(look.scale for look in looks) < 0.25  # or further: one large card the network took apart
    # With cards found in it, closer to where they would be the trained size.
    looks = looks_again(labels, found[0], row[:2], 0.25, (0, 0), (800, 1200))
    assert max(look.scale for look in looks) > 0.25 * TRAINED_HEIGHT / 25 * 0.95


def test_cards_of_one_size_side_by_side_tile_a_patch_and_pieces_do_not() -> None:
    pair = [_card(40, 100, 100), _card(40, 100 + 40 * CARD_ASPECT, 100)]
    labels, found = patches(_map((200, 200), pair), 0.5, 20)
    covered, tiled = explanation(labels, found[0], pair)
    assert covered > 0.95 and tiled
    outer = np.array([[70, 70], [170, 70], [170, 210], [70, 210]], float)
    assert not tiles(outer, [_card(20, 100, 100), _card(60, 130, 150)])  # a pip and a picture: two sizes
    assert not tiles(outer, [_card(30, 100, 100), _card(30, 140, 100)])  # too little of it covered
    quarter = [np.array([[x, y], [x + 50, y], [x + 50, y + 70], [x, y + 70]], float)
               for x in (70, 120) for y in (70, 140)]  # fmt: skip
    assert tiles(outer, quarter)


def test_cards_too_small_or_blocks_too_large_to_be_sure_of_are_looked_at_closer() -> None:
    tiny = _card(8, 100, 100)
    assert off_size([tiny]) == -1
    assert off_size([_card(40, 100, 100)]) == 0
    assert off_size([_card(120, 100, 100)]) == 0  # one large card explaining its patch is believed
    assert off_size([_card(120, 100, 100), _card(120, 200, 100)]) == 1  # blocks of cards side by side
    _, found = patches(_map((200, 200), [tiny]), 0.5, 5)
    look = look_closer(found[0], [tiny], 0.1, (0, 0), (2000, 2000))
    assert look is not None and abs(look.scale * 8 / 0.1 - TRAINED_HEIGHT) < 0.05 * TRAINED_HEIGHT
    assert look_closer(found[0], [tiny], 1.0, (0, 0), (200, 200)) is None  # the frame's own pixels: no closer


def test_a_grid_s_cards_tile_a_block_loosely_with_a_few_odd_ones_and_a_card_s_pieces_do_not() -> None:
    outer = np.array([[0, 0], [5 * 50, 0], [5 * 50, 2 * 70], [0, 2 * 70]], float)
    cells = [np.array([[x, y], [x + 50, y], [x + 50, y + 70], [x, y + 70]], float) for x in range(0, 250, 50)
             for y in (0, 70)]  # fmt: skip
    cells[0] = np.array([[0, 0], [50, 0], [50, 35], [0, 35]], float)  # halves of cards
    cells[1] = np.array([[0, 70], [50, 70], [50, 105], [0, 105]], float)
    assert not tiles(outer, cells)  # strictly, a tenth may be odd
    assert tiles(outer, cells, loose=True)
    pieces = [_card(20, 60, 40), _card(20, 120, 80), _card(60, 180, 70)]
    assert not tiles(outer, pieces, loose=True)


def test_owners_is_the_patch_under_most_of_each_quad_the_lower_label_of_a_tie_and_0_for_none() -> None:
    labels = np.zeros((40, 80), np.int32)
    labels[:, :8] = 7
    labels[:, 12:30] = 2  # a card-sized patch, table (0) between it and 7
    labels[:, 30:] = 5  # another to its right
    on_two = np.array([[11, 5], [28, 5], [28, 35], [11, 35]], float)
    mostly_five = np.array([[26, 5], [60, 5], [60, 35], [26, 35]], float)  # 5 spots on 2, 20 on 5
    tie = np.array([[0, 5], [19.5, 5], [19.5, 35], [0, 35]], float)  # spots at x 2, 6 on 7; 10 on 0; 14, 18 on 2
    off_all = np.array([[-30, -30], [-20, -30], [-20, -20], [-30, -20]], float)  # clipped onto the corner: 7
    assert owners(labels, [on_two, mostly_five, off_all]) == [2, 5, 7]
    assert owners(labels, [tie]) == [2]  # ten spots each on 7 and 2: the lower label
    assert owners(np.zeros((10, 10), np.int32), [on_two]) == [0]
    assert owners(labels, []) == []
