"""The detector's training tables (vision.train.seg_data) and what the shipped detector learned
from the face-down rows among them."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from vision.mark_reader import PLAIN
from vision.reader import MODELS_DIR, CardReader
from vision.scene import BACKS, TABLES, PlacedCard, SceneSpec, deal_rows, render_scene
from vision.train.seg_data import PALE_TABLES, down_rows, sample


def test_rows_zero_renders_the_tables_it_did_before() -> None:
    a, b = sample(11, 0.6), sample(11, 0.6, 0.0)
    assert np.array_equal(a.image, b.image) and np.array_equal(a.target, b.target)


def test_face_down_rows_are_mostly_backs_on_light_tables() -> None:
    rng = np.random.default_rng(3)
    backs: Counter[str] = Counter()
    tables: Counter[str] = Counter()
    face_up = cards = 0
    for _ in range(200):
        placed, table = down_rows(rng)
        assert 6 <= len(placed) <= 14 and table in TABLES
        tables[table] += 1
        for card in placed:
            cards += 1
            face_up += card.face_up
            backs[card.back] += 1
            assert card.back in BACKS
    assert face_up / cards < 0.2
    assert 0.5 < backs["tock"] / cards < 0.7 and backs[PLAIN] > 0 and len(backs) > 3
    assert sum(tables[t] for t in PALE_TABLES) / 200 > 0.6


def test_a_rows_sample_is_a_16_by_9_table_with_cards_in_its_targets() -> None:
    s = sample(4, 0.6, 1.0)
    assert s.image.shape == (180, 320, 3)
    assert s.target.shape == (2, 90, 160) and 0.03 < float(s.target[0].mean()) < 0.5
    assert float(s.target[1].max()) == 1.0 and (s.target[1] <= s.target[0] + 1e-6).all()


@pytest.fixture(scope="module")
def reader() -> CardReader:
    if not (MODELS_DIR / "detector.onnx").is_file():
        pytest.skip("no shipped detector")
    return CardReader(MODELS_DIR)


def test_face_down_rows_on_a_white_cloth_are_all_found_and_never_read_wrong(reader: CardReader) -> None:
    """Rows of Tock backs on a white cloth (where a lamp's glare on the cloth looked like a card
    to the base detector): every card found, every mark the card reader reports right or unsure."""
    rng = np.random.default_rng(29)
    found = cards = right = 0
    for k in range(4):
        number = 29_000 + k
        placed = tuple(PlacedCard(c.card, False, c.center, angle=c.angle, height=c.height, back="tock")
                       for c in deal_rows(rng))  # fmt: skip
        scene = render_scene(SceneSpec(cards=placed, seed=number, deck=f"holdout-{number}", table="white-cloth"))
        seen = reader.read(scene.image)
        for truth in scene.truth:
            cards += 1
            centre = truth.corners.mean(axis=0)
            hits = [i for i, c in enumerate(seen.corners) if np.linalg.norm(c.mean(axis=0) - centre) < 20]
            if not hits:
                continue
            found += 1
            mark = seen[hits[0]].mark
            assert mark in (truth.mark, None), (number, truth.mark, mark)
            right += mark == truth.mark
    assert found == cards == 48, (found, cards)
    assert right >= 46, right
