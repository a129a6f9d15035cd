"""reader.json's calibration values as the reader loads them (vision.reader.ReaderSettings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.errors import ModelError
from vision.reader import MODELS_DIR, ReaderSettings


def _settings_with(tmp_path: Path, **changes: object) -> Path:
    data = json.loads((MODELS_DIR / "reader.json").read_text())
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    path = tmp_path / "reader.json"
    path.write_text(json.dumps(data))
    return path


def test_the_corners_dependence_is_read_and_defaults_to_independent(tmp_path: Path) -> None:
    assert ReaderSettings.load(_settings_with(tmp_path, dependence=0.625)).dependence == 0.625
    assert ReaderSettings.load(_settings_with(tmp_path, dependence=None)).dependence == 0.0


@pytest.mark.parametrize("bad", [-0.5, 2.0, "much"])
def test_a_dependence_outside_0_to_1_is_a_model_error(tmp_path: Path, bad: object) -> None:
    with pytest.raises(ModelError, match=r"dependence|usable"):
        ReaderSettings.load(_settings_with(tmp_path, dependence=bad))


def test_the_shipped_settings_are_in_range() -> None:
    settings = ReaderSettings.load(MODELS_DIR / "reader.json")
    assert settings.temperature > 0.0
    assert 0.5 <= settings.threshold < 1.0
    assert 0.0 <= settings.dependence <= 1.0


def test_the_smallest_card_named_is_the_corner_models_smallest_training_card(tmp_path: Path) -> None:
    assert ReaderSettings.load(MODELS_DIR / "reader.json").min_card_height == 75.0  # vision.train.data: 75-360 px
    assert ReaderSettings.load(_settings_with(tmp_path, min_card_height=None)).min_card_height == 0.0
    for bad in (-1, "tall"):
        with pytest.raises(ModelError, match=r"min_card_height|usable"):
            ReaderSettings.load(_settings_with(tmp_path, min_card_height=bad))


@pytest.mark.parametrize(("stages", "expert"), [("find,corners", False), (["find", 3], False), (["find"], "yes")])
def test_stages_and_expert_of_the_wrong_type_are_model_errors(tmp_path: Path, stages: object, expert: object) -> None:
    with pytest.raises(ModelError, match=r"stages|expert"):
        ReaderSettings.load(_settings_with(tmp_path, stages=stages, expert=expert))


def test_the_caution_for_small_cards_is_read_and_checked(tmp_path: Path) -> None:
    shipped = ReaderSettings.load(MODELS_DIR / "reader.json").caution
    assert shipped and all(75.0 < h < 200.0 and 0.78 < t < 1.0 for h, t in shipped)  # above the smallest card named
    assert ReaderSettings.load(_settings_with(tmp_path, caution=None)).caution == ()
    assert ReaderSettings.load(_settings_with(tmp_path, caution=[[100, 0.999]])).caution == ((100.0, 0.999),)
    for bad in ([[100, 1.5]], [[-3, 0.9]], [[100]], "high", [[100, "sure"]]):
        with pytest.raises(ModelError, match=r"caution|usable"):
            ReaderSettings.load(_settings_with(tmp_path, caution=bad))


def test_the_readers_evidence_carries_the_caution_of_its_settings() -> None:
    import numpy as np

    from vision.reader import CardReader

    reader = CardReader.default()
    frame = np.full((360, 640, 3), 90, np.uint8)
    assert reader.evidence(frame).caution == reader.settings.caution != ()
