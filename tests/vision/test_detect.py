"""Detection and rectification on rendered frames with known truth."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest

import vision.detect
from table.cards import Card
from vision.detect import find_cards, quad_iou, refine
from vision.errors import FrameError
from vision.quads import holds_many
from vision.reader import CardReader
from vision.rectify import CARD_ASPECT, CROP_H, CROP_W, card_homography, index_crops, order_corners, rectify, thumbnails
from vision.render.scene import PlacedCard, SceneSpec, render_scene
from vision.render.scene_camera import View
from vision.segment import CardSegmenter, cores, instances, split_cores

FELTS = ("green-felt", "blue-felt", "red-felt", "black-cloth", "dark-wood", "grey-laminate")


def _row(seed: int, count: int = 4) -> tuple[PlacedCard, ...]:
    rng = np.random.default_rng(seed)
    ids = rng.choice(52, count, replace=False)
    cards = []
    for i, c in enumerate(ids):
        centre = (0.1 + 0.8 * (i + 0.5) / count, 0.5)
        angle = float(rng.uniform(-180, 180))
        cards.append(PlacedCard(str(Card.from_id(int(c))), bool(rng.random() < 0.7), centre, angle=angle, height=0.25))
    return tuple(cards)


@pytest.mark.parametrize("table", FELTS)
def test_every_card_apart_on_a_table_is_found_with_tight_corners(table: str) -> None:
    scene = render_scene(SceneSpec(cards=_row(len(table)), size=(960, 540), table=table, seed=len(table) + 40))
    outlines = find_cards(scene.image)
    assert len(outlines) == len(scene.truth)
    for truth in scene.truth:
        assert max(quad_iou(truth.corners, o.corners) for o in outlines) > 0.85


def test_an_empty_table_black_and_white_frames_have_no_cards() -> None:
    empty = render_scene(SceneSpec(cards=(), size=(640, 360), table="green-felt", seed=3)).image
    assert find_cards(empty) == []
    assert find_cards(np.zeros((360, 640, 3), np.uint8)) == []
    assert find_cards(np.full((360, 640, 3), 255, np.uint8)) == []


def test_refine_pulls_a_shifted_outline_back_onto_the_card() -> None:
    placed = PlacedCard("Qh", True, (0.5, 0.5), angle=20.0, height=0.6)
    scene = render_scene(SceneSpec(cards=(placed,), size=(640, 480), table="blue-felt", seed=2, clean=True))
    truth = scene.truth[0].corners
    shifted = truth + np.array([3.0, -2.0])
    gray = scene.image.mean(axis=2).astype(np.uint8)
    fixed = refine(gray, shifted[None], 6.0)[0]
    assert np.abs(fixed - truth).max() < 1.5 < np.abs(shifted - truth).max()


def test_order_corners_starts_at_an_upright_top_left_and_goes_clockwise() -> None:
    # A landscape card: the long side is horizontal, so "upright" turns it a quarter.
    landscape = np.array([[10, 10], [110, 10], [110, 80], [10, 80]], float)
    ordered = order_corners(landscape[[2, 0, 3, 1]])
    sides = np.linalg.norm(ordered - np.roll(ordered, -1, axis=0), axis=1)
    assert sides[0] < sides[1]  # top side is a short side
    (ax, ay), (bx, by) = ordered[1] - ordered[0], ordered[2] - ordered[1]
    cross = ax * by - ay * bx
    assert cross > 0  # clockwise on screen (y down)
    with pytest.raises(FrameError, match="4 finite"):
        order_corners(np.zeros((3, 2)))


def test_index_crops_show_the_index_upright_in_both_corners() -> None:
    placed = PlacedCard("8s", True, (0.5, 0.5), angle=137.0, height=0.8)
    scene = render_scene(SceneSpec(cards=(placed,), size=(480, 480), table="green-felt", seed=1, clean=True))
    corners = order_corners(scene.truth[0].corners)
    crops = index_crops(scene.image, [corners])
    assert crops.shape == (2, CROP_H, CROP_W, 3)
    # The two index corners of a card are the same picture turned half round: upright, they match.
    a, b = (cv2.resize(c, (4, 8), interpolation=cv2.INTER_AREA).astype(float) for c in crops)
    assert np.abs(a - b).mean() < 20
    # Ink (dark) sits in the top part of the crop (rank) and the paper fills the rest.
    dark = crops[0].mean(axis=2) < 100
    assert dark[: CROP_H // 2].sum() > dark[CROP_H // 2 :].sum()
    assert thumbnails(scene.image, [corners]).shape[0] == 1


def _straightened(card: str, angle: float) -> tuple[np.ndarray, np.ndarray]:
    placed = PlacedCard(card, True, (0.5, 0.5), angle=angle, height=0.7)
    scene = render_scene(SceneSpec(cards=(placed,), size=(400, 400), seed=9, clean=True))
    return scene.truth[0].corners, rectify(scene.image, scene.truth[0].corners, height=200)


def test_rectify_straightens_a_card_to_portrait() -> None:
    corners, card = _straightened("Kd", 75.0)
    assert card.shape == (200, round(200 * 63 / 88), 3)
    ordered = order_corners(corners)
    unit = np.array([[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], np.float64)
    mapped = (card_homography(ordered) @ unit.T).T
    assert np.abs(mapped[:, :2] / mapped[:, 2:] - ordered).max() < 1.0  # unit corners land on the card's
    # The warp shows the card itself: the same card laid upright straightens to the same picture,
    # while another card does not.
    _, upright = _straightened("Kd", 0.0)
    _, other = _straightened("3c", 0.0)
    assert np.abs(card.astype(float) - upright).mean() < 8
    assert np.abs(other.astype(float) - upright).mean() > 25


@pytest.fixture(scope="module")
def segmenter() -> CardSegmenter:
    found = CardReader.default().segmenter
    assert found is not None, "models/detector.onnx is missing"
    return found


@pytest.mark.parametrize(("card", "seed"), [("Kh", 3), ("9h", 6)])
def test_a_card_filling_most_of_a_portrait_frame_is_one_outline(segmenter: CardSegmenter, card: str,
                                                                 seed: int) -> None:  # fmt: skip
    # 0.75 of a 960×1280 frame: about 320 pixels tall in the first look, eight times the trained size,
    # where the network sees its pips and pictures as cards of their own. Not solved for every deck:
    # of the 9h in hold-out decks 0-15, 8 come out as one outline with the package fonts, 8 with the
    # system fonts of docs/system-fonts.txt, 6 with both; these two are one outline with each.
    placed = PlacedCard(card, True, (0.5, 0.5), angle=float(5 * seed - 10), height=0.75)
    scene = render_scene(SceneSpec(cards=(placed,), size=(960, 1280), seed=seed, deck=f"holdout-{seed}"))
    outlines = find_cards(scene.image, segmenter=segmenter)
    assert len(outlines) == 1
    assert quad_iou(scene.truth[0].corners, outlines[0].corners) >= 0.9


def _grid(seed: int, gap: float) -> SceneSpec:
    """All 52 cards in 4 rows of 13 at 1280×720, each 110 pixels tall, ``gap`` pixels apart."""
    height = 110.0
    width = height * CARD_ASPECT
    cards = tuple(PlacedCard(str(Card.from_id(row * 13 + col)), True,
                             ((640 + (col - 6) * (width + gap)) / 1280, (360 + (row - 1.5) * (height + gap)) / 720),
                             height=height / 720)
                  for row in range(4) for col in range(13))  # fmt: skip
    return SceneSpec(cards=cards, size=(1280, 720), seed=seed, deck=f"holdout-{seed}")


_PACKED_GRID = pytest.mark.xfail(
    strict=False,
    reason="packed grids (cards 27-30 px tall in the first look) run together for most decks, whichever the fonts: "
           "of the 1280x720 grid's 16 seeds with both gaps, 9 of 32 pass with the package fonts and 10 with the "
           "Debian fonts; not yet split",
)  # fmt: skip


@_PACKED_GRID
@pytest.mark.parametrize(("seed", "gap"), [(1, 1.0), (2, 0.0)])
def test_a_grid_of_small_touching_cards_splits_card_by_card(segmenter: CardSegmenter, seed: int, gap: float) -> None:
    # About 27 pixels tall in the first look: the rows run together there into one patch.
    scene = render_scene(_grid(seed, gap))
    outlines = find_cards(scene.image, segmenter=segmenter)
    assert 48 <= len(outlines) <= 54
    matched = [max(quad_iou(t.corners, o.corners) for o in outlines) for t in scene.truth]
    assert sum(iou >= 0.85 for iou in matched) >= 44
    for outline in outlines:  # no outline spans several cards
        assert max(quad_iou(t.corners, outline.corners) for t in scene.truth) >= 0.5


@pytest.mark.parametrize(("seed", "table"), [(40, "green-felt"), (41, "grey-laminate"), (43, "dark-wood")])
def test_a_large_card_and_small_ones_in_one_frame_are_each_one_outline(segmenter: CardSegmenter, seed: int,
                                                                       table: str) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    names = [str(Card.from_id(int(c))) for c in rng.choice(52, 5, replace=False)]
    small = [PlacedCard(name, True, (0.6 + 0.1 * k, 0.5 + 0.2 * (k % 2)), angle=-6.0 + 4 * k, height=0.08)
             for k, name in enumerate(names[1:])]  # fmt: skip
    cards = (PlacedCard(names[0], True, (0.3, 0.5), angle=4.0, height=0.9), *small)
    scene = render_scene(SceneSpec(cards=cards, size=(1280, 720), seed=seed, deck=f"holdout-{seed}", table=table))
    outlines = find_cards(scene.image, segmenter=segmenter)
    assert len(outlines) == len(scene.truth)
    for truth in scene.truth:
        assert max(quad_iou(truth.corners, o.corners) for o in outlines) >= 0.85


def test_no_outline_covers_most_of_the_frame(segmenter: CardSegmenter, monkeypatch: pytest.MonkeyPatch) -> None:
    # A look far away, padded with the table's colour, can keep the whole picture (a striped cloth)
    # as one card among table: no card covers 60 % of the frame, so that one is dropped.
    spec = SceneSpec(cards=(PlacedCard("7d", True, (0.3, 0.5), height=0.4),), size=(1280, 720), seed=3,
                     deck="holdout-3", table="green-felt")  # fmt: skip
    scene = render_scene(spec)
    whole = np.array([[4.0, 4.0], [1275.0, 4.0], [1275.0, 715.0], [4.0, 715.0]])
    card = scene.truth[0].corners

    def looked(*args: object, **kwargs: object) -> list[tuple[np.ndarray, float, bool, float]]:
        return [(whole.copy(), 0.99, False, 0.05), (card.copy(), 0.95, False, 0.25)]

    monkeypatch.setattr(vision.detect, "_look", looked)
    outlines = find_cards(scene.image, segmenter=segmenter)
    assert len(outlines) == 1 and quad_iou(outlines[0].corners, card) > 0.9


@pytest.mark.parametrize("seed", [50, 51, 52])
def test_a_near_card_far_larger_than_the_far_ones_under_a_tilted_camera_is_found(segmenter: CardSegmenter,
                                                                                 seed: int) -> None:  # fmt: skip
    # A camera tilted 30° with a wide lens: one card near it 0.33 of the frame high, eight far
    # ones 0.06-0.08. In the first look the near card is the size the network learned, yet some
    # six times the others' height: taken alone, it is one card, not several run together.
    rng = np.random.default_rng(seed)
    names = [str(Card.from_id(int(c))) for c in rng.choice(52, 9, replace=False)]
    far = [PlacedCard(name, True, (0.1 + 0.1 * k, 0.2 + 0.12 * (k % 2)), angle=float(rng.uniform(-30, 30)),
                      height=float(rng.uniform(0.06, 0.08))) for k, name in enumerate(names[1:])]  # fmt: skip
    cards = (PlacedCard(names[0], True, (0.45, 0.68), angle=5.0, height=0.33), *far)
    view = View(tilt=30, azimuth=float(rng.uniform(-20, 20)), fov=70)
    spec = SceneSpec(cards=cards, size=(1920, 1080), seed=seed, deck=f"holdout-{seed}", camera=view, table="oak-rings")
    scene = render_scene(spec)
    outlines = find_cards(scene.image, segmenter=segmenter)
    near = scene.truth[0].corners
    assert max(quad_iou(near, o.corners) for o in outlines) >= 0.85
    found = sum(max(quad_iou(t.corners, o.corners) for o in outlines) >= 0.7 for t in scene.truth)
    assert found >= 8


def test_cards_of_the_trained_size_are_found_by_the_first_look_alone(
    segmenter: CardSegmenter, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A 1280×720 table of 12 cards 0.19-0.25 of its height: what the network learned. Looking again
    # changes nothing there: the outlines are those of the first look, corner for corner.
    rng = np.random.default_rng(7)
    ids = rng.choice(52, 12, replace=False)
    cards = tuple(PlacedCard(str(Card.from_id(int(c))), bool(rng.random() < 0.8),
                             (0.1 + 0.8 * (i % 6 + 0.5) / 6, 0.3 + 0.4 * (i // 6)),
                             angle=float(rng.uniform(-40, 40)), height=float(rng.uniform(0.19, 0.25)))
                  for i, c in enumerate(ids))  # fmt: skip
    for seed in (7, 8):
        image = render_scene(SceneSpec(cards=cards, size=(1280, 720), seed=seed, deck=f"holdout-{seed}")).image
        full = find_cards(image, segmenter=segmenter)
        with monkeypatch.context() as patch:
            patch.setattr(vision.detect, "_LOOKS_DEEP", 0)
            first = find_cards(image, segmenter=segmenter)
        assert len(full) == len(first) == 12
        for a, b in zip(full, first, strict=True):
            assert np.array_equal(a.corners, b.corners)


@pytest.mark.parametrize("table", ["green-felt", "dark-wood", "grey-laminate"])
def test_cards_40_pixels_tall_in_a_2304_wide_frame_are_found(segmenter: CardSegmenter, table: str) -> None:
    # About 5.5 pixels tall in the first look: too small to be sure of there, looked at closer.
    rng = np.random.default_rng(40)
    ids = rng.choice(52, 6, replace=False)
    cards = tuple(PlacedCard(str(Card.from_id(int(c))), True, (0.15 + 0.14 * i, 0.3 + 0.4 * (i % 2)),
                             angle=float(rng.uniform(-90, 90)), height=40 / 1296)
                  for i, c in enumerate(ids))  # fmt: skip
    scene = render_scene(SceneSpec(cards=cards, size=(2304, 1296), seed=40, table=table, deck="holdout-40"))
    outlines = find_cards(scene.image, segmenter=segmenter)
    # A card the first look shows no pixels of (a pale one on a pale table) is still missed.
    found = [max((quad_iou(truth.corners, o.corners) for o in outlines), default=0.0) for truth in scene.truth]
    assert sum(iou >= 0.85 for iou in found) >= 5
    for outline in outlines:  # each outline on one card
        assert max(quad_iou(t.corners, outline.corners) for t in scene.truth) >= 0.85


def _turned_grid(seed: int, turn: float, table: str) -> SceneSpec:
    """All 52 cards in 4 rows of 13 touching without a gap, 180 pixels tall in a 1920×1080 frame,
    the grid turned ``turn`` degrees."""
    height, t = 180.0, np.radians(turn)
    cards = []
    for row in range(4):
        for col in range(13):
            dx, dy = (col - 6) * height * CARD_ASPECT, (row - 1.5) * height
            x, y = 960 + dx * np.cos(t) - dy * np.sin(t), 540 + dx * np.sin(t) + dy * np.cos(t)
            cards.append(PlacedCard(str(Card.from_id(row * 13 + col)), True, (x / 1920, y / 1080), angle=-turn,
                                    height=height / 1080))  # fmt: skip
    return SceneSpec(cards=tuple(cards), size=(1920, 1080), seed=seed, deck=f"holdout-{seed}", table=table)


@_PACKED_GRID
@pytest.mark.parametrize(("seed", "turn", "table"), [(4, -4.0, "dark-wood"), (5, 2.0, "grey-laminate")])
def test_a_gapless_turned_grid_of_52_cards_splits_card_by_card(segmenter: CardSegmenter, seed: int, turn: float,
                                                               table: str) -> None:  # fmt: skip
    # About 30 pixels tall in the first look, where the cores of the cards run together into blocks.
    scene = render_scene(_turned_grid(seed, turn, table))
    outlines = find_cards(scene.image, segmenter=segmenter)
    matched = [max(quad_iou(t.corners, o.corners) for o in outlines) for t in scene.truth]
    assert sum(iou >= 0.5 for iou in matched) >= 45
    for outline in outlines:  # no outline spans several cards
        assert max(quad_iou(t.corners, outline.corners) for t in scene.truth) >= 0.5


@pytest.mark.xfail(strict=True, reason="a large card and small ones touching it run together into one card-shaped "
                   "outline that explains their patch; not yet split")
@pytest.mark.parametrize(("seed", "table"), [(50, "green-felt"), (51, "grey-laminate")])
def test_small_cards_touching_a_large_one_are_each_one_outline(segmenter: CardSegmenter, seed: int,
                                                               table: str) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    names = [str(Card.from_id(int(c))) for c in rng.choice(52, 4, replace=False)]
    big = PlacedCard(names[0], True, (0.35, 0.5), height=0.6)
    # Along the large card's right side (0.6 × 720 × 0.714 / 2 ≈ 154 pixels from its centre), touching it.
    edge = 0.35 + 0.6 * 720 * CARD_ASPECT / 2 / 1280
    small = tuple(PlacedCard(name, True, (edge + 0.1 * 720 * CARD_ASPECT / 2 / 1280, 0.3 + 0.2 * k), height=0.1)
                  for k, name in enumerate(names[1:]))  # fmt: skip
    scene = render_scene(SceneSpec(cards=(big, *small), size=(1280, 720), seed=seed, deck=f"holdout-{seed}",
                                   table=table))  # fmt: skip
    outlines = find_cards(scene.image, segmenter=segmenter)
    assert len(outlines) == len(scene.truth)
    for truth in scene.truth:
        assert max(quad_iou(truth.corners, o.corners) for o in outlines) >= 0.85


def test_cores_run_together_are_split_where_the_network_is_surer_only_when_asked() -> None:
    # Two cards' cores joined by a bridge the network is fairly (0.45), not very, sure of.
    card = np.zeros((60, 100), np.float32)
    card[10:50, 10:90] = 1.0
    core = np.zeros_like(card)
    core[18:42, 18:46] = 0.95
    core[18:42, 54:82] = 0.95
    core[18:42, 46:54] = 0.45
    assert len(instances(card, core, min_area=50)) == 1
    assert len(instances(card, core, min_area=50, split=True)) == 2


def test_quads_of_several_reaches_refine_in_one_pass_as_each_would_alone() -> None:
    """refine with a reach per quad moves every quad exactly as refining it alone with its reach does."""
    scene = render_scene(SceneSpec(cards=_row(5), size=(960, 540), table="blue-felt", seed=4))
    gray = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    rng = np.random.default_rng(3)
    rough = np.stack([t.corners + rng.uniform(-5, 5, (4, 2)) for t in scene.truth])
    reach = np.array([4.0, 9.5, 18.0, 6.25])
    together = refine(gray, rough, reach)
    alone = np.stack([refine(gray, q[None], float(r))[0] for q, r in zip(rough, reach, strict=True)])
    assert np.array_equal(together, alone)
    assert not np.array_equal(together, rough)  # the quads did move onto their rims


def test_holds_many_agrees_with_point_polygon_test() -> None:
    """holds_many answers for every pair what cv2.pointPolygonTest answers for one, on the rim too."""
    rng = np.random.default_rng(0)
    answers = set()
    for trial in range(400):
        outer = rng.uniform(0, 20, (rng.integers(1, 5), 4, 2))
        inner = rng.uniform(0, 20, (rng.integers(1, 5), 4, 2))
        if trial % 2:
            outer, inner = np.round(outer), np.round(inner)
        if trial % 5 == 0:  # a centre on a corner or a side
            inner[0] = outer[0][[1, 2, 3, 0]] if trial % 10 else np.repeat(outer[0][:2].mean(axis=0)[None], 4, axis=0)
        got = holds_many(outer, inner)
        for m, o in enumerate(outer):
            for n, q in enumerate(inner):
                test = cv2.pointPolygonTest(o.astype(np.float32), tuple(float(v) for v in q.mean(axis=0)), False)
                assert got[m, n] == (test >= 0)
                answers.add(test)
    assert answers == {-1.0, 0.0, 1.0}


def test_looks_shared_with_the_worker_give_the_outlines_of_looks_made_one_by_one(
    segmenter: CardSegmenter, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Small cards apart (each patch looked at closer) and a row of them touching (looked at again,
    # and looked again inside that look): several looks, some of them nested.
    rng = np.random.default_rng(7)
    ids = iter(int(c) for c in rng.choice(52, 11, replace=False))
    apart = [PlacedCard(str(Card.from_id(next(ids))), True, (0.12 + 0.15 * i, 0.25 + 0.5 * (i % 2)),
                        angle=float(rng.uniform(-90, 90)), height=60 / 1296) for i in range(6)]  # fmt: skip
    row = [PlacedCard(str(Card.from_id(next(ids))), True, (0.4 + 0.03 * i, 0.5), angle=float(rng.uniform(-3, 3)),
                      height=90 / 1296) for i in range(5)]  # fmt: skip
    scene = render_scene(SceneSpec(cards=tuple(apart + row), size=(2304, 1296), seed=11, table="green-felt"))
    where: list[str] = []
    labelled: list[str] = []  # where each look's patches of card pixels were labelled
    look, patches = vision.detect._look, vision.detect.patches

    slow_here = threading.Event()  # set: this thread's looks take a little longer, so the worker begins some

    def recorded(*args: object, **kwargs: object) -> object:
        where.append(threading.current_thread().name)
        if slow_here.is_set() and threading.current_thread() is threading.main_thread():
            time.sleep(0.05)
        return look(*args, **kwargs)  # type: ignore[arg-type]

    def recorded_patches(*args: object) -> object:
        labelled.append(threading.current_thread().name)
        return patches(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(vision.detect, "_look", recorded)
    monkeypatch.setattr(vision.detect, "patches", recorded_patches)
    one_by_one = find_cards(scene.image, segmenter=segmenter, ahead=False)
    assert len(where) >= 6 and set(where + labelled) == {threading.current_thread().name}
    # The worker makes some looks: it is idle when the first look's patches are planned, and this
    # thread makes the last one first. (Where a loaded machine keeps the worker from its core that
    # long, each look it has not begun is made here: another try.)
    slow_here.set()
    for _ in range(5):
        where.clear()
        labelled.clear()
        ahead = find_cards(scene.image, segmenter=segmenter, ahead=True)
        if all(any(name.startswith("tocktable-looks") for name in names) for names in (where, labelled)):
            break
    assert len(where) >= 6 and any(name.startswith("tocktable-looks") for name in where)
    assert labelled and any(name.startswith("tocktable-looks") for name in labelled)
    slow_here.clear()
    # The worker kept busy: every look it has not begun is made on this thread instead.
    release = threading.Event()
    busy = vision.detect._Ahead.pool().submit(release.wait, 30)
    where.clear()
    labelled.clear()
    try:
        instead = find_cards(scene.image, segmenter=segmenter, ahead=True)
    finally:
        release.set()
    assert busy.result()
    assert len(where) >= 6 and set(where + labelled) == {threading.current_thread().name}
    for outlines in (ahead, instead):
        assert len(outlines) == len(one_by_one) >= 8
        for a, b in zip(outlines, one_by_one, strict=True):
            assert np.array_equal(a.corners, b.corners) and a.partial == b.partial and a.fit == b.fit


def test_cores_that_do_not_split_give_the_instances_made_without_splitting() -> None:
    """split_cores keeps the count of cores that do not split (the detector then skips making the
    split instances: they are the ones it has), and raises it for cores that do."""
    card = np.zeros((60, 100), np.float32)
    card[10:50, 10:90] = 1.0
    core = np.zeros_like(card)
    core[18:42, 18:46] = 0.95
    core[18:42, 54:82] = 0.95
    apart = core.copy()  # two cards' cores, apart
    core[18:42, 46:54] = 0.45  # joined by a bridge the network is only fairly sure of
    for joined, count in ((apart, 3), (core, 2)):  # (labels counted with the background's)
        plain = cores(joined, min_area=50)
        assert plain[0] == count
        parted = split_cores(joined, plain, min_area=50)
        assert (parted[0] == plain[0]) == (joined is apart)
        alone = instances(card, joined, min_area=50)
        split = instances(card, joined, min_area=50, split=True)
        assert len(instances(card, joined, min_area=50, split=True, found=parted)) == len(split) == 2
        if joined is apart:  # nothing split: the same instances
            assert all(a.x == b.x and a.y == b.y and np.array_equal(a.mask, b.mask)
                       for a, b in zip(alone, split, strict=True))  # fmt: skip
        else:
            assert len(alone) == 1
