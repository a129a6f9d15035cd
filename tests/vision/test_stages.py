"""The reader's stages (vision.stages): the list in reader.json, each stage alone on the evidence of
a rendered frame, and the whole pipeline on hard synthetic tables."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from unittest import mock

import cv2
import numpy as np
import pytest

from table.cards import COURT_RANKS, Card
from vision.detect import quad_iou
from vision.errors import ModelError
from vision.evidence import Evidence
from vision.reader import DEFAULT_STAGES, MODELS_DIR, CardReader
from vision.rectify import Pyramid, order_corners
from vision.render.scene import RenderedScene, SceneSpec, deal_rows, render_scene
from vision.stages import STAGES, WITNESS_BELOW, Backs, Corners, Pipeline, Pips, Profile, Reframe, Sources, Witness


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader(MODELS_DIR)


def _scene(seed: int, *, touching: bool = False, back: str = "plain") -> RenderedScene:
    cards = tuple(replace(c, back=back) for c in deal_rows(np.random.default_rng(seed), touching=touching))
    return render_scene(SceneSpec(cards=cards, seed=seed, deck=f"holdout-{seed}"))


def _evidence(reader: CardReader, scene: RenderedScene) -> Evidence:
    """The evidence of a scene at its true outlines, before any stage but the finder."""
    corners = np.stack([order_corners(t.corners) for t in scene.truth])
    n = len(corners)
    return Evidence(scene.image, Pyramid(scene.image), reader.settings.threshold, corners, np.zeros(n, bool),
                    np.ones(n), reader.embedding_size, reader.card_embedding_size)  # fmt: skip


def _sources(reader: CardReader) -> Sources:
    return Sources(reader.profile, reader.marks)


# --- the list -------------------------------------------------------------------------------------


def test_the_shipped_reader_lists_its_stages_once_in_reader_json(reader: CardReader) -> None:
    listed = json.loads((MODELS_DIR / "reader.json").read_text())["stages"]
    assert tuple(listed) == reader.pipeline.names == DEFAULT_STAGES
    assert set(listed) <= set(STAGES)


@pytest.mark.parametrize(("names", "words"), [
    (["find", "corners", "nonsense"], "unknown reader stage"),
    (["find", "corners", "pips", "pips"], "listed twice"),
    (["corners", "find"], "must start with find"),
    (["find", "pips", "corners"], "must start with find"),
    (["find", "corners", "find_classical"], "only one finder"),
])  # fmt: skip
def test_a_stage_list_that_cannot_work_is_refused_saying_what_is_allowed(names: list[str], words: str) -> None:
    with pytest.raises(ModelError, match=words):
        Pipeline.build(names)


def _models_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "models"
    shutil.copytree(MODELS_DIR, folder, ignore=shutil.ignore_patterns("*.fp32.onnx", "*.pt"))
    return folder


def test_a_missing_model_file_names_its_stage_and_what_to_do(tmp_path: Path) -> None:
    folder = _models_copy(tmp_path)
    (folder / "suits.onnx").unlink()
    with pytest.raises(ModelError, match=r"suits\.onnx \(stage suit_witness\).*leave their stage out"):
        CardReader(folder)
    # Left out of the list, the stage is gone, and said to be.
    data = json.loads((folder / "reader.json").read_text())
    data["stages"] = [name for name in data["stages"] if name != "suit_witness"]
    (folder / "reader.json").write_text(json.dumps(data))
    without = CardReader(folder)
    assert "suit_witness" not in without.pipeline.names and without.suit_witness is None


def test_the_classical_finder_needs_no_detector_model(tmp_path: Path) -> None:
    folder = _models_copy(tmp_path)
    (folder / "detector.onnx").unlink()
    with pytest.raises(ModelError, match="stage find"):
        CardReader(folder)
    classical = CardReader(folder, stages=["find_classical", *DEFAULT_STAGES[1:]])
    assert classical.segmenter is None
    scene = _scene(31)
    assert len(classical.read(scene.image)) >= 10


# --- each stage alone -----------------------------------------------------------------------------


def test_corners_reads_every_card_and_which_side_is_up(reader: CardReader) -> None:
    scene = _scene(41)
    ev = _evidence(reader, scene)
    Corners(None).run(ev, reader, _sources(reader))
    up = np.array([t.face_up for t in scene.truth])
    assert np.array_equal(ev.face_up, up)
    truth = np.array([Card.parse(t.card).id for t in scene.truth])
    assert (ev.best[up] == truth[up]).mean() >= 0.9
    assert not ev.backs_read.any()  # no backs stage: no backs read


def test_corners_reads_the_backs_beside_when_there_is_a_backs_stage(reader: CardReader) -> None:
    scene = _scene(43, back="tock")
    ev = _evidence(reader, scene)
    Corners(Backs()).run(ev, reader, _sources(reader))
    down = np.array([not t.face_up for t in scene.truth])
    assert down.any() and ev.backs_read[down].all()
    marks = [t.mark for t in scene.truth]
    assert sum(ev.marks[i] == marks[i] for i in np.flatnonzero(down)) >= down.sum() - 1


def test_reframe_widens_a_narrow_outline_that_cuts_the_index(reader: CardReader) -> None:
    asked = 0
    for seed in (47, 48, 49):
        scene = _scene(seed, touching=True)
        ev = _evidence(reader, scene)
        target = next(i for i, t in enumerate(scene.truth) if t.face_up)
        card = ev.corners[target].copy()
        across, up = card[3] - card[2], card[1] - card[2]  # a back lying over its bottom-right index...
        cover = card[2] + np.outer([0.0, 0.4, 0.4, 0.0], across) + np.outer([0.0, 0.0, 0.5, 0.5], up)
        ev.frame = ev.frame.copy()
        cv2.fillPoly(ev.frame, [np.round(cover).astype(np.int32)], (120, 40, 30))
        ev.pyramid = Pyramid(ev.frame)
        cut = card.copy()
        cut[[0, 3]] += 0.22 * (cut[[1, 2]] - cut[[0, 3]])  # ...and the left side moved in: the top-left index cut
        ev.corners[target] = cut
        Corners(None).run(ev, reader, _sources(reader))
        before = ev.posterior[target]
        assert before < reader.settings.threshold  # no index left in sight: unsure
        Reframe().run(ev, reader, _sources(reader))
        if not ev.asked["reframe"][target]:  # an ace with both indices gone may be taken for a back
            assert not ev.face_up[target]
            continue
        asked += 1
        assert ev.posterior[target] > before and ev.best[target] == Card.parse(scene.truth[target].card).id
        assert quad_iou(ev.corners[target], scene.truth[target].corners) > 0.85
    assert asked >= 2


def test_the_suit_witness_is_asked_for_face_up_number_cards_and_aces_and_court_cards_in_doubt_and_moves_only_suits(
        reader: CardReader) -> None:  # fmt: skip
    scene = _scene(53)
    ev = _evidence(reader, scene)
    Corners(None).run(ev, reader, _sources(reader))
    target = next(i for i, t in enumerate(scene.truth) if t.face_up and Card.parse(t.card).rank < 9)
    card = Card.parse(scene.truth[target].card)
    doubt = ev.posteriors[target] * 0.0
    doubt[card.id] = 0.5
    doubt[card.id ^ 1] = 0.5  # the same rank, another suit
    ev.posteriors[target] = doubt
    plain = next(i for i, t in enumerate(scene.truth) if t.face_up and Card.parse(t.card).rank < 9 and i != target)
    unsuited = ev.posteriors[plain] * 0.0
    own = Card.parse(scene.truth[plain].card).id
    unsuited[own], unsuited[(own + 4) % 36] = 0.9995, 0.0005  # sure of the suit, not quite of the rank
    ev.posteriors[plain] = unsuited
    ev.set_posteriors(ev.posteriors)
    before = ev.posteriors.copy()
    Witness().run(ev, reader, _sources(reader))
    asked = ev.asked["suit_witness"]
    assert asked[target] and not asked[~ev.face_up].any()
    assert asked[plain]  # a number card below WITNESS_BELOW, however little the other suits hold
    ranks = before.argmax(axis=1) // 4
    beyond = ev.face_up & ~np.isin(ranks, COURT_RANKS) & (before.max(axis=1) >= WITNESS_BELOW)
    assert not asked[beyond].any()
    sure_courts = ev.face_up & np.isin(ranks, COURT_RANKS) & (before.max(axis=1) > 0.9999)
    assert not asked[sure_courts].any()  # a court card's symbols are asked only when its suit is in doubt
    rank_mass = lambda p: p.reshape(len(p), 13, 4).sum(axis=2)  # noqa: E731
    assert np.allclose(rank_mass(ev.posteriors[asked]), rank_mass(before[asked]))
    assert np.allclose(ev.posteriors[~asked], before[~asked])
    assert ev.best[target] == card.id


def _another_suit(reader: CardReader, p: float) -> tuple[Evidence, int, Card]:
    """The corners' reading of a rendered frame, one number card of which they are made to read
    as the same rank in another suit with posterior ``p``: the evidence, that card's row, the card."""
    scene = _scene(53)
    ev = _evidence(reader, scene)
    Corners(None).run(ev, reader, _sources(reader))
    target = next(i for i, t in enumerate(scene.truth) if t.face_up and 1 <= Card.parse(t.card).rank < 9)
    card = Card.parse(scene.truth[target].card)
    leaning = ev.posteriors[target] * 0.0
    leaning[card.id ^ 1], leaning[card.id] = p, 1.0 - p
    ev.posteriors[target] = leaning
    ev.set_posteriors(ev.posteriors)
    return ev, target, card


def test_a_number_card_the_corners_surely_give_another_suit_is_unsure_by_its_body(reader: CardReader) -> None:
    # A hold-out face whose clubs the corners read as spades at 0.9995: nothing doubts the suit,
    # but the body's pips are asked all the same, and they show the card's own suit.
    ev, target, card = _another_suit(reader, 0.9995)
    Witness().run(ev, reader, _sources(reader))
    assert ev.asked["suit_witness"][target] and ev.suit_likelihood[target].argmax() == card.suit
    assert ev.decide().cards[target] is None


def test_a_reading_whose_suit_the_body_denies_is_unsure(reader: CardReader) -> None:
    # The corners lean hard to another suit of the right rank (a small club read as a spade): the
    # body's symbols, all of the card's own suit, leave the reading unsure rather than wrong.
    ev, target, card = _another_suit(reader, 0.9985)
    asked = np.zeros(len(ev), bool)
    asked[target] = True  # looked at whatever the doubt (the witness asks from a doubt of 0.005)
    with mock.patch.object(reader.suit_witness, "asked", lambda *a, **k: asked):
        Witness().run(ev, reader, _sources(reader))
    assert ev.suit_likelihood[target].argmax() == card.suit and ev.suit_likelihood[target, card.suit ^ 1] <= 0.1
    # The witness's floored likelihood does not overturn so sure a reading: still named...
    assert ev.best[target] == card.id ^ 1 and ev.posterior[target] >= reader.settings.threshold
    assert ev.decide().cards[target] is None  # ...but the decision does not name it
    assert (ev.suit_likelihood[~ev.asked["suit_witness"]] == 1.0).all()


def test_pips_settle_a_number_card_the_corners_hesitate_over(reader: CardReader) -> None:
    scene = _scene(59)
    ev = _evidence(reader, scene)
    Corners(None).run(ev, reader, _sources(reader))
    target = next(i for i, t in enumerate(scene.truth) if t.face_up and Card.parse(t.card).rank <= 7)
    card = Card.parse(scene.truth[target].card)
    other = card.id + 4  # the next rank (up to ten), same suit: a number card too
    hesitant = np.zeros(52)
    hesitant[card.id], hesitant[other] = 0.45, 0.55
    ev.posteriors[target] = hesitant
    ev.set_posteriors(ev.posteriors)
    Pips().run(ev, reader, _sources(reader))
    assert ev.asked["pips"][target]
    decided = ev.decide()
    assert decided.cards[target] in (str(card), None)  # never the wrong one


def test_backs_reads_every_face_down_card_left_and_profile_does_nothing_without_a_profile(reader: CardReader) -> None:
    scene = _scene(61, back="tock")
    ev = _evidence(reader, scene)
    Corners(None).run(ev, reader, _sources(reader))
    Backs().run(ev, reader, _sources(reader))
    down = ~ev.face_up
    assert ev.backs_read[down].all() and not ev.backs_read[~down].any()
    Profile().run(ev, reader, Sources(None, reader.marks))
    assert (ev.profile_card == -1).all() and not ev.asked["profile"].any()


# --- the whole pipeline ---------------------------------------------------------------------------


def test_read_and_read_card_share_the_pipeline_and_time_each_stage(reader: CardReader) -> None:
    scene = _scene(67)
    reader.timings.clear()
    reader.read(scene.image)
    assert set(reader.timings) == set(reader.pipeline.names)
    from vision.rectify import rectify

    up = next(t for t in scene.truth if t.face_up)
    one = reader.read_card(rectify(scene.image, order_corners(up.corners)))
    assert one.card in (up.card, None) and one.face_up


@pytest.mark.slow
def test_the_pipeline_on_hard_synthetic_tables_is_never_confidently_wrong_about_large_or_tilted_cards(
        reader: CardReader) -> None:  # fmt: skip
    from vision.render.scene_layouts import deal_hard

    rng = np.random.default_rng(77)
    named = right = 0
    for k, kind in enumerate(("large", "large", "tilted", "textured")):
        cards, options = deal_hard(rng, kind=kind)
        scene = render_scene(options.spec(cards, seed=77000 + k, deck=f"holdout-{77000 + k}"))
        seen = reader.read(scene.image)
        for truth in scene.truth:
            ious = [quad_iou(truth.corners, q) for q in seen.corners]
            if not ious or max(ious) < 0.5:
                continue
            card = seen[int(np.argmax(ious))].card
            named += card is not None
            right += card is not None and truth.face_up and card == truth.card
    assert named >= 5 and right == named


def test_the_picture_of_the_stages_has_a_panel_per_stage_and_the_decision(reader: CardReader) -> None:
    from bench.reader_stages import _PANEL_W, picture

    scene = _scene(71)
    out = picture(reader, scene.image)
    panels = len(reader.pipeline.names) + 1
    rows = (panels + 1) // 2
    assert out.shape[1] == 2 * _PANEL_W + 6 and out.dtype == np.uint8
    panel_h = 30 + round(scene.image.shape[0] * _PANEL_W / scene.image.shape[1])
    assert out.shape[0] == rows * panel_h + (rows - 1) * 6


def test_corners_shows_the_card_model_the_backs_turned_only_when_orient_follows(reader: CardReader) -> None:
    scene = _scene(73)
    down = np.array([not t.face_up for t in scene.truth])
    with_orient, without = Pipeline.build(DEFAULT_STAGES), Pipeline.build(["find", "corners", "pips"])
    for pipeline, looked in ((with_orient, True), (without, False)):
        ev = _evidence(reader, scene)
        next(s for s in pipeline.stages if s.name == "corners").run(ev, reader, _sources(reader))
        assert down.any()
        assert np.isfinite(ev.p_face_turned[down]).all() == looked
        assert np.isnan(ev.p_face_turned[~down]).all()
        assert (ev.p_face_turned[down] <= 0.5).all() or not looked  # a back seen turned is still a back
