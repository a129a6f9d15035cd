"""The host's camera page shows the latest frame, annotated, with peeks blacked out: the demo's
camera reaches the page (tocktable.tap.CameraTap), checked with the Flask client."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import pytest

from hardware.frames import Frame
from hardware.table_model import TableModel
from tocktable.camera import TruthWatcher, perfect_picture
from tocktable.config import load_config
from tocktable.run import DemoOptions, open_demo
from tocktable.steps import Tick
from tocktable.tap import CameraTap, ShownFrame

PIN = "135790"


def login(client: Any) -> None:
    html = client.get("/admin").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert token is not None
    response = client.post("/admin/login", data={"pin": PIN, "csrf_token": token.group(1)})
    assert response.status_code == 302


def decode(data: bytes) -> np.ndarray:
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None, "the frame does not decode as an image"
    return image


def inner(corners: Any, size: tuple[int, int], shrink: float = 0.6) -> np.ndarray:
    """A mask of the middle of a card (its quad shrunk about its centre: JPEG blurs the edges)."""
    width, height = size
    quad = np.array([[x * width, y * height] for x, y in corners])
    centre = quad.mean(axis=0)
    quad = centre + (quad - centre) * shrink
    mask = np.zeros((height, width), np.uint8)
    cv2.fillPoly(mask, [quad.round().astype(np.int32)], 1)
    return mask.astype(bool)


@pytest.fixture
def demo(tmp_path):
    config = load_config(None, data_dir=tmp_path)
    config = replace(config, web=replace(config.web, admin_pin=PIN))
    options = DemoOptions(data_dir=tmp_path / "demo", fast=True, seed=11, web=True, port=0, camera="perfect")
    with open_demo(config, options, out=io.StringIO()) as running:
        running.app.config["TESTING"] = True
        yield running


def play_until(demo: Any, done: Any, *, limit: int = 400) -> dict[str, Any]:
    """The fast demo's moves, one at a time, until ``done(snapshot)``."""
    demo.feed_camera()
    for _ in range(limit):
        snap = demo.service.snapshot().to_dict()
        if done(snap):
            return snap
        move = demo.next_move()
        if move is None:
            demo.clock.advance(1.0)
            demo.service.call(Tick())
        else:
            move()
            demo.service.sync()
            demo.clock.advance(0.6)
        demo.feed_camera()
    raise AssertionError(f"not reached in {limit} moves: {demo.service.game.describe_phase()}")


def test_the_demo_camera_page_shows_the_annotated_frame_at_the_cameras_size(demo):
    client = demo.app.test_client()
    login(client)
    play_until(demo, lambda s: s["phase"] == "playing" and s["street"] == "flop")
    response = client.get("/admin/camera/frame.jpg")
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    image = decode(response.data)
    width, height = demo.model.size
    assert image.shape == (height, width, 3)
    view = client.get("/admin/camera/view.json").get_json()
    assert view["camera"] is True and view["annotated"] is True and view["size"] == [width, height]
    assert set(view["zones"]) == set(demo.model.zones)  # the camera's zones, not the config's
    assert [c["card"] for c in view["cards"] if c["zone"] == "board"] == demo.service.snapshot().to_dict()["board"]
    raw = perfect_picture(demo.model)().astype(np.int16)  # the perfect camera's picture
    board = np.array(demo.model.zones["board"]) * (width, height)
    edge = np.zeros((height, width), np.uint8)  # the board zone's outline is drawn on the picture
    cv2.polylines(edge, [board.round().astype(np.int32)], True, 1, 3)
    outline = edge.astype(bool)
    assert np.abs(image.astype(np.int16)[outline] - raw[outline]).mean() > 25
    assert np.abs(image.astype(np.int16) - raw).mean() < 40  # the table itself is still there
    for card in demo.service.view.board:  # each board card's outline lies on the card drawn
        assert raw[inner(card.corners, demo.model.size, 0.9)].mean() > 170  # a tilted picture: 118..158


def test_a_peek_is_blacked_out_on_the_demo_picture_until_the_showdown(demo):
    client = demo.app.test_client()
    login(client)
    play_until(demo, lambda s: s["phase"] == "playing" and s["street"] == "preflop" and s["to_act"] is not None
               and any(demo.model.state().in_zone(p["seat"]) for p in s["seats"]))  # fmt: skip
    seat = next(p["seat"] for p in demo.service.snapshot().to_dict()["seats"] if demo.model.state().in_zone(p["seat"]))
    demo.model.show(seat)  # a player turns their cards up at the table before the showdown
    demo.feed_camera()
    assert demo.service.snapshot().to_dict()["street"] == "preflop"
    peeked = demo.service.view.seat_cards(seat)
    assert peeked and all(card.face_up for card in peeked)
    image = decode(client.get("/admin/camera/frame.jpg").data)
    raw = perfect_picture(demo.model)()
    for card in peeked:
        middle = inner(card.corners, demo.model.size)
        assert raw[middle].mean() > 90, "the rendered card face is bright"
        assert image[middle].mean() < 60, "the peeked card is blacked out on the host's picture"
    view = client.get("/admin/camera/view.json").get_json()
    assert all(c["hidden"] and c["card"] is None for c in view["cards"] if c["zone"] == f"seat:{seat}")


# ------------------------------------------------------------------------------- the tap itself
def table_with_a_peek() -> tuple[TableModel, tuple[Any, ...]]:
    """A table with seat 1's cards face up, and those cards as a perfect camera sees them."""
    model = TableModel(3, seed=5)
    model.deal_hole(1, ["Ah", "Kd"], face_up=True)
    return model, TruthWatcher(model).watch(None).seat_cards(1)


def test_the_tap_annotates_once_per_frame_and_hides_seat_faces_unless_public():
    model, _ = table_with_a_peek()
    public = [False]
    tap = CameraTap(model.zones, public=lambda: public[0], render=model.frame)
    assert tap.read() is None  # nothing recorded yet
    view = TruthWatcher(model).watch(None, index=3, timestamp=1.0)
    tap.record(None, index=3, timestamp=1.0, view=view)
    shown = tap.read()
    assert isinstance(shown, ShownFrame) and shown.index == 3 and shown.annotated
    assert shown.image.shape == (model.size[1], model.size[0], 3)
    assert tap.read() is shown  # drawn once per frame, however often the page asks
    assert tap.read(newer_than=3) is None
    cards = view.seat_cards(1)
    for card in cards:
        assert shown.image[inner(card.corners, model.size)].mean() < 60  # blacked out (but its label): a peek
    public[0] = True  # the showdown
    at_showdown = tap.read()
    assert at_showdown is not shown
    for card in cards:
        assert at_showdown.image[inner(card.corners, model.size)].mean() > 90


def test_the_tap_covers_a_peek_the_reader_missed_until_public():
    model, cards = table_with_a_peek()
    public = [False]
    tap = CameraTap(model.zones, public=lambda: public[0], render=model.frame)
    missed = replace(TruthWatcher(model).watch(None, index=4, timestamp=1.0), seats={})  # only the board read
    tap.record(None, index=4, timestamp=1.0, view=missed)
    shown = tap.read()
    assert shown is not None
    raw = model.frame()
    zone = inner(model.zones["seat:1"], model.size, 0.9)
    assert raw[zone].max() > 90  # the face-up cards are in the picture
    assert shown.image[zone].max() < 60  # every pixel of the seat zone is dark
    public[0] = True
    for card in cards:
        assert tap.read().image[inner(card.corners, model.size)].mean() > 90


def test_the_tap_shows_a_camera_without_a_reader_with_every_seat_covered():
    model, cards = table_with_a_peek()

    class Source:
        def __init__(self) -> None:
            self.frame = Frame(model.frame(), 0.0, 9)

        def read(self, *, newer_than: int = 0, timeout: float = 1.0) -> Frame | None:
            return self.frame if self.frame.index > newer_than else None

    tap = CameraTap(model.zones, source=Source())
    shown = tap.read()
    assert shown is not None and shown.index == 9
    raw = model.frame()
    for card in cards:  # no reader says where the cards are: the whole seat zone is covered
        middle = inner(card.corners, model.size)
        assert raw[middle].mean() > 90 and shown.image[middle].max() < 60 and shown.image[middle].std(axis=0).max() < 3
    zone = inner(model.zones["seat:1"], model.size, 0.9)
    assert shown.image[zone].mean() < 60  # all dark but the zone's name


def test_the_tap_waits_for_a_newer_frame_up_to_its_timeout():
    import threading

    model, _ = table_with_a_peek()
    tap = CameraTap(model.zones, render=model.frame)
    tap.record(None, index=1, timestamp=0.0)
    threading.Timer(0.05, lambda: tap.record(None, index=2, timestamp=0.1)).start()
    later = tap.read(newer_than=1, timeout=30.0)
    assert later is not None and later.index == 2


def test_a_table_read_by_the_camera_loop_reaches_the_tap_annotated():
    from hardware.synthetic import SyntheticTableSource
    from tocktable.camera import CameraLoop, TruthReader, VisionWatcher, _tracker_factory

    factory = _tracker_factory()
    if factory is None:
        pytest.skip("vision has no tracker")
    model, _ = table_with_a_peek()
    model.deal_board(["2c", "7d", "9h"], face_up=True)
    watcher = VisionWatcher(TruthReader(model), factory(zones=model.zones, size=model.size))
    tap = CameraTap(model.zones)
    views: list[Any] = []
    loop = CameraLoop(SyntheticTableSource(model, fps=20.0), watcher, views.append, tap=tap).start()
    try:
        shown = tap.read(newer_than=5, timeout=60.0)  # a few frames in: the tracker has confirmed the cards
    finally:
        loop.stop()
    assert shown is not None and shown.annotated and shown.image.shape == (model.size[1], model.size[0], 3)
    raw = model.frame()
    assert np.abs(shown.image.astype(np.int16) - raw.astype(np.int16)).mean() > 1  # zones and cards drawn on it


def test_serve_with_a_camera_and_no_card_reader_shows_its_picture_with_the_seats_covered(tmp_path):
    import http.cookiejar
    import urllib.parse
    import urllib.request

    from .test_crash import Server

    model, cards = table_with_a_peek()
    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(3):
        cv2.imwrite(str(frames / f"{i}.png"), model.frame())
    seats = [[list(p) for p in model.zones[f"seat:{s}"]] for s in range(3)]
    config = tmp_path / "table.toml"
    config.write_text(
        f'[table]\nseats = 3\nnames = ["Ann", "Bob", "Cy"]\n[camera]\nsource = "{frames}"\n'
        f'[zones]\nboard = {[list(p) for p in model.zones["board"]]}\nseats = {seats}\n'
        f'[web]\nhost = "127.0.0.1"\nadmin_pin = "{PIN}"\n'
    )
    server = Server(config, tmp_path / "data", tmp_path / "logs")
    try:
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        html = opener.open(server.url + "/admin", timeout=60).read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', html)
        assert token is not None
        form = urllib.parse.urlencode({"pin": PIN, "csrf_token": token.group(1)}).encode()
        opener.open(server.url + "/admin/login", data=form, timeout=60)
        view = json.loads(opener.open(server.url + "/admin/camera/view.json", timeout=60).read())
        assert view["camera"] is True and view["annotated"] is True and view["size"] == list(model.size)
        with opener.open(server.url + "/admin/camera/frame.jpg", timeout=60) as response:
            assert response.headers["Content-Type"] == "image/jpeg"
            image = decode(response.read())
    finally:
        server.kill()
    assert image.shape == (model.size[1], model.size[0], 3)
    for card in cards:  # seat 1's face-up cards: no reader says where cards are, so every seat is covered
        assert image[inner(card.corners, model.size)].mean() < 60
    board = inner(model.zones["board"], model.size, 0.5)
    assert image[board].mean() > 40  # the rest of the table is shown
