"""An enrolled deck's index pixels: the cards its embeddings cannot tell apart (a German queen and
jack of one suit) are told apart by both index corners of their enrollment photos, and a letter
the models read surely that the deck's own photos doubt is unsure."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bench.enroll import _alone
from table.cards import Card
from vision.deck_examples import CROP_ROWS, grey_crops
from vision.deck_profile import NO_PIXELS, PIXEL_WINDOW, DeckProfile, PixelMatch, ProfileError
from vision.detect import quad_iou
from vision.enroll import enroll
from vision.evidence import Evidence
from vision.reader import MODELS_DIR, CardReader
from vision.rectify import CROP_W, Pyramid, index_crops, order_corners
from vision.render.scene import PlacedCard, SceneSpec, deal_rows, render_scene
from vision.stages import Corners, Profile, Sources

SHAPE = (2, CROP_ROWS, CROP_W)


def _letter(kind: str, shift: int = 0) -> np.ndarray:
    """Both corners of a made-up index: a bar ("I") or a ring ("O"), ``shift`` pixels to the right."""
    crops = np.full(SHAPE, 235, np.uint8)
    x = 10 + shift
    if kind == "I":
        crops[:, 6:30, x + 4 : x + 9] = 30
    else:
        crops[:, 6:30, x : x + 13] = 30
        crops[:, 10:26, x + 4 : x + 9] = 235
    return crops


def _vectors() -> np.ndarray:
    rng = np.random.default_rng(3)
    base = rng.normal(size=(3, 16)).astype(np.float32)
    base[1] = base[0] + 0.05 * rng.normal(size=16).astype(np.float32)  # the two letters' embeddings nearly agree
    return base


def _profile() -> DeckProfile:
    v = _vectors()
    return DeckProfile.from_faces({"Qs": [v[0]], "Js": [v[1]], "7h": [v[2]]}, model_hash="m",
                                  crops={"Qs": [_letter("O")], "Js": [_letter("I")]})  # fmt: skip


def test_cards_the_embedding_cannot_tell_apart_are_told_apart_by_their_index_pixels() -> None:
    profile, v = _profile(), _vectors()
    query = (v[0] + v[1]) / 2
    assert profile.match_faces(query[None])[0].card is None  # the embeddings alone: unsure between the two
    ring, bar = profile.match_pixels(query, _letter("O", shift=2)), profile.match_pixels(query, _letter("I", shift=1))
    assert (ring.card, bar.card) == ("Qs", "Js")
    assert set(ring.scores) == {"Qs", "Js"}  # the 7h is far from both: no candidate
    assert 0.9 <= ring.confidence < 1.0 and ring.doubts("Js") and not ring.doubts("Qs")
    assert ring.doubts("7h")  # a reading the deck's embeddings put far from every candidate
    blank = profile.match_pixels(query, np.full(SHAPE, 128, np.uint8))
    assert blank.card is None and blank.confidence == 0.0


def test_only_cards_near_the_nearest_prototype_are_compared() -> None:
    profile, v = _profile(), _vectors()
    unit = profile.face_prototypes
    match = profile.match_pixels(v[0], _letter("I"))
    near = {label for label, row in zip(profile.face_labels, unit, strict=True)
            if row @ unit[profile.face_labels.index("Qs")] >= 1 - PIXEL_WINDOW}  # fmt: skip
    assert set(match.scores) == near
    assert match.card == "Js"  # the pixels, not the embedding's nearest, name the card


def test_a_profile_without_index_crops_gives_no_pixel_evidence(tmp_path: Path) -> None:
    v = _vectors()
    bare = DeckProfile.from_faces({"Qs": [v[0]], "Js": [v[1]]}, model_hash="m")
    assert bare.face_crops.shape == (0, *SHAPE)
    assert bare.match_pixels(v[0], _letter("O")) is NO_PIXELS and not NO_PIXELS.doubts("Qs")
    # A card enrolled without its crops among cards with them: all 0, matching nothing.
    mixed = DeckProfile.from_faces({"Qs": [v[0]], "Js": [v[1]]}, model_hash="m", crops={"Qs": [_letter("O")]})
    mixed_match = mixed.match_pixels(v[1], _letter("I"))
    assert set(mixed_match.scores) == {"Qs"} and mixed_match.near == {"Qs", "Js"}
    assert not mixed_match.doubts("Js")  # a near card without crops: the pixels say nothing of it
    assert set(mixed.crops_by_card()) == {"Qs"}
    nothing = DeckProfile.from_faces({"Qs": [v[0]], "Js": [v[1]]}, model_hash="m", crops={"Qs": [None], "Js": []})
    assert nothing.face_crops.shape[0] == 0  # no crops given at all: none kept


def test_index_crops_survive_the_profile_file_and_older_files_load_without_them(tmp_path: Path) -> None:
    profile = _profile()
    loaded = DeckProfile.load(profile.save(tmp_path / "p.npz"))
    assert np.array_equal(loaded.face_crops, profile.face_crops)
    assert loaded.match_pixels(_vectors()[0], _letter("O")).card == "Qs"
    with np.load(tmp_path / "p.npz") as data:  # a file written before profiles kept crops
        parts = {k: data[k] for k in data.files if k != "face_crops"}
    np.savez_compressed(tmp_path / "old.npz", **parts)
    old = DeckProfile.load(tmp_path / "old.npz")
    assert old.face_crops.shape[0] == 0 and old.cards == profile.cards


def test_bad_index_crops_are_a_profile_error() -> None:
    v = _vectors()
    with pytest.raises(ProfileError, match="index crops of Qs must be of shape"):
        DeckProfile.from_faces({"Qs": [v[0]]}, model_hash="m", crops={"Qs": [np.zeros((40, 32), np.uint8)]})
    profile = _profile()
    with pytest.raises(ProfileError, match="one per face prototype"):
        replace(profile, face_crops=profile.face_crops[:1])


def test_pixel_match_doubts_nothing_without_candidates() -> None:
    assert not PixelMatch(None, {}).doubts("Ah")
    near = frozenset({"Ah", "Kh"})
    assert PixelMatch(None, {"Ah": 0.9, "Kh": 0.91}, near).doubts("Ah")
    assert not PixelMatch(None, {"Ah": 0.9, "Kh": 0.9}, near).doubts("Ah")  # a tie is no doubt
    assert PixelMatch(None, {"Ah": 0.9, "Kh": 0.9}, near).doubts("Qh")  # not near at all


COURT = tuple(rank + suit for suit in "shdc" for rank in "AKQJ")


def _tally(reader: CardReader, profile: DeckProfile | None, deck: str) -> tuple[int, int, int]:
    """Right, unsure and wrong of the court cards and aces on four tables of ``deck``."""
    rng = np.random.default_rng(5)
    right = unsure = wrong = 0
    reader.use_profile(profile)
    try:
        for s in range(4):
            cards = [COURT[i] for i in rng.permutation(len(COURT))[:12]]
            placed = tuple(PlacedCard(c, True, p.center, angle=p.angle, height=p.height)
                           for c, p in zip(cards, deal_rows(rng), strict=False))  # fmt: skip
            scene = render_scene(SceneSpec(cards=placed, seed=700 + s, deck=deck))
            seen = reader.read(scene.image)
            for truth in scene.truth:
                card = seen[int(np.argmax([quad_iou(truth.corners, c) for c in seen.corners]))].card
                right, unsure, wrong = right + (card == truth.card), unsure + (card is None), wrong + (
                    card not in (None, truth.card))  # fmt: skip
    finally:
        reader.use_profile(None)
    return right, unsure, wrong


def test_an_enrolled_german_deck_reads_its_letters_by_their_pixels() -> None:
    """A hold-out German deck (K D B) whose queens the models read as jacks: enrolled from one photo
    per card, its tables of court cards and aces read with the profile's pixels against the same
    profile without them (embeddings only)."""
    reader = CardReader.default()
    deck = "holdout-de-9501"
    profile = enroll(reader, {card: _alone(card, deck, 500 + k) for k, card in enumerate(COURT)})
    assert profile.face_crops.shape == (len(COURT), *SHAPE) and profile.face_crops.any(axis=(1, 2, 3)).all()
    bare = replace(profile, face_crops=profile.face_crops[:0])
    with_pixels, embeddings_only = _tally(reader, profile, deck), _tally(reader, bare, deck)
    assert with_pixels[2] == 0, with_pixels
    assert with_pixels[0] >= embeddings_only[0] + 3, (with_pixels, embeddings_only)


def _table_evidence(reader: CardReader) -> tuple[Evidence, int, np.ndarray]:
    """A hold-out table read by the corners at its true outlines; a face-up king's row, and every
    card's index crops."""
    placed = tuple(PlacedCard(c, True, p.center, angle=p.angle, height=p.height)
                   for c, p in zip(("Kc", "7h", "Qd", "4s", "As", "9c"), deal_rows(np.random.default_rng(4)),
                                   strict=False))  # fmt: skip
    scene = render_scene(SceneSpec(cards=placed, seed=41, deck="holdout-41"))
    corners = np.stack([order_corners(t.corners) for t in scene.truth])
    n = len(corners)
    ev = Evidence(scene.image, Pyramid(scene.image), reader.settings.threshold, corners, np.zeros(n, bool),
                  np.ones(n), reader.embedding_size, reader.card_embedding_size)  # fmt: skip
    Corners(None).run(ev, reader, Sources(None, reader.marks))
    target = next(i for i, t in enumerate(scene.truth) if t.card == "Kc")
    return ev, target, grey_crops(index_crops(scene.image, list(corners)))


def _models_read(ev: Evidence, row: int, card: str) -> None:
    posteriors = ev.posteriors.copy()
    posteriors[row] = 1e-4
    posteriors[row, Card.parse(card).id] = 1.0
    ev.set_posteriors(posteriors / posteriors.sum(axis=1, keepdims=True))


def test_a_letter_the_models_misread_gives_way_to_the_enrolled_card_its_pixels_name() -> None:
    """The models read the enrolled king as a jack (a letter, no pips to check it), surely; the
    profile's embedding and its index pixels both name the king, and the jack is not among the
    cards near it: the king. A card the models misread that way at enrollment was already the
    profile's (``model_reads``); this one they read rightly on its enrollment photo."""
    reader = CardReader(MODELS_DIR)
    ev, king, crops = _table_evidence(reader)
    faces = {str(Card.from_id(int(ev.best[i]))): i for i in range(len(ev)) if ev.face_up[i]}
    assert faces.get("Kc") == king
    profile = DeckProfile.from_faces({c: [ev.embedding[i]] for c, i in faces.items()}, model_hash=reader.model_hash,
                                     crops={c: [crops[i]] for c, i in faces.items()})  # fmt: skip
    _models_read(ev, king, "Jc")
    assert ev.decide().cards[king] == "Jc"  # the models alone: wrong
    Profile().run(ev, reader, Sources(profile, reader.marks))
    assert ev.decide().cards[king] == "Kc"
    # Without the crops the same profile's sure match and the models' sure jack disagree: unsure.
    ev, king, _ = _table_evidence(reader)
    _models_read(ev, king, "Jc")
    Profile().run(ev, reader, Sources(replace(profile, face_crops=profile.face_crops[:0]), reader.marks))
    assert ev.decide().cards[king] is None


def test_a_letter_whose_enrolled_pixels_another_card_matches_better_is_unsure() -> None:
    """The deck enrolls the king and a queen whose embeddings are the same (the models cannot tell
    this deck's K from its D), the queen with another card's index: read as the queen by the
    models, the king's own pixels match better, so the card is not the queen; nor is it named the
    king against the models' sure reading."""
    reader = CardReader(MODELS_DIR)
    ev, king, crops = _table_evidence(reader)
    other = next(i for i in range(len(ev)) if ev.face_up[i] and i != king)
    profile = DeckProfile.from_faces({"Kc": [ev.embedding[king]], "Qc": [ev.embedding[king]]},
                                     model_hash=reader.model_hash,
                                     crops={"Kc": [crops[king]], "Qc": [crops[other]]})  # fmt: skip
    _models_read(ev, king, "Qc")
    Profile().run(ev, reader, Sources(profile, reader.marks))
    assert ev.profile_card[king] == Card.parse("Kc").id and not ev.profile_explains[king]
    assert ev.decide().cards[king] is None
