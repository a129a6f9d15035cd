import subprocess
import sys
import textwrap
import threading
import time
import types

import numpy as np
import pytest

from hardware.errors import FrameSourceError
from hardware.picamera import AF_MODE_CONTINUOUS, AF_MODE_MANUAL, Picamera2Source
from tests.hardware.waiting import wait_until

MODULE_3 = {
    "AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0), "AeEnable": (False, True, True),
    "ExposureTime": (26, 220_000, 20_000), "AnalogueGain": (1.0, 16.0, 1.0),
    "AwbEnable": (False, True, True), "ColourGains": (0.0, 32.0, None),
}  # fmt: skip
HQ_CAMERA = {k: v for k, v in MODULE_3.items() if k not in ("AfMode", "LensPosition")}


class FakeCamera:
    """What the fake picamera2 module does, and what the test can change while it runs."""

    def __init__(self, controls=MODULE_3) -> None:
        self.controls = dict(controls)
        self.present = True
        self.hung = False
        self.log: list = []
        self.metadata = {"ExposureTime": 12_345, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.4), "Lux": 300.0}

    def module(self) -> types.ModuleType:
        fake = self

        class Request:
            def make_array(self, stream):
                frame = np.zeros((72, 128, 3), np.uint8)
                frame[..., 0], frame[..., 1], frame[..., 2] = 10, 20, 30  # bytes B, G, R in memory
                return frame

            def get_metadata(self):
                fake.log.append("metadata")
                return dict(fake.metadata)

        class CapturedRequest:
            def __init__(self, wait, flush):
                fake.log.append(("request", wait, flush))
                self.wait = wait

            def __enter__(self):
                if fake.hung:
                    time.sleep(min(self.wait, 0.2))
                    raise TimeoutError("timed out")
                time.sleep(0.01)
                return Request()

            def __exit__(self, *exc):
                fake.log.append("released")

        class Picamera2:
            def __init__(self, camera_num=0):
                if not fake.present:
                    raise IndexError("list index out of range")  # what picamera2 does with no camera
                fake.log.append(("camera", camera_num))
                self.camera_controls = dict(fake.controls)

            def create_video_configuration(self, **kwargs):
                fake.log.append(("config", kwargs))
                return kwargs

            def configure(self, config):
                fake.log.append("configure")

            def set_controls(self, controls):
                fake.log.append(("controls", dict(controls)))

            def start(self):
                fake.log.append("start")

            def captured_request(self, wait=None, flush=None):
                return CapturedRequest(wait, flush)

            def stop(self):
                fake.log.append("stop")

            def close(self):
                fake.log.append("close")

        module = types.ModuleType("picamera2")
        module.Picamera2 = Picamera2
        return module

    def entries(self, kind):
        found = [entry for entry in self.log if isinstance(entry, tuple) and entry[0] == kind]
        return [entry[1:] if len(entry) > 2 else entry[1] for entry in found]


@pytest.fixture
def fake_camera(monkeypatch):
    camera = FakeCamera()
    monkeypatch.setitem(sys.modules, "picamera2", camera.module())
    return camera


def test_configures_size_rate_format_and_continuous_focus(fake_camera):
    with Picamera2Source(size=(1280, 720), fps=20, lock_after=None) as source:
        frame = source.read(timeout=2)
    assert frame is not None and frame.image.shape == (72, 128, 3)
    (config,) = fake_camera.entries("config")
    assert config["main"] == {"size": (1280, 720), "format": "RGB888"}
    assert config["controls"] == {"FrameRate": 20.0} and config["buffer_count"] == 4
    assert fake_camera.entries("controls")[0] == {"AfMode": AF_MODE_CONTINUOUS}
    assert fake_camera.entries("camera") == [0]
    assert fake_camera.log[-2:] == ["stop", "close"]


def test_rgb888_is_already_bgr(fake_camera):
    with Picamera2Source(lock_after=None) as source:
        frame = source.read(timeout=2)
    assert frame.image[0, 0].tolist() == [10, 20, 30]  # passed through, not swapped


def test_every_capture_asks_for_a_fresh_frame_and_releases_it(fake_camera):
    with Picamera2Source(lock_after=None, request_timeout=1.5) as source:
        first = source.read(timeout=2)
        second = source.read(newer_than=first.index, timeout=2)
    assert second.index > first.index
    requests = fake_camera.entries("request")
    assert requests and all(r == (1.5, True) for r in requests)  # timeout, flush=True
    assert fake_camera.log.count("released") >= len(requests) - 1


def test_fixed_focus_distance_sets_the_lens(fake_camera):
    with Picamera2Source(focus_distance=0.8, lock_after=None) as source:
        source.read(timeout=2)
    assert fake_camera.entries("controls")[0] == {"AfMode": AF_MODE_MANUAL, "LensPosition": pytest.approx(1.25)}


def test_a_camera_without_autofocus_gets_no_focus_controls(monkeypatch):
    camera = FakeCamera(HQ_CAMERA)
    monkeypatch.setitem(sys.modules, "picamera2", camera.module())
    with Picamera2Source(lock_after=None) as source:
        assert source.read(timeout=2) is not None
    assert camera.entries("controls") == []


def test_exposure_and_white_balance_lock_after_settling(fake_camera):
    with Picamera2Source(lock_after=0.2) as source:
        source.read(timeout=2)
        assert wait_until(lambda: source.locked, timeout=2)
        locked = source.locked
    expected = {"AeEnable": False, "ExposureTime": 12_345, "AnalogueGain": 2.5, "AwbEnable": False,
                "ColourGains": (1.9, 1.4)}  # fmt: skip
    assert locked == expected
    controls = fake_camera.entries("controls")
    assert controls[-1] == expected and controls.count(expected) == 1  # locked once
    assert fake_camera.log.count("metadata") == 1


def test_fixed_exposure_is_kept_and_only_white_balance_locks(fake_camera):
    with Picamera2Source(exposure_us=8000, analogue_gain=2.0, lock_after=0.0) as source:
        assert wait_until(lambda: source.locked, timeout=2)
    first = fake_camera.entries("controls")[0]
    assert first["AeEnable"] is False and first["ExposureTime"] == 8000 and first["AnalogueGain"] == 2.0
    assert source.locked == {"AwbEnable": False, "ColourGains": (1.9, 1.4)}


def test_out_of_range_exposure_is_clamped_to_the_camera(fake_camera):
    with Picamera2Source(exposure_us=10_000_000, colour_gains=(1.8, 1.5), lock_after=None) as source:
        source.read(timeout=2)
    first = fake_camera.entries("controls")[0]
    assert first["ExposureTime"] == 220_000 and first["ColourGains"] == (1.8, 1.5)


def test_a_camera_that_cannot_fix_exposure_never_locks(monkeypatch):
    camera = FakeCamera({"AfMode": (0, 2, 0)})
    monkeypatch.setitem(sys.modules, "picamera2", camera.module())
    with Picamera2Source(lock_after=0.0) as source:
        source.read(timeout=2)
        time.sleep(0.1)
        assert source.locked == {}
    assert camera.entries("controls") == [{"AfMode": AF_MODE_CONTINUOUS}]


def test_a_hung_camera_is_reported_within_two_seconds_and_reopened(fake_camera):
    source = Picamera2Source(lock_after=None, request_timeout=0.3, backoff=(0.05, 0.2))
    with source:
        first = source.read(timeout=2)
        assert first is not None and source.health().ok
        fake_camera.hung = True
        hung_at = time.monotonic()
        assert wait_until(lambda: not source.health().ok, timeout=2)
        assert time.monotonic() - hung_at < 2.0
        assert "timed out" in source.health().last_error
        fake_camera.hung = False
        assert wait_until(lambda: source.health().ok, timeout=3)
        later = source.read(newer_than=first.index, timeout=2)
        assert later is not None and source.health().reconnects >= 1
    assert len(fake_camera.entries("camera")) >= 2 and fake_camera.log.count("close") >= 2


def test_no_camera_at_start_is_reported_and_found_when_plugged_in(fake_camera):
    fake_camera.present = False
    with Picamera2Source(lock_after=None, backoff=(0.05, 0.1)) as source:
        assert wait_until(lambda: source.health().last_error is not None)
        assert "cannot open pi camera" in source.health().last_error
        fake_camera.present = True
        assert source.read(timeout=3) is not None and source.health().ok


def test_picamera2_missing_is_reported(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails like on a PC
    with Picamera2Source(backoff=(0.05, 0.1)) as source:
        assert wait_until(lambda: source.health().last_error is not None)
        assert "python3-picamera2" in source.health().last_error


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"size": (0, 720)}, "positive"),
        ({"fps": 0}, "positive"),
        ({"focus_distance": 0}, "focus distance"),
        ({"exposure_us": -5}, "exposure"),
        ({"analogue_gain": 2.0}, "analogue_gain needs exposure_us"),
        ({"colour_gains": (1.0, 0.0)}, "colour gains"),
        ({"lock_after": -1}, "lock_after"),
        ({"request_timeout": 0}, "request timeout"),
    ],
)
def test_bad_settings_are_refused_before_the_camera_opens(kwargs, message):
    with pytest.raises(FrameSourceError, match=message):
        Picamera2Source(**kwargs)


def test_frames_flow_while_the_reader_is_slow(fake_camera):
    with Picamera2Source(lock_after=None) as source:
        first = source.read(timeout=2)
        assert first is not None
        # The reader takes nothing while the capture thread goes on (however slowly, under load) ...
        later = source.read(newer_than=first.index + 5, timeout=10)
        assert later is not None and later.index > first.index + 5
        # ... and then gets the newest frame, not the next one after what it read before.
        newest = source.read(newer_than=first.index, timeout=2)
        assert newest is not None and newest.index >= later.index


def run_clean(code: str, *, path: str | None = None) -> subprocess.CompletedProcess:
    env_path = [path] if path else []
    prelude = f"import sys\nsys.path[:0] = {env_path!r}\n"
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True, text=True)


def test_picamera2_never_imported_unless_used(tmp_path):
    code = """
        import hardware.check, hardware.console, hardware.frames, hardware.lights, hardware.picamera
        import hardware.pins, hardware.sources, hardware.synthetic, hardware.table_model
        import hardware.table_script, hardware.wiring, hardware.mounting
        from hardware.sources import Picamera2Source, source_from_spec
        Picamera2Source(); source_from_spec("picamera")
        leaked = sorted(m for m in sys.modules if m.split(".")[0] in ("picamera2", "libcamera", "vision"))
        print(leaked)
    """
    result = run_clean(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
    # The same check sees the import when the camera is really used (here a fake picamera2).
    package = tmp_path / "picamera2"
    package.mkdir()
    fake = "class Picamera2:\n    def __init__(self, n):\n        raise IndexError('no camera')\n"
    (package / "__init__.py").write_text(fake)
    used = """
        import threading
        from hardware.picamera import Picamera2Source
        with Picamera2Source(backoff=(0.05, 0.1)) as source:
            import time; time.sleep(0.3)
            print("picamera2" in sys.modules, source.health().last_error)
    """
    result = run_clean(used, path=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("True cannot open pi camera: no camera")


def test_no_thread_is_left_behind(fake_camera):
    before = threading.active_count()
    with Picamera2Source(lock_after=None) as source:
        source.read(timeout=2)
    assert threading.active_count() == before
