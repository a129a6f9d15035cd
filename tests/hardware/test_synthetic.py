import time

import numpy as np
import pytest

from hardware.errors import FrameSourceError
from hardware.synthetic import SyntheticTableSource


def moving_square(t: float) -> np.ndarray:
    frame = np.zeros((90, 160, 3), np.uint8)
    x = int(t * 100) % 140
    frame[30:50, x : x + 20] = 255
    return frame


def test_frames_follow_the_scene_at_the_rate():
    with SyntheticTableSource(moving_square, fps=25) as source:
        frames = []
        for frame in source.frames(timeout=2):
            frames.append(frame)
            if len(frames) == 10:
                break
    assert all(f.image.shape == (90, 160, 3) for f in frames)
    gaps = np.diff([f.timestamp for f in frames])
    assert 0.5 / 25 < np.median(gaps) < 2 / 25
    positions = [int(np.flatnonzero(f.image[40, :, 0])[0]) for f in frames]
    assert len(set(positions)) > 5  # the square moves


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
