"""Hard tables in the renderer: the pinhole camera, surfaces, light, clutter and the hard layouts."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.errors import SceneError
from vision.render.scene import PlacedCard, SceneSpec, render_scene
from vision.render.scene_camera import Lens, View, homography, project
from vision.render.scene_clutter import CLUTTER
from vision.render.scene_layouts import KINDS, deal_hard
from vision.render.scene_surfaces import LIGHTS, PATTERNS, SURFACES, TRAINING_SURFACES

SIZE = (640, 360)


def _mask(quad: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad * 4).astype(np.int32), 255, cv2.LINE_AA, shift=2)
    return mask > 127


def _paper(image: np.ndarray) -> np.ndarray:
    """Where the frame shows card paper: bright and grey (the dark cloth is neither)."""
    return np.asarray(image.min(axis=2) > 150)


@pytest.mark.parametrize("view", [View(tilt=40, azimuth=30, roll=10, fov=90), View(tilt=45, azimuth=200, fov=60),
                                  View(tilt=30, azimuth=100, fov=100, bulge=0.06)])  # fmt: skip
def test_under_a_tilted_camera_the_truth_quad_is_where_the_card_is_drawn(view: View) -> None:
    placed = PlacedCard("2c", False, (0.6, 0.4), angle=25.0, height=0.35, back="plain")
    spec = SceneSpec(cards=(placed,), size=SIZE, table="dark-cloth", clean=True, camera=view, seed=1)
    scene = render_scene(spec)
    quad = scene.truth[0].corners
    h, w = scene.image.shape[:2]
    # A face-down card: its back is drawn all over the quad, nothing of it outside.
    table = render_scene(SceneSpec(cards=(), size=SIZE, table="dark-cloth", clean=True, camera=view, seed=1)).image
    card = np.abs(scene.image.astype(int) - table.astype(int)).sum(axis=2) > 30
    inside = _mask(quad, (h, w))
    grown = cv2.dilate(inside.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    shrunk = cv2.erode(inside.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    assert card.sum() > 2000
    assert card[~grown].sum() < 0.002 * card.sum()  # the shadow may spill a little; the card does not
    assert card[shrunk].mean() > 0.98


def test_tilt_makes_far_cards_smaller_and_flat_keeps_them_equal() -> None:
    cards = (PlacedCard("Ah", True, (0.5, 0.2), height=0.3), PlacedCard("Kd", True, (0.5, 0.8), height=0.3))

    def areas(view: View | None) -> list[float]:
        scene = render_scene(SceneSpec(cards=cards, size=SIZE, camera=view, clean=True, table="woven-felt"))
        return [float(cv2.contourArea(t.corners.astype(np.float32))) for t in scene.truth]

    flat = areas(View(tilt=0))
    assert flat[0] == pytest.approx(flat[1], rel=1e-6)
    top_far, top_near = areas(View(tilt=40, azimuth=180)), areas(View(tilt=40, azimuth=0))
    # Leaning one way the top card is the far one; the other way round it is the near one.
    assert top_far[0] < 0.75 * top_far[1]
    assert top_near[1] < 0.75 * top_near[0]
    assert top_far[0] == pytest.approx(top_near[1], rel=0.01)


def test_a_straight_down_view_is_the_plain_table_and_the_lens_moves_points_as_it_moves_pixels() -> None:
    assert np.allclose(homography(View(), SIZE), np.eye(3))
    lens = Lens(0.08, SIZE)
    points = np.array([[60.0, 40.0], [600.0, 330.0], [320.0, 180.0], [450.0, 60.0]])
    image = np.zeros((SIZE[1], SIZE[0]), np.uint8)
    for x, y in points:
        cv2.circle(image, (int(x), int(y)), 3, 255, -1)
    warped = lens.warp(image)
    for x, y in lens.to_image(points):
        ys, xs = np.nonzero(warped[int(y) - 12 : int(y) + 12, int(x) - 12 : int(x) + 12])
        assert len(xs) and abs(xs.mean() - 12 - (x - int(x))) < 1.0 and abs(ys.mean() - 12 - (y - int(y))) < 1.0
    assert np.allclose(project(np.eye(3), Lens(0.0, SIZE), points), points)


def test_clutter_is_drawn_beside_the_cards_and_never_in_the_truth() -> None:
    card = PlacedCard("Qs", True, (0.5, 0.5), height=0.2)
    plain = render_scene(SceneSpec(cards=(card,), size=SIZE, table="dark-cloth", clean=True, seed=3))
    busy = render_scene(SceneSpec(cards=(card,), size=SIZE, table="dark-cloth", clean=True, seed=3,
                                  clutter=("paper", "index-card", "note", "keyboard")))  # fmt: skip
    assert [t.card for t in busy.truth] == ["Qs"]
    quad = busy.truth[0].corners
    on_card = _mask(quad, busy.image.shape[:2])
    changed = np.abs(busy.image.astype(int) - plain.image.astype(int)).max(axis=2) > 40
    assert not changed[cv2.erode(on_card.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0].any()  # the card is clear
    assert (_paper(busy.image) & ~on_card).sum() > 5 * on_card.sum() * 0.1  # white paper lies beside it
    alone = render_scene(SceneSpec(cards=(), size=SIZE, table="oak-planks", clutter=CLUTTER, seed=5))
    assert alone.truth == ()


def test_every_surface_and_light_renders_and_surfaces_differ() -> None:
    means = []
    for name in PATTERNS:
        image = render_scene(SceneSpec(cards=(), size=(160, 90), table=name, seed=2)).image
        assert image.shape == (90, 160, 3)
        means.append(tuple(np.round(image.reshape(-1, 3).mean(axis=0) / 8)))
        assert image.std() > 1.5, name  # a pattern, not a flat colour
    assert len(set(means)) > len(PATTERNS) // 2
    card = (PlacedCard("Ah", True, (0.5, 0.5), height=0.5),)
    flat = render_scene(SceneSpec(cards=card, size=(320, 180), table="woven-felt", seed=2)).image
    for light in LIGHTS:
        lit = render_scene(SceneSpec(cards=card, size=(320, 180), table="woven-felt", seed=2, light=light)).image
        assert np.abs(lit.astype(int) - flat.astype(int)).mean() > 3, light
    glare = render_scene(SceneSpec(cards=card, size=(320, 180), table="dark-cloth", seed=6, light="glare")).image
    assert (glare.min(axis=2) >= 250).sum() > 50  # strong enough to wash out part of the card


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: View(tilt=70), "tilt"),
        (lambda: View(fov=5), "field of view"),
        (lambda: View(bulge=0.5), "bulge"),
        (lambda: SceneSpec(cards=(), clutter=("cat",)), "clutter"),
        (lambda: SceneSpec(cards=(), light="disco"), "disco"),
        (lambda: SceneSpec(cards=(), camera=45), "camera"),  # type: ignore[arg-type]
        (lambda: deal_hard(np.random.default_rng(0), kind="round"), "round"),
    ],
)
def test_bad_hard_options_raise_a_scene_error(make: object, words: str) -> None:
    with pytest.raises(SceneError, match=words):
        make()  # type: ignore[operator]


@pytest.mark.parametrize("kind", KINDS)
def test_hard_layouts_deal_distinct_cards_that_the_frame_shows(kind: str) -> None:
    for seed in range(3):
        cards, options = deal_hard(np.random.default_rng([seed, 11]), kind=kind)
        assert cards and len({c.card for c in cards}) == len(cards)
        scene = render_scene(options.spec(cards, seed=seed, deck=f"holdout-{seed}"))
        w, h = options.size
        assert scene.image.shape == (h, w, 3)
        heights = []
        for truth in scene.truth:
            if not truth.cut:
                assert truth.corners.min() >= 0 and (truth.corners.max(axis=0) <= [w, h]).all()
            heights.append(float(np.linalg.norm(truth.corners[3] - truth.corners[0])) / h)
        if kind == "grid":
            assert len(cards) == 52 and not any(t.cut for t in scene.truth)
            assert sorted(c.card for c in cards) == sorted({c.card for c in cards})
        if kind == "large":
            assert max(heights) > 0.27
        if kind == "tilted":
            assert options.camera is not None and 25 <= options.camera.tilt <= 45
        if kind == "textured":
            assert options.table in SURFACES and options.clutter


def test_hard_layouts_span_small_to_large_cards() -> None:
    heights = []
    for kind in KINDS:
        for seed in range(4):
            cards, options = deal_hard(np.random.default_rng([seed, 12]), kind=kind)
            scene = render_scene(options.spec(cards, seed=seed, deck=f"holdout-{seed}"))
            heights += [float(np.linalg.norm(t.corners[3] - t.corners[0])) / options.size[1] for t in scene.truth]
    assert min(heights) < 0.06 and max(heights) > 0.4


def test_the_trainers_own_surfaces_are_never_dealt_to_a_hard_table() -> None:
    assert set(TRAINING_SURFACES).isdisjoint(SURFACES)
    dealt = {deal_hard(np.random.default_rng(seed), kind=kind)[1].table for seed in range(60) for kind in KINDS}
    assert dealt & set(SURFACES) and not dealt & set(TRAINING_SURFACES)
