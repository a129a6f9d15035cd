"""Test a home-built table: light every LED in turn, report every button, read one frame.

Used by ``tocktable check-hardware``. Every step prints what to look for, so a host can
check the wiring alone before the first game night.
"""

from __future__ import annotations

import importlib
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TextIO

import cv2
import numpy as np

from hardware.console import ButtonPressed, Console
from hardware.frames import FrameSource, Image
from hardware.lights import TableLights
from hardware.pins import ConsoleButton, PinMap
from table.wording import counted

Reader = Callable[[Image], Sequence[Any]]
"""Something that reads cards from a frame, e.g. ``vision.CardReader.default().read``: a list of
observations with ``.card`` ("Ah" or None), ``.face_up``, ``.confidence`` and ``.corners`` (4x2 pixels)."""

AUTO: Literal["auto"] = "auto"


def default_reader(out: TextIO) -> Reader | None:
    """``vision.CardReader.default().read`` when the card reader is installed, else None.

    vision is imported here, when the check reaches the camera, never when hardware is imported.
    """
    try:
        vision = importlib.import_module("vision")
    except ImportError:
        vision = None
    card_reader = getattr(vision, "CardReader", None)
    if card_reader is None:
        out.write("  no card reader in this installation (vision.CardReader): the frame is saved as seen\n")
        return None
    out.write("  loading the card reader...\n")
    try:
        read: Reader = card_reader.default().read
    except Exception as exc:  # a missing model file must not hide the camera check
        out.write(f"  the card reader could not start: {exc}\n")
        return None
    return read


@dataclass
class CheckReport:
    """What the check saw."""

    leds_lit: list[int] = field(default_factory=list)
    buttons_seen: list[ConsoleButton] = field(default_factory=list)
    frame_size: tuple[int, int] | None = None
    camera_error: str | None = None
    detections: int | None = None
    snapshot_error: str | None = None

    @property
    def buttons_missing(self) -> list[ConsoleButton]:
        return [b for b in ConsoleButton if b not in self.buttons_seen]

    @property
    def ok(self) -> bool:
        return not self.buttons_missing and self.camera_error is None and self.snapshot_error is None


def check_hardware(
    pins: PinMap,
    *,
    pin_factory: Any,
    source: FrameSource | None,
    out: TextIO,
    reader: Reader | Literal["auto"] | None = AUTO,
    listen_seconds: float = 30.0,
    led_seconds: float = 0.6,
    hold_time: float = 1.0,
    snapshot: Path | None = None,
    press_for_me: bool | None = None,
    camera_timeout: float = 5.0,
) -> CheckReport:
    """Run the three checks (LEDs, buttons, camera) and return what was seen.

    ``reader`` reads the cards in the camera frame: ``"auto"`` uses ``vision.CardReader`` when it is
    installed, None skips reading. With ``snapshot`` the frame is saved with every card outlined
    and named (green: read, orange: face down, red: unsure). ``press_for_me``: drive every button
    on mock pins (None: when ``pin_factory`` is gpiozero's MockFactory), so ``--mock`` checks the
    whole chain on a computer.
    """
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
        if press_for_me or (press_for_me is None and _is_mock(pin_factory)):
            say("  (mock pins: each button is pressed for you, the way a person would)\n")
            threading.Thread(target=_press_all, args=(pin_factory, pins, hold_time), daemon=True).start()
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
        frame = source.read(timeout=camera_timeout)
        settle = time.monotonic() + 1.0  # a few more frames (at most a second), to measure the frame rate
        while frame is not None and frame.index < 5 and time.monotonic() < settle:
            frame = source.read(newer_than=frame.index, timeout=settle - time.monotonic()) or frame
        health = source.health()
    if frame is None:
        report.camera_error = health.last_error or f"no frame within {camera_timeout:g} s"
        say(f": FAILED, {report.camera_error}\n")
        return report
    height, width = frame.image.shape[:2]
    report.frame_size = (width, height)
    say(f": {width}x{height}, {health.fps:.1f} fps\n")
    if reader == AUTO:
        reader = default_reader(out)
    annotated = frame.image.copy()
    if reader is not None:
        found = reader(frame.image)
        report.detections = len(found)
        say(f"  {counted(len(found), 'card')} seen\n")
        for obs in found:
            name, colour = describe(obs)
            say(f"    {name} (confidence {float(getattr(obs, 'confidence', 0.0)):.2f})\n")
            draw_observation(annotated, obs, name, colour)
    if snapshot is not None:
        try:
            saved = bool(cv2.imwrite(str(snapshot), annotated))
        except cv2.error:  # e.g. a file name cv2 has no writer for
            saved = False
        if saved:
            say(f"  snapshot saved to {snapshot}\n")
        else:
            report.snapshot_error = f"could not write the snapshot to {snapshot} (a writable .png or .jpg path?)"
            say(f"  snapshot: FAILED, {report.snapshot_error}\n")
    return report


def _is_mock(pin_factory: Any) -> bool:
    from gpiozero.pins.mock import MockFactory

    return isinstance(pin_factory, MockFactory)


def _press_all(factory: Any, pins: PinMap, hold_time: float) -> None:
    """Press every button on mock pins: a short press, or a hold for ALL-IN and UNDO."""
    time.sleep(0.2)
    for button in ConsoleButton:
        pin = factory.pin(pins.buttons[button])
        pin.drive_low()
        time.sleep(hold_time + 0.2 if button.needs_hold else 0.08)
        pin.drive_high()
        time.sleep(0.1)


def describe(observation: Any) -> tuple[str, tuple[int, int, int]]:
    """A card's name for people and its outline colour (BGR)."""
    card = getattr(observation, "card", None)
    if card:
        return str(card), (0, 200, 0)
    if not getattr(observation, "face_up", True):
        mark = getattr(observation, "mark", None)
        return (f"face down, mark {mark}" if mark else "face down"), (0, 140, 255)
    return "unsure", (0, 0, 230)


def draw_observation(image: Image, observation: Any, name: str, colour: tuple[int, int, int]) -> None:
    """Outline a card and write its name by its first corner."""
    corners = np.asarray(getattr(observation, "corners", np.zeros((0, 2))), dtype=np.float64).reshape(-1, 2)
    if len(corners) < 3:
        return
    points = np.round(corners).astype(np.int32)
    thickness = max(2, image.shape[0] // 360)
    cv2.polylines(image, [points.reshape(-1, 1, 2)], True, colour, thickness, cv2.LINE_AA)
    x, y = int(points[:, 0].min()), int(points[:, 1].min())
    scale = max(0.5, image.shape[0] / 1200)
    (w, h), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    y = max(y - 6, h + 4)
    cv2.rectangle(image, (x - 2, y - h - 4), (x + w + 2, y + 4), (0, 0, 0), -1)
    cv2.putText(image, name, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)
