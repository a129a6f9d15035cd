"""The fast paths of the card reader's steps after detection give exactly what the slow ones gave.

Each speed-up is checked against a plain reference kept here: the pyramid filled tile by tile
against ``cv2.pyrDown`` of whole levels, the grey made only round the outlines against the whole
frame in grey, the mark reader's batch against card-by-card reading,
and its shortcuts (the ink's components found once, candidate pips filtered with numpy, the shape
matched against the pip's colour only, the radial profile in a box, the median) against the
straightforward versions they replaced. No timing here: speed is measured by bench/marks.py.
"""

from __future__ import annotations

import math
from concurrent.futures import Future
from dataclasses import replace

import cv2
import numpy as np
import pytest

import vision.mark_disc as md
import vision.mark_pips as mp
import vision.mark_reader as mr
from table.cards import JOKER_ID, Suit
from vision.mark_reader import MarkReader, centre_patch
from vision.rectify import Pyramid, _warp, card_homography, grey_near, index_crops, order_corners, thumbnails
from vision.render.mark_samples import card_shot, sticker_back
from vision.render.scene import PlacedCard, SceneSpec, deal_rows, render_scene


# ------------------------------------------------------------------------------ references
def _whole_levels(frame: np.ndarray, count: int) -> list[np.ndarray]:
    levels = [frame]
    while len(levels) < count:
        levels.append(cv2.pyrDown(levels[-1]))
    return levels


class _WholePyramid(Pyramid):
    """The pyramid as it was: every level it reaches made whole at once."""

    def warp_many(self, to_frames, shrinks, size):  # type: ignore[no-untyped-def]
        for shrink in shrinks:
            self.level_for(shrink)
        return super().warp_many(to_frames, shrinks, size)


def _reference_central_blob(ink, white, within, design, *, grow=0, surround=0.8, parts=None):  # type: ignore[no-untyped-def]
    """The pip search as first written: every component in label order, the largest that passes."""
    min_area = 0.3 * design.area_per_height2[1] * (design.heights["small"] * mr.PX_PER_HEIGHT) ** 2
    count, labels, stats, centroids = mr._components(ink, 8)
    best, best_area = None, 0.0
    for k in range(1, count):
        area = float(stats[k, cv2.CC_STAT_AREA])
        cx, cy = centroids[k]
        if area < min_area or area <= best_area:
            continue
        if math.hypot(cx - mr._CENTRE, cy - mr._CENTRE) > 0.12 * mr.PX_PER_HEIGHT:
            continue
        if max(stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]) > mr._MAX_PIP:
            continue
        blob = (labels == k).astype(np.uint8)
        near, far = (mr._DISK3, mr._DISK7) if not grow else (mr._DISK5, mr._DISK9)
        around = (cv2.dilate(blob, far) > 0) & (cv2.dilate(blob, near) == 0)
        inside = around & within
        if inside.sum() < 0.5 * around.sum() or white[inside].mean() < surround:
            continue
        best, best_area = blob, area
    return best


def _reference_white_end(low, soft, centre, height_px):  # type: ignore[no-untyped-def]
    """The radial profile over the whole patch."""
    first, last, step = md._PROFILE
    distance = np.hypot(mr._XX - centre[0], mr._YY - centre[1]) / max(height_px, 1.0)
    use = (soft < 0.05) & (distance >= first) & (distance < last)
    bins = ((distance[use] - first) / step).astype(np.int64)
    n = round((last - first) / step)
    counts = np.bincount(bins, minlength=n)[:n]
    sums = np.bincount(bins, weights=low[use], minlength=n)[:n]
    if np.any(counts < 3):
        return 0.0, 0.0
    profile = sums / counts
    radii = first + step * (np.arange(n) + 0.5)
    inside = profile[(radii >= md._INSIDE[0]) & (radii <= md._INSIDE[1])].mean()
    beyond = radii > md._INSIDE[1]
    darkest = float(profile[beyond].min())
    contrast = float(inside - darkest)
    if contrast < 0.2:
        return float(last), max(contrast, 0.0)
    level = (inside + darkest) / 2
    for j in np.flatnonzero(beyond):
        if profile[j] < level:
            a, b = profile[j - 1], profile[j]
            t = float(np.clip((a - level) / max(a - b, 1e-6), 0.0, 1.0))
            return float(radii[j - 1] + t * step), contrast
    return float(last), contrast


class _AllSuits:
    """Stands for the design's colour templates while recording every suit's full score."""

    def __init__(self, design: mr._Design, seen: list[np.ndarray]) -> None:
        self.design, self.seen = design, seen

    def __getattr__(self, name: str) -> object:
        return getattr(self.design, name)

    @property
    def colour_templates(self) -> tuple[np.ndarray, np.ndarray]:
        seen = self.seen

        class _Recorder:
            def __init__(self, pair: tuple[Suit, Suit], templates: np.ndarray) -> None:
                self.pair, self.templates = pair, templates

            def __matmul__(self, shape: np.ndarray) -> np.ndarray:
                scores: np.ndarray = self.templates @ shape  # every suit, as before
                seen.append(scores)
                return scores[list(self.pair)]

        black, red = (Suit.SPADES, Suit.CLUBS), (Suit.HEARTS, Suit.DIAMONDS)
        return _Recorder(black, self.design.templates), _Recorder(red, self.design.templates)  # type: ignore[return-value]


# ------------------------------------------------------------------------------ samples
def _face_down_scenes(count: int, seed: int) -> list[tuple[np.ndarray, list[np.ndarray]]]:
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        number = seed * 100 + k
        cards = tuple(PlacedCard(c.card, False, c.center, angle=c.angle, height=c.height,
                                 back="plain" if rng.random() < 0.2 else "tock") for c in deal_rows(rng))  # fmt: skip
        scene = render_scene(SceneSpec(cards=cards, seed=number, deck=f"holdout-{number}"))
        out.append((scene.image, [t.corners for t in scene.truth]))
    return out


def _sticker_shots(count: int, seed: int) -> list[tuple[np.ndarray, list[np.ndarray]]]:
    from table.tock import ALL_MARKS
    from vision.render.faces import deck_style

    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        mark = None if k % 7 == 0 else str(ALL_MARKS[int(rng.integers(len(ALL_MARKS)))])
        back = sticker_back(deck_style(seed + k, "holdout"), mark, angle=float(rng.uniform(0, 360)))
        image, corners = card_shot(back, rng, height=float(rng.uniform(90, 260)))
        out.append((image, [corners]))
    return out


@pytest.fixture(scope="module")
def samples() -> list[tuple[np.ndarray, list[np.ndarray]]]:
    return _face_down_scenes(3, seed=611) + _sticker_shots(24, seed=612)


# ------------------------------------------------------------------------------ pyramid
def _random_quads(rng: np.random.Generator, h: int, w: int, count: int) -> list[np.ndarray]:
    quads = []
    for _ in range(count):
        height, angle = rng.uniform(12, 1.4 * max(h, w)), rng.uniform(0, 2 * np.pi)
        centre = rng.uniform([-0.2 * w, -0.2 * h], [1.2 * w, 1.2 * h])
        card = np.array([[-0.36, -0.5], [0.36, -0.5], [0.36, 0.5], [-0.36, 0.5]]) * height
        card += rng.normal(0, 0.03 * height, (4, 2))
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        quads.append(order_corners(card @ turn.T + centre))
    return quads


@pytest.mark.parametrize("shape", [(720, 1280), (601, 799), (37, 23), (1080, 1920)])
def test_warps_from_a_pyramid_filled_piecewise_equal_warps_from_whole_levels(shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(shape[0])
    frame = cv2.GaussianBlur(rng.integers(0, 256, (*shape, 3), dtype=np.uint8), (0, 0), 1.5)
    quads = _random_quads(rng, *shape, 14)
    lazy, whole = Pyramid(frame), _WholePyramid(frame)
    for k in range(0, len(quads), 3):  # batches of several sizes: some pieces, some whole levels
        batch = quads[k : k + 3]
        assert np.array_equal(thumbnails(frame, batch, pyramid=lazy), thumbnails(frame, batch, pyramid=whole))
        assert np.array_equal(index_crops(frame, batch, pyramid=lazy), index_crops(frame, batch, pyramid=whole))
        for quad in batch:  # single warps too (the training data and the mark reader use them)
            small = (int(rng.integers(8, 40)), int(rng.integers(8, 40)))
            box = (0.1, 0.2, 0.9, 0.7)
            assert np.array_equal(_warp(lazy, card_homography(quad), box, small, True),
                                  _warp(whole, card_homography(quad), box, small, True))  # fmt: skip
    # What was filled piece by piece is exactly pyrDown of the whole level, and so is the rest.
    reference = _whole_levels(frame, len(lazy.levels))
    for index in range(1, len(lazy.levels)):
        filled = np.repeat(np.repeat(lazy._done[index], Pyramid.TILE, 0), Pyramid.TILE, 1)
        filled = filled[: reference[index].shape[0], : reference[index].shape[1]]
        assert np.array_equal(lazy.levels[index][filled], reference[index][filled])
    for index in range(len(lazy.levels)):
        level, scale = lazy.level_for(2.8 ** (index + 0.5) / 1.4)
        assert scale == 0.5**index and np.array_equal(level, reference[index])


def test_a_few_cards_do_not_halve_the_whole_frame() -> None:
    rng = np.random.default_rng(3)
    frame = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    pyramid = Pyramid(frame)
    card = order_corners(np.array([[600, 300], [700, 300], [700, 440], [600, 440]], np.float64))
    thumbnails(frame, [card], pyramid=pyramid)
    assert 0 < pyramid._done[1].mean() < 0.1  # only the tiles round the card
    thumbnails(frame, _random_quads(rng, 720, 1280, 12), pyramid=pyramid)
    assert pyramid._done[1].all() or pyramid._done[1].mean() > 0.1


def _reference_card_region(pyramid: Pyramid, corners: np.ndarray, box: tuple[float, float, float, float],
                           size: tuple[int, int]) -> np.ndarray:  # fmt: skip
    """A card's region as first written: one card's maps, the whole level, one warp."""
    u0, v0, u1, v1 = box
    w, h = size
    homography = card_homography(order_corners(np.asarray(corners)))
    step_u, step_v = (u1 - u0) / w, (v1 - v0) / h
    to_unit = np.array([[step_u, 0, u0 + step_u / 2], [0, step_v, v0 + step_v / 2], [0, 0, 1]])
    to_frame = homography @ to_unit
    top, bottom = to_frame @ np.array([w / 2, 0, 1.0]), to_frame @ np.array([w / 2, h, 1.0])
    span = float(np.hypot(*(bottom[:2] / bottom[2] - top[:2] / top[2])))
    image, scale = pyramid.level_for(span / h)
    offset = 0.5 * scale - 0.5
    full = np.array([[scale, 0, offset], [0, scale, offset], [0, 0, 1]]) @ to_frame
    return cv2.warpPerspective(image, full, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)  # fmt: skip


def test_card_regions_of_many_cards_equal_the_one_card_reference() -> None:
    rng = np.random.default_rng(17)
    frame = cv2.GaussianBlur(rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8), (0, 0), 1.5)
    quads = _random_quads(rng, 720, 1280, 40)
    for box, size in ((mr.CENTRE_BOX, (mr.PATCH, mr.PATCH)), ((0.0, 0.0, 1.0, 1.0), (40, 56))):
        fast = mr.card_regions(Pyramid(frame), quads, box, size)
        whole = _WholePyramid(frame)
        assert np.array_equal(fast, np.stack([_reference_card_region(whole, q, box, size) for q in quads]))


# ------------------------------------------------------------------------------ grey near the outlines
def test_grey_near_outlines_is_the_whole_frame_s_grey_there_and_nothing_is_converted_far_away() -> None:
    rng = np.random.default_rng(41)
    frame = cv2.GaussianBlur(rng.integers(0, 256, (900, 1600, 3), dtype=np.uint8), (0, 0), 1.2)
    whole = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    quads = np.stack(_random_quads(rng, 900, 1600, 40))
    small = quads[np.ptp(quads, axis=1).max(axis=1) < 300][:6]  # a few cards: pieces, not the whole frame
    assert len(small) >= 3
    for batch, margin in ((small, 5.0), (small, np.arange(len(small)) + 2.0), (quads, 3.0)):
        grey = grey_near(frame, batch, margin)
        low = np.floor(batch.min(axis=1) - np.reshape(margin, (-1, 1))).clip(0, [1600, 900]).astype(int)
        high = np.ceil(batch.max(axis=1) + np.reshape(margin, (-1, 1)) + 1).clip(0, [1600, 900]).astype(int)
        near = np.zeros(whole.shape, bool)
        for (x0, y0), (x1, y1) in zip(low, high, strict=True):
            near[y0:y1, x0:x1] = True
        assert near.any() and np.array_equal(grey[near], whole[near])
        if batch is small:
            assert not near.all() and not grey[~near].any()  # far away: not converted
    nan = small.copy()
    nan[0, 0, 0] = np.nan
    assert np.array_equal(grey_near(frame, nan, 4.0), whole)  # nothing finite to go by: all of it


@pytest.mark.parametrize("size", [(1280, 720), (2304, 1296)])
def test_outlines_refined_on_the_grey_near_them_equal_those_refined_on_the_whole_grey_frame(size) -> None:  # type: ignore[no-untyped-def]
    from vision.reader import CardReader

    reader = CardReader.default()
    rng = np.random.default_rng(size[0])
    compared = 0
    for k in range(2):
        cards = tuple(replace(c, height=c.height * 720 / size[1]) for c in deal_rows(rng, touching=k == 1))
        image = render_scene(SceneSpec(cards=cards, size=size, seed=4500 + k, deck=f"holdout-{k}")).image
        near = reader.detect(image)
        whole = reader.detect(image, gray=lambda image=image: cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
        assert len(near) == len(whole) >= 8
        for a, b in zip(near, whole, strict=True):
            assert np.array_equal(a.corners, b.corners) and (a.partial, a.fit) == (b.partial, b.fit)
        compared += len(near)
    assert compared >= 16


# ------------------------------------------------------------------------------ mark reader
def test_reading_a_frame_at_once_equals_reading_card_by_card(samples: list) -> None:  # type: ignore[type-arg]
    reader = MarkReader()
    compared = 0
    for image, cards in samples:
        pyramid = Pyramid(image)
        one_by_one = [reader.decide(reader.features(centre_patch(image, c, pyramid=pyramid))) for c in cards]
        assert reader.read(image, cards) == one_by_one
        compared += len(cards)
    assert compared >= 50


def test_mark_shortcuts_equal_the_straightforward_measurements(samples: list, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    reader = MarkReader()
    fast = [reader.read(image, cards) for image, cards in samples]
    fast_features = [[reader.features(centre_patch(image, c)) for c in cards] for image, cards in samples]
    scores: list[np.ndarray] = []
    with monkeypatch.context() as patch:
        patch.setattr(mp, "_central_blob", _reference_central_blob)
        patch.setattr(mr, "_white_end", _reference_white_end)
        patch.setattr(mr, "_median", lambda values: float(np.median(values)))
        patch.setattr(reader, "_design", _AllSuits(reader._design, scores))
        slow = [reader.read(image, cards) for image, cards in samples]
        slow_features = [[reader.features(centre_patch(image, c)) for c in cards] for image, cards in samples]
    assert fast == slow
    marks = [r.mark for frame in fast for r in frame]
    assert len({m for m in marks if m}) >= 8 and "plain" in marks  # many marks and plain backs compared
    for fast_frame, slow_frame in zip(fast_features, slow_features, strict=True):
        for f, s in zip(fast_frame, slow_frame, strict=True):
            pair = (Suit.HEARTS, Suit.DIAMONDS) if f.red > mr._RED_CUT else (Suit.SPADES, Suit.CLUBS)
            assert [f.suit_scores[p] for p in pair] == [s.suit_scores[p] for p in pair]
            others = [f.suit_scores[p] for p in Suit if p not in pair]
            assert others == [0.0, 0.0] or not f.found
            assert (f.found, f.red, f.height, f.white_end, f.contrast, f.white_level, f.white_middle) == (
                s.found, s.red, s.height, s.white_end, s.contrast, s.white_level, s.white_middle)  # fmt: skip
    assert scores  # the reference matched every suit


def _reference_measure(patch: np.ndarray, design: mr._Design) -> mr.MarkFeatures:
    """One patch measured as first written: its own normalisation and masks, then the pip search."""
    pixels = patch.astype(np.float32)
    radius2 = (mr._XX - mr._CENTRE) ** 2 + (mr._YY - mr._CENTRE) ** 2
    near = radius2 <= (0.2 * mr.PX_PER_HEIGHT) ** 2
    reference = mr._quantile(pixels[near], 0.95)
    white_level = float(reference.mean())
    if white_level < 12:
        return mr._nothing(white_level)
    norm = pixels / np.maximum(reference, 4.0)
    b, g, r = norm[..., 0], norm[..., 1], norm[..., 2]
    low = np.minimum(np.minimum(b, g), r)
    chroma = np.maximum(np.maximum(b, g), r) - low
    darkest = float(mr._quantile(low[near], 0.02))
    if darkest > 0.8:
        return mr._nothing(white_level)
    cut = (1.0 + darkest) / 2
    ink = low < cut
    white = (low > (1.0 + cut) / 2) & (chroma < 0.35)
    middle, outside = radius2 <= (0.1 * mr.PX_PER_HEIGHT) ** 2, radius2 >= (0.22 * mr.PX_PER_HEIGHT) ** 2
    white_middle = float(white[middle].mean() - white[outside].mean())
    light = (low > cut + (1.0 - cut) / 4) & (chroma < 0.35)
    search = mr._measure_normalised(low, chroma, r - np.maximum(b, g), ink, white, light, white_middle, white_level,
                                    design)  # fmt: skip
    out, waiting = [mr._nothing(white_level)], {}  # type: ignore[var-annotated]
    mr._advance(0, search, None, out, waiting)
    while waiting:
        search, (colour, shape) = waiting.pop(0)
        mr._advance(0, search, design.colour_templates[colour] @ shape, out, waiting)
    return out[0]


def test_patches_normalised_as_a_stack_measure_as_one_by_one(samples: list) -> None:  # type: ignore[type-arg]
    reader = MarkReader()
    measured = 0
    for image, cards in samples:
        for corners in cards:
            patch = centre_patch(image, corners)
            assert reader.features(patch) == _reference_measure(patch, reader._design)
            measured += 1
    assert measured >= 50


def test_the_exact_median_is_numpys() -> None:
    rng = np.random.default_rng(8)
    for n in (1, 2, 3, 10, 11, 500, 501):
        values = rng.normal(size=n).astype(np.float32)
        assert mr._median(values) == float(np.median(values))


def test_quantiles_of_bytes_by_counting_equal_the_partition() -> None:
    rng = np.random.default_rng(9)
    for n, m in ((1, 1), (3, 7), (12, 3700)):
        values = rng.integers(0, 256, (n, m, 3), dtype=np.uint8)
        values[0, : m // 2] = 255  # ties
        for q in (0.0, 0.02, 0.5, 0.95, 1.0):
            expected = np.stack([mr._quantile(values[i].astype(np.float32), q) for i in range(n)])
            assert np.array_equal(mr._byte_quantile(values, q), expected)


def test_the_reader_s_corners_are_in_order_already_so_marks_read_alike_either_way() -> None:
    """The backs stage reads marks from the observations' corners without ordering them again:
    the reader's corners are order_corners' output, which ordering again gives back unchanged."""
    from vision.reader import CardReader

    reader = CardReader.default()
    down = 0
    for image, _ in _face_down_scenes(2, seed=613):
        seen = reader.read(image)
        backs = [k for k in range(len(seen)) if not seen.face_up[k]]
        for k in backs:
            assert np.array_equal(order_corners(seen.corners[k]), seen.corners[k])
        again = MarkReader().read(image, [seen.corners[k] for k in backs])  # ordered again
        assert [seen.marks[k] for k in backs] == [r.mark for r in again]
        down += len(backs)
    assert down >= 12


def _read_step_by_step(reader, image):  # type: ignore[no-untyped-def]
    """The whole read one step after the other on this thread: the outlines refined on the whole
    frame in grey, the pyramid's levels filled as the warps need them, the corners of every card in
    one call, the card model only for
    cards whose corners show no plain index, the backs only once the sides are known; then the
    pipeline's other stages. Also how many readings those other stages changed."""
    from vision.evidence import Evidence
    from vision.stages import Sources

    outlines = reader.detect(image, gray=lambda: cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))  # the whole frame grey
    quads = [o.corners for o in outlines]
    pyramid = Pyramid(image)
    evidence = Evidence(image, pyramid, reader.settings.threshold, np.stack(quads),
                        np.array([o.partial for o in outlines]), np.array([o.fit for o in outlines]),
                        reader.embedding_size, reader.card_embedding_size)  # fmt: skip
    evidence.set_readings(np.arange(len(quads)), reader.classify_indices(index_crops(image, quads, pyramid=pyramid)))
    evidence.p_face = np.ones(len(quads))
    doubtful = np.flatnonzero(evidence.seen <= 0.8)
    if len(doubtful):
        evidence.p_face[doubtful], evidence.card_embedding[doubtful] = reader.classify_cards(
            thumbnails(image, [quads[i] for i in doubtful], pyramid=pyramid))  # fmt: skip
    first = evidence.decide()
    for stage in reader.pipeline.stages:
        if stage.name != "corners":
            stage.run(evidence, reader, Sources(reader.profile, reader.marks))
    checked = evidence.decide()
    return checked, int((first.card_ids != checked.card_ids).sum())


def _touching_scene_7002() -> np.ndarray:
    """The third touching-rows scene of bench.vision (seed 7): the card's body changes readings there
    in the typefaces of the package fonts (the caller limits the renderer to them)."""
    rng = np.random.default_rng(7)
    for _ in range(3):
        cards = deal_rows(rng, touching=True)
    return render_scene(SceneSpec(cards=cards, seed=7002, deck="holdout-7002")).image


@pytest.mark.parametrize("seed", [3, 4, 7002])
def test_reading_with_the_corner_models_beside_equals_reading_step_by_step(seed: int, monkeypatch) -> None:
    from vision.reader import CardReader

    reader = CardReader.default()
    if seed == 7002:
        # With the system fonts too (TOCKTABLE_FONTS=all) this deck has another typeface, in which
        # the body changes no reading: the scene would no longer test that path.
        monkeypatch.setenv("TOCKTABLE_FONTS", "packages")
        image = _touching_scene_7002()
    else:
        rng = np.random.default_rng(seed)
        cards = tuple(replace(c, back="tock") for c in deal_rows(rng, touching=seed % 2 == 0))
        image = render_scene(SceneSpec(cards=cards, seed=4400 + seed, deck=f"holdout-{seed}")).image
    fast = reader.read(image)
    slow, changed = _read_step_by_step(reader, image)
    if seed == 7002:
        assert changed > 0  # so the body's witnesses inside read() are compared too
    assert len(fast) == len(slow) >= 8
    assert not all(fast.face_up) and any(fast.face_up)  # both kinds of card, so both paths run
    assert np.array_equal(fast.card_ids, slow.card_ids) and np.array_equal(fast.face_up, slow.face_up)
    assert fast.marks == slow.marks and (seed == 7002 or any(mark is not None for mark in fast.marks))
    assert np.allclose(fast.confidence, slow.confidence, atol=1e-6)
    assert np.allclose(fast.card_embeddings, slow.card_embeddings, atol=1e-5)
    assert np.allclose(fast.embeddings, slow.embeddings, atol=1e-5)


def test_corners_of_many_cards_are_ordered_as_one_by_one() -> None:
    from vision.rectify import order_corners_many

    rng = np.random.default_rng(12)
    quads = np.concatenate([rng.random((500, 4, 2)) * 400,
                            np.stack([t.corners for t in render_scene(SceneSpec(
                                cards=deal_rows(rng, touching=True), seed=12)).truth])])  # fmt: skip
    assert np.array_equal(order_corners_many(quads), np.stack([order_corners(q) for q in quads]))


def test_card_shapes_of_many_quads_are_judged_as_one_by_one() -> None:
    from vision.quads import card_shaped, card_shaped_many

    rng = np.random.default_rng(21)
    base = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float64)
    quads = []
    for _ in range(3000):
        turn = rng.uniform(0, 2 * math.pi)
        rotation = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
        quad = base * rng.uniform(0.05, 3) @ rotation.T + rng.normal(0, rng.uniform(0, 15), (4, 2))
        quads.append(quad[rng.permutation(4)] if rng.random() < 0.2 else quad)
    expected = [card_shaped(q) for q in quads]
    assert 0.2 < np.mean(expected) < 0.9  # both answers are exercised
    assert card_shaped_many(np.array(quads)).tolist() == expected


def test_small_cards_read_ahead_on_the_helper_read_as_at_their_stage_s_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corners stage has the helper thread read the cards too small for their index ahead of the
    small stage's turn; the readings equal those of a reader that reads them at that turn only,
    including a card the orient stage turned since (read again then)."""
    import threading

    import vision.stages as stages
    from vision.reader import CardReader

    ahead, plain = CardReader.default(), CardReader.default()
    for stage in plain.pipeline.stages:
        if isinstance(stage, stages.Corners):
            stage.small = None  # no look ahead: the small stage reads its cards itself
    where: list[str] = []
    original = stages._small_readings

    def recorded(*args, **kwargs):  # type: ignore[no-untyped-def]
        where.append(threading.current_thread().name)
        return original(*args, **kwargs)

    monkeypatch.setattr(stages, "_small_readings", recorded)
    monkeypatch.setattr(stages, "_taken", lambda job: False)  # the helper keeps every job given it
    rng = np.random.default_rng(77)
    small = 0
    for k in range(3):
        cards = tuple(replace(c, height=float(rng.uniform(0.04, 0.06)), angle=float(rng.uniform(-40, 40)))
                      for c in deal_rows(rng, count=14))  # fmt: skip
        image = render_scene(SceneSpec(cards=cards, size=(2304, 1296), seed=4600 + k, deck=f"holdout-{k}")).image
        fast, slow = ahead.read(image), plain.read(image)
        assert np.array_equal(fast.card_ids, slow.card_ids) and np.array_equal(fast.face_up, slow.face_up)
        assert np.array_equal(fast.corners, slow.corners) and np.array_equal(fast.confidence, slow.confidence)
        small += int(ahead.evidence(image).asked["small"].sum())
    assert small >= 20  # many small cards were compared
    assert any(name.startswith("tocktable-corners") for name in where)  # read ahead on the helper


def test_symbols_read_ahead_on_the_helper_give_the_suit_witness_s_own_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corners stage has the helper thread read the body symbols of the cards the suit witness
    would ask about; the readings equal those of a reader whose witness looks at every card itself."""
    import vision.stages as stages
    from vision.reader import CardReader

    monkeypatch.setenv("TOCKTABLE_FONTS", "packages")  # the decks whose suits these scenes doubt
    ahead, plain = CardReader.default(), CardReader.default()
    for stage in plain.pipeline.stages:
        if isinstance(stage, stages.Corners):
            stage.witness = None  # no look ahead: the witness stage looks at its cards itself
    taken: list[int] = []
    original = stages._symbols_ahead

    def recorded(*args, **kwargs):  # type: ignore[no-untyped-def]
        quads, symbols = original(*args, **kwargs)
        taken.append(len(quads))
        return quads, symbols

    monkeypatch.setattr(stages, "_symbols_ahead", recorded)
    monkeypatch.setattr(stages, "_taken", lambda job: False)  # the helper keeps every job given it
    asked = 0
    for seed in (7002, 4600, 4601, 4602):
        rng = np.random.default_rng(seed)
        cards = deal_rows(rng, touching=True)
        image = render_scene(SceneSpec(cards=cards, seed=seed, deck=f"holdout-{seed}")).image
        if seed == 7002:
            image = _touching_scene_7002()
        fast, slow = ahead.read(image), plain.read(image)
        assert np.array_equal(fast.card_ids, slow.card_ids) and np.array_equal(fast.face_up, slow.face_up)
        assert np.array_equal(fast.corners, slow.corners) and np.array_equal(fast.confidence, slow.confidence)
        asked += int(ahead.evidence(image).asked["suit_witness"].sum())
    assert asked >= 2 and sum(taken) >= 2  # cards were asked about, and their symbols read ahead


def test_jokers_checked_ahead_on_the_helper_score_as_the_joker_stage_s_own_check(monkeypatch: pytest.MonkeyPatch
                                                                                 ) -> None:  # fmt: skip
    """The corners stage has the helper thread check ahead the cards the corners alone would have the
    joker stage ask about; the scores and readings equal those of a reader whose joker stage checks
    every card it asks about itself, including cards asked only after a later stage's look."""
    import threading

    import vision.stages as stages
    from bench.vision_sets import with_jokers
    from vision.reader import CardReader

    ahead, plain = CardReader.default(), CardReader.default()
    for stage in plain.pipeline.stages:
        if isinstance(stage, stages.Corners):
            stage.joker = None  # no look ahead: the joker stage checks its cards itself
    where: list[tuple[str, int]] = []
    original = stages._jokers_ahead

    def recorded(*args, **kwargs):  # type: ignore[no-untyped-def]
        quads, scores = original(*args, **kwargs)
        where.append((threading.current_thread().name, len(quads)))
        return quads, scores

    monkeypatch.setattr(stages, "_jokers_ahead", recorded)
    monkeypatch.setattr(stages, "_taken", lambda job: False)  # the helper keeps every job given it
    asked = jokers = 0
    for k in range(4):
        rng = np.random.default_rng(800 + k)
        cards = with_jokers(deal_rows(rng, touching=k % 2 == 1), k)
        image = render_scene(SceneSpec(cards=cards, seed=4700 + k, deck=f"holdout-{4700 + k}")).image
        fast, slow = ahead.evidence(image), plain.evidence(image)
        assert np.array_equal(fast.joker_score, slow.joker_score) and np.array_equal(fast.asked["joker"],
                                                                                    slow.asked["joker"])  # fmt: skip
        a, b = fast.decide(), slow.decide()
        assert np.array_equal(a.card_ids, b.card_ids) and np.array_equal(a.face_up, b.face_up)
        assert np.array_equal(a.corners, b.corners) and np.array_equal(a.confidence, b.confidence)
        asked += int(fast.asked["joker"].sum())
        jokers += int((a.card_ids == JOKER_ID).sum())
    assert asked >= 16 and jokers >= 4  # many cards checked, jokers among them
    assert where and all(name.startswith("tocktable-corners") for name, _ in where)  # checked on the helper
    assert sum(count for _, count in where) >= asked // 2  # most of them ahead


def _taken_back_scenes() -> list[np.ndarray]:
    """Frames on which every job the corners stage gives the helper has work: red ink, small cards,
    doubted suits, jokers."""
    from bench.vision_sets import with_jokers

    rng = np.random.default_rng(77)
    small = tuple(replace(c, height=float(rng.uniform(0.04, 0.06)), angle=float(rng.uniform(-40, 40)))
                  for c in deal_rows(rng, count=14))  # fmt: skip
    jokers = with_jokers(deal_rows(np.random.default_rng(801), touching=True), 1)
    touching = deal_rows(np.random.default_rng(4600), touching=True)
    return [render_scene(SceneSpec(cards=small, size=(2304, 1296), seed=4600, deck="holdout-0")).image,
            render_scene(SceneSpec(cards=touching, seed=4600, deck="holdout-4600")).image,
            render_scene(SceneSpec(cards=jokers, seed=4701, deck="holdout-4701")).image]  # fmt: skip


def test_work_taken_back_from_the_helper_reads_as_the_helper_s_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A job the corners stage gives the helper thread (the index ink, the small cards, the body's
    symbols, the joker check, the bodies) that the helper has not begun when the reading thread wants it is made
    by the reading thread; every reading, score and ink is the same either way."""
    import vision.stages as stages
    from vision.reader import CardReader

    monkeypatch.setenv("TOCKTABLE_FONTS", "packages")  # the decks whose suits the touching scene doubts
    reader = CardReader.default()
    taken: list[bool] = []

    def always(job: Future) -> bool:  # type: ignore[type-arg]
        taken.append(True)
        job.cancel()  # begun or not, the reading thread makes the work itself
        return True

    asked = {"small": 0, "suit_witness": 0, "joker": 0, "body": 0}
    red = 0
    for image in _taken_back_scenes():
        monkeypatch.setattr(stages, "_taken", lambda job: False)
        kept = reader.evidence(image)
        monkeypatch.setattr(stages, "_taken", always)
        back = reader.evidence(image)
        for name in asked:
            asked[name] += int(kept.asked[name].sum())
            assert np.array_equal(kept.asked[name], back.asked[name])
        red += int((kept.red_ink == 1).sum())
        assert np.array_equal(kept.red_ink, back.red_ink) and np.array_equal(kept.joker_score, back.joker_score)
        assert np.array_equal(kept.small_posterior, back.small_posterior)
        assert np.array_equal(kept.body_veto, back.body_veto)
        a, b = kept.decide(), back.decide()
        assert np.array_equal(a.card_ids, b.card_ids) and np.array_equal(a.face_up, b.face_up)
        assert np.array_equal(a.corners, b.corners) and np.array_equal(a.confidence, b.confidence)
    assert all(count >= 2 for count in asked.values()) and red >= 4  # every kind of work was compared
    assert len(taken) >= 10  # and taken back


def test_a_card_asked_only_after_the_corners_is_checked_at_the_joker_stage_s_turn() -> None:
    """A card the corners name surely as a number card is not checked ahead; should a later stage make
    it unsure, the joker stage checks it itself, and scores it as a check of that card alone."""
    import vision.stages as stages
    from vision.evidence import Evidence
    from vision.reader import CardReader

    reader = CardReader.default()
    image = render_scene(SceneSpec(cards=(PlacedCard("7h", True, (0.3, 0.5)), PlacedCard("Kd", True, (0.6, 0.5))),
                                   seed=4800)).image  # fmt: skip
    evidence = reader.evidence(image)
    seven = int(np.flatnonzero(evidence.best // 4 == 5)[0])
    assert not evidence.asked["joker"][seven] and evidence.asked["joker"].sum() == 1  # the king alone
    joker = next(stage for stage in reader.pipeline.stages if isinstance(stage, stages.Joker))
    again = Evidence(image, Pyramid(image), evidence.threshold, evidence.corners, evidence.partial, evidence.fit,
                     reader.embedding_size, reader.card_embedding_size)  # fmt: skip
    for key in ("cards", "none", "posteriors", "best", "posterior", "seen", "p_face"):
        setattr(again, key, getattr(evidence, key).copy())
    crops = index_crops(image, list(evidence.corners), pyramid=again.pyramid)
    done: Future[dict[str, np.ndarray]] = Future()
    done.set_result({"posterior": evidence.posterior, "best": evidence.best})
    joker.ahead(again, reader, np.arange(len(again)), crops, done)
    again.posterior[seven] = 0.5  # a later stage's doubt: now the seven is asked too
    joker.run(again, reader, stages.Sources(None, None))
    assert again.asked["joker"].all()
    alone = reader.joker_check.corner_scores(crops[2 * seven : 2 * seven + 2]).max()  # type: ignore[union-attr]
    assert again.joker_score[seven] == alone and 0 <= alone < 0.5
    assert np.array_equal(again.joker_score[1 - seven], evidence.joker_score[1 - seven])
