"""The learning lens for the dashboard, worked out on its own thread so the game never waits.

A :class:`LensWorker` follows the service's snapshots (the JSON every phone gets) and reads
from each one only what the whole table can see: the Tock marks, the face-up board, the hands
turned at the showdown, who folded. When that public information changes (a street, a mark, a
shown hand, a fold) it works out the lens again; a bet or a tick changes nothing and costs
nothing. Each result is published as a :class:`LensDoc` (one JSON text shared by every phone,
``GET /api/lens`` and the ``lens`` server-sent event).

- **Tock-Poker**: :func:`table.lens.lens` for the seats dealt in, on every change; one entry per
  stage (pre-flop, flop, turn, river, showdown) for the chart of how the chances moved.
- **Hold'em**: nothing is public until the hands are turned. At an all-in the hands are tabled
  as soon as betting is closed, before the rest of the board (the engine takes them then): once
  every live hand is face up, each hand's chances at every stage from the all-in on, live as
  the flop, turn and river come, with the outs on the turn, as television shows them. (Hands
  turned only at the showdown give the same chart, worked out backwards.)

Privacy by construction: the snapshot holds no hole card while betting is open (a card the
camera saw face up then never enters the game), and the worker reads nothing else. It never
works out a player's own view (:func:`table.lens.own_view`): that belongs on that player's phone.

Seat numbers: the lens counts only the seats dealt in (``index``); every seat in a
:class:`LensDoc` also carries its table seat (``seat``, as in ``/api/state``).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from table.errors import TocktableError
from table.lens import LENS_PRECISION, Lens, lens
from tocktable.tickets import Subscription

__all__ = ["STAGES", "LensDoc", "LensWorker", "PublicTable", "last_of_each_stage", "public_table"]

log = logging.getLogger("tocktable.lens")

STAGES = ("preflop", "flop", "turn", "river", "showdown")
"""The stages of a hand the lens is shown at (the chart's x axis)."""
_STAGE_OF_BOARD = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}
_BOARD_SIZES = (0, 3, 4, 5)

HOLDEM_NOTE = "In Hold'em the chances appear when the hands are turned face up after an all-in."
ALLIN_NOTE = "All in: each hand's chances appear when the hands are turned face up."


@dataclass(frozen=True)
class PublicTable:
    """What the whole table can see of the open hand, read from a snapshot (the lens's only input).

    Per seat dealt in, in table order: ``seats`` its table seat, ``holes`` its two cards once
    shown (else its Tock marks, else None), ``shown`` whether they are the shown cards,
    ``folded`` folded or mucked. ``board``: five positions, a face-up card, else its mark, else None.
    """

    session: int | None
    hand_number: int
    variant: str
    seats: tuple[int, ...]
    names: tuple[str, ...]
    holes: tuple[tuple[str | None, str | None], ...]
    shown: tuple[bool, ...]
    folded: tuple[bool, ...]
    board: tuple[str | None, ...]
    face_up: int
    """How many board cards are face up."""

    @property
    def live(self) -> list[int]:
        """Lens indices of the seats still in the hand."""
        return [i for i, out in enumerate(self.folded) if not out]

    @property
    def stage(self) -> str:
        """``showdown`` once a live hand is shown on the whole board, else the street by the
        face-up board (hands tabled at an all-in are shown street by street)."""
        if self.face_up == 5 and any(self.shown[i] for i in self.live):
            return "showdown"
        return _STAGE_OF_BOARD.get(self.face_up, "preflop")


def public_table(state: Mapping[str, Any]) -> PublicTable | None:
    """The public part of a snapshot (``Snapshot.to_dict()``), None when no hand is open."""
    if state.get("status") not in ("playing", "complete") or not isinstance(state.get("seats"), list):
        return None
    dealt = [s for s in state["seats"] if isinstance(s, Mapping) and s.get("in_hand")]
    if len(dealt) < 2:
        return None
    holes, shown = [], []
    for seat in dealt:
        hole = list(seat.get("hole") or [])
        if len(hole) == 2:
            holes.append((_text(hole[0]), _text(hole[1])))
            shown.append(True)
        else:
            marks = [*(seat.get("marks") or []), None, None][:2]
            holes.append((_text(marks[0]), _text(marks[1])))
            shown.append(False)
    up = [_text(c) for c in state.get("board") or []]
    marks = list(state.get("board_marks") or [])
    board = tuple(up[i] if i < len(up) else (_text(marks[i]) if i < len(marks) else None) for i in range(5))
    return PublicTable(
        session=state.get("session"),
        hand_number=int(state.get("hand_number") or 0),
        variant=str(state.get("variant") or ""),
        seats=tuple(int(s["seat"]) for s in dealt),
        names=tuple(str(s.get("name") or f"Seat {int(s['seat']) + 1}") for s in dealt),
        holes=tuple(holes),
        shown=tuple(shown),
        folded=tuple(bool(s.get("folded") or s.get("mucked")) for s in dealt),
        board=board,
        face_up=len(up),
    )


def _text(item: Any) -> str | None:
    return None if item in (None, "", "plain") else str(item)


def no_more_betting(state: Mapping[str, Any]) -> bool:
    """Whether the open hand is all in with cards to come: two or more live hands, nobody to act,
    at most one of them with chips, and the board not yet complete."""
    if state.get("status") != "playing" or state.get("to_act") is not None or len(state.get("board") or []) >= 5:
        return False
    live = [s for s in state.get("seats") or [] if s.get("in_hand") and not s.get("folded")]
    return len(live) >= 2 and sum(not s.get("all_in") for s in live) <= 1


def last_of_each_stage(snapshots: Sequence[Any]) -> list[Any]:
    """The snapshots worth working out when several piled up while the lens was busy: the last
    one of each stage of each hand, in order (the chart keeps every stage; the figures within a
    stage only need the newest table)."""

    def stage(snapshot: Any) -> tuple[Any, ...]:
        state = snapshot.to_dict() if hasattr(snapshot, "to_dict") else dict(snapshot)
        table = public_table(state)
        return (state.get("session"), state.get("hand_number"), table.stage if table is not None else None)

    stages = [stage(s) for s in snapshots]
    return [s for i, s in enumerate(snapshots) if i == len(snapshots) - 1 or stages[i] != stages[i + 1]]


@dataclass(frozen=True)
class LensDoc:
    """One published lens: a version and its JSON text (shared by every phone)."""

    version: int
    json: str
    event: ClassVar[str] = "lens"
    """The server-sent event name (a snapshot's is ``state``)."""

    def to_dict(self) -> dict[str, Any]:
        """A fresh copy as plain data."""
        data: dict[str, Any] = json.loads(self.json)
        return data


@dataclass
class _Hand:
    """What the worker keeps of the open hand."""

    session: int | None
    number: int
    variant: str
    allin_board: int | None = None
    """Board cards face up when no more betting was possible (None: not all in)."""
    stages: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per stage: the compact entry for the chart."""
    runout: dict[tuple[Any, ...], tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=dict)
    """Hold'em all-in: each stage worked out (entry, lens), by the hands and board it was for,
    so a new street costs only its own stage."""
    key: tuple[PublicTable, int | None] | None = None
    """The public table (and the all-in board) of the last computation."""
    lens: dict[str, Any] | None = None
    mode: str | None = None
    stage: str | None = None
    note: str = ""
    complete: bool = False
    pending: bool = False
    state_version: int | None = None
    millis: float | None = None


class LensWorker:
    """Follows ``service`` (anything with ``subscribe()`` giving snapshots) on a thread of its
    own and publishes the public lens whenever the public information changes.

    ``precision`` is the 95 % half-width of the Monte Carlo chances; ``seed`` makes them
    repeatable (the same public table always gives the same figures, so a recomputation never
    makes the bars jitter). ``stop_when``: an event that also ends the thread (the web server's
    closing). ``handle()`` does one snapshot on the caller's thread (tests, benchmarks).
    """

    def __init__(
        self,
        service: Any,
        *,
        precision: float = LENS_PRECISION,
        seed: int = 0,
        stop_when: threading.Event | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.service = service
        self.precision = precision
        self.seed = seed
        self.worker_id = secrets.randbelow(2**31)
        """Tells this worker's lenses from another's (a restarted server counts its versions from 0 again)."""
        self.computations = 0
        """How many times the lens was worked out (not counting snapshots that changed nothing public)."""
        self._clock = clock
        self._stop = threading.Event()
        self._stop_when = stop_when
        self._thread: threading.Thread | None = None
        self._source: Subscription | None = None
        self._hand: _Hand | None = None
        self._last: dict[str, Any] | None = None
        self._variant: str | None = _variant_of(service)
        self._lock = threading.Condition()
        self._subscribers: list[Any] = []
        self._content: dict[str, Any] = self._document()
        self._doc = LensDoc(0, json.dumps({"version": 0, **self._content}, separators=(",", ":")))

    # ------------------------------------------------------------------ life cycle
    def start(self) -> LensWorker:
        """Subscribe to the service and start the thread (once)."""
        if self._thread is None:
            self._stop.clear()
            self._source = self.service.subscribe(maxsize=256)
            self._thread = threading.Thread(target=self._run, name="tocktable-lens", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """End the thread (after the computation under way, if any)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None
        if self._source is not None:
            self._source.close()
            self._source = None

    def __enter__(self) -> LensWorker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _stopping(self) -> bool:
        return self._stop.is_set() or (self._stop_when is not None and self._stop_when.is_set())

    def _run(self) -> None:
        source = self._source
        assert source is not None
        try:
            self._follow(source)
        finally:
            source.close()  # also when the web server's closing ended it

    def _follow(self, source: Subscription) -> None:
        while not self._stopping():
            snapshot = source.get(timeout=0.5)
            if snapshot is None:
                continue
            batch = [snapshot]
            while (newer := source.get(timeout=0)) is not None:
                batch.append(newer)
            for taken in last_of_each_stage(batch):
                if self._stopping():
                    return
                try:
                    self.handle(taken)
                except Exception:  # a bug in the lens must never take the dashboard down
                    log.exception("the lens failed on snapshot %s", getattr(taken, "version", "?"))

    # ------------------------------------------------------------------ reading
    def latest(self) -> LensDoc:
        """The latest published lens."""
        return self._doc

    def attach(self, subscriber: Any, *, current: bool = False) -> None:
        """Offer every lens published from now on to ``subscriber`` (anything with ``_offer``:
        a :class:`tocktable.tickets.Subscription`, e.g. the one an SSE stream reads snapshots
        from); ``current``: the latest one first."""
        with self._lock:
            self._subscribers.append(subscriber)
            if current:
                subscriber._offer(self._doc)

    def detach(self, subscriber: Any) -> None:
        """Stop offering lenses to ``subscriber``."""
        with self._lock:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)

    def subscribe(self, *, maxsize: int = 8) -> Subscription:
        """A subscription of its own to the lenses (the current one first)."""
        subscription = Subscription(self.detach, maxsize)
        self.attach(subscription, current=True)
        return subscription

    def wait_until(self, predicate: Callable[[dict[str, Any]], bool], *, timeout: float = 10.0) -> dict[str, Any]:
        """Block until the published lens satisfies ``predicate``; that lens (TimeoutError if not)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                data = self._doc.to_dict()
                if predicate(data):
                    return data
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no lens matched within {timeout} s; the last: {self._doc.json[:300]}")
                self._lock.wait(left)

    # ------------------------------------------------------------------ the work
    def handle(self, snapshot: Any) -> bool:
        """Take one snapshot; True when the lens was worked out again (the public table changed,
        in Tock-Poker, or the hands were turned after an all-in in Hold'em)."""
        state = snapshot.to_dict() if hasattr(snapshot, "to_dict") else dict(snapshot)
        version = state.get("version")
        self._variant = str(state.get("variant") or "") or None
        table = public_table(state)
        hand = self._hand
        if table is None:
            if hand is not None and (state.get("hand_number") != hand.number or state.get("session") != hand.session):
                self._close_hand()
            self._publish()
            return False
        if hand is None or (hand.session, hand.number) != (table.session, table.hand_number):
            self._close_hand()
            hand = self._hand = _Hand(table.session, table.hand_number, table.variant)
        hand.complete = state.get("status") == "complete"
        if hand.allin_board is None and no_more_betting(state):
            hand.allin_board = table.face_up
        if (table, hand.allin_board) == hand.key:
            self._publish()
            return False
        if hand.lens is not None:
            hand.pending = True  # the phones see the last figures labelled as being updated
            self._publish()
        start, before = self._clock(), self.computations
        self._compute(hand, table)
        hand.key = (table, hand.allin_board)
        hand.pending = False
        hand.state_version = version if isinstance(version, int) else None
        if self.computations != before:
            hand.millis = round(1000 * (self._clock() - start), 1)
        self._publish()
        return self.computations != before

    def _compute(self, hand: _Hand, table: PublicTable) -> None:
        if table.variant == "tock":
            hand.mode, hand.note = "tock", ""
            self.computations += 1
            try:
                view = lens(
                    [list(h) for h in table.holes],
                    list(table.board),
                    folded=[i for i, out in enumerate(table.folded) if out],
                    names=list(table.names),
                    precision=self.precision,
                    seed=self.seed,
                )
            except TocktableError as exc:
                self._failed(hand, exc)
                return
            hand.stage = table.stage
            hand.lens = _lens_json(view, table.seats)
            entry = _entry(view, table.stage, table.seats)
            hand.stages[table.stage] = _keep_folders(hand.stages.get(table.stage), entry)
            return
        if table.variant != "holdem":
            hand.mode, hand.lens, hand.note = None, None, ""
            return
        live = table.live
        revealed = len(live) >= 2 and all(table.shown[i] for i in live)
        first = hand.allin_board
        if first is None or first >= 5:
            hand.mode, hand.lens, hand.note = None, None, HOLDEM_NOTE
            return
        hand.mode = "allin"
        if not revealed:
            hand.lens, hand.stage, hand.note = None, None, ALLIN_NOTE
            return
        self.computations += 1
        seats = tuple(table.seats[i] for i in live)
        holes = [list(table.holes[i]) for i in live]
        names = [table.names[i] for i in live]
        up = list(table.board[: table.face_up])
        hand.stages = {}
        try:
            for size in (n for n in _BOARD_SIZES if first <= n <= table.face_up):
                stage = _STAGE_OF_BOARD[size]
                key = (seats, tuple(map(tuple, holes)), tuple(names), tuple(up[:size]))
                if key not in hand.runout:
                    view = lens(holes, up[:size], names=names, precision=self.precision, seed=self.seed)
                    hand.runout[key] = (_entry(view, stage, seats), _lens_json(view, seats))
                hand.stages[stage], latest = hand.runout[key]
        except TocktableError as exc:
            self._failed(hand, exc)
            return
        hand.stage = _STAGE_OF_BOARD[table.face_up]
        hand.lens = latest
        running = "as the board runs out" if table.face_up < 5 else "as the board ran out"
        hand.note = f"All in {_when(first)}: the hands face up, the chances {running}."

    @staticmethod
    def _failed(hand: _Hand, exc: TocktableError) -> None:
        log.warning("lens: %s", exc)
        hand.lens, hand.stage = None, None
        hand.note = f"The lens cannot work this table out: {exc}"

    def _close_hand(self) -> None:
        """The open hand is over: its chart becomes the last hand's."""
        hand = self._hand
        if hand is None:
            return
        shown = hand.mode is not None and hand.lens is not None and bool(hand.stages)
        self._last = None
        if shown:
            self._last = {"hand_number": hand.number, "mode": hand.mode, "history": _history(hand.stages)}
        self._hand = None

    # ------------------------------------------------------------------ publishing
    def _document(self) -> dict[str, Any]:
        hand = self._hand
        base: dict[str, Any] = {
            "worker": self.worker_id, "mode": None, "variant": self._variant, "session": None,
            "hand_number": None, "stage": None, "complete": False, "pending": False, "state_version": None,
            "millis": None, "allin_stage": None, "note": HOLDEM_NOTE if self._variant == "holdem" else "",
            "lens": None, "history": None, "last": self._last,
        }  # fmt: skip
        if hand is None or hand.mode is None:
            if hand is not None and hand.note:
                base["note"] = hand.note
            return base
        base.update(
            mode=hand.mode, session=hand.session, hand_number=hand.number, stage=hand.stage, complete=hand.complete,
            pending=hand.pending, state_version=hand.state_version, millis=hand.millis, note=hand.note,
            lens=hand.lens, history=_history(hand.stages) if hand.stages else None,
            allin_stage=_STAGE_OF_BOARD[hand.allin_board] if hand.mode == "allin" and hand.allin_board is not None
            else None,
        )  # fmt: skip
        return base

    def _publish(self) -> None:
        """Publish when the document changed (a snapshot that changes nothing sends nothing)."""
        content = self._document()
        if content == self._content:
            return
        with self._lock:
            self._content = content
            version = self._doc.version + 1
            self._doc = LensDoc(version, json.dumps({"version": version, **content}, separators=(",", ":")))
            subscribers = list(self._subscribers)
            self._lock.notify_all()
        for subscriber in subscribers:
            subscriber._offer(self._doc)


def _when(board: int) -> str:
    return {0: "before the flop", 3: "on the flop", 4: "on the turn"}.get(board, "")


def _lens_json(view: Lens, seats: Sequence[int]) -> dict[str, Any]:
    """``view.to_json()`` with each seat's table seat in ``seat`` and its lens index in ``index``."""
    data = view.to_json()
    for entry in data["seats"]:
        entry["index"] = entry["seat"]
        entry["seat"] = seats[entry["index"]]
    return data


def _entry(view: Lens, stage: str, seats: Sequence[int]) -> dict[str, Any]:
    """One stage for the chart: each seat's chances, and the outs when one card was to come."""
    return {
        "stage": stage,
        "board": [None if item is None else str(item) for item in view.board],
        "exact": view.exact,
        "seats": [
            {
                "seat": seats[i],
                "name": s.name,
                "equity": round(s.equity, 4),
                "win": round(s.win, 4),
                "tie": round(s.tie, 4),
                "folded": s.folded,
                "outs": [str(c) for c in s.outs] if s.outs is not None else None,
            }
            for i, s in enumerate(view.seats)
        ],
    }


def _keep_folders(before: dict[str, Any] | None, now: dict[str, Any]) -> dict[str, Any]:
    """A stage's entry worked out again: a seat that folded during this stage keeps the chances it
    had while still in (it is out from the next stage on), as the chart tells the story."""
    if before is None:
        return now
    pairs = zip(before["seats"], now["seats"], strict=True)
    seats = [old if new["folded"] and not old["folded"] else new for old, new in pairs]
    return {**now, "seats": seats}


def _variant_of(service: Any) -> str | None:
    try:
        variant = service.snapshot().to_dict().get("variant")
    except Exception:  # a service that cannot tell yet: the first snapshot will
        return None
    return str(variant) if variant else None


def _history(stages: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """The chart's data: the stages in order, and a line per seat across them."""
    order = [s for s in STAGES if s in stages]
    first = stages[order[0]]["seats"]
    rows = []
    for i, seat in enumerate(first):
        rows.append({
            "seat": seat["seat"], "name": seat["name"],
            "equity": [stages[s]["seats"][i]["equity"] for s in order],
            "win": [stages[s]["seats"][i]["win"] for s in order],
            "tie": [stages[s]["seats"][i]["tie"] for s in order],
            "folded": [stages[s]["seats"][i]["folded"] for s in order],
            "outs": [stages[s]["seats"][i]["outs"] for s in order],
        })  # fmt: skip
    return {"stages": order, "boards": [stages[s]["board"] for s in order], "seats": rows}
