import io
import threading
import time

import cv2
import numpy as np
import pytest

from hardware.check import check_hardware
from hardware.errors import FrameSourceError
from hardware.pins import ConsoleButton, PinMap
from hardware.sources import OpenCVSource, Picamera2Source, ReplaySource, source_from_spec


class Seen:
    def __init__(self, corners):
        self.card, self.face_up, self.confidence, self.corners = "Ah", True, 0.99, corners


def press_every_button(factory, pins: PinMap, hold: float) -> None:
    time.sleep(0.3)
    for button, pin in pins.buttons.items():
        factory.pin(pin).drive_low()
        time.sleep(hold + 0.15 if button.needs_hold else 0.02)
        factory.pin(pin).drive_high()
        time.sleep(0.08)


def test_check_hardware_sees_leds_buttons_and_camera(mock_pins, tmp_path):
    cv2.imwrite(str(tmp_path / "f.png"), np.full((120, 160, 3), 90, np.uint8))
    pins = PinMap.default(4)
    presser = threading.Thread(target=press_every_button, args=(mock_pins, pins, 0.1))
    out = io.StringIO()
    corners = np.array([[10, 10], [50, 10], [50, 70], [10, 70]])
    presser.start()
    report = check_hardware(
        pins, pin_factory=mock_pins, source=ReplaySource(tmp_path, fps=20),
        out=out, reader=lambda image: [Seen(corners)], listen_seconds=10, led_seconds=0.0, hold_time=0.1,
        snapshot=tmp_path / "snap.jpg",
    )  # fmt: skip
    presser.join()
    text = out.getvalue()
    assert report.leds_lit == [0, 1, 2, 3]
    assert set(report.buttons_seen) == set(ConsoleButton) and report.ok
    assert report.frame_size == (160, 120) and report.detections == 1
    assert "all buttons work" in text and "Ah (confidence 0.99)" in text
    snap = cv2.imread(str(tmp_path / "snap.jpg"))
    assert snap is not None and snap[10, 30, 1] > 200  # the green outline was drawn


def test_check_reports_missing_buttons_and_camera(mock_pins):
    out = io.StringIO()
    dead = OpenCVSource(0, capture_factory=lambda device: _Closed(), backoff=(0.05, 0.1))
    report = check_hardware(
        PinMap.default(2), pin_factory=mock_pins, source=dead, out=out, listen_seconds=0.2, led_seconds=0.0
    )
    assert not report.ok and len(report.buttons_missing) == len(ConsoleButton)
    assert "never pressed: FOLD" in out.getvalue()
    assert report.camera_error and "cannot open" in report.camera_error


class _Closed:
    def isOpened(self):
        return False

    def release(self):
        pass


def test_source_from_spec(tmp_path):
    assert isinstance(source_from_spec("picamera"), Picamera2Source)
    assert isinstance(source_from_spec("0"), OpenCVSource)
    assert source_from_spec("rtsp://camera.local/stream").device == "rtsp://camera.local/stream"
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((8, 8, 3), np.uint8))
    assert isinstance(source_from_spec(str(tmp_path)), ReplaySource)
    with pytest.raises(FrameSourceError, match="webcam number"):
        source_from_spec("nonsense-camera")
