"""The service's card reader takes the deck profile from the data directory (tocktable enroll)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from tocktable.camera import VisionWatcher
from tocktable.run import vision_watcher
from vision.deck_profile import PROFILE_NAME, DeckProfile
from vision.reader import MODELS_DIR

pytestmark = pytest.mark.skipif(not (MODELS_DIR / "corners.onnx").is_file(), reason="no shipped models")
ZONES = {"board": [(0.25, 0.35), (0.75, 0.35), (0.75, 0.65), (0.25, 0.65)]}


def _profile(model_hash: str, width: int) -> DeckProfile:
    rng = np.random.default_rng(2)
    return DeckProfile.from_faces({c: [rng.normal(size=width)] for c in ("Ah", "Kd")}, model_hash=model_hash)


def test_no_profile_a_profile_and_a_stale_one(tmp_path: Path) -> None:
    watcher = VisionWatcher.default(ZONES, size=(1280, 720), data_dir=tmp_path)
    assert watcher.reader.profile is None and "no deck profile" in watcher.profile_note
    reader = watcher.reader
    _profile(reader.model_hash, reader.embedding_size).save(tmp_path / PROFILE_NAME)
    watcher = VisionWatcher.default(ZONES, size=(1280, 720), data_dir=tmp_path)
    assert watcher.reader.profile is not None and watcher.reader.profile.cards == ("Ah", "Kd")
    assert "using the deck profile" in watcher.profile_note and "(2 cards)" in watcher.profile_note
    _profile("other-models", reader.embedding_size).save(tmp_path / PROFILE_NAME)
    out = io.StringIO()
    watcher = vision_watcher(ZONES, (1280, 720), out, data_dir=tmp_path)
    assert watcher is not None and watcher.reader.profile is None  # type: ignore[attr-defined]
    assert "Card reader: ready; deck profile not used" in out.getvalue() and "other models" in out.getvalue()


def test_the_watcher_watches_a_board_holding_a_joker(tmp_path: Path) -> None:
    """The camera side takes every card the reader can name: a joker on the board (the reader's
    card id past the 52) is seen as "Jk" and kept among the deck learner's samples."""
    from vision.render.scene import PlacedCard, SceneSpec, render_scene

    cards = tuple(PlacedCard(card, True, (x, 0.5), angle=0.0, height=0.22)
                  for card, x in (("7c", 0.35), ("Jk", 0.5), ("Qd", 0.65)))  # fmt: skip
    scene = render_scene(SceneSpec(cards=cards, seed=3, deck="holdout-3", clean=True))
    watcher = VisionWatcher.default(ZONES, size=(1280, 720), data_dir=tmp_path)
    for frame in range(3):
        seen = watcher.watch(scene.image, index=frame, timestamp=frame / 10)
    assert "Jk" in [c.card for c in seen.board]
    assert "Jk" in [s.read for _, s in watcher._samples]
