"""The detector's training tables (vision.train.seg_data): the ordinary streams, the looks at hard
tables taken as the detector takes them, and what the shipped detector learned from the face-down
rows among them."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.mark_reader import PLAIN
from vision.reader import MODELS_DIR, CardReader
from vision.render.scene import BACKS, TABLES, PlacedCard, SceneSpec, deal_rows, render_scene
from vision.render.scene_layouts import deal_hard
from vision.scale import FAR_HEIGHT, MIN_LOOK
from vision.segment import OUT_SCALE
from vision.train.seg_data import (
    LOOKS_PER_SCENE,
    PALE_TABLES,
    WORK_WIDTH,
    HardTable,
    choose_look,
    down_rows,
    hard_sample,
    hard_table,
    is_hard,
    sample,
    take_look,
)


def test_rows_zero_renders_the_tables_it_did_before() -> None:
    a, b = sample(11, 0.6), sample(11, 0.6, 0.0)
    assert np.array_equal(a.image, b.image) and np.array_equal(a.target, b.target)


def test_face_down_rows_are_mostly_backs_on_light_tables() -> None:
    rng = np.random.default_rng(3)
    backs: Counter[str] = Counter()
    tables: Counter[str] = Counter()
    face_up = cards = 0
    for _ in range(200):
        placed, table = down_rows(rng)
        assert 6 <= len(placed) <= 14 and table in TABLES
        tables[table] += 1
        for card in placed:
            cards += 1
            face_up += card.face_up
            backs[card.back] += 1
            assert card.back in BACKS
    assert face_up / cards < 0.2
    assert 0.5 < backs["tock"] / cards < 0.7 and backs[PLAIN] > 0 and len(backs) > 3
    assert sum(tables[t] for t in PALE_TABLES) / 200 > 0.6


def test_a_rows_sample_is_a_16_by_9_table_with_cards_in_its_targets() -> None:
    s = sample(4, 0.6, 1.0)
    assert s.image.shape == (180, 320, 3)
    assert s.target.shape == (2, 90, 160) and 0.03 < float(s.target[0].mean()) < 0.5
    assert float(s.target[1].max()) == 1.0 and (s.target[1] <= s.target[0] + 1e-6).all()


@pytest.fixture(scope="module")
def reader() -> CardReader:
    if not (MODELS_DIR / "detector.onnx").is_file():
        pytest.skip("no shipped detector")
    return CardReader(MODELS_DIR)


def test_face_down_rows_on_a_white_cloth_are_all_found_and_never_read_wrong(reader: CardReader) -> None:
    """Rows of Tock backs on a white cloth (where a lamp's glare on the cloth looked like a card
    to the base detector): every card found, every mark the card reader reports right or unsure."""
    rng = np.random.default_rng(29)
    found = cards = right = 0
    for k in range(4):
        number = 29_000 + k
        placed = tuple(PlacedCard(c.card, False, c.center, angle=c.angle, height=c.height, back="tock")
                       for c in deal_rows(rng))  # fmt: skip
        scene = render_scene(SceneSpec(cards=placed, seed=number, deck=f"holdout-{number}", table="white-cloth"))
        seen = reader.read(scene.image)
        for truth in scene.truth:
            cards += 1
            centre = truth.corners.mean(axis=0)
            hits = [i for i, c in enumerate(seen.corners) if np.linalg.norm(c.mean(axis=0) - centre) < 20]
            if not hits:
                continue
            found += 1
            mark = seen[hits[0]].mark
            assert mark in (truth.mark, None), (number, truth.mark, mark)
            right += mark == truth.mark
    assert found == cards == 48, (found, cards)
    assert right >= 46, right


# --- hard tables, at the scales the detector looks at them ---------------------------------------


def test_no_hard_share_renders_the_samples_it_did_before() -> None:
    for seed in (11, 12):
        a, b = sample(seed, 0.6, 0.5), sample(seed, 0.6, 0.5, 0.0)
        assert np.array_equal(a.image, b.image) and np.array_equal(a.target, b.target)


def test_samples_not_drawn_hard_are_the_ordinary_ones() -> None:
    seeds = [s for s in range(30, 60) if not is_hard(s, 0.5)]
    assert 5 < len(seeds) < 25
    for seed in seeds[:2]:
        a, b = sample(seed, 0.6, 0.25), sample(seed, 0.6, 0.25, 0.5)
        assert np.array_equal(a.image, b.image) and np.array_equal(a.target, b.target)


def test_a_group_of_seeds_is_hard_or_not_together_and_the_share_holds() -> None:
    groups = [[is_hard(g * LOOKS_PER_SCENE + k, 0.4) for k in range(LOOKS_PER_SCENE)] for g in range(300)]
    assert all(len(set(g)) == 1 for g in groups)
    assert 0.3 < sum(g[0] for g in groups) / 300 < 0.5


def _table(spec: SceneSpec, kind: str = "mixed") -> HardTable:
    scene = render_scene(spec)
    return HardTable(scene.image, tuple(t.corners for t in scene.truth), tuple(t.cut for t in scene.truth), kind)


def _blobs(card_map: np.ndarray) -> list[float]:
    """Long sides (output pixels) of the card-shaped blobs in a target's card map."""
    count, labels = cv2.connectedComponents((card_map > 0.5).astype(np.uint8))
    return [max(cv2.minAreaRect(np.argwhere(labels == k)[:, ::-1].astype(np.float32))[1]) for k in range(1, count)]


def test_things_beside_the_cards_are_table_in_the_targets() -> None:
    cards = (PlacedCard("Ah", True, (0.3, 0.5), angle=10, height=0.2), PlacedCard("Kd", False, (0.7, 0.4), height=0.2))
    clutter = ("index-card", "paper", "phone", "keyboard", "note")
    plain = SceneSpec(cards=cards, size=(1280, 720), seed=5, deck="train-5", table="oak-planks", clean=True)
    busy = replace(plain, clutter=clutter)
    table = _table(busy)
    look = take_look(table.image, table.outlines, (0, 0, 1280, 720), 0.25)
    assert look.image.shape == (180, 320, 3) and look.target.shape == (2, 90, 160)
    # The clutter's pixels: where the cluttered table differs from the plain one.
    moved = np.abs(render_scene(busy).image.astype(int) - render_scene(plain).image.astype(int)).max(axis=2) > 40
    small = cv2.resize(moved.astype(np.float32), (160, 90), interpolation=cv2.INTER_AREA) > 0.9
    assert small.sum() > 100  # there is clutter to see
    assert float(look.target[0][small].max()) == 0.0
    # The cards are card, exactly: two blobs, each 0.2 of 720 pixels tall at 1/8 (output) scale.
    assert [abs(h - 0.2 * 720 / 8) < 1.5 for h in _blobs(look.target[0])] == [True, True]


def test_a_large_card_is_looked_at_about_far_height() -> None:
    spec = SceneSpec(cards=(PlacedCard("Qs", True, (0.5, 0.5), angle=20, height=0.6),), size=(1920, 1080), seed=8,
                     deck="train-8", table="checked-cloth")  # fmt: skip
    table = _table(spec, "large")
    for k in range(5):
        box, scale = choose_look(table, np.random.default_rng(k), "large")
        assert 0.74 * FAR_HEIGHT <= scale * 0.6 * 1080 <= 1.31 * FAR_HEIGHT
        look = take_look(table.image, table.outlines, box, scale)
        area = cv2.contourArea(table.outlines[0].astype(np.float32)) * scale**2
        assert abs(float(look.target[0].sum()) * OUT_SCALE**2 - area) < 0.04 * area
        assert min(look.image.shape[:2]) >= MIN_LOOK


def test_a_near_look_shows_its_card_36_to_70_pixels_tall_unless_that_enlarges_it() -> None:
    cards = (PlacedCard("2c", True, (0.3, 0.5), height=0.12), PlacedCard("7h", True, (0.7, 0.5), height=0.03))
    table = _table(SceneSpec(cards=cards, size=(2304, 1296), seed=9, deck="train-9", table="paisley-cloth"))
    heights = [max(cv2.minAreaRect(o.astype(np.float32))[1]) for o in table.outlines]  # about 156 and 39
    seen = set()
    for k in range(12):
        box, scale = choose_look(table, np.random.default_rng(k), "near")
        look = take_look(table.image, table.outlines, box, scale)
        x0, y0, x1, y1 = box
        assert look.image.shape[:2] == (
            max(round((y1 - y0) * scale), MIN_LOOK),
            max(round((x1 - x0) * scale), MIN_LOOK),
        )
        # The cards lie far apart: a near look shows one of them, at the height it asked for or,
        # where that would enlarge the frame, at the frame's own pixels.
        (which,) = [i for i, o in enumerate(table.outlines) if x0 <= o.mean(axis=0)[0] < x1]
        seen.add(which)
        tall = scale * heights[which]
        assert 36 <= tall <= 70 or (scale == 1.0 and tall < 70)
        # The target shows the card at that scale: its area is the outline's, scaled.
        area = cv2.contourArea(table.outlines[which].astype(np.float32)) * scale**2
        assert abs(float(look.target[0].sum()) * OUT_SCALE**2 - area) < 0.04 * area
    assert seen == {0, 1}


def test_a_dense_grid_is_looked_at_about_twice_as_closely() -> None:
    cards, options = deal_hard(np.random.default_rng(3), kind="grid")
    table = _table(options.spec(cards, seed=3, deck="train-3"), "grid")
    first = WORK_WIDTH / table.image.shape[1]
    box, scale = choose_look(table, np.random.default_rng(1), "grid")
    assert 1.8 * first <= scale <= 3.0 * first
    look = take_look(table.image, table.outlines, box, scale)
    tall = np.median([max(cv2.minAreaRect(o.astype(np.float32))[1]) for o in table.outlines]) * scale
    assert 40 <= tall <= 100
    assert float(look.target[0].mean()) > 0.3 and float(look.target[1].max()) == 1.0


def test_a_tiny_look_is_padded_with_table_as_the_detector_pads_it() -> None:
    table = _table(SceneSpec(cards=(PlacedCard("9d", True, (0.5, 0.5), height=0.1),), size=(1280, 720), seed=4,
                             deck="train-4", table="dark-cloth"))  # fmt: skip
    look = take_look(table.image, table.outlines, (600, 300, 680, 420), 0.5)
    assert look.image.shape[:2] == (MIN_LOOK, MIN_LOOK)
    assert look.target.shape == (2, MIN_LOOK // OUT_SCALE, MIN_LOOK // OUT_SCALE)
    assert float(look.target[0, :, 20:].max()) == 0.0 and float(look.target[0, :, :20].max()) == 1.0


def test_hard_samples_are_deterministic_and_of_every_look() -> None:
    kinds = set()
    for seed in range(0, 4 * LOOKS_PER_SCENE):
        a = hard_sample(seed)
        assert a.target.shape == (2, -(-a.image.shape[0] // OUT_SCALE), -(-a.image.shape[1] // OUT_SCALE))
        assert min(a.image.shape[:2]) >= MIN_LOOK
        assert (a.target[1] <= a.target[0] + 1e-6).all() and float(a.target.min()) >= 0.0
        if seed % LOOKS_PER_SCENE == 0:
            assert a.image.shape[1] == WORK_WIDTH
        kinds.add(hard_table(seed // LOOKS_PER_SCENE).kind)
    hard_table.cache_clear()
    b = hard_sample(7)
    assert np.array_equal(b.image, hard_sample(7).image)
    assert len(kinds) >= 2


def test_beyond_the_table_shrinks_the_table_and_its_cards_into_a_floor_that_is_no_card() -> None:
    from vision.train.seg_data import BEYOND_SHRINK, beyond_table

    s = sample(11, 0.6)
    image, target = beyond_table(s.image, s.target, np.random.default_rng(3))
    assert image.shape == s.image.shape and image.dtype == np.uint8 and target.shape == s.target.shape
    # The cards keep their share of the table: the card pixels shrink with it, by the square of the shrink.
    before, after = float(s.target[0].sum()), float(target[0].sum())
    assert BEYOND_SHRINK[0] ** 2 * 0.7 * before < after < BEYOND_SHRINK[1] ** 2 * 1.3 * before
    # The floor is table in the targets, and the frame's border is floor (the table lies inside).
    edge = np.concatenate([target[:, 0], target[:, -1], target[:, :, 0], target[:, :, -1]], axis=1)
    assert edge.max() == 0.0
    # Card pixels in the targets still show card-coloured (light) pixels of the image.
    big = cv2.resize(target[0], (image.shape[1], image.shape[0]), interpolation=cv2.INTER_NEAREST) > 0.99
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert big.any() and float(grey[big].mean()) > float(grey[~big].mean())


def test_beyond_zero_leaves_the_training_batches_as_they_were() -> None:
    pytest.importorskip("torch", reason="the trainer needs the train extra (torch)")
    from vision.train.seg_train import _batch

    data = [(sample(k, 0.6).image, sample(k, 0.6).target) for k in (11, 12)]
    a = _batch(data, np.random.default_rng(5), 4)
    b = _batch(data, np.random.default_rng(5), 4, 0.0)
    assert all(np.array_equal(x.numpy(), y.numpy()) for x, y in zip(a, b, strict=True))
    c = _batch(data, np.random.default_rng(5), 4, 1.0)
    assert not np.array_equal(a[0].numpy(), c[0].numpy())


def _maps(height: int, width: int, boxes: list[tuple[int, int, int, int]]) -> np.ndarray:
    """Card and core maps (2, height, width) with a core in each box (x0, y0, x1, y1) and its card around it."""
    target = np.zeros((2, height, width), np.float32)
    for x0, y0, x1, y1 in boxes:
        target[0, max(y0 - 2, 0) : y1 + 2, max(x0 - 2, 0) : x1 + 2] = 1.0
        target[1, y0:y1, x0:x1] = 1.0
    return target


def test_the_tallest_core_is_the_tallest_single_card_not_a_row_of_them() -> None:
    from vision.train.seg_data import tallest_core

    assert tallest_core(_maps(90, 160, [])) == 0.0
    assert tallest_core(_maps(90, 160, [(20, 10, 60, 73)])) == pytest.approx(63 / 90)
    # Eight cards side by side, their cores apart: as tall as one of them, however wide the row.
    row = [(5 + 19 * k, 30, 19 * k + 20, 48) for k in range(8)]
    assert tallest_core(_maps(90, 160, row)) == pytest.approx(18 / 90)


def test_close_frames_are_whole_frames_with_a_large_card() -> None:
    pytest.importorskip("torch", reason="the trainer needs the train extra (torch)")
    from vision.train.seg_data import CLOSE_HEIGHT
    from vision.train.seg_train import close_frames

    rng = np.random.default_rng(0)
    image = rng.integers(0, 255, (180, WORK_WIDTH, 3), dtype=np.uint8)
    tall = round(90 * CLOSE_HEIGHT) + 4
    data = [
        (image, _maps(90, 160, [(40, 5, 90, 5 + tall)])),  # a close card
        (image, _maps(90, 160, [(40, 5, 60, 20), (70, 5, 90, 20)])),  # two small cards
        (image[:64, :64], _maps(32, 32, [(2, 2, 30, 30)])),  # a second look at a large card, not a whole frame
        (image, _maps(90, 160, [(10, 10, 150, 10 + tall - 8)])),  # a wide card lying down, short in the frame
    ]
    assert close_frames(data) == [0]


def test_close_share_draws_the_batch_from_close_frames_shown_as_they_are() -> None:
    pytest.importorskip("torch", reason="the trainer needs the train extra (torch)")
    from vision.train.seg_train import _batch

    rng = np.random.default_rng(1)
    image = rng.integers(0, 255, (180, WORK_WIDTH, 3), dtype=np.uint8)
    close = (image, _maps(90, 160, [(0, 0, 160, 90)]))  # card everywhere
    plain = (image, np.zeros((2, 90, 160), np.float32))  # no card
    data = [close, plain]
    before = _batch(data, np.random.default_rng(5), 6)
    same = _batch(data, np.random.default_rng(5), 6, 0.0, 0.0, [0])
    assert all(np.array_equal(x.numpy(), y.numpy()) for x, y in zip(before, same, strict=True))
    # Every crop from the close frame, and none shown beyond the table (a floor would be no card).
    _, y = _batch(data, np.random.default_rng(5), 12, 1.0, 1.0, [0])
    assert float(y[:, 0].min()) == 1.0
    # Without it, the frames of a raised camera put floor (no card) in crops of the close frame.
    _, y = _batch([close], np.random.default_rng(5), 12, 1.0)
    assert float(y[:, 0].min()) == 0.0
    with pytest.raises(ValueError, match="close"):
        _batch(data, np.random.default_rng(5), 4, 0.0, 0.5, [])


def test_only_frames_wider_than_a_card_lying_down_are_shown_as_a_raised_camera_sees_them() -> None:
    pytest.importorskip("torch", reason="the trainer needs the train extra (torch)")
    from vision.train.seg_data import BEYOND_ASPECT
    from vision.train.seg_train import _batch

    assert BEYOND_ASPECT > 7 / 5  # a table shown whole is never card-shaped
    rng = np.random.default_rng(2)
    card_everywhere = np.ones((2, 120, 160), np.float32)
    square = (rng.integers(0, 255, (240, WORK_WIDTH, 3), dtype=np.uint8), card_everywhere)  # 4:3
    wide = (rng.integers(0, 255, (180, WORK_WIDTH, 3), dtype=np.uint8), card_everywhere[:, :90])  # 16:9
    _, y = _batch([square], np.random.default_rng(5), 8, 1.0)
    assert float(y[:, 0].min()) == 1.0  # no floor: the 4:3 frame is shown as it is
    _, y = _batch([wide], np.random.default_rng(5), 8, 1.0)
    assert float(y[:, 0].min()) == 0.0  # the floor round the shrunk table


def test_side_layout_lays_one_large_card_mostly_plain_and_on_its_side() -> None:
    from vision.train.seg_data import PLAIN_RANKS, side_layout

    lying = upright = plain = 0
    for seed in range(80):
        cards = side_layout(np.random.default_rng(seed), 4 / 3)
        first = cards[0]
        assert first.card[:-1] in (*PLAIN_RANKS, "J", "Q", "K") and first.back == "plain"
        plain += first.card[:-1] in PLAIN_RANKS
        # Its long side 0.45-1.05 of the frame's height, near the middle of the frame.
        assert 0.45 <= first.height <= 1.05
        assert 0.3 <= first.center[0] <= 0.7 and 0.35 <= first.center[1] <= 0.65
        turn = abs(first.angle) % 180
        lying += abs(turn - 90) <= 15
        upright += min(turn, 180 - turn) <= 15
        assert all(c.card != first.card for c in cards[1:])
    assert lying >= 45 and upright >= 10 and lying + upright >= 72  # mostly on its side, a quarter upright
    assert 48 <= plain <= 72  # about three in four of a plain rank


def test_a_side_frame_is_a_close_frame_whose_card_is_one_unbroken_core() -> None:
    from vision.train.seg_data import CLOSE_HEIGHT, side_sample, tallest_core

    a, b = side_sample(3), side_sample(3)
    assert np.array_equal(a.image, b.image) and np.array_equal(a.target, b.target)
    close = lying = 0
    for seed in range(12):
        s = side_sample(seed)
        assert s.image.shape[1] == WORK_WIDTH
        assert s.target.shape[1:] == (-(-s.image.shape[0] // OUT_SCALE), -(-s.image.shape[1] // OUT_SCALE))
        close += tallest_core(s.target) >= CLOSE_HEIGHT
        core = (s.target[1] > 0.5).astype(np.uint8)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=4)
        largest = int(np.argmax(stats[1:, cv2.CC_STAT_AREA])) + 1
        points = np.argwhere(labels == largest)[:, ::-1].astype(np.float32)
        (cx, cy), (w, h), _ = cv2.minAreaRect(points)
        # The large card's core is one piece filling its rectangle, its plain middle included.
        assert stats[largest, cv2.CC_STAT_AREA] >= 0.85 * (w + 1) * (h + 1)
        assert labels[round(cy), round(cx)] == largest
        lying += bool(stats[largest, cv2.CC_STAT_WIDTH] > stats[largest, cv2.CC_STAT_HEIGHT])
    assert close >= 8  # most are close frames (a card a third of the frame tall or more)
    assert lying >= 6  # mostly its long side across the frame


def test_side_frames_are_kept_in_the_cache_and_read_back(tmp_path) -> None:
    pytest.importorskip("torch", reason="the trainer needs the train extra (torch)")
    from vision.train.seg_train import _load_side

    first = _load_side(3, 7, tmp_path, 1)
    assert len(first) == 3 and len(list(tmp_path.glob("side-3-7-v*.pkl"))) == 1
    again = _load_side(3, 7, tmp_path, 1)
    assert all(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) for a, b in zip(first, again, strict=True))


def test_side_frames_of_version_one_are_plain_cards_on_their_side_on_grey_white_or_wood() -> None:
    from vision.train.seg_data import PLAIN_RANKS, PLAIN_TABLES, side_layout, side_sample

    for seed in range(40):
        first = side_layout(np.random.default_rng(seed), 4 / 3, version=1)[0]
        assert first.card[:-1] in PLAIN_RANKS
        turn = abs(first.angle) % 180
        assert abs(turn - 90) <= 31  # on its side, never upright
    assert "black-cloth" not in PLAIN_TABLES[:-1]
    # The two versions are different streams of the same seeds.
    assert not np.array_equal(side_sample(4, 1).image, side_sample(4, 2).image)
    with pytest.raises(ValueError, match="version"):
        side_sample(4, 3)


def test_frames_rendered_in_processes_equal_those_rendered_here_in_order() -> None:
    """Training frames rendered in two forked processes are the frames one process renders, in the
    same order, with the progress told after every chunk."""
    from vision.train.seg_data import render_samples, render_side

    told: list[int] = []
    here, there = render_samples(52, seed=9), render_samples(52, seed=9, jobs=2, progress=told.append)
    assert told == [50, 52]
    assert all(np.array_equal(a.image, b.image) and np.array_equal(a.target, b.target)
               for a, b in zip(here, there, strict=True))  # fmt: skip
    sides = render_side(3, seed=4), render_side(3, seed=4, jobs=2)
    assert all(np.array_equal(a.image, b.image) for a, b in zip(*sides, strict=True))


def test_surface_looks_are_deterministic_looks_at_hard_layouts() -> None:
    from vision.train.seg_data import LOOKS_PER_SCENE, SURFACE_KINDS, surface_sample, surface_table

    tables = [surface_table(group) for group in range(24)]
    assert all(t.kind in SURFACE_KINDS for t in tables) and len({t.kind for t in tables}) >= 3
    a, b = surface_sample(3 * LOOKS_PER_SCENE), surface_sample(3 * LOOKS_PER_SCENE)
    assert np.array_equal(a.image, b.image) and np.array_equal(a.target, b.target)
    first = surface_sample(5 * LOOKS_PER_SCENE)
    assert first.target.shape[0] == 2 and first.target[0].max() == 1.0 and first.target[0].min() == 0.0


def test_surface_tables_draw_both_kinds_of_pattern() -> None:
    from unittest import mock

    from vision.render import scene_surfaces
    from vision.train import seg_data

    drawn: list[str] = []
    real = scene_surfaces.surface

    def spy(name: str, maps: object, seed: int) -> np.ndarray:
        drawn.append(name)
        return real(name, maps, seed)  # type: ignore[arg-type]

    seg_data.surface_table.cache_clear()
    with mock.patch("vision.render.scene.surface", spy):
        for group in range(12):
            seg_data.surface_table(group + 500)
    seg_data.surface_table.cache_clear()
    assert len(drawn) == 12
    trainers = sum(name in scene_surfaces.TRAINING_SURFACES for name in drawn)
    assert 1 <= trainers <= 10 and all(name in scene_surfaces.PATTERNS for name in drawn)


def test_surface_looks_are_kept_in_the_cache_and_never_anchored(tmp_path) -> None:
    from vision.train.seg_train import _load_surfaces, ordinary_frames

    first = _load_surfaces(3, 7, tmp_path, 1)
    assert len(first) == 3 and len(list(tmp_path.glob("surfaces-3-7-v*.pkl"))) == 1
    again = _load_surfaces(3, 7, tmp_path, 1)
    assert all(np.array_equal(x[0], y[0]) for x, y in zip(first, again, strict=True))
    # Frames after the rendered tables (side frames, surface looks) are never ordinary ones.
    assert ordinary_frames(6, 1, 0.0, 9) == [True] * 6 + [False] * 3
