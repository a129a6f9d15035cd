"""The host's camera page gets its picture here: the latest frame, annotated.

The camera loop (or the demo) :meth:`CameraTap.record`\\ s every frame it reads with the view and
the tracker's cards (cheap: references only). The web page asks at most about once a second;
only then is the frame drawn on (:func:`vision.annotate.annotate`: zones, each card the tracker
follows with its reading, conflicts), once per frame, on the web thread, never the camera's.

Privacy: until the showdown (``public()`` False) every face-up card in a seat's zone is blacked
out on the picture itself; the web layer blacks out the service's view of them again
(:func:`web.camera.frame_jpeg`), so a peek never crosses the network.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

Zones = Mapping[str, Sequence[Sequence[float]]]


@dataclass(frozen=True)
class ShownFrame:
    """A frame as the camera page shows it (the same fields as :class:`hardware.frames.Frame`)."""

    image: np.ndarray
    timestamp: float
    index: int
    annotated: bool = True
    """True: zones, cards and conflicts are drawn on ``image`` (the page draws no overlay)."""


@dataclass(frozen=True)
class _Recorded:
    image: np.ndarray | None
    index: int
    timestamp: float
    view: Any
    tracks: tuple[Any, ...]


def tracks_of(watcher: Any) -> tuple[Any, ...]:
    """The tracker's cards after its last frame (pending and withheld ones too), if it has one."""
    tracks = getattr(getattr(watcher, "tracker", None), "tracks", None)
    return tuple(tracks()) if callable(tracks) else ()


class CameraTap:
    """The latest camera frame for the host's camera page (``read(newer_than=, timeout=)`` like a
    frame source), annotated when asked.

    ``zones``: the camera's zones (normalised); ``public``: whether seat cards may be shown (the
    showdown); ``render``: draws the table when a recorded frame has no picture (the demo's
    perfect camera reads the table model, not an image); ``source``: a frame source read
    directly until the first record (a camera with no card reader still shows its picture and
    the zones, to aim it)."""

    def __init__(
        self,
        zones: Zones,
        *,
        public: Callable[[], bool] = lambda: False,
        render: Callable[[], np.ndarray] | None = None,
        source: Any = None,
    ) -> None:
        self.zones: dict[str, list[list[float]]] = {
            name: [[float(x), float(y)] for x, y in zone] for name, zone in zones.items()
        }
        self.public = public
        self.render = render
        self.source = source
        self._latest: _Recorded | None = None
        self._listeners: list[Callable[[Any], None]] = []
        self._changed = threading.Condition()
        self._cache: tuple[tuple[int, bool], ShownFrame] | None = None

    def record(self, image: np.ndarray | None, *, index: int, timestamp: float, view: Any = None,
               tracks: Sequence[Any] = ()) -> None:  # fmt: skip
        """Keep one frame (``image`` None: draw it with ``render`` if asked) and what was read on it."""
        with self._changed:
            self._latest = _Recorded(image, index, timestamp, view, tuple(tracks))
            self._changed.notify_all()
        for listener in self._listeners:
            listener(view)

    def listen(self, listener: Callable[[Any], None]) -> None:
        """Call ``listener(view)`` with the view of every frame recorded from now on (on the
        camera's thread: it must be quick, e.g. :meth:`tocktable.dry_run.DryRun.observe`)."""
        self._listeners.append(listener)

    def read(self, *, newer_than: int = 0, timeout: float = 0.0) -> ShownFrame | None:
        """The latest frame annotated, if its index is above ``newer_than`` (waiting up to
        ``timeout`` seconds for one); None when there is none."""
        with self._changed:
            self._changed.wait_for(lambda: self._newest_index() > newer_than, timeout=max(timeout, 0.0))
            latest = self._latest
        if latest is None:
            latest = self._from_source(newer_than)
        if latest is None or latest.index <= newer_than:
            return None
        public = bool(self.public())
        cached = self._cache
        if cached is not None and cached[0] == (latest.index, public):
            return cached[1]
        image = latest.image if latest.image is not None else (self.render() if self.render is not None else None)
        if image is None:
            return None
        from vision.annotate import annotate  # OpenCV's drawing loads when the camera page first asks

        drawn = annotate(image, latest.view, zones=self.zones, tracks=latest.tracks, hide_seat_faces=not public)
        if not public:
            # the reader can miss a peeked card, so while hands are private no seat pixel goes out
            drawn = self._cover_seats(drawn)
        shown = ShownFrame(drawn, latest.timestamp, latest.index)
        self._cache = ((latest.index, public), shown)
        return shown

    def raw(self) -> tuple[int, np.ndarray] | None:
        """The latest frame as the camera took it (not drawn on, not masked) and its index: for
        measurements that never leave the Pi (the set-up page's aim advice); None before the first."""
        with self._changed:
            latest = self._latest
        if latest is None:
            latest = self._from_source(0)
        if latest is None:
            return None
        image = latest.image if latest.image is not None else (self.render() if self.render is not None else None)
        return None if image is None else (latest.index, image)

    def _cover_seats(self, image: np.ndarray) -> np.ndarray:
        import cv2

        out = np.array(image, copy=True)
        height, width = out.shape[:2]
        for name, zone in self.zones.items():
            if name.startswith("seat:"):
                polygon = np.array([[x * width, y * height] for x, y in zone]).round().astype(np.int32)
                cv2.fillPoly(out, [polygon], (20, 20, 20))
        return out

    def _newest_index(self) -> int:
        return self._latest.index if self._latest is not None else 0

    def _from_source(self, newer_than: int) -> _Recorded | None:
        if self.source is None:
            return None
        try:
            frame = self.source.read(newer_than=newer_than, timeout=0.0)
        except Exception:  # a camera gone away: the page says "no frame"
            return None
        return _Recorded(frame.image, frame.index, frame.timestamp, None, ()) if frame is not None else None
