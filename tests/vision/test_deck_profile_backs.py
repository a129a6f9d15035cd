"""Deck profiles' enrolled backs (another mark design): a descriptor that does not care how the
card or its mark is turned, matching that names no wrong mark, and the profile format's version."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from table.tock import ALL_MARKS
from vision.deck_profile import BACK_FEATURES, PROFILE_VERSION, DeckProfile, ProfileError, back_descriptors
from vision.render.faces import deck_style
from vision.render.mark_samples import card_shot, sticker_back


def _descriptor(back: np.ndarray, rng: np.random.Generator, *, height: float) -> np.ndarray:
    frame, corners = card_shot(back, rng, height=height)
    out: np.ndarray = back_descriptors(frame, [corners])[0]
    return out


def test_a_descriptor_is_one_unit_row_per_card() -> None:
    rng = np.random.default_rng(1)
    frame, corners = card_shot(sticker_back(deck_style(0, "holdout"), "h:large"), rng)
    out = back_descriptors(frame, [corners, corners[::-1]])
    assert out.shape == (2, BACK_FEATURES) and out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-5)
    assert back_descriptors(frame, []).shape == (0, BACK_FEATURES)


def test_a_half_turned_card_has_the_same_descriptor() -> None:
    rng = np.random.default_rng(2)
    frame, corners = card_shot(sticker_back(deck_style(1, "holdout"), "c:medium"), rng)
    turned = cv2.rotate(frame, cv2.ROTATE_180)
    h, w = frame.shape[:2]
    turned_corners = np.array([w - 1, h - 1]) - corners
    a, b = back_descriptors(frame, [corners])[0], back_descriptors(turned, [turned_corners])[0]
    other_frame, other_corners = card_shot(sticker_back(deck_style(1, "holdout"), "s:medium"), rng)
    other = back_descriptors(other_frame, [other_corners])[0]
    assert float(a @ b) > 0.99
    assert float(a @ b) > float(a @ other)  # and it tells this mark from another of the same size


@pytest.mark.parametrize("deck", [0, 1])
def test_stickers_turned_on_the_card_are_read_never_wrongly(deck: int) -> None:
    """Enrolled from each mark upright; read with the sticker turned 35, 160 and 290 degrees, on
    smaller cards in other light: no mark is named wrongly, and most are named."""
    rng = np.random.default_rng(10 + deck)
    style = deck_style(deck, "holdout")
    backs = {str(m): [_descriptor(sticker_back(style, str(m)), rng, height=200)] for m in ALL_MARKS}
    profile = DeckProfile.from_faces({"Ah": [np.ones(4)]}, model_hash="m", backs=backs)
    right = wrong = 0
    for mark in ALL_MARKS:
        for angle in (35.0, 160.0, 290.0):
            match = profile.match_backs(_descriptor(sticker_back(style, str(mark), angle=angle), rng, height=150)[None])
            right += match[0].card == str(mark)
            wrong += match[0].card not in (None, str(mark))
    assert wrong == 0
    assert right >= 20  # of 48; measured 25..32 on three hold-out styles


def test_back_descriptors_of_another_length_are_refused() -> None:
    profile = DeckProfile.from_faces({"Ah": [np.ones(4)]}, model_hash="m", backs={"h:large": [np.ones(BACK_FEATURES)]})
    with pytest.raises(ProfileError, match=rf"\(N, {BACK_FEATURES}\)"):
        profile.match_backs(np.ones((2, 7)))
    assert profile.match_backs(np.ones((0, BACK_FEATURES))) == []


def _as_version_1(path: Path) -> None:
    with np.load(path) as data:
        meta, faces, backs = json.loads(str(data["meta"])), data["faces"], data["backs"]
    meta["version"] = 1
    np.savez(path, meta=np.array(json.dumps(meta)), faces=faces, backs=backs)


def test_an_old_profile_keeps_its_faces_but_its_backs_are_refused(tmp_path: Path) -> None:
    assert PROFILE_VERSION == 2
    faces = {"Ah": [np.arange(1.0, 5.0)], "Kd": [np.arange(4.0, 0.0, -1.0)]}
    only_faces = DeckProfile.from_faces(faces, model_hash="m").save(tmp_path / "faces.npz")
    _as_version_1(only_faces)
    loaded = DeckProfile.load(only_faces, model_hash="m")
    assert loaded.cards == ("Ah", "Kd") and not loaded.marks
    with_backs = DeckProfile.from_faces(faces, model_hash="m", backs={"h:large": [np.ones(BACK_FEATURES)]})
    path = with_backs.save(tmp_path / "backs.npz")
    assert DeckProfile.load(path).marks == ("h:large",)
    _as_version_1(path)
    with pytest.raises(ProfileError, match=r"format version 1.*enroll the backs again"):
        DeckProfile.load(path)
