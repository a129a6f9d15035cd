import sys
import types
from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from hardware.errors import TableModelError
from hardware.synthetic import SyntheticTableSource
from hardware.table_layout import card_corners
from hardware.table_model import TableModel
from hardware.table_script import Deal, Gather, Hands, Move, Muck, Show, TableScript, Turn


@pytest.fixture
def fake_renderer(monkeypatch):
    """A stand-in for vision.render.scene: white rectangles for face-up cards, blue for backs."""

    @dataclass(frozen=True)
    class PlacedCard:
        card: str
        face_up: bool
        center: tuple
        angle: float = 0.0
        height: float = 0.22
        back: str = "plain"

    @dataclass(frozen=True)
    class SceneSpec:
        cards: tuple
        size: tuple = (1280, 720)
        table: str | None = None
        seed: int = 0
        hands: int = 0
        deck: str | None = None
        clean: bool = False

    calls: list = []

    def render_scene(spec):
        calls.append(spec)
        width, height = spec.size
        image = np.full((height, width, 3), (40, 110, 30), np.uint8)
        truth = []
        for placed in spec.cards:
            corners = np.array(card_corners(placed.center, placed.angle, placed.height, spec.size)) * (width, height)
            colour = (255, 255, 255) if placed.face_up else (160, 60, 20)
            cv2.fillPoly(image, [corners.round().astype(np.int32)], colour)
            truth.append((placed.card, placed.face_up, corners))
        if spec.hands:
            image[: height // 3, : width // 4] = (90, 140, 200)
        return types.SimpleNamespace(image=image, truth=tuple(truth))

    module = types.ModuleType("vision.render.scene")
    module.PlacedCard, module.SceneSpec, module.render_scene = PlacedCard, SceneSpec, render_scene
    monkeypatch.setitem(sys.modules, "vision.render.scene", module)
    return calls


def white_fraction(image: np.ndarray) -> float:
    return float((image.min(axis=2) > 250).mean())


def test_script_applies_steps_as_time_passes(fake_renderer):
    model = TableModel(4, seed=5, size=(320, 180))
    script = TableScript(
        [
            (0.0, Deal("Ah", zone=0)),
            (0.0, Deal("Kd", zone=0)),
            (1.0, Deal("7c", zone="board", face_up=True)),
            (2.0, Turn("Ah")),
            (2.5, Show(0)),
            (3.0, Move("7c", zone="board", slot=4)),
            (4.0, Gather()),
        ],
        model=model,
    )
    assert script.duration == 4.0
    assert [c.card for c in script.advance(0.5).cards] == ["Ah", "Kd"]
    state = script.advance(2.0)
    assert state.find("Ah").face_up and state.find("7c").slot == 0
    assert all(c.face_up for c in script.advance(2.7).in_zone(0))
    assert script.advance(3.5).find("7c").slot == 4
    assert script.advance(9.0).cards == ()
    replayed = script.advance(1.2)  # the clock went back: replay from the start
    assert [c.card for c in replayed.cards] == ["Ah", "Kd", "7c"] and not replayed.find("Ah").face_up


def test_frames_show_the_table_and_are_drawn_only_when_it_changes(fake_renderer):
    model = TableModel(4, seed=5, size=(320, 180))
    script = TableScript([(1.0, Deal("7c", zone="board", face_up=True)), (2.0, Hands(1)), (3.0, Hands(0))],
                         model=model)  # fmt: skip
    empty = script.frame(0.0)
    assert empty.shape == (180, 320, 3) and white_fraction(empty) == 0
    assert script.frame(0.5) is empty and len(fake_renderer) == 1  # same table: not drawn again
    dealt = script.frame(1.0)
    assert white_fraction(dealt) > 0.01 and len(fake_renderer) == 2
    assert fake_renderer[-1].seed == 5 and fake_renderer[-1].hands == 0
    script.frame(2.0)
    assert fake_renderer[-1].hands == 1 and {spec.seed for spec in fake_renderer} == {5}
    assert model.last_render.truth[0][0] == "7c"


def test_a_bad_script_is_refused_at_once_naming_the_step():
    with pytest.raises(TableModelError, match=r"script step 2 at 3 s \(Deal\(card='Ah'.*already on the table"):
        TableScript([(0, Deal("Ah", zone=0)), (1, Muck(1)), (3, Deal("Ah", zone=1))])
    with pytest.raises(TableModelError, match="time -1"):
        TableScript([(-1, Gather())])
    with pytest.raises(TableModelError, match=r"\(seconds, step\)"):
        TableScript([Gather()])
    with pytest.raises(TableModelError, match="pause"):
        TableScript([], pause=-1)


def test_checking_a_script_leaves_its_model_untouched():
    model = TableModel(3, seed=1)
    TableScript([(0, Deal("Ah", zone=0)), (1, Gather())], model=model)
    assert model.state().cards == ()


def test_a_looping_script_starts_again_from_an_empty_table():
    script = TableScript([(0.0, Deal("Ah", zone=0)), (1.0, Deal("Kd", zone=0))], model=TableModel(3, seed=1),
                         loop=True, pause=1.0)  # fmt: skip
    assert len(script.advance(1.5).cards) == 2
    assert len(script.advance(2.2).cards) == 1  # 2.2 s is 0.2 s into the second round
    assert len(script.advance(3.1).cards) == 2


def test_a_whole_holdem_hand():
    model = TableModel(6, seed=2)
    script = TableScript.holdem_hand(model, seed=9, pace=1.0, folds=(1, 4))
    seen_board, seats_holding = 0, set()
    t = 0.0
    while t <= script.duration:
        state = script.advance(t)
        seen_board = max(seen_board, len(state.in_zone("board")))
        seats_holding |= {c.zone for c in state.cards if c.zone and c.zone.startswith("seat")}
        if len(state.in_zone("board")) == 5 and t < script.duration - 2.5:
            shown = [s for s in range(6) if all(c.face_up for c in state.in_zone(s)) and state.in_zone(s)]
            assert shown == [] or shown == [0, 2, 3, 5]
        t += 0.25
    assert seen_board == 5 and len(seats_holding) == 6
    assert script.advance(script.duration).cards == ()
    cards = [step.card for _, step in script.steps if isinstance(step, Deal)]
    assert len(cards) == len(set(cards)) == 12 + 5


def test_synthetic_source_films_a_script(fake_renderer):
    model = TableModel(4, seed=5, size=(320, 180))
    script = TableScript([(0.3, Deal("7c", zone="board", face_up=True)), (0.3, Deal("8c", zone="board", face_up=True))],
                         model=model)  # fmt: skip
    times: list[float] = []  # when the camera drew each frame: frame n at times[n - 1]

    def filmed(t: float):
        times.append(t)
        return script(t)

    with SyntheticTableSource(filmed, fps=20) as camera:
        frames = []
        for frame in camera.frames(timeout=2):
            frames.append(frame)
            if times[frame.index - 1] > 0.6:
                break
    # A slow consumer skips frames (it gets the newest): what holds is each frame's time.
    assert all(f.image.shape == (180, 320, 3) for f in frames)
    whites = [white_fraction(f.image) for f in frames]
    at = [times[f.index - 1] for f in frames]
    assert all((w == 0) == (t < 0.3) for w, t in zip(whites, at, strict=True))  # the flop comes at 0.3 s
    assert times[0] < 0.3  # the camera ran before the flop came
    assert whites[-1] > 0.02 and whites == sorted(whites)
