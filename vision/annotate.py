"""The annotated camera frame for the host's camera page: zones, cards, what was read, conflicts.

:func:`annotate` draws on a copy of a BGR frame:

- each zone as a tinted outline with its name ("board", "seat 3");
- each card the tracker follows, outlined by its state: green when it is in the view, amber
  while it is still being confirmed, red when it is withheld for a conflict; dashed when the
  last frame did not see it (a hand over it, inside the grace period). Its label says what it is
  ("Ah 97%", "down h:large 91%", "Kd? (confirming)");
- each conflict in red, and their messages in a banner across the top.

Privacy: before the showdown a face-up card in a seat's zone is a peek, and the picture goes to a
phone. With ``hide_seat_faces`` (the default) such a card is blacked out and labelled "face up",
whether or not the tracker has confirmed it yet; pass False only at the showdown.

>>> import numpy as np
>>> frame = np.full((360, 640, 3), 90, np.uint8)
>>> out = annotate(frame, zones={"board": [(0.3, 0.3), (0.7, 0.3), (0.7, 0.7), (0.3, 0.7)]})
>>> out.shape, out.dtype, bool((out != frame).any()), bool((frame == 90).all())
((360, 640, 3), dtype('uint8'), True, True)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import FrameError
from vision.reader import CardReader
from vision.render.scene import PlacedCard, SceneSpec, render_scene
from vision.track import Sighting, TableTracker, TrackInfo, TrackStatus
from vision.view import BOARD, Point, SeenCard, TableView
from vision.zones import TableZones

Color = tuple[int, int, int]

SHOWN: Color = (80, 200, 60)
PENDING: Color = (0, 190, 255)
WITHHELD: Color = (40, 40, 230)
BOARD_TINT: Color = (220, 180, 40)
SEAT_TINTS: tuple[Color, ...] = (
    (200, 120, 230), (120, 220, 230), (230, 160, 110), (150, 230, 140), (110, 150, 240),
    (230, 230, 120), (160, 110, 200), (90, 200, 170), (200, 200, 200), (140, 180, 250),
)  # fmt: skip
HIDDEN: Color = (20, 20, 20)

_FONT = cv2.FONT_HERSHEY_SIMPLEX


def annotate(
    image: np.ndarray,
    view: TableView | None = None,
    *,
    zones: TableZones | Mapping[str, Sequence[Sequence[float]]] | None = None,
    tracks: Sequence[TrackInfo] = (),
    hide_seat_faces: bool = True,
) -> np.ndarray:
    """A copy of ``image`` (H×W×3 uint8 BGR, or H×W grey) with the zones, the cards and the
    conflicts drawn on it. ``tracks`` (``tracker.tracks()``) shows every card the tracker follows;
    without it the cards of ``view`` are drawn. Raises :class:`vision.errors.FrameError` for an
    image that is not one."""
    frame = _bgr_copy(image)
    height, width = frame.shape[:2]
    unit = max(height / 720.0, 0.35)
    table_zones = None
    if zones is not None:
        table_zones = TableZones.from_mapping(zones, size=(max(width, 16), max(height, 16)))
        _draw_zones(frame, table_zones, unit)
    if tracks:
        for track in sorted(tracks, key=lambda t: t.status != TrackStatus.WITHHELD):  # conflicts drawn last
            _draw_track(frame, track, table_zones, unit, hide_seat_faces)
    elif view is not None:
        for seen in _view_cards(view):
            _draw_seen(frame, seen, unit, hide_seat_faces)
    if view is not None:
        for conflict in view.conflicts:
            if conflict.corners is not None:
                _outline(frame, conflict.corners, WITHHELD, max(round(3 * unit), 2))
    if table_zones is not None:
        _name_zones(frame, table_zones, unit)
    if view is not None:
        _banner(frame, [c.message for c in view.conflicts], unit)
    return frame


def _bgr_copy(image: object) -> np.ndarray:
    if not isinstance(image, np.ndarray):
        raise FrameError(f"the frame must be a numpy array (H×W×3 BGR uint8), got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise FrameError(f"the frame must be uint8 (0..255), got {image.dtype}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.ndim != 3 or image.shape[2] not in (3, 4):
        raise FrameError(f"the frame must be H×W×3 BGR (or H×W grey), got shape {image.shape}")
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[0] < 8 or image.shape[1] < 8:
        raise FrameError(f"the frame is too small to draw on: {image.shape[1]}×{image.shape[0]} pixels")
    return np.ascontiguousarray(image).copy()


def _pixels(frame: np.ndarray, points: Sequence[Point]) -> np.ndarray:
    height, width = frame.shape[:2]
    return np.array([[x * width, y * height] for x, y in points], np.float64)


def _outline(frame: np.ndarray, points: Sequence[Point], color: Color, thickness: int, *, dashed: bool = False) -> None:
    quad = _pixels(frame, points)
    if not dashed:
        cv2.polylines(frame, [np.round(quad).astype(np.int32)], True, color, thickness, cv2.LINE_AA)
        return
    dash = max(thickness * 4, 6)
    for a, b in zip(quad, np.roll(quad, -1, axis=0), strict=True):
        length = float(np.hypot(*(b - a)))
        steps = max(int(length // dash), 1)
        for k in range(0, steps, 2):
            p = a + (b - a) * (k / steps)
            q = a + (b - a) * (min(k + 1, steps) / steps)
            cv2.line(frame, (round(p[0]), round(p[1])), (round(q[0]), round(q[1])), color, thickness, cv2.LINE_AA)


def _label(frame: np.ndarray, text: str, anchor: tuple[float, float], color: Color, unit: float) -> None:
    """Text (one or more lines) on a dark box, centred on ``anchor`` (pixels), kept inside the frame."""
    scale = 0.5 * unit
    thickness = max(round(1.2 * unit), 1)
    lines = text.split("\n")
    sizes = [cv2.getTextSize(line, _FONT, scale, thickness) for line in lines]
    th = max(size[0][1] for size in sizes)
    base = max(size[1] for size in sizes)
    step = th + base + max(round(2 * unit), 1)
    tw = max(size[0][0] for size in sizes)
    total = step * (len(lines) - 1) + th
    pad = max(round(3 * unit), 2)
    height, width = frame.shape[:2]
    x = int(min(max(anchor[0] - tw / 2, pad), max(width - tw - pad, pad)))
    top = int(min(max(anchor[1] - total / 2, pad), max(height - total - base - pad, pad)))
    box = frame[max(top - pad, 0): min(top + total + base + pad, height), max(x - pad, 0): min(x + tw + pad, width)]
    box[:] = (box * 0.35).astype(np.uint8)
    for k, (line, ((lw, _), _)) in enumerate(zip(lines, sizes, strict=True)):
        origin = (x + (tw - lw) // 2, top + th + k * step)
        cv2.putText(frame, line, origin, _FONT, scale, color, thickness, cv2.LINE_AA)


def _zone_tint(name: str) -> Color:
    if name == BOARD:
        return BOARD_TINT
    return SEAT_TINTS[int(name.partition(":")[2]) % len(SEAT_TINTS)]


def _draw_zones(frame: np.ndarray, zones: TableZones, unit: float) -> None:
    tinted = frame.copy()
    for zone in zones:
        polygon = np.round(_pixels(frame, zone.polygon)).astype(np.int32)
        cv2.fillPoly(tinted, [polygon], _zone_tint(zone.name), cv2.LINE_AA)
    cv2.addWeighted(tinted, 0.12, frame, 0.88, 0, dst=frame)
    for zone in zones:
        _outline(frame, zone.polygon, _zone_tint(zone.name), max(round(2 * unit), 1))


def _name_zones(frame: np.ndarray, zones: TableZones, unit: float) -> None:
    for zone in zones:
        polygon = _pixels(frame, zone.polygon)
        top = polygon[np.argmin(polygon[:, 1])]
        name = "board" if zone.name == BOARD else f"seat {zone.seat}"
        _label(frame, name, (float(top[0]), float(top[1]) + 12 * unit), _zone_tint(zone.name), unit)


def _is_peek(face_up: bool, zone: str | None) -> bool:
    return face_up and zone is not None and zone.startswith("seat:")


def _hide(frame: np.ndarray, corners: Sequence[Point]) -> None:
    quad = _pixels(frame, corners)
    centre = quad.mean(axis=0)
    grown = centre + (quad - centre) * 1.15
    cv2.fillPoly(frame, [np.round(grown).astype(np.int32)], HIDDEN, cv2.LINE_AA)


def _text(face_up: bool, card: str | None, mark: str | None) -> str:
    if face_up:
        return card or "face up ?"
    return f"down {mark}" if mark else "down"


def _draw_track(frame: np.ndarray, track: TrackInfo, zones: TableZones | None, unit: float, hide: bool) -> None:
    shown = track.reading if track.reading is not None else track.latest
    zone = track.zone
    if zone is None and zones is not None:
        centre = np.mean(track.corners, axis=0)
        zone = zones.zone_of((float(centre[0]), float(centre[1]))) or None
    color = {TrackStatus.SHOWN: SHOWN, TrackStatus.PENDING: PENDING, TrackStatus.WITHHELD: WITHHELD}[track.status]
    peek = hide and (_is_peek(shown.face_up, zone) or _is_peek(track.latest.face_up, zone))
    if peek:
        _hide(frame, track.corners)
        text = "face up"
    else:
        text = _text(shown.face_up, shown.card, shown.mark)
    if track.status == TrackStatus.PENDING:
        text += "?\nconfirming"
    else:
        text += f"\n{round(track.confidence * 100)}%"
    if track.status == TrackStatus.WITHHELD:
        text = "CONFLICT\n" + ("" if peek else text)
    thickness = max(round((3 if track.status == TrackStatus.WITHHELD else 2) * unit), 1)
    _outline(frame, track.corners, color, thickness, dashed=not track.seen)
    _label(frame, text.strip(), _below_centre(_pixels(frame, track.corners)), color, unit)


def _below_centre(quad: np.ndarray) -> tuple[float, float]:
    """Where a card's label goes: below its middle, so the mark in the middle stays visible."""
    return float(quad[:, 0].mean()), float(quad[:, 1].mean() + 0.3 * (quad[:, 1].max() - quad[:, 1].min()))


def _view_cards(view: TableView) -> list[SeenCard]:
    return [*view.board, *(c for seat in sorted(view.seats) for c in view.seats[seat]), *view.loose]


def _draw_seen(frame: np.ndarray, seen: SeenCard, unit: float, hide: bool) -> None:
    peek = hide and _is_peek(seen.face_up, seen.zone)
    if peek:
        _hide(frame, seen.corners)
    _outline(frame, seen.corners, SHOWN, max(round(2 * unit), 1))
    text = "face up" if peek else _text(seen.face_up, seen.card, seen.mark)
    _label(frame, f"{text}\n{round(seen.confidence * 100)}%", _below_centre(_pixels(frame, seen.corners)), SHOWN, unit)


def _banner(frame: np.ndarray, messages: Sequence[str], unit: float) -> None:
    if not messages:
        return
    lines = list(messages[:4]) + ([f"... and {len(messages) - 4} more"] if len(messages) > 4 else [])
    scale = 0.5 * unit
    thickness = max(round(1.2 * unit), 1)
    line_h = cv2.getTextSize("Ag", _FONT, scale, thickness)[0][1] + round(8 * unit)
    height = min(line_h * len(lines) + round(8 * unit), frame.shape[0])
    band = frame[:height]
    band[:] = (band * 0.3 + np.array(WITHHELD, np.float64) * 0.25).astype(np.uint8)
    for k, line in enumerate(lines):
        y = round(4 * unit) + line_h * (k + 1) - round(4 * unit)
        cv2.putText(frame, line, (round(8 * unit), y), _FONT, scale, (255, 255, 255), thickness, cv2.LINE_AA)


# ---------------------------------------------------------------------------------- an example
EXAMPLE_ZONES: dict[str, list[tuple[float, float]]] = {
    "board": [(0.25, 0.36), (0.75, 0.36), (0.75, 0.64), (0.25, 0.64)],
    "seat:0": [(0.36, 0.7), (0.64, 0.7), (0.64, 0.99), (0.36, 0.99)],
    "seat:1": [(0.02, 0.24), (0.22, 0.24), (0.22, 0.76), (0.02, 0.76)],
    "seat:2": [(0.36, 0.07), (0.64, 0.07), (0.64, 0.33), (0.36, 0.33)],
    "seat:3": [(0.78, 0.24), (0.98, 0.24), (0.98, 0.76), (0.78, 0.76)],
}


def example(reader: Any = None) -> np.ndarray:
    """An annotated frame of a Tock table: flop face up, the last two board cards and the hole
    cards face down with their marks, one seat peeking, and a card seen twice. ``reader`` (a
    :class:`vision.CardReader`) reads the frames; None uses the scene's truth (a perfect reader)."""
    board = [PlacedCard(c, up, (0.32 + 0.09 * k, 0.5), back="tock", height=0.2)
             for k, (c, up) in enumerate([("7c", True), ("Qh", True), ("2d", True), ("As", False), ("9h", False)])]
    holes = [("Kh", 0.445, 0.85, 0, False), ("5c", 0.555, 0.85, 0, False), ("Jd", 0.12, 0.4, 90, False),
             ("Jc", 0.12, 0.6, 90, True), ("8s", 0.555, 0.2, 180, False), ("3h", 0.445, 0.2, 180, False),
             ("Ts", 0.88, 0.4, -90, False), ("6d", 0.88, 0.6, -90, False)]  # fmt: skip
    seats = [PlacedCard(c, up, (x, y), angle=a, back="tock", height=0.2) for c, x, y, a, up in holes]
    twice = PlacedCard("Qh", True, (0.9, 0.88), angle=12, height=0.2)  # a second deck's Qh, out of every zone
    tracker = TableTracker(EXAMPLE_ZONES, size=(1280, 720))
    frame = np.zeros((720, 1280, 3), np.uint8)
    for k in range(6):
        cards = (*board, *seats) if k < 3 else (*board, *seats, twice)
        scene = render_scene(SceneSpec(cards, table="blue-felt", seed=5, deck="holdout-2"))
        frame = scene.image
        if reader is not None:
            observations: Sequence[Any] = list(reader.read(frame))
        else:
            observations = [Sighting(t.card if t.face_up else None, t.face_up, t.mark, 0.97, t.corners)
                            for t in scene.truth]  # fmt: skip
        tracker.update(observations, frame_index=k, timestamp=k / 10)
    return annotate(frame, tracker.last_view, zones=EXAMPLE_ZONES, tracks=tracker.tracks())


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m vision.annotate --example FILE.png [--perfect]``: draw the example frame."""
    parser = argparse.ArgumentParser(prog="python -m vision.annotate", description=main.__doc__)
    parser.add_argument("--example", type=Path, required=True, help="PNG file to write")
    parser.add_argument("--perfect", action="store_true", help="use the scene's truth, not the card reader")
    args = parser.parse_args(argv)
    reader = None
    if not args.perfect:
        try:
            reader = CardReader.default()
        except Exception as exc:  # no reader or no models yet: say so, draw with the truth
            print(f"card reader not available ({exc}): using the scene's truth", file=sys.stderr)
    if not cv2.imwrite(str(args.example), example(reader)):
        print(f"error: could not write {args.example}", file=sys.stderr)
        return 2
    print(f"wrote {args.example} ({'the card reader' if reader is not None else 'a perfect reader'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
