import itertools
import time
from typing import ClassVar

import cv2
import numpy as np
import pytest

from hardware import sources
from hardware.errors import FrameSourceError
from hardware.sources import STREAM_TIMEOUT_MS, OpenCVSource, ReplaySource, open_capture
from tests.hardware.waiting import FakeTime, wait_until


def image(value: int, size=(48, 64)) -> np.ndarray:
    return np.full((*size, 3), value, dtype=np.uint8)


@pytest.fixture
def image_folder(tmp_path):
    for i in range(5):
        cv2.imwrite(str(tmp_path / f"frame{i:02d}.png"), image(i * 40))
    return tmp_path


def grab_times(source, fake: FakeTime, count: int, *, cost: float = 0.004) -> list[float]:
    """When each of ``count`` frames was grabbed; reading a frame takes ``cost`` seconds."""
    times = []
    for _ in range(count):
        assert source._grab() is not None
        times.append(fake.now)
        fake.now += cost
    return times


# A consumer slower than the frame rate gets the newest frame and skips the ones it missed (a
# camera keeps only its newest frame, by design). The threaded tests below check what holds
# however slow the consumer is: frame n shows file n - 1 (looping over the files), indices only
# grow, the last frame of a finite source is always delivered; the rate is checked on a fake clock.
def test_replay_folder_frames_in_order(image_folder):
    with ReplaySource(image_folder, fps=40, loop=False) as source:
        frames = list(source.frames(timeout=2))
    indices = [f.index for f in frames]
    assert indices == sorted(set(indices)) and indices[-1] == 5  # the last file is never skipped
    assert [int(f.image[0, 0, 0]) for f in frames] == [(i - 1) * 40 for i in indices]
    assert all(f.image.shape == (48, 64, 3) and f.image.dtype == np.uint8 for f in frames)
    assert source.health().ended


def test_replay_paces_frames_at_its_rate(image_folder, monkeypatch):
    fake = FakeTime()
    monkeypatch.setattr(sources, "time", fake)
    source = ReplaySource(image_folder, fps=40, loop=True)
    source._stop = fake  # its waits pass on the fake clock (the capture thread is not started)
    source._open()
    steady = grab_times(source, fake, 8)
    assert np.allclose(np.diff(steady), 1 / 40)  # one frame every 25 ms, whatever reading costs
    fake.now += 1.0  # the capture thread was held up for a second
    late = grab_times(source, fake, 12)
    assert late[0] == steady[-1] + 0.004 + 1.0  # the next frame at once
    assert late[-1] - late[0] > (len(late) - 3.1) / 40  # it does not rush through the frames it missed
    assert np.allclose(np.diff(late)[3:], 1 / 40)  # and keeps the rate again


def test_replay_loops(image_folder):
    with ReplaySource(image_folder, fps=100, loop=True) as source:
        frames = []
        for frame in source.frames(timeout=2):
            frames.append(frame)
            if frame.index > 12:  # the folder's five files played more than twice
                break
        health = source.health()
    indices = [f.index for f in frames]
    assert indices == sorted(set(indices))
    assert [int(f.image[0, 0, 0]) for f in frames] == [(i - 1) % 5 * 40 for i in indices]
    assert health.ok and health.fps > 0


def test_replay_video(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for i in range(4):
        writer.write(image(i * 60))
    writer.release()
    with ReplaySource(path, fps=50, loop=False) as source:
        frames = list(source.frames(timeout=2))
    indices = [f.index for f in frames]
    assert indices == sorted(set(indices)) and indices[-1] == 4 and frames[0].image.shape == (48, 64, 3)
    assert all(abs(int(f.image[24, 32, 0]) - (f.index - 1) * 60) < 12 for f in frames)  # MJPG is lossy
    assert source.health().ended


def test_replay_bad_paths(tmp_path):
    with pytest.raises(FrameSourceError, match="does not exist"):
        ReplaySource(tmp_path / "nope")
    with pytest.raises(FrameSourceError, match="holds no images"):
        ReplaySource(tmp_path)
    with pytest.raises(FrameSourceError, match="above 0"):
        ReplaySource(tmp_path, fps=0)


class FlakyCamera:
    """A fake cv2.VideoCapture whose device can be unplugged and plugged back."""

    plugged = True
    opened = 0

    def __init__(self, device):
        FlakyCamera.opened += 1
        self.ok = FlakyCamera.plugged
        self.value = 0

    def isOpened(self):
        return self.ok

    def set(self, prop, value):
        return True

    def read(self):
        time.sleep(0.01)
        if not FlakyCamera.plugged:
            return False, None
        self.value = (self.value + 1) % 256
        return True, image(self.value)

    def release(self):
        self.ok = False


def test_camera_unplugged_is_reported_and_recovers():
    FlakyCamera.plugged, FlakyCamera.opened = True, 0
    source = OpenCVSource(0, capture_factory=FlakyCamera, backoff=(0.05, 0.2))
    with source:
        first = source.read(timeout=2)
        assert first is not None and source.health().ok
        FlakyCamera.plugged = False
        unplugged_at = time.monotonic()
        assert wait_until(lambda: not source.health().ok, timeout=2)
        assert time.monotonic() - unplugged_at < 2.0
        health = source.health()
        assert not health.connected and "failed" in health.last_error
        FlakyCamera.plugged = True
        assert wait_until(lambda: source.health().ok, timeout=3)
        later = source.read(newer_than=first.index, timeout=2)
        assert later is not None and later.index > first.index
        assert source.health().reconnects >= 1 and FlakyCamera.opened >= 2


def test_camera_absent_at_start_is_reported_not_raised():
    FlakyCamera.plugged = False
    with OpenCVSource(1, capture_factory=FlakyCamera, backoff=(0.05, 0.1)) as source:
        assert source.read(timeout=0.3) is None
        assert wait_until(lambda: source.health().last_error is not None)
        assert "cannot open" in source.health().last_error
    FlakyCamera.plugged = True


class StalledCamera(FlakyCamera):
    def read(self):
        if self.value:
            time.sleep(10)  # a hung driver: read never returns
        self.value = 1
        return True, image(1)


def test_stalled_camera_is_reported_within_two_seconds():
    FlakyCamera.plugged = True
    source = OpenCVSource(0, capture_factory=StalledCamera, fault_after=0.5)
    source.start()
    try:
        assert source.read(timeout=2) is not None
        assert wait_until(lambda: source.health().last_error is not None, timeout=2)
        assert source.health().last_error.startswith("no frame for")
    finally:
        source._stop.set()  # the fake never returns; don't wait for it


class RecordingCamera(FlakyCamera):
    attempts: ClassVar[list] = []
    settings: ClassVar[list] = []

    def __init__(self, device):
        super().__init__(device)
        RecordingCamera.attempts.append(time.monotonic())

    def set(self, prop, value):
        RecordingCamera.settings.append((prop, value))
        return True


def test_reconnect_attempts_back_off():
    FlakyCamera.plugged = False
    RecordingCamera.attempts = []
    with OpenCVSource(0, capture_factory=RecordingCamera, backoff=(0.05, 0.4)):
        time.sleep(1.3)
    FlakyCamera.plugged = True
    gaps = np.diff(RecordingCamera.attempts)
    assert 4 <= len(RecordingCamera.attempts) <= 8  # not a busy loop
    assert gaps[0] < 0.15 and gaps[-1] > 0.3  # 0.05, 0.1, 0.2, 0.4, 0.4 ...
    assert all(b >= a * 0.8 for a, b in itertools.pairwise(gaps))


def test_webcam_settings():
    FlakyCamera.plugged = True
    RecordingCamera.settings = []
    with OpenCVSource(2, size=(640, 480), fps=30, capture_factory=RecordingCamera) as source:
        assert source.read(timeout=2) is not None
    assert set(RecordingCamera.settings) >= {
        (cv2.CAP_PROP_FRAME_WIDTH, 640), (cv2.CAP_PROP_FRAME_HEIGHT, 480), (cv2.CAP_PROP_FPS, 30),
        (cv2.CAP_PROP_BUFFERSIZE, 1),
    }  # fmt: skip
    with pytest.raises(FrameSourceError, match="size"):
        OpenCVSource(0, size=(0, 480))
    with pytest.raises(FrameSourceError, match="rate"):
        OpenCVSource(0, fps=-1)


def test_a_stream_that_is_not_there_fails_fast():
    started = time.monotonic()
    capture = open_capture("rtsp://127.0.0.1:9/none")  # nothing listens on the discard port
    assert not capture.isOpened() and time.monotonic() - started < STREAM_TIMEOUT_MS / 1000 + 1
