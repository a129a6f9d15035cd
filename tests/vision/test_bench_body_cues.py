"""bench.body_cues: the body check's cues tallied on rendered scenes, by rank class."""

from __future__ import annotations

from collections import Counter

from bench.body_cues import measure, rank_class
from vision.reader import MODELS_DIR, CardReader


def test_rank_classes() -> None:
    assert [rank_class(r) for r in (0, 8, 9, 11, 12)] == ["number", "number", "court", "court", "ace"]


def test_one_scene_is_tallied_by_class_and_no_number_card_is_miscounted() -> None:
    tally: Counter[str] = Counter()
    measure(CardReader(MODELS_DIR), "holdout", "en", touching=False, scenes=1, tally=tally)
    cards = sum(tally[f"holdout {kind} cards"] for kind in ("number", "court", "ace"))
    assert cards >= 5  # the face-up cards of one scene of twelve
    assert tally["holdout number count"] >= 1 and tally["holdout number count wrong"] == 0
    assert tally["holdout number right vetoed"] == 0
    assert all(key.startswith("holdout ") for key in tally)
