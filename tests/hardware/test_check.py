import io
import threading
import time
import types

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
    """Press every button once the check listens to them all (gpiozero watches a pin's edges from
    when a Button is made on it): a fixed wait raced the check's set-up on a busy machine."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(factory.pin(pin).when_changed is None for pin in pins.buttons.values()):
        time.sleep(0.01)
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
        snapshot=tmp_path / "snap.jpg", press_for_me=False,
    )  # fmt: skip
    presser.join()
    text = out.getvalue()
    assert report.leds_lit == [0, 1, 2, 3]
    assert set(report.buttons_seen) == set(ConsoleButton) and report.ok
    assert report.frame_size == (160, 120) and report.detections == 1
    assert "all buttons work" in text and "Ah (confidence 0.99)" in text
    snap = cv2.imread(str(tmp_path / "snap.jpg"))
    assert snap is not None and snap[40, 10, 1] > 150 > snap[40, 10, 2]  # the green outline was drawn


def test_check_reports_missing_buttons_and_camera(mock_pins):
    out = io.StringIO()
    dead = OpenCVSource(0, capture_factory=lambda device: _Closed(), backoff=(0.05, 0.1))
    report = check_hardware(
        PinMap.default(2), pin_factory=mock_pins, source=dead, out=out, listen_seconds=0.2, led_seconds=0.0,
        press_for_me=False, camera_timeout=0.5,
    )  # fmt: skip
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


class FakeReader:
    loaded = 0

    @classmethod
    def default(cls):
        cls.loaded += 1
        return cls()

    def read(self, image):
        corners = np.array([[20, 30], [60, 30], [60, 90], [20, 90]], float)
        down = types.SimpleNamespace(card=None, face_up=False, mark="h:large", confidence=0.9, corners=corners + 70)
        return [Seen(corners), down]


class BrokenReader:
    @classmethod
    def default(cls):
        raise FileNotFoundError("models/cards.onnx is missing")


def camera_only(mock_pins, tmp_path, **kwargs):
    cv2.imwrite(str(tmp_path / "f.png"), np.full((180, 240, 3), 90, np.uint8))
    out = io.StringIO()
    report = check_hardware(
        PinMap.default(2), pin_factory=mock_pins, source=ReplaySource(tmp_path, fps=20), out=out,
        listen_seconds=0.05, led_seconds=0.0, snapshot=tmp_path / "snap.png", press_for_me=False, **kwargs,
    )  # fmt: skip
    return report, out.getvalue(), cv2.imread(str(tmp_path / "snap.png"))


def test_the_card_reader_is_found_and_its_cards_drawn(mock_pins, tmp_path, monkeypatch):
    import vision

    monkeypatch.setattr(vision, "CardReader", FakeReader, raising=False)
    report, text, snap = camera_only(mock_pins, tmp_path)
    assert FakeReader.loaded == 1 and report.detections == 2
    assert "Ah (confidence 0.99)" in text and "face down, mark h:large (confidence 0.90)" in text
    assert snap[60, 20].tolist() == [0, 200, 0]  # green outline of the card read
    assert snap[130, 90].tolist() == [0, 140, 255]  # orange outline of the face-down card
    assert (snap[:30, 15:70] != 90).any()  # its name is written above it


def test_a_snapshot_that_cannot_be_written_is_a_failure(mock_pins, tmp_path, monkeypatch):
    import vision

    monkeypatch.delattr(vision, "CardReader", raising=False)
    cv2.imwrite(str(tmp_path / "f.png"), np.full((180, 240, 3), 90, np.uint8))
    out = io.StringIO()
    report = check_hardware(
        PinMap.default(2), pin_factory=mock_pins, source=ReplaySource(tmp_path, fps=20), out=out,
        listen_seconds=0.05, led_seconds=0.0, snapshot=tmp_path / "no-such-folder" / "snap.png", press_for_me=False,
    )  # fmt: skip
    text = out.getvalue()
    assert report.snapshot_error is not None and "no-such-folder" in report.snapshot_error
    assert not report.ok and "snapshot saved" not in text and "snapshot: FAILED" in text


def test_without_a_card_reader_the_frame_is_still_saved(mock_pins, tmp_path, monkeypatch):
    import vision

    monkeypatch.delattr(vision, "CardReader", raising=False)
    report, text, snap = camera_only(mock_pins, tmp_path)
    assert report.detections is None and report.frame_size == (240, 180)
    assert "no card reader in this installation" in text and snap is not None


def test_a_card_reader_that_cannot_start_does_not_stop_the_check(mock_pins, tmp_path, monkeypatch):
    import vision

    monkeypatch.setattr(vision, "CardReader", BrokenReader, raising=False)
    report, text, snap = camera_only(mock_pins, tmp_path)
    assert "could not start: models/cards.onnx is missing" in text
    assert report.camera_error is None and snap is not None


def test_reader_none_skips_reading(mock_pins, tmp_path, monkeypatch):
    import vision

    monkeypatch.setattr(vision, "CardReader", FakeReader, raising=False)
    FakeReader.loaded = 0
    report, text, _ = camera_only(mock_pins, tmp_path, reader=None)
    assert FakeReader.loaded == 0 and report.detections is None and "card" not in text.split("3/3")[1]


def test_on_mock_pins_every_button_is_pressed_for_you(mock_pins):
    out = io.StringIO()
    report = check_hardware(PinMap.default(3), pin_factory=mock_pins, source=None, out=out, listen_seconds=5,
                            led_seconds=0.0, hold_time=0.2)  # fmt: skip
    assert report.buttons_missing == [] and report.ok
    assert "pressed for you" in out.getvalue() and "again" not in out.getvalue()
    assert "3/3 camera: one frame skipped" in out.getvalue()


def test_the_real_card_reader_reads_a_rendered_table_in_the_check(mock_pins, tmp_path):
    """The whole camera part of the check with the shipped models: a rendered table goes through
    the replay camera and ``vision.CardReader``; every card is found, none is named wrongly."""
    from vision.render.scene import PlacedCard, SceneSpec, render_scene

    faces = ("Ah", "Kd", "7c")
    cards = tuple(PlacedCard(card, True, (0.2 + 0.2 * i, 0.45), angle=10.0 * i) for i, card in enumerate(faces))
    cards += (PlacedCard("2s", False, (0.8, 0.45), angle=-20.0),)
    scene = render_scene(SceneSpec(cards=cards, seed=3, table="green-felt", clean=True))
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "table.png"), scene.image)
    out = io.StringIO()
    report = check_hardware(
        PinMap.default(2), pin_factory=mock_pins, source=ReplaySource(frames, fps=20), out=out, reader="auto",
        listen_seconds=0.05, led_seconds=0.0, snapshot=tmp_path / "snap.png", press_for_me=False,
    )  # fmt: skip
    text = out.getvalue()
    assert report.detections == 4, text
    named = {line.split()[0] for line in text.splitlines() if "(confidence" in line and "face down" not in line}
    assert named - {"unsure"} <= set(faces), f"a card was named wrongly: {text}"
    assert len(named & set(faces)) >= 2, text
    assert "face down" in text
    snap = cv2.imread(str(tmp_path / "snap.png"))
    assert snap is not None and snap.shape == scene.image.shape and (snap != scene.image).any()
