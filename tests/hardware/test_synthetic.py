import time

import numpy as np
import pytest

from hardware import synthetic
from hardware.errors import FrameSourceError
from hardware.synthetic import SyntheticTableSource
from tests.hardware.waiting import FakeTime


def moving_square(t: float) -> np.ndarray:
    frame = np.zeros((90, 160, 3), np.uint8)
    x = int(t * 100) % 140
    frame[30:50, x : x + 20] = 255
    return frame


class Recorded:
    """A scene that remembers when it was asked for each picture: frame n was drawn at ``times[n - 1]``."""

    def __init__(self, scene):
        self.scene, self.times = scene, []

    def __call__(self, t: float) -> np.ndarray:
        self.times.append(t)
        return self.scene(t)


def test_each_frame_is_the_scene_at_its_time():
    """However slow the consumer (it gets the newest frame, skipping those it missed), each frame
    is the scene drawn at its own time, in order."""
    scene = Recorded(moving_square)
    with SyntheticTableSource(scene, fps=25) as source:
        frames = []
        for frame in source.frames(timeout=2):
            frames.append(frame)
            if len(frames) == 10:
                break
    assert all(f.image.shape == (90, 160, 3) for f in frames)
    indices = [f.index for f in frames]
    assert indices == sorted(set(indices))
    for frame in frames:
        assert np.array_equal(frame.image, moving_square(scene.times[frame.index - 1]))
    assert scene.times == sorted(scene.times)


def test_the_scene_is_drawn_at_the_rate(monkeypatch):
    fake = FakeTime()
    monkeypatch.setattr(synthetic, "time", fake)
    scene = Recorded(moving_square)
    source = SyntheticTableSource(scene, fps=25)
    source._stop = fake  # its waits pass on the fake clock (the capture thread is not started)
    source._open()
    images = []
    for _ in range(10):
        images.append(source._grab())
        fake.now += 0.005  # drawing took 5 ms
    assert scene.times[0] == 0 and np.allclose(np.diff(scene.times), 1 / 25)
    positions = [int(np.flatnonzero(image[40, :, 0])[0]) for image in images]
    assert positions == [int(t * 100) for t in scene.times]  # the square moves with the scene's time


def test_simulated_unplug_is_reported_and_recovers():
    with SyntheticTableSource(moving_square, fps=50, backoff=(0.05, 0.1)) as source:
        assert source.read(timeout=2) is not None
        source.fail_for(0.5)
        deadline = time.monotonic() + 2
        while source.health().ok and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "unplugged" in (source.health().last_error or "")
        deadline = time.monotonic() + 3
        while not source.health().ok and time.monotonic() < deadline:
            time.sleep(0.02)
        assert source.health().ok and source.health().reconnects >= 1


def test_bad_scene_output_is_a_fault_not_a_crash():
    with SyntheticTableSource(lambda t: np.zeros((4, 4), np.float32), fps=50, backoff=(0.05, 0.1)) as source:
        assert source.read(timeout=0.3) is None
        assert "no usable image" in (source.health().last_error or "")


def test_rate_must_be_positive():
    with pytest.raises(FrameSourceError, match="above 0"):
        SyntheticTableSource(moving_square, fps=0)


def test_fault_time_follows_a_slow_rate():
    assert SyntheticTableSource(moving_square, fps=10)._fault_after == 1.5  # a lost camera shows within 2 s
    assert SyntheticTableSource(moving_square, fps=0.5)._fault_after == 6.0  # not a fault between slow frames
    assert SyntheticTableSource(moving_square, fps=0.5, fault_after=1.0)._fault_after == 1.0
    with pytest.raises(FrameSourceError, match="backoff"):
        SyntheticTableSource(moving_square, backoff=(1.0, 0.5))
