"""From camera frames to table views: the seam between the frame source, vision and the service.

A :class:`Watcher` turns one frame into a :class:`vision.view.TableView`. Two exist:

- :class:`VisionWatcher`: the real pipeline, ``vision``'s card reader (detect, rectify,
  classify) and its tracker (stable over several frames, zones, conflicts);
- :class:`TruthWatcher`: what a synthetic table model *holds*, without looking at the picture:
  a perfect camera, used by the demo until the card reader is installed, and by tests that
  check the service apart from vision.

:class:`CameraLoop` runs a frame source through a watcher on its own thread and puts each
*changed* view on the service queue, with the source's health (for the status LED).
"""

from __future__ import annotations

import logging
import math
import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from table.cards import Card
from table.tock import mark_of
from tocktable.service import CameraStatus
from tocktable.tap import tracks_of
from tocktable.teaching import HostCard, find_card
from vision.view import BOARD, SeenCard, TableView

log = logging.getLogger("tocktable.camera")

Point = tuple[float, float]


class Watcher(Protocol):
    """Frame in, stable table view out."""

    needs_image: bool
    """False when the watcher reads the table model rather than the picture (no need to draw it)."""

    def watch(self, image: Any, *, index: int, timestamp: float) -> TableView: ...


class VisionUnavailable(Exception):
    """The card reader or the tracker is not installed (yet); the message says what is missing."""


# ---------------------------------------------------------------------------------- truth
@dataclass(frozen=True)
class Observation:
    """One card found in one frame, as the reader reports it (DESIGN.md §3)."""

    card: str | None
    face_up: bool
    mark: str | None
    confidence: float
    corners: tuple[Point, Point, Point, Point]
    """Pixel coordinates, clockwise from the card's top left."""


class TruthReader:
    """A perfect card reader for a :class:`hardware.table_model.TableModel`: every card on the
    table, read right, in pixel coordinates (for the real tracker)."""

    def __init__(self, model: Any) -> None:
        self.model = model

    def read(self, image: Any = None) -> list[Observation]:
        width, height = self.model.size
        out = []
        for placed in self.model.state().cards:
            a, b, c, d = ((x * width, y * height) for x, y in _placed_corners(self.model, placed))
            out.append(Observation(_face(placed) if placed.face_up else None, placed.face_up, _mark(self.model, placed),
                                   1.0, (a, b, c, d)))  # fmt: skip
        return out


def perfect_picture(model: Any) -> Callable[[], Any]:
    """The picture a perfect camera takes of ``model`` (for the host's camera page): no tilt, blur,
    noise or hands. The perfect readers report table-plane corners; the model's own frames are
    tilted like a real camera (up to 3.5 % of the frame per corner), so outlines drawn from those
    corners would miss the cards on them. Drawn again only when the table changed."""
    from dataclasses import replace as _replace

    last: list[Any] = [None, None]  # version, image
    lock = threading.Lock()

    def draw() -> Any:
        from vision.render.scene import render_scene  # the renderer (OpenCV, fonts) loads with the first picture

        with lock:
            state = model.state()
            if last[0] != state.version:
                spec = _replace(model.scene_spec(state), clean=True, hands=0)
                last[:] = [state.version, render_scene(spec).image]
            return last[1]

    return draw


class TruthWatcher:
    """Reports exactly the cards a :class:`hardware.table_model.TableModel` holds, as a view
    (no reader, no tracker: a perfect and instant camera)."""

    needs_image = False

    def __init__(self, model: Any) -> None:
        self.model = model

    def watch(self, image: Any = None, *, index: int = 0, timestamp: float = 0.0) -> TableView:
        board: list[SeenCard] = []
        seats: dict[int, list[SeenCard]] = {}
        for placed in sorted(self.model.state().cards, key=lambda c: (c.zone or "", c.slot or 0)):
            if placed.zone is None:
                continue
            seen = SeenCard(_face(placed) if placed.face_up else None, placed.face_up, _mark(self.model, placed),
                            placed.zone, 1.0, _placed_corners(self.model, placed), first_frame=index)  # fmt: skip
            if placed.zone == BOARD:
                board.append(seen)
            else:
                seats.setdefault(int(placed.zone.partition(":")[2]), []).append(seen)
        return TableView(index, timestamp, tuple(board), {s: tuple(c) for s, c in sorted(seats.items())})


def _face(placed: Any) -> str:
    """The card a table model's card is to the game: either of the deck's jokers is ``"Jk"``."""
    return "Jk" if str(placed.card).startswith("Jk") else str(placed.card)


def _mark(model: Any, placed: Any) -> str | None:
    """The mark on a face-down card's back: its Tock mark on a Tock deck, else ``"plain"``."""
    if placed.face_up:
        return None
    return str(mark_of(Card.parse(placed.card))) if getattr(model, "back", "plain") == "tock" else "plain"


def _placed_corners(model: Any, placed: Any) -> tuple[Point, Point, Point, Point]:
    return _corners(placed.center, placed.angle, float(model.card_height), tuple(model.size))


def _corners(center: Point, angle: float, height: float, size: Sequence[int]) -> tuple[Point, Point, Point, Point]:
    """A card's corners in normalised coordinates, clockwise from its top left."""
    w_px, h_px = size[0], size[1]
    half_h = height * h_px / 2
    half_w = half_h * 63 / 88
    theta = math.radians(-angle)
    cx, cy = center[0] * w_px, center[1] * h_px
    points = []
    for dx, dy in ((-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h)):
        x = cx + dx * math.cos(theta) - dy * math.sin(theta)
        y = cy + dx * math.sin(theta) + dy * math.cos(theta)
        points.append((x / w_px, y / h_px))
    return (points[0], points[1], points[2], points[3])


# ---------------------------------------------------------------------------------- vision
class VisionWatcher:
    """``vision``'s reader and tracker: ``reader.read(image)`` gives observations, the tracker
    turns them into a stable view over several frames. With a ``learner``
    (:class:`vision.deck_learning.DeckLearner`), the cards the host enters or corrects
    (:meth:`teach`, from the service's thread) are learned on the camera's own thread, at the
    next frame: the crop read where each lies becomes an example of it (:mod:`tocktable.teaching`)."""

    KEEP_FRAMES = 600
    """Frames a card's last sample is kept after it was last seen (a correction may come late)."""

    def __init__(self, reader: Any, tracker: Any, *, learner: Any = None) -> None:
        self.reader = reader
        self.tracker = tracker
        self.needs_image = not isinstance(reader, TruthReader)
        self.learner = learner if hasattr(reader, "evidence") else None
        self._lessons: queue.SimpleQueue[list[HostCard]] = queue.SimpleQueue()
        self._samples: list[tuple[int, Any]] = []  # (frame index, vision.deck_learning.CardSample)
        self.taught = 0
        """Lessons the reader learned an example from (or forgot one by)."""

    profile_note = ""
    """What became of the deck profile (``tocktable enroll``), for the start-up messages."""

    @classmethod
    def default(cls, zones: Mapping[str, Any], *, size: tuple[int, int], data_dir: Path | None = None,
                indices: str = "en-fr-de") -> VisionWatcher:  # fmt: skip
        """The shipped models and a tracker for ``zones``; :class:`VisionUnavailable` when vision
        does not provide them yet. ``indices``: the deck's court letters (``[vision] indices``).
        The deck profile in ``data_dir`` (made by ``tocktable enroll``, and by the host's
        corrections) is used when there is one; one that cannot be used (other models) is
        reported, not fatal. With a ``data_dir``, the reader learns from the host's corrections
        and keeps what it learned there."""
        watcher = cls._default(zones, size=size, indices=indices)
        if data_dir is not None:
            watcher.profile_note = _use_profile(watcher.reader, data_dir)
            from vision.deck_learning import DeckLearner  # with the card reader only (OpenCV, numpy)
            from vision.deck_profile import PROFILE_NAME  # with the card reader only

            watcher.learner = DeckLearner(watcher.reader, Path(data_dir) / PROFILE_NAME)
        return watcher

    @classmethod
    def _default(cls, zones: Mapping[str, Any], *, size: tuple[int, int], indices: str = "en-fr-de") -> VisionWatcher:
        try:
            import vision  # the card reader (onnxruntime and its models) loads when it is asked for
        except ImportError as exc:  # pragma: no cover - vision is part of this project
            raise VisionUnavailable(f"the vision package cannot be imported: {exc}") from None
        reader_cls = getattr(vision, "CardReader", None)
        if reader_cls is None:
            raise VisionUnavailable("vision.CardReader is missing from the vision package: reinstall tocktable")
        tracker_factory = _tracker_factory()
        if tracker_factory is None:
            raise VisionUnavailable("the vision package has no table tracker: reinstall tocktable")
        try:
            reader = reader_cls.default(indices=indices)
        except Exception as exc:  # missing model files, onnxruntime problems: say so, fall back
            raise VisionUnavailable(f"the card reader could not start: {exc}") from None
        return cls(reader, tracker_factory(zones=zones, size=size))

    def teach(self, lessons: Sequence[HostCard]) -> None:
        """The cards the host entered or corrected (any thread): learned at the next frame."""
        if self.learner is not None and lessons:
            self._lessons.put(list(lessons))

    def watch(self, image: Any, *, index: int, timestamp: float) -> TableView:
        self._learn()
        if self.learner is None:
            observations = self.reader.read(image)
        else:
            from vision.deck_learning import samples  # with the card reader only (OpenCV, numpy)

            evidence = self.reader.evidence(image)
            decided = evidence.decide()
            self._keep(index, samples(evidence, decided))
            observations = evidence.report(decided)
        view: TableView = self.tracker.update(observations, frame_index=index, timestamp=timestamp)
        return view

    def _keep(self, index: int, new: Sequence[Any]) -> None:
        """The latest sample of each card seen: a new one replaces those near its centre."""
        kept = [(i, s) for i, s in self._samples if index - i <= self.KEEP_FRAMES
                and all(math.dist(s.centre, n.centre) > 0.02 for n in new)]  # fmt: skip
        self._samples = (kept + [(index, n) for n in new])[-96:]

    def _learn(self) -> None:
        """Take the lessons waiting: each card the host named, found on the last view, becomes an
        example of it (a correction first forgets what its place taught before)."""
        view = getattr(self.tracker, "last_view", None)
        learner = self.learner
        while learner is not None:
            try:
                lessons = self._lessons.get_nowait()
            except queue.Empty:
                return
            for lesson in lessons:
                if lesson.corrected and learner.forget(lesson.key):
                    self.taught += 1
                seen = find_card(lesson, view, lessons) if view is not None else None
                if seen is None:
                    continue
                centre = (sum(p[0] for p in seen.corners) / 4, sum(p[1] for p in seen.corners) / 4)
                width = math.dist(seen.corners[0], seen.corners[1])
                near = [s for _, s in self._samples if math.dist(s.centre, centre) <= width / 2]
                if near and learner.learn(min(near, key=lambda s: math.dist(s.centre, centre)), lesson.card,
                                               key=lesson.key):  # fmt: skip
                    self.taught += 1
                if hasattr(self.tracker, "correct"):
                    self.tracker.correct(centre, lesson.card)


def _use_profile(reader: Any, data_dir: Path) -> str:
    """Give the reader the deck profile kept in ``data_dir``; a line saying what happened."""
    from vision.deck_profile import PROFILE_NAME  # with the card reader only (its mark reader is OpenCV's)

    path = Path(data_dir) / PROFILE_NAME
    if not path.is_file():
        return "no deck profile (tocktable enroll teaches the reader your deck)"
    try:
        reader.use_profile(path)
    except Exception as exc:  # a stale or damaged profile must not stop the table
        log.warning("deck profile %s not used: %s", path, exc)
        return f"deck profile not used ({exc})"
    return f"using the deck profile {path} ({len(reader.profile.cards)} cards)"


CAMERAS = ("auto", "perfect", "view")


def demo_watcher(model: Any, *, camera: str = "auto", data_dir: Path | None = None,
                 indices: str = "en-fr-de") -> tuple[Watcher, str]:  # fmt: skip
    """The demo camera for a table model, and a line saying what it is.

    ``"auto"``: vision's reader and tracker when installed (reading ``indices`` letters; learning
    from the host into the deck profile of ``data_dir``), else as ``"perfect"``; ``"perfect"``: a
    perfect card reader with vision's tracker (else as ``"view"``); ``"view"``: the model's
    contents as a view, no reader, no tracker."""
    if camera not in CAMERAS:
        raise VisionUnavailable(f"camera {camera!r} is not known: use one of {', '.join(CAMERAS)}")
    why = ""
    if camera == "auto":
        try:
            watcher = VisionWatcher.default(model.zones, size=model.size, data_dir=data_dir, indices=indices)
            note = f"; {watcher.profile_note}" if data_dir is not None else ""
            return watcher, f"the card reader reads the rendered table{note}"
        except VisionUnavailable as exc:
            why = f" ({exc})"
    tracker_factory = _tracker_factory() if camera != "view" else None
    if tracker_factory is not None:
        tracker = tracker_factory(zones=model.zones, size=model.size)
        return VisionWatcher(TruthReader(model), tracker), f"a perfect card reader and the real tracker{why}"
    return TruthWatcher(model), f"a perfect camera: it reports what the dealer puts down{why}"


def _tracker_factory() -> Callable[..., Any] | None:
    """vision's tracker class (None when the vision package lacks it)."""
    import importlib

    for module_name, names in (("vision", ("TableTracker", "Tracker")), ("vision.track", ("TableTracker", "Tracker")),
                               ("vision.tracker", ("TableTracker", "Tracker"))):  # fmt: skip
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        for name in names:
            found = getattr(module, name, None)
            if found is not None:
                return found  # type: ignore[no-any-return]
    return None


# ---------------------------------------------------------------------------------- the loop
def view_signature(view: TableView) -> tuple[Any, ...]:
    """What matters in a view (not frame numbers, times or confidences): equal means no news."""

    def cards(seen: Sequence[SeenCard]) -> tuple[tuple[Any, ...], ...]:
        return tuple((c.card, c.face_up, c.mark) for c in seen)

    seats = tuple((s, cards(view.seat_cards(s))) for s in sorted(view.seats))
    conflicts = tuple((c.kind, c.zone) for c in view.conflicts)
    return cards(view.board), seats, conflicts


class ModelCamera:
    """A camera for a watcher that reads the table model itself: ``fps`` views a second, each
    changed one on the service queue (the live demo without drawing pictures). ``tap``
    (a :class:`tocktable.tap.CameraTap`) records each view for the host's camera page."""

    def __init__(self, watcher: Watcher, submit: Callable[[Any], Any], *, fps: float = 10.0, tap: Any = None) -> None:
        self.watcher, self.submit, self.fps, self.tap = watcher, submit, fps, tap
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tocktable-model-camera", daemon=True)

    def start(self) -> ModelCamera:
        self._thread.start()
        return self

    def _run(self) -> None:
        import time

        index, last = 0, None
        while not self._stop.wait(1 / self.fps):
            index += 1
            stamp = time.monotonic()
            view = self.watcher.watch(None, index=index, timestamp=stamp)
            if self.tap is not None:
                self.tap.record(None, index=index, timestamp=stamp, view=view, tracks=tracks_of(self.watcher))
            if view_signature(view) != last:
                last = view_signature(view)
                self.submit(view)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)


class CameraLoop:
    """Frames → watcher → changed views on the service queue; health every second. ``tap``
    (a :class:`tocktable.tap.CameraTap`) records every frame and its reading for the host's
    camera page."""

    def __init__(self, source: Any, watcher: Watcher, submit: Callable[[Any], Any], *, health_every: float = 1.0,
                 tap: Any = None):  # fmt: skip
        self.source = source
        self.watcher = watcher
        self.submit = submit
        self.health_every = health_every
        self.tap = tap
        self.frames_read = 0
        self.views_sent = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> CameraLoop:
        self.source.start()
        self._thread = threading.Thread(target=self._run, name="tocktable-camera", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.source.stop()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        last_signature: tuple[Any, ...] | None = None
        last_index = 0
        last_health: tuple[bool, str | None] | None = None
        while not self._stop.is_set():
            frame = self.source.read(newer_than=last_index, timeout=self.health_every)
            health = self.source.health()
            status = (health.ok, health.last_error)
            if status != last_health:
                last_health = status
                self.submit(CameraStatus(health.ok, health.last_error))
            if frame is None:
                continue
            last_index = frame.index
            self.frames_read += 1
            try:
                view = self.watcher.watch(frame.image, index=frame.index, timestamp=frame.timestamp)
            except Exception as exc:  # a bad frame must not stop the camera: report and go on
                log.warning("frame %d could not be read: %s", frame.index, exc)
                if self.tap is not None:
                    self.tap.record(frame.image, index=frame.index, timestamp=frame.timestamp)
                continue
            if self.tap is not None:
                self.tap.record(frame.image, index=frame.index, timestamp=frame.timestamp, view=view,
                                tracks=tracks_of(self.watcher))  # fmt: skip
            signature = view_signature(view)
            if signature != last_signature:
                last_signature = signature
                self.views_sent += 1
                self.submit(view)
