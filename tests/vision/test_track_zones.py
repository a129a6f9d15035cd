"""Zones for the tracker: validation, which zone holds a point, the ordering axis."""

from __future__ import annotations

import pytest

from hardware.table_layout import default_zones
from table.errors import TocktableError
from tocktable.config import Config
from vision.zones import OUTSIDE, TableZones, ZoneError

BOX = [(0.3, 0.4), (0.7, 0.4), (0.7, 0.6), (0.3, 0.6)]


def test_config_and_table_layout_zones_are_accepted() -> None:
    config = Config()
    mapping = {"board": config.zones.board, **{f"seat:{i}": z for i, z in enumerate(config.seat_zones())}}
    zones = TableZones.from_mapping(mapping, size=config.camera.size)
    assert zones.names[0] == "board" and len(zones) == 1 + config.table.seats
    board, seats = default_zones(9)
    layout = TableZones.from_mapping({"board": board, **{f"seat:{i}": z for i, z in enumerate(seats)}})
    assert layout.names == ("board", *(f"seat:{i}" for i in range(9)))
    assert layout.zone("seat:4").seat == 4 and layout.zone("board").seat is None


def test_a_point_belongs_to_the_zone_that_holds_it_the_smallest_when_they_overlap() -> None:
    inner = [(0.45, 0.45), (0.55, 0.45), (0.55, 0.55), (0.45, 0.55)]
    zones = TableZones.from_mapping({"board": BOX, "seat:2": inner})
    assert zones.zone_of((0.5, 0.5)) == "seat:2"
    assert zones.zone_of((0.35, 0.5)) == "board"
    assert zones.zone_of((0.9, 0.9)) == OUTSIDE == ""


def test_a_polygon_zone_that_is_not_convex() -> None:
    ell = [(0.1, 0.1), (0.5, 0.1), (0.5, 0.2), (0.2, 0.2), (0.2, 0.5), (0.1, 0.5)]
    zones = TableZones.from_mapping({"seat:0": ell})
    assert zones.zone_of((0.15, 0.4)) == "seat:0"
    assert zones.zone_of((0.4, 0.4)) == ""


def test_the_board_is_ordered_along_its_long_axis_left_to_right() -> None:
    wide = TableZones.from_mapping({"board": BOX})
    assert wide.zone("board").axis == pytest.approx((1.0, 0.0))
    tall = TableZones.from_mapping({"board": [(0.45, 0.1), (0.55, 0.1), (0.55, 0.9), (0.45, 0.9)]})
    assert tall.zone("board").axis == pytest.approx((0.0, 1.0))  # an upright board reads top down
    # 0.4 x 0.3 of a 1280 x 720 picture is 512 x 216 pixels: wide, though nearly square in 0..1 units
    squat = TableZones.from_mapping({"board": [(0.3, 0.35), (0.7, 0.35), (0.7, 0.65), (0.3, 0.65)]})
    assert squat.zone("board").axis == pytest.approx((1.0, 0.0))
    portrait = TableZones.from_mapping(squat.as_mapping(), size=(400, 1000))
    assert portrait.zone("board").axis == pytest.approx((0.0, 1.0))


def test_seat_order_follows_the_players_right_hand() -> None:
    board, seats = default_zones(6)
    zones = TableZones.from_mapping({"board": board, **{f"seat:{i}": z for i, z in enumerate(seats)}})
    for i in range(6):
        zone = zones.zone(f"seat:{i}")
        centre = zones.zone("board").centre_px
        facing = (centre[0] - zone.centre_px[0], centre[1] - zone.centre_px[1])
        cross = facing[0] * zone.axis[1] - facing[1] * zone.axis[0]
        assert cross > 0, f"seat {i}: order axis {zone.axis} is not the player's right hand"
    bottom = zones.zone("seat:0")
    assert bottom.axis[0] > 0.99  # the player at the bottom of the picture: left to right


@pytest.mark.parametrize(
    ("mapping", "words"),
    [
        ({"boards": BOX}, "not allowed"),
        ({"seat:-1": BOX}, "not allowed"),
        ({"seat:01": BOX}, "not allowed"),
        ({"seat": BOX}, "not allowed"),
        ({3: BOX}, "not text"),
        ({"board": BOX[:2]}, "at least 3 points"),
        ({"board": [(0.1, 0.1), (1.2, 0.1), (0.5, 0.5)]}, "off the picture"),
        ({"board": [(0.1, 0.1), (float("nan"), 0.1), (0.5, 0.5)]}, "off the picture"),
        ({"board": [(0.1, 0.1), (0.2, 0.2), (0.3, 0.3)]}, "no area"),
        ({"board": "everywhere"}, "list of"),
        ({"board": [(0.1,), (0.2, 0.2), (0.3, 0.1)]}, "list of"),
    ],
)
def test_bad_zones_are_refused_with_a_reason(mapping: dict[object, object], words: str) -> None:
    with pytest.raises(ZoneError, match=words) as caught:
        TableZones.from_mapping(mapping)  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, TocktableError)


def test_bad_sizes_and_unknown_zones_are_refused() -> None:
    with pytest.raises(ZoneError, match="frame size"):
        TableZones.from_mapping({"board": BOX}, size=(1280,))  # type: ignore[arg-type]
    with pytest.raises(ZoneError, match="no zone 'seat:7'"):
        TableZones.from_mapping({"board": BOX}).zone("seat:7")
    with pytest.raises(ZoneError, match="mapping"):
        TableZones.from_mapping([("board", BOX)])  # type: ignore[arg-type]
