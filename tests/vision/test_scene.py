"""The procedural renderer: contract, determinism, truth geometry, bad specs."""

from __future__ import annotations

import numpy as np
import pytest

from table.cards import Card
from table.errors import TocktableError
from vision.errors import SceneError
from vision.render.faces import FACE_H, FACE_W, deck_style, render_back, render_face
from vision.render.scene import TABLES, PlacedCard, SceneSpec, card_corners, render_scene


def _spec(seed: int = 3, **kwargs: object) -> SceneSpec:
    cards = (
        PlacedCard("Ah", True, (0.25, 0.5), angle=10.0),
        PlacedCard("10d", True, (0.5, 0.5), angle=-35.0, height=0.3),
        PlacedCard("Kc", False, (0.75, 0.5), back="tock"),
    )
    return SceneSpec(cards=cards, seed=seed, **kwargs)  # type: ignore[arg-type]


def test_scene_has_the_requested_size_and_the_truth_of_every_card_in_order() -> None:
    scene = render_scene(_spec(size=(640, 360)))
    assert scene.image.shape == (360, 640, 3)
    assert scene.image.dtype == np.uint8
    assert [t.card for t in scene.truth] == ["Ah", "Td", "Kc"]
    assert [t.face_up for t in scene.truth] == [True, True, False]
    assert [t.mark for t in scene.truth] == [None, None, "c:large"]
    for truth in scene.truth:
        assert truth.corners.shape == (4, 2)


def test_same_spec_gives_the_same_image_and_another_seed_another() -> None:
    first, again, other = render_scene(_spec(1)), render_scene(_spec(1)), render_scene(_spec(2))
    assert np.array_equal(first.image, again.image)
    assert not np.array_equal(first.image, other.image)


def test_clean_scene_corners_match_the_placement_and_the_card_is_drawn_there() -> None:
    placed = PlacedCard("7s", True, (0.5, 0.5), angle=30.0, height=0.5)
    scene = render_scene(SceneSpec(cards=(placed,), size=(400, 300), table="green-felt", clean=True))
    expected = card_corners(placed, (400, 300))
    assert np.allclose(scene.truth[0].corners, expected)
    # The centre of the card is paper (bright), the image corner is green felt.
    centre = scene.image[150, 200].astype(int)
    felt = scene.image[5, 5].astype(int)
    assert centre.min() > 150
    assert felt[1] > felt[2] and felt.max() < 150
    # Clockwise from the card's top left: positive signed area in image coordinates (y down).
    c = scene.truth[0].corners
    area = 0.5 * sum(c[i, 0] * c[(i + 1) % 4, 1] - c[(i + 1) % 4, 0] * c[i, 1] for i in range(4))
    assert area > 0


def test_later_cards_are_drawn_on_top() -> None:
    under = PlacedCard("2c", False, (0.5, 0.5), height=0.6)
    over = PlacedCard("Ah", True, (0.5, 0.5), height=0.6)
    a = render_scene(SceneSpec(cards=(under, over), size=(320, 240), clean=True, seed=5))
    b = render_scene(SceneSpec(cards=(over,), size=(320, 240), clean=True, seed=5))
    # Inside the top card (away from its rounded corners) nothing of the card below shows.
    inner = (slice(120 - 60, 120 + 60), slice(160 - 40, 160 + 40))
    assert np.abs(a.image[inner].astype(int) - b.image[inner].astype(int)).max() <= 2
    assert np.abs(a.image.astype(int) - b.image.astype(int)).max() > 20  # the card below is drawn


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: PlacedCard("Xx", True, (0.5, 0.5)), "Xx"),
        (lambda: PlacedCard("Ah", True, (float("nan"), 0.5)), "centre"),
        (lambda: PlacedCard("Ah", True, (0.5, 0.5), height=0.0), "height"),
        (lambda: PlacedCard("Ah", True, (0.5, 0.5), back="zebra"), "zebra"),
        (lambda: SceneSpec(cards=(), size=(10, 10)), "size"),
        (lambda: SceneSpec(cards=(), table="lava"), "lava"),
        (lambda: SceneSpec(cards=(), deck="mine"), "deck"),
        (lambda: SceneSpec(cards=[]), "tuple"),  # type: ignore[arg-type]
    ],
)
def test_bad_specs_raise_a_scene_error_naming_the_problem(make: object, words: str) -> None:
    with pytest.raises(SceneError, match=words) as caught:
        make()  # type: ignore[operator]
    assert isinstance(caught.value, TocktableError) and isinstance(caught.value, ValueError)


def test_every_table_surface_and_hands_render() -> None:
    for i, table in enumerate(TABLES):
        scene = render_scene(_spec(seed=i, size=(160, 90), table=table, hands=2))
        assert scene.image.shape == (90, 160, 3)


def test_faces_and_backs_have_rounded_transparent_corners() -> None:
    style = deck_style(4)
    face = render_face(style, Card.parse("Qh"))
    back = render_back(style, "h:large")
    for image in (face, back):
        assert image.shape == (FACE_H, FACE_W, 4)
        assert image[0, 0, 3] == 0 and image[FACE_H // 2, FACE_W // 2, 3] == 255
    assert not np.array_equal(render_back(style), back)  # the mark is drawn


# --- hard tables: new options, old pixels unchanged ---------------------------------------------

# SHA-256 (first 16 hex digits) of specs that use none of the hard-table options: the plain
# renderer must keep drawing exactly these pixels (benchmarks and training data depend on them).
# Drawn with the package fonts (pinned in pyproject.toml), so they hold on every machine.
PACKAGE_FONT_HASHES = {"three-3": "56bb86729b9cf9d4", "empty-wood": "d5b47aa0cdcb506a", "clean": "092e79fd015ec1b3",
                       "rows-3000": "c69f7fa2d3088d37"}  # fmt: skip
# The same specs drawn with the system fonts of docs/system-fonts.txt (TOCKTABLE_FONTS=system):
# the pixels the shipped models' training and figures were made with.
SYSTEM_FONT_HASHES = {"three-3": "20213a7bd071e0e4", "empty-wood": "d5b47aa0cdcb506a", "clean": "cbb38af864673828",
                      "rows-3000": "59717b59e440e7ef"}  # fmt: skip


def _old_specs() -> dict[str, SceneSpec]:
    from vision.render.scene import deal_rows

    return {
        "three-3": _spec(3),
        "empty-wood": SceneSpec(cards=(), seed=4, table="dark-wood", size=(320, 240)),
        "clean": SceneSpec(cards=_spec().cards, seed=2, clean=True, size=(400, 300)),
        "rows-3000": SceneSpec(cards=deal_rows(np.random.default_rng(3)), seed=3000, deck="holdout-3000", hands=2),
    }


def _hash(spec: SceneSpec) -> str:
    import hashlib

    return hashlib.sha256(render_scene(spec).image.tobytes()).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(PACKAGE_FONT_HASHES))
def test_specs_without_the_hard_options_draw_the_same_pixels_as_before(name: str, monkeypatch) -> None:
    monkeypatch.setenv("TOCKTABLE_FONTS", "packages")
    assert _hash(_old_specs()[name]) == PACKAGE_FONT_HASHES[name]


@pytest.mark.parametrize("name", sorted(SYSTEM_FONT_HASHES))
def test_with_the_debian_fonts_the_renderer_draws_the_shipped_models_pixels(name: str, monkeypatch) -> None:
    from tests.vision.test_fonts import require_debian_system_fonts

    require_debian_system_fonts(monkeypatch)
    assert _hash(_old_specs()[name]) == SYSTEM_FONT_HASHES[name]


def test_old_scenes_mark_no_card_cut_but_a_card_over_the_edge_is_cut() -> None:
    assert not any(t.cut for t in render_scene(_spec(3)).truth)
    cards = (PlacedCard("Ah", True, (0.5, 0.5)), PlacedCard("Kd", True, (0.02, 0.5), height=0.3))
    scene = render_scene(SceneSpec(cards=cards, size=(320, 240), clean=True))
    assert [t.cut for t in scene.truth] == [False, True]
    assert scene.truth[1].corners[:, 0].min() < 0


def test_dense_courts_darken_the_pictures_and_leave_number_cards_and_the_plain_deck_alone() -> None:
    from dataclasses import replace

    middle = (slice(FACE_H // 3, 2 * FACE_H // 3), slice(FACE_W // 3, 2 * FACE_W // 3))

    def dark(face: np.ndarray) -> float:  # share of the picture's middle printed dark
        return float((face[middle][..., :3].mean(axis=2) < 90).mean())

    shares = []
    for seed in (3, 5, 8, 11, 21):
        plain = deck_style(seed, "train")
        dense = replace(plain, dense_courts=True)
        for name in ("Kh", "Qs", "Jd"):
            shares.append((dark(render_face(plain, Card.parse(name))), dark(render_face(dense, Card.parse(name)))))
        assert np.array_equal(render_face(dense, Card.parse("7c")), render_face(plain, Card.parse("7c")))
    before, after = np.array(shares).T
    assert (after >= before).all() and after.mean() >= before.mean() + 0.25
    spec = SceneSpec(cards=(PlacedCard("Kh", True, (0.5, 0.5)),), seed=3, size=(320, 240))
    assert not np.array_equal(render_scene(spec).image, render_scene(replace(spec, dense_courts=True)).image)
