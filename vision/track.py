"""The table tracker: card observations, frame after frame, in; a stable :class:`TableView` out.

The card reader looks at one frame at a time and can be wrong in any one of them (a hand over a
card, motion blur, glare). The tracker is what the game trusts, so it follows a few rules:

- **Confirmation.** A card is reported only once it has been read the same way in
  ``confirm_frames`` frames (3 by default) with no other reading in between. Frames in which the
  card is not seen at all (a hand over it) neither count nor break the run, and an "unsure" read
  of a card already known (``card=None`` while face up, ``mark=None`` while face down) does not
  contradict it.
- **Association.** Each observation is matched to the nearest tracked card whose centre lies
  within ``match_distance`` card widths (greedy, nearest pairs first); an observation left over
  starts a new track.
- **Zones.** A card's zone is the configured zone holding its centre (:mod:`vision.zones`), and a
  change of zone needs ``confirm_frames`` frames too. Board cards are ordered left to right along
  the board's long axis, a seat's cards from its player's left to right.
- **Grace.** A card no longer seen stays in the view until it has been missed for more than
  ``grace_frames`` frames *and* ``grace_seconds`` seconds, so hands passing over the table make
  nothing vanish or flicker.
- **Conflicts, never applied.** A card that changes identity where it lies (read as ``Ah``, then
  steadily as ``Kd``; a back marked ``h:large`` turned up as a spade) is withheld and reported as
  a ``"changed"`` conflict until it reads as before or leaves the table. The same face seen in two
  places, or more backs with one Tock mark than the deck has cards for it, is a ``"duplicate"``
  conflict: the card seen first stays, the newcomer is withheld. A card whose old place is no
  longer seen is not a duplicate: it moved, and its old track is dropped at once. Jokers
  (``"Jk"``, five-card draw) are alike and a deck holds up to two: a third is the duplicate; a
  joker has no Tock mark, so a back with a mark turned up as a joker is a ``"changed"`` conflict.

Privacy: a conflict in a seat's zone never names a card in its message (the ``card`` field
carries the face for the service to decide what to show).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Seen:
...     card: str | None
...     face_up: bool
...     mark: str | None
...     confidence: float
...     corners: tuple[tuple[float, float], ...]
>>> board = [(0.25, 0.35), (0.75, 0.35), (0.75, 0.65), (0.25, 0.65)]
>>> tracker = TableTracker({"board": board}, size=(1280, 720))
>>> ace = Seen("Ah", True, None, 0.98, ((600, 300), (680, 300), (680, 412), (600, 412)))
>>> [tracker.update([ace], frame_index=i, timestamp=i / 10).face_up_board() for i in range(3)]
[(), (), ('Ah',)]
"""

from __future__ import annotations

import math
import threading
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

import numpy as np

from table.cards import Card, Joker
from table.draw import MAX_JOKERS
from table.errors import CardParseError
from table.tock import Mark, MarkParseError, mark_of
from table.wording import seat_word
from vision.errors import VisionError
from vision.view import BOARD, Conflict, Point, SeenCard, TableView
from vision.zones import OUTSIDE, TableZones

PLAIN = "plain"
"""The mark of an unmarked back."""

Quad = tuple[Point, Point, Point, Point]


class TrackerError(VisionError, ValueError):
    """Input the tracker refuses: a malformed observation, a frame index that goes back, a bad setting."""


class CardObservation(Protocol):
    """What the tracker needs from one card the reader found in one frame (DESIGN.md §3).

    ``card``: the face ("Ah") of a face-up card, None when face down or unsure. ``mark``: the Tock
    mark of a face-down card ("h:large", "s:ace", ``"plain"``), None when unsure; ignored for a
    face-up card. ``corners``: 4×2 pixel coordinates, clockwise from the card's top left.
    """

    @property
    def card(self) -> str | None: ...

    @property
    def face_up(self) -> bool: ...

    @property
    def mark(self) -> str | None: ...

    @property
    def confidence(self) -> float: ...

    @property
    def corners(self) -> Any: ...


@dataclass(frozen=True)
class Sighting:
    """A plain :class:`CardObservation`: for replays, tests and readers that know the truth."""

    card: str | None
    face_up: bool
    mark: str | None
    confidence: float
    corners: Any


class TrackStatus(Enum):
    """Where a tracked card stands."""

    PENDING = "pending"  # seen, not yet read the same way long enough
    SHOWN = "shown"  # in the view
    WITHHELD = "withheld"  # confirmed but in conflict: not in the view


@dataclass(frozen=True)
class Reading:
    """How one card reads: face up with its face (None: unreadable), or face down with its mark."""

    face_up: bool
    card: str | None
    mark: str | None

    def identity(self) -> frozenset[str] | None:
        """The cards this reading can be (None: any card)."""
        if self.face_up:
            return None if self.card is None else frozenset({self.card})
        if self.mark is None or self.mark == PLAIN:
            return None
        return frozenset(str(c) for c in Mark.parse(self.mark).cards())

    def __str__(self) -> str:
        if self.face_up:
            return self.card or "face up (unread)"
        return f"face down ({self.mark or 'mark unread'})"


@dataclass(frozen=True)
class TrackInfo:
    """One tracked card as the tracker holds it after a frame (for the annotated image and for
    debugging). ``corners`` are normalised; ``seen`` says whether this frame saw it."""

    track_id: int
    status: TrackStatus
    reading: Reading | None  # the confirmed reading (None while pending)
    latest: Reading  # the last frame's reading of it
    zone: str | None
    confidence: float
    corners: Quad
    seen: bool
    missed: int
    conflict: str | None = None


@dataclass(frozen=True)
class _Obs:
    reading: Reading
    confidence: float
    corners: np.ndarray  # 4×2 float64 pixels
    centre: np.ndarray
    width: float  # the card's short side, pixels


class _Vote:
    """A value that changes only after the same candidate was pushed ``need`` times running."""

    __slots__ = ("candidate", "streak", "value")

    def __init__(self) -> None:
        self.value: Any = None
        self.candidate: Any = None
        self.streak = 0

    def push(self, item: Any, need: int) -> bool:
        """Count one more ``item``; True when it just became the value."""
        if item == self.candidate:
            self.streak += 1
        else:
            self.candidate, self.streak = item, 1
        if self.streak >= need and self.value != item:
            self.value = item
            return True
        return False


@dataclass(eq=False)
class _Track:
    track_id: int
    obs: _Obs
    born: int
    last_seen_frame: int
    last_seen_time: float
    reading: _Vote = field(default_factory=_Vote)
    zone: _Vote = field(default_factory=_Vote)
    missed: int = 0
    known_card: str | None = None
    known_mark: str | None = None
    shown_since: int | None = None  # frame of the first confirmation: who was here first
    changed: Reading | None = None  # a confirmed reading that contradicts what the card was
    confidences: deque[float] = field(default_factory=lambda: deque(maxlen=8))

    @property
    def confirmed(self) -> bool:
        return self.reading.value is not None and self.zone.value is not None

    def possible(self) -> frozenset[str] | None:
        """The cards this track can be, from everything it was read as (None: any)."""
        if self.known_card is not None:
            return frozenset({self.known_card})
        reading: Reading | None = self.reading.value
        return None if reading is None else reading.identity()


def _unsure_of_the_same(read: Reading, current: Reading | None) -> bool:
    """An unsure read that does not contradict ``current`` (the candidate or confirmed reading)."""
    if current is None or read.face_up != current.face_up:
        return False
    if read.face_up:
        return read.card is None and current.card is not None
    return read.mark is None and current.mark is not None


JOKER = str(Card.JOKER)
"""How a joker is named (``"Jk"``): a deck may hold two, alike."""


def _mark_of(card: str) -> str | None:
    """The Tock mark a card's back carries; None for a joker, which has none."""
    return None if card == JOKER else str(mark_of(Card.parse(card)))


def _capacity(cards: frozenset[str]) -> int:
    """How many cards of ``cards`` one deck holds: each card once, and up to two jokers."""
    return MAX_JOKERS if cards == {JOKER} else len(cards)


def _consistent(track: _Track, reading: Reading) -> bool:
    """Whether ``reading`` agrees with what the card was read as before."""
    if reading.face_up and reading.card is not None:
        if track.known_card is not None:
            return reading.card == track.known_card
        if track.known_mark is not None:
            return _mark_of(reading.card) == track.known_mark
        return True
    if not reading.face_up and reading.mark not in (None, PLAIN):
        if track.known_card is not None:
            return _mark_of(track.known_card) == reading.mark
        if track.known_mark is not None:
            return reading.mark == track.known_mark
    return True


class TableTracker:
    """Observations per frame → a stable :class:`TableView` (see the module docstring).

    ``zones``: ``{"board": polygon, "seat:N": polygon}`` in normalised coordinates (or a
    :class:`vision.zones.TableZones`); ``size``: the frame's (width, height) in pixels, to turn the
    reader's pixel corners into the view's normalised ones. One tracker follows one camera, from
    one thread; :meth:`tracks` and :attr:`last_view` may be read from others, and :meth:`reset`
    and :meth:`correct` called from others (the host's pages): they wait for a frame being taken
    to finish, so a frame never sees its tracks vanish halfway.
    """

    def __init__(
        self,
        zones: Mapping[str, Sequence[Sequence[float]]] | TableZones,
        *,
        size: tuple[int, int] = (1280, 720),
        confirm_frames: int = 3,
        grace_frames: int = 6,
        grace_seconds: float = 1.5,
        match_distance: float = 0.5,
    ) -> None:
        if isinstance(confirm_frames, bool) or not isinstance(confirm_frames, int) or not 1 <= confirm_frames <= 100:
            raise TrackerError(f"confirm_frames must be a whole number of frames in 1..100, got {confirm_frames!r}")
        if isinstance(grace_frames, bool) or not isinstance(grace_frames, int) or not 0 <= grace_frames <= 10_000:
            raise TrackerError(f"grace_frames must be a whole number of frames in 0..10000, got {grace_frames!r}")
        if not isinstance(grace_seconds, int | float) or not 0 <= grace_seconds <= 3600:
            raise TrackerError(f"grace_seconds must be 0..3600 seconds, got {grace_seconds!r}")
        if not isinstance(match_distance, int | float) or not 0.05 <= match_distance <= 3:
            raise TrackerError(f"match_distance must be 0.05..3 card widths, got {match_distance!r}")
        self.zones = TableZones.from_mapping(zones, size=size)
        self.size = self.zones.size
        self.confirm_frames = confirm_frames
        self.grace_frames = grace_frames
        self.grace_seconds = float(grace_seconds)
        self.match_distance = float(match_distance)
        self._tracks: list[_Track] = []
        self._next_id = 0
        self._frame: int | None = None
        self._time: float | None = None
        self._infos: tuple[TrackInfo, ...] = ()
        self.last_view: TableView | None = None
        """The view of the latest frame (None before the first)."""
        self._lock = threading.Lock()

    def reset(self) -> None:
        """Forget every card (a new camera, a replay from the start)."""
        with self._lock:
            self._tracks = []
            self._frame = self._time = None
            self._infos = ()
            self.last_view = None

    def tracks(self) -> tuple[TrackInfo, ...]:
        """Every tracked card after the latest frame, pending and withheld ones too."""
        return self._infos

    def correct(self, centre: Point, card: str) -> bool:
        """The host says the face-up card lying at ``centre`` (0..1 of the frame) is ``card``: its
        track takes that face as confirmed, so the camera reading it so from now on (once the
        reader has learned it) is no "changed" conflict, and reading it as before is one. False
        (nothing changed) when no face-up card lies there or ``card`` is not a card."""
        try:
            card = str(Card.parse(card))
        except (CardParseError, TypeError, AttributeError):
            return False
        with self._lock:
            return self._correct(centre, card)

    def _correct(self, centre: Point, card: str) -> bool:
        point = np.array([centre[0] * self.size[0], centre[1] * self.size[1]])
        near = [t for t in self._tracks if t.obs.reading.face_up
                and float(np.hypot(*(t.obs.centre - point))) <= self.match_distance * t.obs.width]  # fmt: skip
        if not near:
            return False
        track = min(near, key=lambda t: float(np.hypot(*(t.obs.centre - point))))
        reading = Reading(True, card, None)
        track.reading.value = track.reading.candidate = reading
        track.reading.streak = self.confirm_frames
        track.known_card, track.changed = card, None
        return True

    # ------------------------------------------------------------------ one frame
    def update(self, observations: Iterable[CardObservation], *, frame_index: int, timestamp: float) -> TableView:
        """Take one frame's observations and return the stable view after it.

        Raises :class:`TrackerError` (and changes nothing) for a malformed observation, a frame
        index that does not increase, or a timestamp that goes back.
        """
        with self._lock:
            return self._update(observations, frame_index, timestamp)

    def _update(self, observations: Iterable[CardObservation], frame_index: int, timestamp: float) -> TableView:
        if isinstance(frame_index, bool) or not isinstance(frame_index, int | np.integer):
            raise TrackerError(f"frame_index must be a whole number, got {frame_index!r}")
        if self._frame is not None and frame_index <= self._frame:
            raise TrackerError(
                f"frame index {frame_index} does not follow frame {self._frame}: indexes must increase "
                "(call reset() to start over)"
            )
        if not isinstance(timestamp, int | float | np.floating) or not math.isfinite(timestamp):
            raise TrackerError(f"timestamp must be a finite number of seconds, got {timestamp!r}")
        if self._time is not None and timestamp < self._time:
            raise TrackerError(f"timestamp {timestamp} goes back from {self._time}: time must not decrease")
        parsed = _dedupe([_parse(o, i) for i, o in enumerate(observations)], self.match_distance)

        frame_index, timestamp = int(frame_index), float(timestamp)
        self._frame, self._time = frame_index, timestamp
        matched = self._associate(parsed)
        for track in self._tracks:
            obs = matched.get(track.track_id)
            if obs is None:
                track.missed += 1
            else:
                self._observe(track, obs, frame_index, timestamp)
        taken = {id(o) for o in matched.values()}
        for obs in parsed:
            if id(obs) not in taken:
                track = _Track(self._next_id, obs, frame_index, frame_index, timestamp)
                self._next_id += 1
                self._observe(track, obs, frame_index, timestamp)
                self._tracks.append(track)
        self._expire(timestamp)
        withheld = self._resolve_duplicates(frame_index)
        view = self._view(frame_index, timestamp, withheld)
        self.last_view = view
        return view

    def _associate(self, observations: list[_Obs]) -> dict[int, _Obs]:
        """Greedy matching, nearest pairs first, within ``match_distance`` card widths."""
        if not self._tracks or not observations:
            return {}
        track_centres = np.array([t.obs.centre for t in self._tracks])
        track_widths = np.array([t.obs.width for t in self._tracks])
        obs_centres = np.array([o.centre for o in observations])
        obs_widths = np.array([o.width for o in observations])
        distance = np.hypot(*(track_centres[:, None, :] - obs_centres[None, :, :]).transpose(2, 0, 1))
        gate = self.match_distance * np.minimum(track_widths[:, None], obs_widths[None, :])
        rows, cols = np.nonzero(distance <= gate)
        matched: dict[int, _Obs] = {}
        used: set[int] = set()
        for k in np.argsort(distance[rows, cols], kind="stable"):
            track, obs = self._tracks[int(rows[k])], int(cols[k])
            if track.track_id not in matched and obs not in used:
                matched[track.track_id] = observations[obs]
                used.add(obs)
        return matched

    def _observe(self, track: _Track, obs: _Obs, frame_index: int, timestamp: float) -> None:
        track.obs = obs
        track.missed = 0
        track.last_seen_frame, track.last_seen_time = frame_index, timestamp
        need = self.confirm_frames
        centre = (float(obs.centre[0]) / self.size[0], float(obs.centre[1]) / self.size[1])
        track.zone.push(self.zones.zone_of(centre), need)
        read = obs.reading
        if _unsure_of_the_same(read, track.reading.candidate):
            if track.reading.candidate == track.reading.value:
                track.confidences.append(obs.confidence)
            return
        track.reading.push(read, need)
        if track.reading.value == read:
            track.confidences.append(obs.confidence)
        if track.reading.value != read or track.zone.value is None:
            return
        if _consistent(track, read):
            track.changed = None
            if read.face_up and read.card is not None:
                track.known_card = read.card
            elif not read.face_up and read.mark not in (None, PLAIN):
                track.known_mark = read.mark
            if track.shown_since is None:
                track.shown_since = frame_index
        else:
            track.changed = read

    def _expire(self, timestamp: float) -> None:
        keep = []
        for track in self._tracks:
            if track.missed == 0:
                keep.append(track)
            elif not track.confirmed or track.shown_since is None:
                if track.missed <= self.confirm_frames:
                    keep.append(track)
            elif track.missed <= self.grace_frames or timestamp - track.last_seen_time < self.grace_seconds:
                keep.append(track)
        self._tracks = keep

    def _resolve_duplicates(self, frame_index: int) -> dict[int, Conflict]:
        """Drop the old places of moved cards; withhold newcomers the deck cannot hold."""
        withheld: dict[int, Conflict] = {}
        live = [t for t in self._tracks if t.confirmed and t.shown_since is not None and t.changed is None]
        groups: dict[frozenset[str], list[_Track]] = {}
        for track in live:
            possible = track.possible()
            if possible is None:
                continue
            groups.setdefault(possible, []).append(track)
            if possible == {JOKER}:
                continue  # a joker has no Tock mark: no pool of cards to share
            pool = frozenset(str(c) for c in mark_of(Card.parse(next(iter(possible)))).cards())
            if pool != possible:
                groups.setdefault(pool, []).append(track)
        # single cards first: a card that moved drops out before its mark's pool is counted
        for cards in sorted(groups, key=len):
            members = [t for t in groups[cards] if t in self._tracks]
            room = _capacity(cards)
            if len(members) <= room:
                continue
            seen = [t for t in members if t.missed == 0]
            ghosts = sorted((t for t in members if t.missed > 0), key=lambda t: t.last_seen_frame)
            while ghosts and len(seen) + len(ghosts) > room:
                self._tracks.remove(ghosts.pop(0))
            members = [t for t in members if t in self._tracks]
            if len(members) <= room:
                continue
            members.sort(key=lambda t: (t.shown_since or 0, t.track_id))
            cutoff = members[room].shown_since
            keep = [t for t in members if (t.shown_since or 0) < (cutoff or 0)]
            for track in members:
                if track not in keep and track.track_id not in withheld:
                    withheld[track.track_id] = self._duplicate_conflict(track, members, cards)
        return withheld

    def _duplicate_conflict(self, track: _Track, members: list[_Track], cards: frozenset[str]) -> Conflict:
        zone = track.zone.value or OUTSIDE
        places = sorted({_place(t.zone.value or OUTSIDE) for t in members})
        where = f"all {places[0]}" if len(places) == 1 else ", ".join(places)
        private = any((t.zone.value or "").startswith("seat:") for t in members)
        if cards == {JOKER} and not private:
            message = (f"{len(members)} jokers are on the table ({where}) but a deck has at most {MAX_JOKERS}: the "
                       "newer are not applied")  # fmt: skip
            card: str | None = JOKER
        elif len(cards) == 1:
            what = "a card" if private else next(iter(cards))
            message = f"{what} is seen in {len(members)} places ({where}): the newer is not applied"
            card = next(iter(cards))
        else:
            mark = str(mark_of(Card.parse(next(iter(cards)))))
            message = (f"{len(members)} cards marked {mark} are on the table ({where}) but the deck "
                       f"has {len(cards)}: the newer are not applied")  # fmt: skip
            card = None
        return Conflict("duplicate", message, zone, card, self._normalised(track.obs.corners))

    def _changed_conflict(self, track: _Track) -> Conflict:
        assert track.changed is not None
        zone = track.zone.value or OUTSIDE
        was = track.known_card or track.known_mark or "?"
        if zone.startswith("seat:"):
            message = f"a card at {_place(zone)} reads differently than before: not applied"
        else:
            message = f"the card {_place(zone)} was {was} and now reads {track.changed}: not applied"
        return Conflict("changed", message, zone, track.changed.card, self._normalised(track.obs.corners))

    # ------------------------------------------------------------------ the view
    def _normalised(self, corners: np.ndarray) -> Quad:
        w, h = self.size
        p = [(float(x) / w, float(y) / h) for x, y in corners]
        return (p[0], p[1], p[2], p[3])

    def _confidence(self, track: _Track) -> float:
        return float(np.mean(track.confidences)) if track.confidences else 0.0

    def _view(self, frame_index: int, timestamp: float, withheld: dict[int, Conflict]) -> TableView:
        board: list[tuple[float, SeenCard]] = []
        seats: dict[int, list[tuple[float, SeenCard]]] = {}
        loose: list[SeenCard] = []
        conflicts: list[Conflict] = []
        infos: list[TrackInfo] = []
        for track in self._tracks:
            status = TrackStatus.PENDING
            conflict: Conflict | None = None
            if track.confirmed and track.shown_since is not None:
                changed = track.changed is not None
                conflict = self._changed_conflict(track) if changed else withheld.get(track.track_id)
                status = TrackStatus.SHOWN if conflict is None else TrackStatus.WITHHELD
            corners = self._normalised(track.obs.corners)
            reading: Reading | None = track.reading.value if status != TrackStatus.PENDING else None
            zone: str | None = track.zone.value
            infos.append(TrackInfo(track.track_id, status, reading, track.obs.reading, zone, self._confidence(track),
                                   corners, track.missed == 0, track.missed,
                                   None if conflict is None else conflict.message))  # fmt: skip
            if conflict is not None:
                conflicts.append(conflict)
            if status != TrackStatus.SHOWN or reading is None or zone is None:
                continue
            seen = SeenCard(
                card=reading.card if reading.face_up else None,
                face_up=reading.face_up,
                mark=None if reading.face_up else reading.mark,
                zone=zone,
                confidence=self._confidence(track),
                corners=corners,
                first_frame=track.born,
            )
            centre = (float(track.obs.centre[0]) / self.size[0], float(track.obs.centre[1]) / self.size[1])
            if zone == BOARD:
                board.append((self.zones.along(zone, centre), seen))
            elif zone == OUTSIDE:
                loose.append(seen)
            else:
                seat = int(zone.partition(":")[2])
                seats.setdefault(seat, []).append((self.zones.along(zone, centre), seen))
        self._infos = tuple(infos)

        def in_order(cards: list[tuple[float, SeenCard]]) -> tuple[SeenCard, ...]:
            return tuple(seen for _, seen in sorted(cards, key=lambda item: item[0]))

        return TableView(
            frame_index=frame_index,
            timestamp=timestamp,
            board=in_order(board),
            seats={seat: in_order(cards) for seat, cards in sorted(seats.items())},
            conflicts=tuple(conflicts),
            loose=tuple(loose),
        )


def _place(zone: str) -> str:
    if zone == BOARD:
        return "on the board"
    if zone == OUTSIDE:
        return "outside every zone"
    number = zone.partition(":")[2]
    return f"at {seat_word(int(number))}" if number.isdigit() else f"at {zone}"


def _parse(observation: CardObservation, index: int) -> _Obs:
    """Check one observation and turn it into the tracker's own form."""
    where = f"observation {index}"
    try:
        face_up, card, mark = observation.face_up, observation.card, observation.mark
        confidence, raw_corners = observation.confidence, observation.corners
    except AttributeError as exc:
        raise TrackerError(f"{where} lacks {exc.name!r}: an observation has card, face_up, mark, confidence "
                           "and corners") from None  # fmt: skip
    if not isinstance(face_up, bool | np.bool_):
        raise TrackerError(f"{where}: face_up must be True or False, got {face_up!r}")
    face_up = bool(face_up)
    if card is not None:
        if not face_up:
            raise TrackerError(f"{where} is face down but names a card ({card!r}): a face-down card has card=None")
        try:
            card = JOKER if isinstance(card, str) and card.strip().lower() in Joker.TEXTS else str(Card.parse(card))
        except (CardParseError, TypeError, AttributeError):
            raise TrackerError(f"{where}: card {card!r} is not a card: use a rank and a suit like 'Ah' or 'Td', "
                               "'Jk' for a joker, or None when unsure") from None  # fmt: skip
    if mark is not None:
        if not isinstance(mark, str):
            raise TrackerError(f"{where}: mark {mark!r} is not a Tock mark: use 'h:large', 's:ace', 'plain' or None")
        if mark != PLAIN:
            try:
                mark = str(Mark.parse(mark))
            except MarkParseError as exc:
                raise TrackerError(f"{where}: {exc}, or 'plain' for an unmarked back, or None") from None
    if isinstance(confidence, bool) or not isinstance(confidence, int | float | np.number) or not (
        0.0 <= float(confidence) <= 1.0
    ):
        raise TrackerError(f"{where}: confidence must be a number in 0..1, got {confidence!r}")
    try:
        corners = np.asarray(raw_corners, dtype=np.float64)
    except (TypeError, ValueError):
        raise TrackerError(f"{where}: corners must be 4×2 pixel coordinates, got {raw_corners!r}") from None
    if corners.shape != (4, 2) or not np.all(np.isfinite(corners)):
        raise TrackerError(f"{where}: corners must be 4×2 finite pixel coordinates, got shape {corners.shape}")
    sides = np.hypot(*(corners - corners[[1, 2, 3, 0]]).T)
    width = float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)
    if width < 1.0:
        raise TrackerError(f"{where}: the card's corners enclose no area ({corners.tolist()})")
    reading = Reading(face_up, card if face_up else None, None if face_up else mark)
    return _Obs(reading, float(confidence), corners, corners.mean(axis=0), width)


def _dedupe(observations: list[_Obs], distance: float) -> list[_Obs]:
    """One observation per card: of two whose centres nearly coincide, the more confident."""
    kept: list[_Obs] = []
    for obs in sorted(observations, key=lambda o: -o.confidence):
        if kept:
            centres = np.array([k.centre for k in kept])
            widths = np.minimum(np.array([k.width for k in kept]), obs.width)
            if bool((np.hypot(*(centres - obs.centre).T) <= distance * widths).any()):
                continue
        kept.append(obs)
    return kept
