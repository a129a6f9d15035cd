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


def test_the_watcher_hands_the_tracker_only_what_the_reader_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With a data directory the watcher takes the reader's evidence (for the deck learner's samples);
    # the tracker must still get only the reported cards: not a back from a partial, poorly fitting outline.
    from vision.evidence import BACK_FIT, Evidence
    from vision.rectify import Pyramid

    watcher = VisionWatcher.default(ZONES, size=(1280, 720), data_dir=tmp_path)
    assert watcher.learner is not None
    image = np.full((720, 1280, 3), 40, np.uint8)
    reader = watcher.reader

    def evidence(frame: np.ndarray) -> Evidence:
        card = np.array([[0.0, 0], [60, 0], [60, 84], [0, 84]])
        corners = np.stack([card + np.array([500, 300]), card + np.array([700, 300])])
        ev = Evidence(image, Pyramid(image), 0.8, corners, np.array([False, True]), np.array([0.9, BACK_FIT - 0.1]),
                      reader.embedding_size, reader.card_embedding_size)  # fmt: skip
        ev.p_face[:] = 0.1  # two backs, the second from a partial outline that fits poorly
        return ev

    handed: list[object] = []
    update = watcher.tracker.update
    monkeypatch.setattr(reader, "evidence", evidence)
    monkeypatch.setattr(watcher.tracker, "update", lambda seen, **kw: handed.append(seen) or update(seen, **kw))
    watcher.watch(image, index=0, timestamp=0.0)
    (seen,) = handed
    assert [float(c[0, 0]) for c in seen.corners] == [500.0]  # type: ignore[attr-defined]
