"""The table model drawn by the real renderer (vision.render.scene)."""

import numpy as np

from hardware.synthetic import SyntheticTableSource
from hardware.table_layout import card_corners
from hardware.table_model import TableModel
from hardware.table_script import TableScript


def dealt(seats=6, **kwargs) -> TableModel:
    model = TableModel(seats, seed=7, **kwargs)
    model.deal_hole(0, ["Ah", "Kd"])
    model.deal_hole(3, ["Qs", "Qh"], face_up=True)
    model.deal_board(["7c", "8c", "9h"])
    return model


def test_the_renderer_draws_exactly_the_model():
    model = dealt(clean=True)
    image = model.frame()
    assert image.shape == (720, 1280, 3) and image.dtype == np.uint8
    truth = model.last_render.truth
    cards = model.state().cards
    assert [(t.card, t.face_up) for t in truth] == [(c.card, c.face_up) for c in cards]
    for drawn, card in zip(truth, cards, strict=True):
        expected = np.array(card_corners(card.center, card.angle, model.card_height, model.size)) * model.size
        assert np.allclose(drawn.corners, expected, atol=0.5)  # same centre, size and turning sense


def test_seat_cards_are_drawn_inside_their_zones_through_the_camera_tilt():
    model = dealt()
    model.frame()
    width, height = model.size
    for drawn, card in zip(model.last_render.truth, model.state().cards, strict=True):
        centre = drawn.corners.mean(axis=0) / (width, height)
        zone = np.array(model.zones[card.zone])
        assert zone[:, 0].min() < centre[0] < zone[:, 0].max() and zone[:, 1].min() < centre[1] < zone[:, 1].max()


def test_frames_keep_the_look_and_change_with_the_table():
    model = dealt()
    first = model.frame().copy()
    assert np.array_equal(dealt().frame(), first)  # same seed, same table: same picture
    model.turn("Ah")
    turned = model.frame()
    assert not np.array_equal(turned, first)
    changed = np.argwhere(np.abs(turned.astype(int) - first.astype(int)).max(axis=2) > 40)
    ah = model.state().find("Ah")
    assert abs(changed[:, 1].mean() / model.size[0] - ah.center[0]) < 0.05  # only where the card lies
    model.set_hands(1)
    assert not np.array_equal(model.frame(), turned)


def test_tock_backs_carry_their_mark():
    model = TableModel(4, seed=3, back="tock")
    model.deal_hole(1, ["Ah", "7d"])
    model.frame()
    assert [t.mark for t in model.last_render.truth] == ["h:ace", "d:medium"]  # suit and size on the back
    model.turn("Ah")
    model.frame()
    assert [t.mark for t in model.last_render.truth] == [None, "d:medium"]  # a face-up card shows its face


def test_the_synthetic_camera_films_a_hand():
    model = TableModel(6, seed=2, size=(640, 360))
    script = TableScript.holdem_hand(model, seed=4, pace=0.2)
    times: list[float] = []  # when the camera drew each frame: frame n at times[n - 1]

    def filmed(t: float):
        times.append(t)
        return script(t)

    with SyntheticTableSource(filmed, fps=15) as camera:
        frames = []
        for frame in camera.frames(timeout=3):
            frames.append(frame)
            if times[frame.index - 1] > script.duration:
                break
        health = camera.health()
    # A consumer slower than the camera gets the newest frame (skipping some): the frames it got
    # span the hand however many it skipped.
    assert all(f.image.shape == (360, 640, 3) for f in frames)
    assert health.ok and health.fps > 0
    assert [f.index for f in frames] == sorted({f.index for f in frames})
    distinct = {f.image.tobytes() for f in frames}
    assert len(distinct) >= 8  # dealing, flop, turn, river, showdown, gathered


def test_the_shared_synthetic_frames_fixture(synthetic_frames):
    frames = synthetic_frames(seats=4, seed=1, pace=0.5, fps=4, folds=(2,), size=(480, 270))
    assert frames[0][0] == 0 and all(scene.image.shape == (270, 480, 3) for _, scene in frames)
    boards = [sum(t.face_up for t in scene.truth) for _, scene in frames]
    assert max(boards) == 5 + 3 * 2  # five board cards and three players' hands face up at showdown
    assert frames[-1][1].truth == ()  # gathered
    assert len({t.card for _, scene in frames for t in scene.truth}) == 4 * 2 + 5
