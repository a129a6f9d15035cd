"""Zones drawn on the set-up page: checked with messages saying what is allowed, written whole,
read back, and the configuration file's zones winning."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tocktable.config import parse_config
from tocktable.table_zones import (
    ZONES_FILE,
    ZoneKeeper,
    ZonesError,
    ZonesLocked,
    check_zones,
    load_zones,
    save_zones,
)


def box(x: float, y: float, size: float = 0.1) -> list[list[float]]:
    return [[x, y], [x + size, y], [x + size, y + size], [x, y + size]]


def zones(seats: int = 3, **changes: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"board": box(0.4, 0.4), **{f"seat:{i}": box(0.1 + 0.25 * i, 0.8) for i in range(seats)}}
    out.update(changes)
    return out


@pytest.mark.parametrize(("data", "says"), [
    ([], "zones must be a JSON object"),
    (zones(**{"seat:3": box(0.1, 0.1)}),
     'unknown zone(s) seat:3: this table\'s zones are "board" and "seat:0" .. "seat:2"'),
    ({k: v for k, v in zones().items() if k != "seat:1"}, "missing zone(s) for seat 2"),
    (zones(board=[[0.1, 0.1], [0.2, 0.2]]), "board: a zone is a list of 3 to 32 points"),
    (zones(**{"seat:0": [[0.1, 0.1], [0.2, "x"], [0.3, 0.1]]}), "seat 1: every point is [x, y], two numbers"),
    (zones(**{"seat:2": [[0.1, 0.1], [1.2, 0.1], [0.3, 0.3]]}), "seat 3: point [1.2, 0.1] is outside the picture"),
    (zones(board=[[0.1, 0.1], [0.2, 0.2], [0.3, 0.3]]), "board: the zone is too small or flat"),
    (zones(board=[[True, 0.1], [0.2, 0.2], [0.3, 0.1]]), "board: every point is [x, y]"),
])  # fmt: skip
def test_zones_that_cannot_be_used_say_what_is_allowed(data: Any, says: str) -> None:
    with pytest.raises(ZonesError) as error:
        check_zones(data, 3)
    assert says in str(error.value)


def test_saved_zones_are_read_back_and_no_temporary_file_is_left(tmp_path: Path) -> None:
    good = check_zones(zones(), 3)
    path = save_zones(tmp_path, good)
    assert path == tmp_path / ZONES_FILE
    assert [p.name for p in tmp_path.iterdir()] == [ZONES_FILE]
    assert load_zones(tmp_path, 3) == (good, None)
    assert load_zones(tmp_path / "nowhere", 3) == (None, None)


def test_a_damaged_or_other_tables_file_is_not_used_and_says_why(tmp_path: Path) -> None:
    (tmp_path / ZONES_FILE).write_text("{not json")
    saved, note = load_zones(tmp_path, 3)
    assert saved is None and note is not None and "is not used" in note
    save_zones(tmp_path, check_zones(zones(), 3))
    saved, note = load_zones(tmp_path, 4)  # saved for three seats, the table has four
    assert saved is None and note is not None and "missing zone(s) for seat 4" in note
    keeper = ZoneKeeper(tmp_path, 4, default=zones(4))
    assert keeper.source == "default" and keeper.note == note


def test_the_keeper_saves_uses_and_keeps_its_zones_across_a_restart(tmp_path: Path) -> None:
    given: list[dict[str, Any]] = []
    keeper = ZoneKeeper(tmp_path, 3, default=zones(), use=[given.append])
    assert keeper.current()["source"] == "default" and len(given) == 1
    moved = zones(board=box(0.5, 0.3, 0.2))
    assert keeper.save(moved)["source"] == "saved"
    assert given[-1]["board"] == box(0.5, 0.3, 0.2)
    with pytest.raises(ZonesError):
        keeper.save(zones(board=[[0, 0], [2, 0], [0, 1]]))
    assert keeper.current()["zones"]["board"] == box(0.5, 0.3, 0.2) and len(given) == 2
    again = ZoneKeeper(tmp_path, 3, default=zones())
    assert again.current()["source"] == "saved" and again.current()["zones"]["board"] == box(0.5, 0.3, 0.2)


def test_the_configuration_files_zones_win_and_cannot_be_changed(tmp_path: Path) -> None:
    save_zones(tmp_path, check_zones(zones(), 3))
    configured = zones(board=box(0.3, 0.3, 0.3))
    keeper = ZoneKeeper(tmp_path, 3, default=zones(), configured=configured)
    assert keeper.locked and keeper.current()["zones"]["board"] == box(0.3, 0.3, 0.3)
    with pytest.raises(ZonesLocked, match="configuration file sets the zones"):
        keeper.save(zones())
    assert json.loads((tmp_path / ZONES_FILE).read_text())["zones"] == check_zones(zones(), 3)


def test_the_configuration_says_whether_it_sets_the_zones() -> None:
    assert not parse_config({}).zones.given
    assert parse_config({"zones": {"board": [0.2, 0.2, 0.8, 0.8]}}).zones.given
    seats = [[0.1 * i, 0.0, 0.1 * i + 0.1, 0.1] for i in range(6)]
    assert parse_config({"zones": {"seats": seats}}).zones.given
