"""The learned card segmenter: input preparation, splitting cores into cards, the shipped model."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from table.cards import Card
from vision.detect import find_cards, quad_iou
from vision.learned_outlines import complete_hidden, fit_sides, fit_sides_many, segmented
from vision.reader import MODELS_DIR, CardReader
from vision.render.scene import PlacedCard, SceneSpec, deal_rows, render_scene
from vision.segment import STRIDE, SegmenterSettings, instances, prepare_frame
from vision.train.seg_data import _targets, sample


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader.default()


def test_prepare_frame_pads_to_the_stride_and_ignores_exposure() -> None:
    rng = np.random.default_rng(1)
    frame = rng.integers(40, 200, (180, 320, 3)).astype(np.uint8)
    out = prepare_frame(frame)
    assert out.shape == (1, 3, 192, 320) and out.dtype == np.float32
    assert out.shape[2] % STRIDE == 0 and out.shape[3] % STRIDE == 0
    darker = prepare_frame((frame.astype(np.float32) * 0.6 + 10).astype(np.uint8))[:, :, :180]
    # A darker, flatter exposure of the same scene gives the same input up to scale, centred on 0.
    assert np.abs(darker.mean(axis=(2, 3))).max() < 1e-3
    assert np.corrcoef(darker.ravel(), out[:, :, :180].ravel())[0, 1] > 0.99


def _rect(h: int, w: int, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
    out = np.zeros((h, w), np.float32)
    out[y0:y1, x0:x1] = 1.0
    return out


def test_instances_split_two_touching_cards_by_their_cores() -> None:
    left, right = _rect(100, 160, 20, 20, 60, 80), _rect(100, 160, 60, 20, 100, 80)
    card = np.maximum(left, right)
    core = np.maximum(_rect(100, 160, 28, 28, 52, 72), _rect(100, 160, 68, 28, 92, 72))
    masks = [inst.full(card.shape) for inst in instances(card, core, min_area=100)]
    assert len(masks) == 2
    for truth in (left, right):
        best = max(((m > 0) & (truth > 0)).sum() / ((m > 0) | (truth > 0)).sum() for m in masks)
        assert best > 0.9


def test_a_core_alone_on_its_patch_takes_the_whole_patch() -> None:
    card = _rect(100, 160, 20, 20, 60, 80)
    card[40:44, 60:70] = 1.0  # a tab on the patch, far from the core: still the card's
    core = _rect(100, 160, 30, 35, 40, 60)
    (only,) = instances(card, core, min_area=100)
    assert np.array_equal(only.full(card.shape) > 0, card > 0.5)


def _rounded_card(h: int, w: int, corners: np.ndarray, radius: int) -> np.ndarray:
    """The outline (findContours) of a filled card with rounded corners."""
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners * 8).astype(np.int32), 1, lineType=cv2.LINE_8, shift=3)
    mask = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1,) * 2))
    mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1,) * 2))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=cv2.contourArea)


def test_fitted_sides_restore_the_corners_a_rough_quad_cuts() -> None:
    truths = [np.array([[40, 30], [100, 38], [90, 122], [30, 114]], np.float64),
              np.array([[150, 20], [210, 20], [210, 104], [150, 104]], np.float64)]  # fmt: skip
    contours = [_rounded_card(140, 240, t, 6) for t in truths]
    # A rough quad as a polygon fit gives it: each corner cut a few pixels towards the centre.
    roughs = [t + (t.mean(axis=0) - t) * 0.06 for t in truths]
    fitted = fit_sides_many(contours, roughs)
    for truth, rough, quad in zip(truths, roughs, fitted, strict=True):
        assert np.abs(quad - truth).max() < 1.5 < np.abs(rough - truth).max()
    # One card at a time gives the same as all at once.
    assert np.allclose(fit_sides(contours[1], roughs[1]), fitted[1])


def test_a_quad_with_too_few_points_on_a_side_is_left_as_it_was() -> None:
    quad = np.array([[10, 10], [40, 10], [40, 52], [10, 52]], np.float64)
    contour = np.array([[[10, 10]], [[40, 10]], [[40, 52]], [[10, 52]]], np.int32)  # corners only
    assert np.array_equal(fit_sides(contour, quad), quad)


def test_instances_without_cores_find_nothing() -> None:
    card = _rect(100, 160, 20, 20, 60, 80)
    assert instances(card, np.zeros_like(card)) == []


def test_training_targets_hide_what_a_later_card_covers() -> None:
    under = np.array([[10, 10], [50, 10], [50, 70], [10, 70]], np.float64)
    over = under + np.array([25.0, 0.0])  # drawn later: covers the right part of ``under``
    maps = _targets([under, over], np.zeros((80, 100), np.uint8), (100, 80), (50, 40))
    card, core = maps
    assert core.max() <= 1.0 and np.all(core <= card + 1e-6)
    count, _ = cv2.connectedComponents((core > 0.5).astype(np.uint8))
    assert count - 1 == 2  # two separate cores, though the cards overlap


def test_training_samples_are_deterministic_and_consistent() -> None:
    a, b = sample(11), sample(11)
    assert np.array_equal(a.image, b.image) and np.array_equal(a.target, b.target)
    h, w = a.image.shape[:2]
    assert a.target.shape == (2, -(-h // 2), -(-w // 2))
    assert np.all(a.target[1] <= a.target[0] + 1e-6)


@pytest.mark.parametrize("seed", [5, 6])
def test_the_shipped_segmenter_finds_every_card_in_touching_rows(reader: CardReader, seed: int) -> None:
    assert reader.segmenter is not None, "models/detector.onnx is missing"
    rng = np.random.default_rng(seed)
    scene = render_scene(SceneSpec(cards=deal_rows(rng, touching=True), seed=9000 + seed, deck=f"holdout-{seed}"))
    outlines = reader.detect(scene.image)
    ious = [max([quad_iou(t.corners, o.corners) for o in outlines] or [0.0]) for t in scene.truth]
    assert min(ious) > 0.6, ious
    assert np.median(ious) > 0.85
    assert len(outlines) <= len(scene.truth)


def test_the_shipped_segmenter_finds_a_white_card_on_a_pale_cloth(reader: CardReader) -> None:
    cards = tuple(PlacedCard(str(Card.from_id(k * 7)), k % 2 == 0, (0.2 + 0.3 * k, 0.5), angle=15.0 * k, height=0.3)
                  for k in range(3))  # fmt: skip
    for table in ("grey-laminate", "light-wood"):
        scene = render_scene(SceneSpec(cards=cards, size=(960, 540), table=table, seed=31, deck="holdout-2"))
        outlines = reader.detect(scene.image)
        assert len(outlines) == 3
        for truth in scene.truth:
            assert max(quad_iou(truth.corners, o.corners) for o in outlines) > 0.85


def test_the_classical_detector_still_works_without_a_model() -> None:
    scene = render_scene(SceneSpec(cards=deal_rows(np.random.default_rng(2), count=6), seed=77, table="green-felt"))
    outlines = find_cards(scene.image, segmenter=None)
    assert len(outlines) == 6


def test_a_card_half_under_another_is_completed_into_the_hidden_side() -> None:
    cards = np.zeros((120, 160), bool)
    cards[20:76, 20:100] = True  # the card (x 20..60) and, on top of it from x 45, another
    own = np.zeros((120, 160), np.uint8)
    own[20:76, 20:45] = 1  # what shows of the card underneath
    rect = cv2.boxPoints(cv2.minAreaRect(np.argwhere(own > 0)[:, ::-1].astype(np.float32))).astype(np.float64)
    whole = complete_hidden(rect, cards, own)
    xs, ys = whole[:, 0], whole[:, 1]
    assert abs(xs.min() - 20) < 1.5 and abs(xs.max() - 59.5) < 2.5  # pushed right, into the top card
    assert abs(ys.min() - 20) < 1.5 and abs(ys.max() - 75) < 1.5


def test_a_visible_part_with_no_cover_is_not_grown() -> None:
    cards = np.zeros((120, 160), bool)
    cards[20:76, 20:45] = True  # a narrow strip lying alone on the table: nothing hides the rest
    own = cards.astype(np.uint8)
    rect = cv2.boxPoints(cv2.minAreaRect(np.argwhere(own > 0)[:, ::-1].astype(np.float32))).astype(np.float64)
    assert np.array_equal(complete_hidden(rect, cards, own), rect)


class _Maps:
    """A stand-in segmenter answering fixed card and core maps (the size rules on known masks)."""

    def __init__(self, card: np.ndarray, core: np.ndarray) -> None:
        self.maps = (card, core)
        self.settings = SegmenterSettings(work_width=320, card_threshold=0.5, core_threshold=0.5)

    def probabilities(self, small_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.maps


def _card_and_core(h: int, w: int, boxes: list[tuple[int, int, int, int]]) -> tuple[np.ndarray, np.ndarray]:
    card, core = np.zeros((h, w), np.float32), np.zeros((h, w), np.float32)
    for x0, y0, x1, y1 in boxes:
        card[y0:y1, x0:x1] = 1.0
        m = round(0.2 * min(x1 - x0, y1 - y0))
        core[y0 + m : y1 - m, x0 + m : x1 - m] = 1.0
    return card, core


def test_two_halves_of_one_card_are_joined_and_a_run_together_pair_is_dropped() -> None:
    boxes = [(10, 10, 38, 50), (60, 10, 88, 50), (110, 10, 138, 50), (160, 10, 188, 50)]
    card, core = _card_and_core(120, 320, [*boxes, (210, 10, 238, 50)])
    core[28:32, 210:238] = 0.0  # the fifth card's core broken in two across its middle
    card2, core2 = _card_and_core(120, 320, [(20, 70, 76, 110)])  # twice a card's area: two run together
    maps = _Maps(np.maximum(card, card2), np.maximum(core, core2))
    found = segmented(maps, np.zeros((120, 320, 3), np.uint8), 50.0)  # type: ignore[arg-type]
    areas = sorted(cv2.contourArea(q.astype(np.float32)) for q, _, _ in found)
    assert len(found) == 5  # four whole cards, the joined halves; the double card is gone
    assert areas[0] > 0.8 * areas[-1]


def test_a_frame_filling_blob_is_not_a_card() -> None:
    card, core = _card_and_core(120, 160, [(0, 0, 160, 120)])
    found = segmented(_Maps(card, core), np.zeros((120, 160, 3), np.uint8), 50.0)  # type: ignore[arg-type]
    assert found == []


def test_settings_files_that_lack_a_value_are_typed_errors(tmp_path: Path) -> None:
    from vision.errors import ModelError
    from vision.reader import ReaderSettings

    broken = tmp_path / "detector.json"
    broken.write_text('{"work_width": 320}')
    with pytest.raises(ModelError, match="detector settings"):
        SegmenterSettings.load(broken)
    reader_json = json.loads((MODELS_DIR / "reader.json").read_text())
    del reader_json["temperature"]
    broken.write_text(json.dumps(reader_json))
    with pytest.raises(ModelError, match="temperature"):
        ReaderSettings.load(broken)


def test_cards_run_together_are_explained_by_whole_cards_of_the_typical_size() -> None:
    # Four cards apart and a pair the network ran together (one core over both): the pair's outline
    # is twice a card, so it is not kept; the explainer finds the cards in it, one per look.
    boxes = [(10, 10, 38, 50), (60, 10, 88, 50), (110, 10, 138, 50), (160, 10, 188, 50)]
    card, core = _card_and_core(120, 320, [*boxes, (210, 60, 266, 100)])
    left = np.array([[210, 60], [238, 60], [238, 100], [210, 100]], np.float64)
    right = left + np.array([28.0, 0.0])
    answers = [
        [(left, 0.9, False),
         (right + 2.0, 0.9, True),  # partial: cut along its index, read from the wrong place
         (np.array([[20, 70], [80, 70], [80, 115], [20, 115]], np.float64), 0.9, False),  # too big
         (np.array([[12, 12], [36, 12], [36, 48], [12, 48]], np.float64), 0.9, False)],  # a known card
        [(right, 0.9, False)],  # what is left once the left card is taken away
    ]  # fmt: skip
    masks: list[np.ndarray] = []

    def explain(mask: np.ndarray, known: list) -> list:  # type: ignore[type-arg]
        masks.append(mask.copy())
        return answers[len(masks) - 1] if len(masks) <= len(answers) else []

    maps = _Maps(card, core)
    found = segmented(maps, np.zeros((120, 320, 3), np.uint8), 50.0, explain=explain)  # type: ignore[arg-type]
    centres = sorted(tuple(np.round(q.mean(axis=0)).astype(int)) for q, _, _ in found)
    assert len(found) == 6 and not any(partial for _, _, partial in found)
    assert (224, 80) in centres and (252, 80) in centres
    assert masks[0][80, 224] and not masks[1][80, 224] and masks[1][80, 252]  # the left card was taken away
    # Without an explainer the pair is dropped, never read as one card.
    assert len(segmented(maps, np.zeros((120, 320, 3), np.uint8), 50.0)) == 4  # type: ignore[arg-type]
