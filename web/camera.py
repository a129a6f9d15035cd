"""The host's camera page: the latest frame, what was read on it, and the zones.

Privacy: a face-up card in a seat's zone while betting is open (before the showdown, or before
an all-in closes the betting) is a peek. The view sent to the page leaves its face out, and the
JPEG is blacked out over it (over every seat zone when there is no view to say where the cards
are), so a peek never crosses the network, not even to the host's phone.

Memory: every picture of the page is drawn, masked and encoded on one thread kept for it
(:func:`on_drawing_thread`), whichever of the web server's worker threads took the request.
OpenCV keeps state per thread for drawing text (about 6 MB a thread with OpenCV 5), and glibc
gives a thread that allocates large pictures an arena of its own; drawn on the 64 worker threads
in turn, a host watching the camera page for a minute made ``serve`` grow by some 400 MB.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import numpy as np

from web.protocols import Camera, CameraFrame, TableService, TableView, WebConfig

SHOWING = ("showdown",)
DRAWING_THREAD = "tocktable-camera-page"

T = TypeVar("T")
_drawing: ThreadPoolExecutor | None = None
_drawing_lock = threading.Lock()


def on_drawing_thread(work: Callable[[], T]) -> T:
    """``work()`` (the camera page's OpenCV drawing and encoding) run on the one thread kept for it,
    started on first use; its result, or its exception."""
    global _drawing
    with _drawing_lock:
        if _drawing is None:
            _drawing = ThreadPoolExecutor(max_workers=1, thread_name_prefix=DRAWING_THREAD)
    return _drawing.submit(work).result()


def _latest(camera: Camera | None) -> CameraFrame | None:
    if camera is None:
        return None
    try:  # a CameraTap annotates the frame as it is read: on the drawing thread
        return on_drawing_thread(lambda: camera.read(newer_than=0, timeout=0.0))
    except Exception:  # a camera gone away: the page says "no frame"
        return None


def latest_view(service: TableService) -> TableView | None:
    """The table view the service last took from the camera (None before the first)."""
    return service.view


def hole_cards_public(service: TableService) -> bool:
    """Whether a seat's face-up cards may be shown: at the showdown, or at an all-in once betting
    is closed and the hands are tabled (the game's ``hands_may_be_shown``)."""
    state = service.snapshot().to_dict()
    return state.get("street") in SHOWING or bool(state.get("hands_may_be_shown"))


def _zones(config: WebConfig, camera: Camera | None = None) -> dict[str, list[list[float]]]:
    """The camera's own zones when it knows them (the demo's table), else the configured ones."""
    known = getattr(camera, "zones", None)  # a camera may know its zones: not every one does
    if isinstance(known, dict) and known:
        return {str(name): [list(p) for p in zone] for name, zone in known.items()}
    zones: dict[str, list[list[float]]] = {}
    board = config.zones.board
    if board:
        zones["board"] = [list(p) for p in board]
    for seat, zone in enumerate(config.seat_zones()):
        zones[f"seat:{seat}"] = [list(p) for p in zone]
    return zones


def camera_view(service: TableService, config: WebConfig, camera: Camera | None) -> dict[str, Any]:
    """What the camera page draws over the frame, in normalised coordinates (0..1)."""
    view = latest_view(service)
    public = hole_cards_public(service)
    cards = []
    conflicts = []
    if view is not None:
        seen = [*view.board, *(c for seat in sorted(view.seats) for c in view.seats[seat])]
        for card in seen:
            hidden = card.zone.startswith("seat:") and card.face_up and not public
            cards.append({
                "card": None if hidden else card.card,
                "face_up": card.face_up,
                "hidden": hidden,
                "mark": card.mark,
                "zone": card.zone,
                "confidence": round(float(card.confidence), 3),
                "corners": [list(p) for p in card.corners],
            })  # fmt: skip
        for conflict in view.conflicts:
            text = conflict.message
            if conflict.card and conflict.zone.startswith("seat:") and not public:
                text = text.replace(conflict.card, "a card")
            conflicts.append({"kind": conflict.kind, "zone": conflict.zone, "message": text})
    frame = _latest(camera)
    state = service.snapshot().to_dict()
    return {
        "camera": camera is not None,
        "frame": frame.index if frame is not None else None,
        "size": [int(frame.image.shape[1]), int(frame.image.shape[0])] if frame is not None else None,
        "view_frame": view.frame_index if view is not None else None,
        "annotated": bool(getattr(frame, "annotated", False)),
        "zones": _zones(config, camera),
        "cards": cards,
        "conflicts": conflicts,
        "status": state.get("camera"),
    }


def mask_peeks(image: np.ndarray, view: TableView | None, zones: dict[str, list[list[float]]]) -> np.ndarray:
    """A copy of ``image`` with every seat zone blacked out. ``view`` is not trusted to have found
    every peeked card, so a missed face-up card can never show; it is kept for callers."""
    import cv2

    del view
    out = image.copy()
    height, width = out.shape[:2]
    for name, zone in zones.items():
        if name.startswith("seat:"):
            polygon = np.array([[x * width, y * height] for x, y in zone]).round().astype(np.int32)
            cv2.fillPoly(out, [polygon], (20, 20, 20))
    return out


def frame_jpeg(camera: Camera | None, *, service: TableService, config: WebConfig, quality: int = 80) -> bytes | None:
    """The latest frame as JPEG bytes, every seat zone blacked out unless the hands may be shown."""
    import cv2

    frame = _latest(camera)
    if frame is None:
        return None
    masked = not hole_cards_public(service)
    view, zones = latest_view(service), _zones(config, camera)

    def encode() -> bytes | None:
        image = mask_peeks(frame.image, view, zones) if masked else frame.image
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return bytes(data.tobytes()) if ok else None

    return on_drawing_thread(encode)
