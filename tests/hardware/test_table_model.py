import threading

import pytest

from hardware.errors import TableModelError
from hardware.table_layout import (
    BOARD,
    TableLayout,
    card_corners,
    centroid,
    default_zones,
    seat_zone,
    zone_name,
)
from hardware.table_model import TableModel
from table.errors import TocktableError
from table.polygons import inside


def config_style_zones(seats):
    """Axis-aligned 0.2 x 0.2 boxes round the edge, like the configuration file's default."""
    import math

    zones = []
    for i in range(seats):
        angle = math.pi / 2 + 2 * math.pi * i / seats
        cx, cy = 0.5 + 0.38 * math.cos(angle), 0.5 + 0.36 * math.sin(angle)
        x0, y0 = min(max(cx - 0.1, 0.0), 0.8), min(max(cy - 0.1, 0.0), 0.8)
        zones.append(((x0, y0), (x0 + 0.2, y0), (x0 + 0.2, y0 + 0.2), (x0, y0 + 0.2)))
    return zones


@pytest.mark.parametrize("seats", range(2, 11))
def test_default_layout_holds_every_card_in_its_own_zone(seats):
    layout = TableLayout.build(seats)
    assert 0.15 <= layout.card_height <= 0.22  # big enough to read at 1280x720
    zones = {name: layout.zone(name) for name in layout.zone_names()}
    for name, polygon in zones.items():
        for index in range(layout.capacity(name)):
            slot = layout.slot(name, index)
            corners = card_corners(slot.center, slot.angle, layout.card_height, layout.size)
            assert all(inside(c, polygon) for c in corners), (name, index)
            assert min(min(x, 1 - x, y, 1 - y) for x, y in corners) > 0.03  # clear of the picture's edge
            others = [n for n in zones if n != name]
            assert not any(inside(slot.center, zones[n]) for n in others), (name, index)


def test_seat_cards_face_their_player():
    layout = TableLayout.build(6)
    assert layout.facing(seat_zone(0)) == pytest.approx(0, abs=1)  # bottom centre: upright
    assert abs(layout.facing(seat_zone(3))) == pytest.approx(180, abs=1)  # top centre: upside down
    left = layout.facing(seat_zone(1))  # seat 1 is left of seat 0 on the picture (clockwise)
    assert -90 < left < 0
    # the card's bottom edge points away from the middle of the table
    for seat in range(6):
        slot = layout.slot(seat_zone(seat), 0)
        top_left, top_right, bottom_right, bottom_left = card_corners(slot.center, slot.angle, 0.2, layout.size)
        cx, cy = layout.centre
        bottom_mid = ((bottom_left[0] + bottom_right[0]) / 2, (bottom_left[1] + bottom_right[1]) / 2)
        top_mid = ((top_left[0] + top_right[0]) / 2, (top_left[1] + top_right[1]) / 2)
        far = (bottom_mid[0] - cx) ** 2 + (bottom_mid[1] - cy) ** 2
        near = (top_mid[0] - cx) ** 2 + (top_mid[1] - cy) ** 2
        assert far > near, seat


def test_config_style_zones_get_smaller_cards_that_still_fit():
    board = ((0.3, 0.38), (0.7, 0.38), (0.7, 0.62), (0.3, 0.62))
    layout = TableLayout.build(10, board=board, seat_zones=config_style_zones(10))
    assert 0.06 < layout.card_height < TableLayout.build(10).card_height
    for name in layout.zone_names():
        angle = layout.facing(name)
        assert round(angle) % 90 == 0  # boxes: cards line up with the box edges
        for index in range(layout.capacity(name)):
            slot = layout.slot(name, index)
            corners = card_corners(slot.center, slot.angle, layout.card_height, layout.size)
            assert all(inside(c, layout.zone(name)) for c in corners)


def test_zone_names_and_bad_zones():
    assert zone_name(3) == "seat:3" and zone_name("seat:3") == "seat:3" and zone_name("board") == BOARD
    for bad in ("seat", "seat:x", "pot", True):
        with pytest.raises(TableModelError, match="is not a zone"):
            zone_name(bad)
    with pytest.raises(TableModelError, match="outside the picture"):
        TableModel(2, board_zone=((0, 0), (1.5, 0), (1, 1)))
    with pytest.raises(TableModelError, match="no area"):
        TableModel(2, board_zone=((0, 0), (0.5, 0.5), (1, 1)))
    with pytest.raises(TableModelError, match="3 seat zones were given for 2 seats"):
        TableModel(2, seat_zones=config_style_zones(3))
    with pytest.raises(TableModelError, match="2 to 10 seats"):
        default_zones(11)
    with pytest.raises(TableModelError, match="card height"):
        TableModel(2, card_height=0.9)
    with pytest.raises(TableModelError, match="back"):
        TableModel(2, back="fancy")


def test_board_cards_lie_left_to_right_in_the_board_zone():
    model = TableModel(6, seed=4)
    flop = model.deal_board(["7c", "8c", "9h"])
    turn = model.deal("Td", zone="board", face_up=True)
    cards = model.state().in_zone("board")
    assert [c.card for c in cards] == ["7c", "8c", "9h", "Td"] and cards[-1] == turn
    xs = [c.center[0] for c in cards]
    assert xs == sorted(xs) and all(c.face_up for c in cards)
    assert all(inside(c.center, model.zones[BOARD]) for c in cards)
    assert max(abs(c.angle) for c in flop) < 5  # a little crooked, as dealt by hand
    assert max(c.center[1] for c in cards) - min(c.center[1] for c in cards) < 0.02


def test_hole_cards_side_by_side_face_down():
    model = TableModel(6, seed=4)
    first, second = model.deal_hole(0, ["Ah", "Kd"])
    assert not first.face_up and not second.face_up
    assert (first.zone, first.slot, second.slot) == ("seat:0", 0, 1)
    assert first.center[0] < second.center[0]  # seat 0 faces up the picture: left to right
    zone = model.zones["seat:0"]
    assert inside(first.center, zone) and inside(second.center, zone)
    gap = (second.center[0] - first.center[0]) * model.size[0]
    width = model.card_height * model.size[1] * 63 / 88
    assert width < gap < 1.4 * width  # side by side, not stacked, not far apart


def test_turn_show_move_muck_gather():
    model = TableModel(4, seed=1)
    model.deal_hole(1, ["Ah", "Kd"])
    model.deal_hole(2, ["2c", "3c"])
    assert model.turn("Ah").face_up and not model.turn("Ah").face_up
    assert model.turn("ah", face_up=True).face_up  # any spelling of the card
    shown = model.show(2)
    assert [c.face_up for c in shown] == [True, True]
    moved = model.move("Kd", zone="board")
    assert moved.zone == BOARD and moved.slot == 0 and not moved.face_up
    model.deal("Qs", zone=1)  # the slot Kd left is free again
    assert [c.card for c in model.state().in_zone(1)] == ["Ah", "Qs"]
    assert [c.card for c in model.muck(1)] == ["Ah", "Qs"]
    assert model.state().in_zone(1) == ()
    loose = model.deal("Jh", at=(0.1, 0.1), angle=30, face_up=True)
    assert loose.zone is None and loose.center == (0.1, 0.1) and loose.angle == 30
    assert model.remove("Jh") == loose
    assert {c.card for c in model.gather()} == {"2c", "3c", "Kd"}
    assert model.state().cards == ()


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda m: m.deal("Ah", zone=0), "already on the table"),
        (lambda m: m.deal("Zz", zone=0), "not a card"),
        (lambda m: m.deal("2c", zone=9), "no seat 10: seats are 1..4"),
        (lambda m: m.deal("2c", zone="seat:-1"), "not a zone"),
        (lambda m: m.deal("2c", zone=0), "seat:0 is full"),
        (lambda m: m.deal("2c", zone=1, slot=2), "slots 0..1"),
        (lambda m: m.deal("2c", zone="board", slot=0), "slot 0 of board already holds"),
        (lambda m: m.deal("2c"), "say where"),
        (lambda m: m.deal("2c", zone=1, at=(0.5, 0.5)), "say where"),
        (lambda m: m.deal("2c", at=(0.5, 1.5)), "outside the picture"),
        (lambda m: m.deal("2c", at=(0.5, 0.5), slot=1), "slot only applies"),
        (lambda m: m.deal_hole(1, ["2c", "3c", "4c"]), "seat:1 is full"),
        (lambda m: m.deal_hole(1, ["2c", "Ah"]), "Ah is already on the table"),
        (lambda m: m.deal_hole(1, ["2c", "2c"]), "the same card twice"),
        (lambda m: m.turn("2c"), "2c is not on the table"),
        (lambda m: m.move("2c", zone=1), "not on the table"),
        (lambda m: m.move("Ah", zone=1, at=(0.2, 0.2)), "say where"),
        (lambda m: m.show(7), "no seat 8: seats are 1..4"),
        (lambda m: m.muck(-1), "no seat 0: seats are 1..4"),
        (lambda m: m.set_hands(9), "0..4"),
    ],
)
def test_impossible_requests_raise_and_change_nothing(action, message):
    model = TableModel(4, seed=2)
    model.deal_hole(0, ["Ah", "Kd"])
    model.deal("9s", zone="board", face_up=True)
    before = model.state()
    with pytest.raises(TableModelError, match=message) as info:
        action(model)
    assert isinstance(info.value, ValueError) and isinstance(info.value, TocktableError)
    assert model.state() == before


def test_placement_is_steady_and_reproducible():
    one, two = TableModel(6, seed=11), TableModel(6, seed=11)
    for model in (one, two):
        model.deal_hole(3, ["Ah", "Kd"])
        model.deal_board(["2c", "3c", "4c"])
    assert one.state().cards == two.state().cards  # same seed, same table
    assert one.state().cards == one.state().cards  # nothing moves between frames
    slot = one.layout.slot("seat:3", 0)
    ah = one.state().find("Ah")
    assert ah.center != slot.center or ah.angle != slot.angle  # put down by hand, not by robot
    one.gather()
    one.deal_hole(3, ["Ah", "Kd"])
    assert one.state().find("Ah") != ah  # a new placement wobbles differently
    assert {TableModel(6).seed for _ in range(5)} != {TableModel(6).seed}  # no seed: one per session


def test_blank_copies_the_table_not_the_cards():
    model = TableModel(5, seed=8, card_height=0.12, back="tock")
    model.deal_hole(0, ["Ah", "Kd"])
    copy = model.blank()
    assert copy.state().cards == () and copy.seed == 8 and copy.card_height == 0.12 and copy.back == "tock"
    assert copy.zones == model.zones


def test_a_dealer_thread_and_a_camera_thread_agree():
    model = TableModel(6, seed=3)
    stop = threading.Event()
    problems: list[str] = []

    def dealer() -> None:
        ranks = "23456789TJQKA"
        while not stop.is_set():
            for seat in range(6):
                model.deal_hole(seat, [f"{ranks[seat]}c", f"{ranks[seat]}d"])
            model.deal_board(["Ah", "As", "Ad"])
            model.show(2)
            model.gather()

    def camera() -> None:
        for _ in range(3000):
            state = model.state()
            names = [c.card for c in state.cards]
            places = [(c.zone, c.slot) for c in state.cards]
            if len(set(names)) != len(names) or len(set(places)) != len(places):
                problems.append(f"inconsistent table: {names}")
            if state.in_zone("board") and len(state.cards) != 15:
                problems.append("board dealt before every seat had its cards")

    threads = [threading.Thread(target=dealer), threading.Thread(target=camera)]
    threads[0].start()
    threads[1].start()
    threads[1].join()
    stop.set()
    threads[0].join()
    assert problems == []


def test_centroid_and_inside():
    square = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    assert centroid(square) == pytest.approx((0.5, 0.5))
    assert inside((0.5, 0.5), square) and not inside((1.5, 0.5), square)
