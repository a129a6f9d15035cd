"""The aim advice on rendered tables: a camera too high, too low, blurred, blinded, cut off."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from hardware.aim import BEST_CARD_PX, TILT_CARDS, TILT_OK, aim_advice, camera_height, camera_tilt, card_heights
from hardware.camera_rig import CameraRig
from hardware.errors import CameraRigError
from hardware.mounting import CAMERA_MODULE_3
from hardware.table_model import TableModel

HEIGHT = 0.55  # metres: a Camera Module 3 sees the model's 156-px cards from about here


@pytest.fixture(scope="module")
def table() -> TableModel:
    model = TableModel(6, seed=3)
    hands = [["Ah", "Kd"], ["2c", "3c"], ["4h", "5h"], ["6d", "7d"], ["8s", "9s"], ["Tc", "Jc"]]
    for seat, cards in enumerate(hands):
        model.deal_hole(seat, cards, face_up=True)
    model.deal_board(["Qh", "Qd", "Qs"])
    model.frame()
    return model


def seen(model: TableModel, **move: float) -> tuple[np.ndarray, list[np.ndarray]]:
    """The rig's picture of the table and the true outlines of its cards in that picture."""
    rig = CameraRig(HEIGHT)
    rig.set(**move)
    assert model.last_render is not None
    image = rig.view(model.last_render.image)
    h, w = image.shape[:2]
    matrix = rig.homography((w, h))
    quads = [cv2.perspectiveTransform(t.corners[None].astype(np.float64), matrix)[0] for t in model.last_render.truth]
    return image, quads


def by_topic(advice: list) -> dict:
    return {a.topic: a for a in advice}


def test_the_mounted_camera_is_right(table: TableModel) -> None:
    advice = by_topic(aim_advice(*seen(table)))
    assert all(a.ok for a in advice.values()), [a.text for a in advice.values() if not a.ok]
    assert advice["cards"].value == 15
    assert BEST_CARD_PX[0] <= advice["height"].value <= BEST_CARD_PX[1]
    assert "Height is right" in advice["height"].text


def test_a_camera_too_high_is_told_to_come_down_by_about_the_distance_raised(table: TableModel) -> None:
    advice = by_topic(aim_advice(*seen(table, lift=0.35)))
    height = advice["height"]
    assert not height.ok and height.value < BEST_CARD_PX[0]
    assert height.text.startswith("Lower the camera by about ")
    cm = int(height.text.split("about ")[1].split(" cm")[0])
    assert 25 <= cm <= 45  # raised 35 cm; brought back to the middle of the best range


def test_a_camera_too_low_is_told_to_go_up_and_sees_cards_cut(table: TableModel) -> None:
    advice = by_topic(aim_advice(*seen(table, lift=-0.25)))
    assert not advice["height"].ok and advice["height"].value > BEST_CARD_PX[1]
    assert advice["height"].text.startswith("Raise the camera by about ")
    assert not advice["framing"].ok and advice["framing"].value >= 1


def test_a_blurred_camera_is_told_to_focus(table: TableModel) -> None:
    sharp = by_topic(aim_advice(*seen(table)))["focus"]
    blurred = by_topic(aim_advice(*seen(table, blur=3.0)))["focus"]
    assert sharp.ok and not blurred.ok
    assert blurred.value < sharp.value / 10
    assert blurred.text.startswith("Focus the lens")


def test_a_lamp_reflection_on_cards_is_glare(table: TableModel) -> None:
    image, quads = seen(table)
    lit = image.copy()
    for quad in quads[:2]:  # a lamp's hot spot over the first two cards
        cv2.fillConvexPoly(lit, quad.round().astype(np.int32), (255, 255, 255))
    glare = by_topic(aim_advice(lit, quads))["glare"]
    assert not glare.ok and glare.value == 2
    assert by_topic(aim_advice(image, quads))["glare"].ok


def test_no_cards_asks_for_cards() -> None:
    advice = aim_advice(np.zeros((720, 1280, 3), np.uint8), [])
    assert [a.topic for a in advice] == ["cards"] and not advice[0].ok


def test_card_heights_and_camera_height() -> None:
    quad = np.array([[10, 10], [73, 10], [73, 98], [10, 98]], float)  # 63 x 88 px
    assert card_heights([quad])[0] == pytest.approx(88)
    # 1 px/mm across 1280 px: 1.28 m of table, seen by a 66° lens from 1.28 / (2 tan 33°)
    assert camera_height(88, 1280) == pytest.approx(1.28 / (2 * np.tan(np.radians(33))))
    with pytest.raises(ValueError, match="above 0 px"):
        camera_height(0, 1280)


def test_the_rig_refuses_positions_it_cannot_take_and_keeps_its_place() -> None:
    rig = CameraRig(HEIGHT)
    rig.set(lift=0.2)
    for bad in ({"lift": 2.0}, {"tilt": "up"}, {"blur": -1}, {"lift": float("nan")}, {"tilt": True}):
        with pytest.raises(CameraRigError):
            rig.set(**bad)
    assert rig.settings.lift == 0.2 and rig.settings.tilt == 0.0
    with pytest.raises(ValueError, match=r"0\.1\.\.5 m"):
        CameraRig(0.0)


def test_the_rig_shrinks_the_table_when_raised() -> None:
    image = np.zeros((100, 200, 3), np.uint8)
    image[40:60, 80:120] = 255
    rig = CameraRig(0.5)
    rig.set(lift=0.5)  # twice as high: half the size
    moved = rig.view(image)
    ys, xs = np.nonzero(moved[:, :, 0] > 128)
    assert xs.max() - xs.min() + 1 == pytest.approx(20, abs=2)
    assert ys.max() - ys.min() + 1 == pytest.approx(10, abs=2)
    assert rig.view(image) is not image
    rig.set(lift=0.0)
    assert rig.view(image) is image


def test_a_white_face_at_full_white_keeps_its_print_and_is_not_glare(table: TableModel) -> None:
    image, quads = seen(table)
    quads = quads[:10]  # the first five seats' cards: the scene's own lamp shines on the sixth seat's
    bright = cv2.convertScaleAbs(image, alpha=1.3, beta=30)  # overexposed: the faces' paper clips, the print stays
    clipped = np.all(bright >= 250, axis=2)
    for quad in quads:
        mask = np.zeros(image.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, quad.round().astype(np.int32), 1)
        assert clipped[mask > 0].mean() > 0.5  # every face mostly at full white...
    assert by_topic(aim_advice(bright, quads))["glare"].ok  # ...but with its print, so not washed out


def test_a_shape_too_tall_for_a_card_is_not_measured(table: TableModel) -> None:
    image, quads = seen(table)
    h, w = image.shape[:2]
    whole_table = np.array([[100, 50], [w - 100, 50], [w - 100, h - 50], [100, h - 50]], float)
    advice = by_topic(aim_advice(image, [*quads, whole_table]))
    assert advice["cards"].value == len(quads) and advice["height"].ok
    alone = aim_advice(image, [whole_table])
    assert [a.topic for a in alone] == ["cards"] and "lower the camera" in alone[0].text


@pytest.fixture(scope="module")
def crisp() -> TableModel:
    """The table drawn with no camera of its own (no perspective): the rig's tilt is all there is."""
    model = TableModel(6, seed=3, clean=True)
    for seat, cards in enumerate([["Ah", "Kd"], ["2c", "3c"], ["4h", "5h"], ["6d", "7d"], ["8s", "9s"], ["Tc", "Jc"]]):
        model.deal_hole(seat, cards, face_up=True)
    model.deal_board(["Qh", "Qd", "Qs"])
    model.frame()
    return model


def turned(model: TableModel, degrees: float) -> tuple[np.ndarray, list[np.ndarray]]:
    """The table seen by a camera turned ``degrees`` about the picture's vertical axis (sideways)."""
    assert model.last_render is not None
    image = model.last_render.image
    h, w = image.shape[:2]
    focal = (w / 2) / math.tan(math.radians(CAMERA_MODULE_3.horizontal_fov / 2))
    k = np.array([[focal, 0, (w - 1) / 2], [0, focal, (h - 1) / 2], [0, 0, 1]])
    a = math.radians(degrees)
    rotate = np.array([[math.cos(a), 0, math.sin(a)], [0, 1, 0], [-math.sin(a), 0, math.cos(a)]])
    matrix = k @ rotate @ np.linalg.inv(k)
    out = cv2.warpPerspective(image, matrix, (w, h), borderValue=(38, 38, 42))
    quads = [cv2.perspectiveTransform(t.corners[None].astype(np.float64), matrix)[0] for t in model.last_render.truth]
    return out, quads


@pytest.mark.parametrize("degrees", [-15.0, -10.0, 10.0, 15.0])
def test_a_tilted_camera_is_told_to_tilt_back_by_about_the_angle(crisp: TableModel, degrees: float) -> None:
    image, quads = seen(crisp, tilt=degrees)
    h, w = image.shape[:2]
    tilt = camera_tilt(quads, w, h)
    assert tilt is not None and tilt.cards >= TILT_CARDS
    assert abs(tilt.degrees - abs(degrees)) <= 2.0 and abs(tilt.sideways) <= 1.0
    # the rig turns the picture's top toward the table (positive tilt): the cards at the top are nearer
    assert tilt.bigger_toward == ("top" if degrees > 0 else "bottom")
    advice = by_topic(aim_advice(image, quads))["tilt"]
    assert not advice.ok and advice.value == tilt.degrees
    assert advice.text.startswith(f"Tilt the camera back toward straight down by about {abs(degrees):.0f}°")
    assert f"bigger toward the {tilt.bigger_toward} of the picture" in advice.text


@pytest.mark.parametrize("degrees", [-12.0, 12.0])
def test_a_camera_turned_sideways_is_told_too(crisp: TableModel, degrees: float) -> None:
    image, quads = turned(crisp, degrees)
    tilt = camera_tilt(quads, image.shape[1], image.shape[0])
    assert tilt is not None and abs(tilt.degrees - abs(degrees)) <= 2.0 and abs(tilt.across) <= 1.0
    assert tilt.bigger_toward in ("left", "right")
    assert not by_topic(aim_advice(image, quads))["tilt"].ok


@pytest.mark.parametrize("degrees", [0.0, -4.0, 4.0])
def test_a_camera_near_straight_down_is_fine(crisp: TableModel, degrees: float) -> None:
    image, quads = seen(crisp, tilt=degrees)
    advice = by_topic(aim_advice(image, quads))["tilt"]
    assert advice.ok and advice.value is not None and advice.value <= TILT_OK
    assert advice.text.startswith("The camera looks straight down")


def test_the_tilt_is_not_measured_on_too_few_cards_or_cards_bunched_together(crisp: TableModel) -> None:
    image, quads = seen(crisp)
    h, w = image.shape[:2]
    assert camera_tilt(quads[:TILT_CARDS - 1], w, h) is None
    board = [q for q in quads if abs(q.mean(axis=0)[1] - h / 2) < 0.1 * h and abs(q.mean(axis=0)[0] - w / 2) < 0.1 * w]
    assert camera_tilt(board * 2, w, h) is None  # all in the middle: no spread to measure on
    advice = by_topic(aim_advice(image, quads[:3]))["tilt"]
    assert advice.ok and advice.value is None and advice.text.startswith("Tilt not measured")
