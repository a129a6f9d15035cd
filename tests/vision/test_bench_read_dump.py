"""bench.read_dump: readings written to the bit, and the frames whose readings differ named."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bench.read_dump import differences, main, readings
from vision.reader import CardReader
from vision.render.scene import PlacedCard, SceneSpec, render_scene


@pytest.fixture(scope="module")
def dumped() -> list[dict[str, object]]:
    cards = (PlacedCard("Ah", True, (0.3, 0.5), angle=13), PlacedCard("Kd", False, (0.65, 0.5), back="tock"))
    spec = SceneSpec(cards=cards, seed=3)
    return readings(CardReader.default().read(render_scene(spec).image))


def test_readings_read_back_from_json_to_the_same_bits(dumped: list[dict[str, object]]) -> None:
    assert [(card["card"], card["face_up"]) for card in sorted(dumped, key=lambda c: c["corners"][0][0])] == [
        ("Ah", True), (None, False)]  # fmt: skip
    again = json.loads(json.dumps(dumped))
    assert again == dumped
    corners = np.array([card["corners"] for card in dumped])
    assert corners.shape == (2, 4, 2) and not np.array_equal(corners, np.round(corners))  # real fractions kept
    assert differences({"a": dumped}, {"a": again}) == []


def test_a_difference_names_the_frame_the_card_and_what_changed(dumped: list[dict[str, object]]) -> None:
    moved = json.loads(json.dumps(dumped))
    moved[1]["corners"][2][0] = float(np.nextafter(moved[1]["corners"][2][0], np.inf))  # one bit
    moved[1]["confidence"] = 0.5
    found = differences({"table": dumped, "gone": []}, {"table": moved, "new": []})
    assert len(found) == 3
    assert found[0] == "gone: only in the first dump" and found[1] == "new: only in the second dump"
    assert found[2].startswith("table, card 1: confidence ") and "; corners " in found[2]
    assert differences({"t": dumped}, {"t": dumped[:1]}) == ["t: 2 cards read, then 1"]


def test_compare_exits_1_on_any_difference(tmp_path: Path, dumped: list[dict[str, object]],
                                           capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text(json.dumps({"t": dumped}))
    second.write_text(json.dumps({"t": dumped}))
    assert main(["--compare", str(first), str(second)]) == 0
    assert "1 frames, 2 cards: identical" in capsys.readouterr().out
    changed = json.loads(json.dumps(dumped))
    changed[0]["mark"] = "spade"
    second.write_text(json.dumps({"t": changed}))
    assert main(["--compare", str(first), str(second)]) == 1
    assert "1 difference(s)" in capsys.readouterr().out


def test_either_out_or_compare_is_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([])
    assert "give either --out FILE or --compare BEFORE AFTER" in capsys.readouterr().err
