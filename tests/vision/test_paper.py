"""Card paper told from a patterned cloth (vision.paper), a face told from the cloth's squares, and
when a frame's cloth was taken for card."""

from __future__ import annotations

import cv2
import numpy as np

from vision.paper import CLOTH_SHARE, Paper, cloth_taken_for_card


def _striped(light: tuple[int, int, int], dark: tuple[int, int, int], period: int = 24) -> np.ndarray:
    """A 640×360 cloth of diagonal stripes, half light, half dark (BGR)."""
    y, x = np.mgrid[:360, :640]
    image = np.empty((360, 640, 3), np.uint8)
    image[:] = dark
    image[((x + y) // (period // 2)) % 2 == 0] = light
    return image


def _card(image: np.ndarray, centre: tuple[float, float], angle: float, height: float) -> np.ndarray:
    """A white card with dark pips drawn on ``image``; its outline (4×2)."""
    box = cv2.boxPoints(((centre[0], centre[1]), (height / 1.4, height), angle))
    cv2.fillConvexPoly(image, np.round(box).astype(np.int32), (246, 247, 245))
    for dx, dy in ((-0.15, -0.25), (0.15, 0.25), (0.0, 0.0)):
        cv2.circle(image, (round(centre[0] + dx * height), round(centre[1] + dy * height)), round(height * 0.07),
                   (20, 20, 30), -1)  # fmt: skip
    return box


def _share_inside(mask: np.ndarray, quad: np.ndarray) -> float:
    inside = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 255)
    return float(np.count_nonzero(mask[inside > 0])) / max(np.count_nonzero(inside), 1)


def test_cards_on_a_cream_and_purple_stripe_are_paper_and_the_stripes_are_not() -> None:
    cloth = _striped(light=(170, 212, 232), dark=(70, 25, 60))  # cream (tinted) and dark purple
    image = cloth.copy()
    cards = [_card(image, (180, 170), 15, 200), _card(image, (470, 190), -30, 160)]
    mask = Paper(image).mask()
    for quad in cards:  # the print inside the card is filled, the card whole
        assert _share_inside(mask, quad) > 0.95
    outside = np.ones(mask.shape, bool)
    for quad in cards:
        grown = cv2.boxPoints(cv2.minAreaRect(quad.astype(np.float32)))
        cv2.fillConvexPoly(outside.view(np.uint8), np.round(grown * 1.0).astype(np.int32), 0)
    assert np.count_nonzero(mask[outside]) < 0.01 * np.count_nonzero(outside)


def test_a_pale_tinted_check_is_not_paper_but_the_card_on_it_is() -> None:
    y, x = np.mgrid[:360, :640]
    image = np.full((360, 640, 3), (120, 170, 120), np.uint8)  # green
    pale = ((x // 16) % 2 == 0) & ((y // 16) % 2 == 0)
    image[pale] = (215, 235, 215)  # the pale squares: light, but green-tinted
    card = _card(image, (320, 180), 5, 150)
    mask = Paper(image).mask()
    assert _share_inside(mask, card) > 0.95
    assert np.count_nonzero(mask) < 1.3 * cv2.contourArea(card.astype(np.float32))


def test_the_threshold_follows_the_exposure() -> None:
    # The same table a stop darker: the paper is still the lightest neutral thing in the frame.
    image = _striped(light=(170, 212, 232), dark=(70, 25, 60))
    card = _card(image, (320, 180), 10, 180)
    dark = (image.astype(np.float32) * 0.55).astype(np.uint8)
    assert _share_inside(Paper(dark).mask(), card) > 0.95


def test_a_cloth_is_taken_for_card_only_where_the_card_pixels_are_most_of_the_frame_and_unexplained() -> None:
    card = np.zeros((180, 320), np.float32)
    card[:, :250] = 0.9  # 78 % of the frame called card
    assert cloth_taken_for_card(card, covered=0.05)  # a few outlines: the cloth was taken for card
    assert not cloth_taken_for_card(card, covered=0.7)  # a grid of 52 whose outlines cover it
    few = np.zeros((180, 320), np.float32)
    few[:, : int(320 * (CLOTH_SHARE - 0.1))] = 0.9
    assert not cloth_taken_for_card(few, covered=0.0)  # a large card alone, or an ordinary table


def test_a_face_is_card_shaped_mostly_paper_and_printed() -> None:
    y, x = np.mgrid[:360, :640]
    image = np.full((360, 640, 3), (60, 60, 200), np.uint8)  # red
    white = ((x // 40) % 2 == 0) & ((y // 40) % 2 == 0)
    image[white] = (250, 250, 250)  # white squares: as white as paper
    card = _card(image, (330, 200), 0, 120)
    paper = Paper(image)
    assert paper.face(card)
    square = np.array([[0, 0], [39, 0], [39, 39], [0, 39]], np.float32) + 80  # a white square of the cloth
    assert not paper.face(square)
    blank = np.array([[40, 240], [79, 240], [79, 296], [40, 296]], np.float32)  # card-shaped, no print
    image[240:297, 40:80] = 250
    assert not Paper(image).face(blank)
    astride = np.array([[430, 20], [500, 20], [500, 120], [430, 120]], np.float32)  # over squares and red
    assert not paper.face(astride)


def test_a_face_is_judged_in_the_frame_s_pixels_whatever_its_size() -> None:
    # The frame is seen on a copy PAPER_WIDTH wide; an outline is given in the frame's own pixels.
    image = _striped(light=(170, 212, 232), dark=(70, 25, 60))
    card = _card(image, (320, 180), 10, 180)
    big = cv2.resize(image, (1920, 1080), interpolation=cv2.INTER_LINEAR)
    assert Paper(big).face(card * 3)
    assert not Paper(big).face(card * 3 + [600, 0])  # the same shape on the cloth beside it
