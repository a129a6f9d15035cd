"""Test a home-built table: light every LED in turn, report every button, read one frame.

Used by ``tocktable check-hardware``. Every step prints what to look for, so a host can
check the wiring alone before the first game night.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import cv2
import numpy as np

from hardware.console import ButtonPressed, Console
from hardware.frames import FrameSource, Image
from hardware.lights import TableLights
from hardware.pins import ConsoleButton, PinMap

Reader = Callable[[Image], Sequence[Any]]
"""Something that reads cards from a frame, e.g. ``vision.CardReader.default().read``."""


@dataclass
class CheckReport:
    """What the check saw."""

    leds_lit: list[int] = field(default_factory=list)
    buttons_seen: list[ConsoleButton] = field(default_factory=list)
    frame_size: tuple[int, int] | None = None
    camera_error: str | None = None
    detections: int | None = None

    @property
    def buttons_missing(self) -> list[ConsoleButton]:
        return [b for b in ConsoleButton if b not in self.buttons_seen]

    @property
    def ok(self) -> bool:
        return not self.buttons_missing and self.camera_error is None


def check_hardware(
    pins: PinMap,
    *,
    pin_factory: Any,
    source: FrameSource | None,
    out: TextIO,
    reader: Reader | None = None,
    listen_seconds: float = 30.0,
    led_seconds: float = 0.6,
    hold_time: float = 1.0,
    snapshot: Path | None = None,
) -> CheckReport:
    """Run the three checks (LEDs, buttons, camera) and return what was seen."""
    report = CheckReport()
    pins.validate(seats=len(pins.seat_leds))
    say = out.write

    say("1/3 LEDs: each seat LED lights in turn, then the status LED blinks and the buzzer beeps.\n")
    with TableLights(pins, pin_factory=pin_factory) as lights:
        for seat, pin in enumerate(pins.seat_leds):
            say(f"  seat {seat + 1} LED on (GPIO{pin})\n")
            lights.show(dealer=seat, to_act=None)
            report.leds_lit.append(seat)
            time.sleep(led_seconds)
        lights.show(dealer=None, to_act=None)
        lights.set_status(False)
        lights.beep(times=2)
        time.sleep(led_seconds)
        lights.set_status(True)

    say(f"2/3 buttons: press each button once (hold ALL-IN and UNDO for {hold_time:g} s); {listen_seconds:g} s.\n")
    events: queue.Queue[ButtonPressed] = queue.Queue()
    with Console(pins, events, pin_factory=pin_factory, hold_time=hold_time):
        deadline = time.monotonic() + listen_seconds
        while report.buttons_missing and time.monotonic() < deadline:
            try:
                event = events.get(timeout=0.1)
            except queue.Empty:
                continue
            new = event.button not in report.buttons_seen
            if new:
                report.buttons_seen.append(event.button)
            say(f"  {event.button.label} (GPIO{pins.buttons[event.button]}){'' if new else ' again'}\n")
    missing = report.buttons_missing
    say("  all buttons work\n" if not missing else f"  never pressed: {', '.join(b.label for b in missing)}\n")

    say("3/3 camera: one frame")
    if source is None:
        say(" skipped (no camera configured)\n")
        return report
    with source:
        frame = source.read(timeout=5.0)
        health = source.health()
    if frame is None:
        report.camera_error = health.last_error or "no frame within 5 s"
        say(f": FAILED, {report.camera_error}\n")
        return report
    height, width = frame.image.shape[:2]
    report.frame_size = (width, height)
    say(f": {width}x{height}, {health.fps:.1f} fps\n")
    annotated = frame.image.copy()
    if reader is not None:
        found = reader(frame.image)
        report.detections = len(found)
        say(f"  {len(found)} card(s) seen\n")
        for obs in found:
            name = getattr(obs, "card", None) or ("face down" if not getattr(obs, "face_up", True) else "unsure")
            say(f"    {name} (confidence {getattr(obs, 'confidence', 0):.2f})\n")
            corners = np.asarray(getattr(obs, "corners", np.zeros((0, 2))), dtype=np.int32)
            if corners.size:
                cv2.polylines(annotated, [corners.reshape(-1, 1, 2)], True, (0, 255, 0), 2)
    if snapshot is not None:
        cv2.imwrite(str(snapshot), annotated)
        say(f"  snapshot saved to {snapshot}\n")
    return report
