"""The camera page's pictures are drawn and encoded on one thread, whichever of the web server's
worker threads asks: OpenCV and the allocator keep memory per thread that draws, so drawing on
the 64 workers in turn made a watched ``serve`` grow by hundreds of MB."""

from __future__ import annotations

import threading
from typing import Any

import cv2
import numpy as np

from hardware.frames import Frame
from tocktable.config import Config
from web import camera as camera_page


class RecordingCamera:
    """A camera whose reads (where a CameraTap draws the annotated frame) note their thread."""

    def __init__(self) -> None:
        self.zones = {"board": [[0.3, 0.3], [0.7, 0.3], [0.7, 0.7], [0.3, 0.7]],
                      "seat:0": [[0.0, 0.8], [0.3, 0.8], [0.3, 1.0], [0.0, 1.0]]}  # fmt: skip
        self.threads: list[str] = []
        self.frame = Frame(np.full((90, 160, 3), 200, np.uint8), 0.0, 3)

    def read(self, *, newer_than: int = 0, timeout: float = 0.0) -> Frame | None:
        self.threads.append(threading.current_thread().name)
        return self.frame if self.frame.index > newer_than else None


def test_every_picture_is_drawn_on_the_one_drawing_thread(service: Any, monkeypatch: Any) -> None:
    camera = RecordingCamera()
    masked: list[str] = []
    real_mask = camera_page.mask_peeks

    def mask(*args: Any) -> np.ndarray:
        masked.append(threading.current_thread().name)
        return real_mask(*args)

    monkeypatch.setattr(camera_page, "mask_peeks", mask)
    config = Config()
    answers: list[Any] = []

    def page() -> None:  # what /admin/camera/view.json and /admin/camera/frame.jpg do
        answers.append(camera_page.camera_view(service, config, camera)["frame"])
        answers.append(camera_page.frame_jpeg(camera, service=service, config=config))

    askers = [threading.Thread(target=page, name=f"waitress-{i}") for i in range(8)]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join(timeout=30)
    assert answers.count(3) == 8 and len(answers) == 16
    jpegs = [a for a in answers if isinstance(a, bytes)]
    assert len(jpegs) == 8
    assert all(cv2.imdecode(np.frombuffer(j, np.uint8), cv2.IMREAD_COLOR) is not None for j in jpegs)
    drawn_on = set(camera.threads) | set(masked)
    assert len(camera.threads) == 16 and len(masked) == 8  # every read and every mask ...
    assert len(drawn_on) == 1 and drawn_on.pop().startswith(camera_page.DRAWING_THREAD)  # ... on one thread


def test_an_error_while_drawing_reaches_the_page_as_no_frame(service: Any) -> None:
    class Broken(RecordingCamera):
        def read(self, *, newer_than: int = 0, timeout: float = 0.0) -> Frame | None:
            raise OSError("the camera went away")

    assert camera_page.frame_jpeg(Broken(), service=service, config=Config()) is None
    assert camera_page.camera_view(service, Config(), Broken())["frame"] is None
