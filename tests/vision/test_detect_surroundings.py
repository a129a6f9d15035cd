"""The learned card finder where the table is not all there is: a camera raised until the table's
edge and the floor beyond it show, and patterned cloth under a dense grid."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.detect
from table.cards import Card
from vision.detect import Outline, find_cards, quad_iou
from vision.reader import CardReader
from vision.render.scene import PlacedCard, SceneSpec, render_scene
from vision.render.scene_layouts import deal_hard
from vision.segment import CardSegmenter

FLOOR = (38, 38, 42)


@pytest.fixture(scope="module")
def segmenter() -> CardSegmenter:
    found = CardReader.default().segmenter
    assert found is not None, "models/detector.onnx is missing"
    return found


def _raised(seed: int, table: str, shrink: float) -> tuple[np.ndarray, list[np.ndarray]]:
    """A table of six cards as a camera raised above it sees it: the whole picture shrunk by
    ``shrink`` about the frame's middle, a dark floor beyond; the cards' corners moved with it."""
    rng = np.random.default_rng(seed)
    ids = rng.choice(52, 6, replace=False)
    cards = tuple(PlacedCard(str(Card.from_id(int(c))), bool(k % 3), (0.2 + 0.12 * k, 0.35 + 0.3 * (k % 2)),
                             angle=float(rng.uniform(-20, 20)), height=0.22)
                  for k, c in enumerate(ids))  # fmt: skip
    scene = render_scene(SceneSpec(cards=cards, size=(1280, 720), seed=seed, table=table, deck=f"holdout-{seed}"))
    matrix = np.array([[shrink, 0, 640 * (1 - shrink)], [0, shrink, 360 * (1 - shrink)]])
    image = cv2.warpAffine(scene.image, matrix, (1280, 720), flags=cv2.INTER_AREA, borderValue=FLOOR)
    corners = [t.corners @ matrix[:, :2].T + matrix[:, 2] for t in scene.truth]
    return image, corners


@pytest.mark.xfail(strict=True, reason="the shipped detector takes a whole light table on a dark floor for one card "
                   "(bench.raised_camera); a fine-tune on such frames (seg_train --beyond) also took large plain "
                   "cards for table, so it is not shipped (models/README.md)")
@pytest.mark.parametrize(("seed", "table", "shrink"), [(61, "beige-cloth", 0.65), (62, "white-cloth", 0.55),
                                                       (63, "light-wood", 0.75)])  # fmt: skip
def test_a_whole_table_on_a_dark_floor_is_no_card(segmenter: CardSegmenter, seed: int, table: str,
                                                  shrink: float) -> None:  # fmt: skip
    image, corners = _raised(seed, table, shrink)
    outlines = find_cards(image, segmenter=segmenter)
    largest = max(cv2.contourArea(c.astype(np.float32)) for c in corners)
    for outline in outlines:  # every outline the size of a card, none the table's
        assert cv2.contourArea(outline.corners.astype(np.float32)) < 2 * largest
    found = [max((quad_iou(c, o.corners) for o in outlines), default=0.0) for c in corners]
    assert sum(iou >= 0.8 for iou in found) >= 5


@pytest.mark.xfail(strict=True, reason="the shipped detector was trained on plain tables: on paisley a whole grid "
                   "becomes a few huge outlines (0 of 61 such cards found on the hard set; models/README.md)")
def test_a_grid_of_52_on_patterned_cloth_splits_card_by_card(segmenter: CardSegmenter) -> None:
    # Paisley: outlined blobs of another colour all over the cloth; a network that never saw such
    # cloth runs the grid and the cloth together.
    cards, options = deal_hard(np.random.default_rng(3), kind="grid")
    spec = options.spec(cards, seed=3, deck="holdout-3")
    scene = render_scene(SceneSpec(cards=spec.cards, size=spec.size, seed=3, deck="holdout-3", table="paisley-cloth",
                                   camera=spec.camera))  # fmt: skip
    outlines = find_cards(scene.image, segmenter=segmenter)
    whole = [t for t in scene.truth if not t.cut]
    matched = [max((quad_iou(t.corners, o.corners) for o in outlines), default=0.0) for t in whole]
    assert sum(iou >= 0.5 for iou in matched) >= 0.95 * len(whole)
    for outline in outlines:  # no outline spans several cards or lies on the cloth alone
        assert max(quad_iou(t.corners, outline.corners) for t in scene.truth) >= 0.5


@pytest.mark.parametrize("seed", [2_000_300_006, 2_000_300_008])  # bench.vision's hard "textured" tables 6 and 8
def test_patterned_cloth_seen_whole_is_no_card(segmenter: CardSegmenter, seed: int) -> None:
    # Paisley and stripes seen from far away, as a large card is, look like a card's back: the
    # detector took a stretch of cloth 14 and 24 times a card's area for one card. Along such an
    # outline the pattern runs on both sides of every side; along a card's, the paper meets the cloth.
    cards, options = deal_hard(np.random.default_rng(seed), kind="textured")
    assert options.table in ("paisley-cloth", "striped-cloth")
    scene = render_scene(options.spec(cards, seed=seed, deck=f"holdout-{seed}"))
    largest = max(cv2.contourArea(t.corners.astype(np.float32)) for t in scene.truth)
    outlines = find_cards(scene.image, segmenter=segmenter)
    assert outlines, "the cards themselves are still found"
    for outline in outlines:  # papers lie beside the cards, a few times a card's area; nothing larger
        assert cv2.contourArea(outline.corners.astype(np.float32)) < 8 * largest


@pytest.mark.parametrize(("kind", "seed", "least"), [("large", 2_000_000_003, 2), ("grid", 1_500_100_030, 8),
                                                     ("tilted", 1_500_200_001, 3)])  # fmt: skip
def test_cards_on_a_cloth_the_network_takes_for_card_are_found_by_their_paper(
    segmenter: CardSegmenter, monkeypatch: pytest.MonkeyPatch, kind: str, seed: int, least: int
) -> None:
    # Hard tables on striped cloth (bench.vision's large table 3; a grid of 52) and on checked cloth
    # under a tilted camera: the network calls most of each frame card and finds none of their
    # cards whole. Their paper finds them (vision.paper), each one outline.
    cards, options = deal_hard(np.random.default_rng(seed), kind=kind)
    assert options.table in ("striped-cloth", "checked-cloth")
    scene = render_scene(options.spec(cards, seed=seed, deck=f"holdout-{seed}"))
    whole = [t for t in scene.truth if not t.cut]

    def found() -> tuple[int, list[Outline]]:
        outlines = find_cards(scene.image, segmenter=segmenter)
        return sum(max((quad_iou(t.corners, o.corners) for o in outlines), default=0.0) >= 0.8 for t in whole), outlines

    count, outlines = found()
    assert count >= least
    paper = [o for o in outlines if o.face_only]
    assert paper, "the cards were found by their paper"
    overlaps = [max(quad_iou(t.corners, outline.corners) for t in scene.truth) for outline in paper]
    # Mostly one card's each: in a grid a patch of paper may take two cards, or a sliver of one
    # (the reader reports no back from such an outline: vision.evidence, rule 7).
    assert sum(iou >= 0.5 for iou in overlaps) >= 0.8 * len(paper)
    monkeypatch.setattr(vision.detect, "cloth_taken_for_card", lambda card, covered: False)
    assert found()[0] < least, "the network alone finds them: the table no longer shows what it was chosen for"


def test_a_loose_outline_on_a_cloth_taken_for_card_gives_way_to_the_faces_paper(
    segmenter: CardSegmenter, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A textured table on checked cloth under a tilted camera: the network's outline of one card
    # reaches into the cloth (IoU about 0.56); the card's paper lies on its rim, and its outline wins.
    seed = 1_500_300_007
    cards, options = deal_hard(np.random.default_rng(seed), kind="textured")
    assert options.table == "checked-cloth"
    scene = render_scene(options.spec(cards, seed=seed, deck=f"holdout-{seed}"))
    whole = [t for t in scene.truth if not t.cut]

    def tight() -> int:
        outlines = find_cards(scene.image, segmenter=segmenter)
        return sum(max((quad_iou(t.corners, o.corners) for o in outlines), default=0.0) >= 0.9 for t in whole)

    assert tight() >= 1
    monkeypatch.setattr(vision.detect, "_tightened", lambda frame, found, faces: (found, faces))
    assert tight() == 0, "the network alone outlines the card tightly: the table no longer shows the fault"


def _gingham_with_card() -> tuple[np.ndarray, np.ndarray]:
    """A green-and-white checked cloth with one printed white card on it, and the card's corners."""
    yy, xx = np.mgrid[0:480, 0:640]
    checks = ((xx // 12) % 2) + ((yy // 12) % 2)
    frame = np.stack([np.choose(checks, [c0, c1, c2]) for c0, c1, c2 in ((90, 170, 235), (150, 205, 240),
                                                                         (90, 170, 235))], axis=-1)  # fmt: skip
    frame = frame.astype(np.uint8)
    card = np.array([[250.0, 140], [390, 140], [390, 336], [250, 336]])
    cv2.fillConvexPoly(frame, card.astype(np.int32), (245, 245, 245))
    cv2.putText(frame, "7", (262, 178), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (30, 30, 200), 2)
    cv2.circle(frame, (320, 238), 18, (30, 30, 200), -1)
    return frame, card


def test_tightened_takes_the_face_that_lies_on_the_rim_and_keeps_a_tight_outline() -> None:
    frame, card = _gingham_with_card()
    centre = card.mean(axis=0)
    loose = Outline((card - centre) * 1.25 + centre + [14, -6], partial=False, fit=0.9)
    face = Outline(card, partial=False, fit=0.9, face_only=True)
    found, left = vision.detect._tightened(frame, [loose], [face])
    assert [o.face_only for o in found] == [True] and np.allclose(found[0].corners, card) and not left
    # A tight outline is kept against a face outline lying inside the card (its sides on paper).
    tight = Outline(card, partial=False, fit=0.9)
    piece = Outline((card - centre) * 0.7 + centre, partial=False, fit=0.9, face_only=True)
    found, left = vision.detect._tightened(frame, [tight], [piece])
    assert found == [tight] and left == [piece]
