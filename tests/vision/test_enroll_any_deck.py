"""Enrolling a deck the models do not know: a face told from a back by the card itself (blank
margins, vision.face_or_back), every photo that cannot be enrolled said card by card, and the
enrolled deck read afterwards, even by models that take all its cards for backs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from table.cards import Card, Rank
from tocktable.enroll_cli import main
from vision.detect import quad_iou
from vision.enroll import EnrollError, enroll
from vision.face_or_back import MAX_SPREAD, blank_margins_of
from vision.reader import CardReader
from vision.render import faces
from vision.render.faces import BACK_PATTERNS, deck_style, render_back, render_face
from vision.render.scene import PlacedCard, SceneSpec, deal_rows, render_scene

MADE_UP = "made-up"
"""An index set no deck prints and no model saw: E for the ace, M, F, G for the court cards."""
CARDS = ("As", "Kh", "Qd", "Jc", "Ad", "Ks", "Qh", "Jd", "7d", "Tc", "3s", "9h")


@pytest.fixture(scope="module", autouse=True)
def made_up_letters() -> Iterator[None]:
    faces.INDEX_SETS[MADE_UP] = {Rank.ACE: "E", Rank.KING: "M", Rank.QUEEN: "F", Rank.JACK: "G"}
    yield
    del faces.INDEX_SETS[MADE_UP]


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader.default()


def _blind(reader: CardReader) -> CardReader:
    """The reader with models that take every card for a back: no face-up verdict, no index seen
    (what a real deck whose court pictures and letters the models do not know can get)."""
    classify_cards, classify_indices = reader.classify_cards, reader.classify_indices

    def cards(thumbs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p_face, embedding = classify_cards(thumbs)
        return np.zeros_like(p_face), embedding

    def indices(crops: np.ndarray) -> dict[str, np.ndarray]:
        readings = classify_indices(crops)
        readings["seen"] = np.zeros_like(readings["seen"])
        return readings

    reader.classify_cards, reader.classify_indices = cards, indices  # type: ignore[method-assign]
    return reader


def _deck(seed: int) -> str:
    return f"holdout-{MADE_UP}-{seed}"


def _alone(card: str, seed: int, deck: str, *, face_up: bool = True) -> np.ndarray:
    spec = SceneSpec(cards=(PlacedCard(card, face_up, (0.5, 0.5), angle=float(seed % 9 - 4), height=0.45),),
                     seed=seed, deck=deck, table="green-felt", dense_courts=True)  # fmt: skip
    return render_scene(spec).image


def test_faces_show_blank_margins_and_backs_do_not() -> None:
    for seed in range(12):
        style = replace(deck_style(seed, "holdout", MADE_UP), dense_courts=seed % 2 == 0)
        for card in ("Ah", "Ks", "Qd", "Jc", "Tc", "7h"):
            margins = blank_margins_of(np.ascontiguousarray(render_face(style, Card.parse(card))[..., :3]))
            assert margins.blank and margins.why_not() == "", (style.name, card, margins)
        for pattern in BACK_PATTERNS:
            back = replace(style, back_pattern=pattern)
            for mark in (None, "s:ace"):
                margins = blank_margins_of(np.ascontiguousarray(render_back(back, mark)[..., :3]))
                assert not margins.blank, (style.name, pattern, mark, margins)
                assert "back" in margins.why_not()
    striped = np.full((336, 240, 3), 240, np.uint8)
    striped[:, (np.arange(240) % 8) < 3] = 40  # a pattern running to the edge
    assert blank_margins_of(striped).spread > MAX_SPREAD and "pattern" in blank_margins_of(striped).why_not()
    assert "no print" in blank_margins_of(np.full((336, 240, 3), 230, np.uint8)).why_not()


def test_a_deck_the_models_take_for_backs_is_enrolled_and_then_read(reader: CardReader) -> None:
    blind = _blind(CardReader.default())
    deck = _deck(4343)
    photos = {card: _alone(card, 300 + k, deck) for k, card in enumerate(CARDS)}
    assert not any(blind.read(photo).face_up.any() for photo in list(photos.values())[:3])  # the models see backs
    profile = enroll(blind, photos, name="made-up")
    assert profile.cards == tuple(sorted(CARDS))
    rng = np.random.default_rng(8)
    placed = tuple(PlacedCard(c, True, p.center, angle=p.angle, height=p.height)
                   for c, p in zip(CARDS, deal_rows(rng), strict=True))  # fmt: skip
    scene = render_scene(SceneSpec(cards=placed, seed=901, deck=deck, dense_courts=True))
    for looker in (blind, reader):
        looker.use_profile(profile)
        try:
            seen = looker.read(scene.image)
        finally:
            looker.use_profile(None)
        right = 0
        for truth in scene.truth:
            obs = seen[int(np.argmax([quad_iou(truth.corners, c) for c in seen.corners]))]
            assert obs.card in (truth.card, None), (truth.card, obs.card)
            right += obs.card == truth.card
        assert right >= 11
    # Without the profile the models read the made-up letters as letters they know: wrong cards.
    alone = reader.read(scene.image)
    named = {truth.card: alone[int(np.argmax([quad_iou(truth.corners, c) for c in alone.corners]))].card
             for truth in scene.truth}  # fmt: skip
    assert sum(read is not None and read != card for card, read in named.items()) >= 3, named


def test_photos_that_cannot_be_enrolled_are_named_card_by_card(reader: CardReader) -> None:
    deck = _deck(4344)
    photos: dict[str, Any] = {"Ah": _alone("Ah", 1, deck), "Kd": _alone("Kd", 2, deck, face_up=False),
                              "7c": render_scene(SceneSpec(cards=(), seed=3, table="green-felt")).image}  # fmt: skip
    with pytest.raises(EnrollError) as raised:
        enroll(reader, photos)
    message = str(raised.value)
    assert message.startswith("2 photo(s) could not be enrolled")
    assert "photo 1 of Kd: the card looks like a back" in message and "lay it face up" in message
    assert "photo 1 of 7c: no card found in the picture" in message
    assert "of Ah" not in message


def test_the_command_says_why_each_card_was_not_enrolled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    deck = _deck(4345)
    folder = tmp_path / "photos"
    folder.mkdir()
    for k, card in enumerate(("As", "Kh", "Qd")):
        cv2.imwrite(str(folder / f"{card}.png"), _alone(card, 10 + k, deck))
    cv2.imwrite(str(folder / "Jc.png"), _alone("Jc", 20, deck, face_up=False))
    assert main(["--photos", str(folder), "--out", str(tmp_path / "deck.npz")]) == 0
    out = capsys.readouterr().out
    assert "Enrolled 3 cards from 3 photos" in out
    assert re.search(r"    Jc: Jc\.png: the card looks like a back", out)
    assert "    2s: no photo named after it" in out



def test_the_profile_keeps_what_the_models_could_not_read_at_enrollment(tmp_path: Path) -> None:
    from vision.deck_profile import DeckProfile, ProfileError
    from vision.enroll import _misreads

    reads = {"Jc": ["Qc", "Qc"], "Ah": ["Ah", ""], "Kd": ["", ""], "7c": ["8c", "9c"], "5s": ["5s"]}
    assert _misreads(reads) == {"Jc": "Qc", "Kd": "", "7c": ""}  # read rightly once: not listed
    vectors = {card: [np.eye(8, dtype=np.float32)[k]] for k, card in enumerate(("Jc", "Kd", "Ah"))}
    profile = DeckProfile.from_faces(vectors, model_hash="m", model_reads={"Jc": "Qc", "Kd": "", "9h": "9d"})
    assert dict(profile.model_reads) == {"Jc": "Qc", "Kd": ""}  # only enrolled cards
    again = DeckProfile.load(profile.save(tmp_path / "deck.npz"), model_hash="m")
    assert dict(again.model_reads) == {"Jc": "Qc", "Kd": ""}
    with pytest.raises(ProfileError, match="'Jc': 'Zz'"):
        DeckProfile(profile.face_labels, profile.face_prototypes, "m", model_reads={"Jc": "Zz"})
    # The joker check may take a card of a deck the models do not know for a joker: that is what
    # the models named it, kept and saved like any other reading.
    jokered = DeckProfile.from_faces(vectors, model_hash="m", model_reads={"Kd": "joker", "Jc": "Qc"})
    assert dict(jokered.model_reads) == {"Kd": "Jk", "Jc": "Qc"}
    assert dict(DeckProfile.load(jokered.save(tmp_path / "jk.npz"), model_hash="m").model_reads) == {"Kd": "Jk",
                                                                                                    "Jc": "Qc"}
