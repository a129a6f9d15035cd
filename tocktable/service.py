"""The companion service: one thread owns the game; everything else puts inputs on its queue.

Button presses (from :class:`hardware.console.Console`, which puts ``ButtonPressed`` on
:attr:`Service.inbox`), table views from the camera, commands from the web and the clock all
arrive on one queue. The service thread takes them in order and, for each step:

1. applies it to a copy of the game (a step that is not allowed raises a typed error: the
   caller's ticket gets it, nothing is written, the game is unchanged);
2. writes it and its events to the store in one durable transaction;
3. only then keeps the new game, acknowledges, lights the LEDs and publishes a snapshot.

On start it rebuilds the game by replaying the open session's steps from the store.

When the store cannot write (disk full, read-only, no permission, damaged: a
:class:`tocktable.faults.StorageFault`), the service stops taking steps at once: the step is not
kept, every later step, press or new game is refused with :class:`NotSaving` without touching the
disk, and the snapshot's ``storage_fault`` (and a warning) says "not saving: ..." to every phone.
The fault is reported once (``on_fault``, else the log) and the refusals after it are counted;
:attr:`Service.faulted` lets the program that runs the service stop. A fault found while
reading the store for someone else (the history finding a stored step changed under the running
service) is handed in with :meth:`Service.report_fault` and stops the service the same way: the
steps after it would be written to a session that no longer replays.
"""

from __future__ import annotations

import json
import logging
import queue
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hardware.console import ButtonPressed
from hardware.pins import ConsoleButton
from table.engine.draw import DrawHand
from table.errors import TocktableError
from table.phrases import N_, Number, Verbatim, given
from table.session import SessionSettings
from table.steps import (
    STEP_TYPES,
    ChooseButton,
    CommandError,
    Confirm,
    Correct,
    DealBoard,
    NewSession,
    Press,
    Seat,
    SetBet,
    SetDraw,
    Show,
    Step,
    Tick,
    payload_of,
)
from tocktable.console_buttons import ConsoleButtons, Pending
from tocktable.faults import StorageFault
from tocktable.game import Game, Phase, event_record
from tocktable.lens_worker import LensWorker
from tocktable.records import StoredRecords
from tocktable.replay import replay_session
from tocktable.saving import NotSaving, Saving
from tocktable.snapshot import Snapshot
from tocktable.store import Store, StoreError
from tocktable.teaching import HostCard, host_cards
from tocktable.tickets import Ack, ServiceError, Subscription, Ticket, _Barrier
from tocktable.watch import Notice, ViewInterpreter
from vision.view import TableView

__all__ = ["Ack", "CameraStatus", "NewSession", "NotSaving", "Service", "ServiceError", "Subscription", "Ticket",
           "replay_session"]  # fmt: skip

log = logging.getLogger("tocktable.service")


@dataclass(frozen=True)
class _FaultFound:
    """A storage fault found outside the service thread (see :meth:`Service.report_fault`)."""

    fault: StorageFault


@dataclass(frozen=True)
class CameraStatus:
    """The camera's health, reported by the camera loop."""

    ok: bool
    message: str | None = None


class Service:
    """The game loop. ``lights`` is a :class:`hardware.lights.TableLights` (or None);
    ``clock`` gives wall-clock seconds (the demo passes a virtual one)."""

    def __init__(
        self,
        store: Store,
        settings: SessionSettings,
        *,
        players: Sequence[tuple[str, int]] = (),
        lights: Any = None,
        clock: Callable[[], float] = time.time,
        confirm_seconds: float | None = 8.0,
        new_session: bool = False,
        tick_seconds: float = 0.25,
        on_fault: Callable[[NotSaving], None] | None = None,
    ) -> None:
        self.store = store
        self.lights = lights
        self.clock = clock
        self.confirm_seconds = confirm_seconds
        self.inbox: queue.Queue[Any] = queue.Queue()
        self._tick_seconds = tick_seconds
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._subscribers: list[Subscription] = []
        self._sub_lock = threading.Lock()
        self._interpreter = ViewInterpreter()
        self._view: TableView | None = None
        self._camera_notices: tuple[Notice, ...] = ()
        self._recent: deque[tuple[float, Notice]] = deque(maxlen=6)
        self._camera = CameraStatus(True, None)
        self._buttons = ConsoleButtons()
        self._status_ok: bool | None = None
        self._settled_at: float | None = None
        self._last_seq: int | None = None
        self._version = 0
        self._saving = Saving(store.path, log=log)
        self._on_fault = on_fault
        self.faulted = self._saving.faulted
        """Set once the store could not keep a step (see :attr:`fault`)."""
        self.resumed = False
        self.teacher: Callable[[Sequence[HostCard]], None] | None = None
        """Given the cards the host enters or corrects once the game has taken them (the camera's
        reader learns from them: :mod:`tocktable.teaching`); None: nobody is taught."""
        self.records = StoredRecords(self)
        """The open session read back from the store (the dashboard's history and exports)."""
        self.session_id, self.game = self._open(settings, players, new_session=new_session)
        if self.resumed:
            self._restore_console()
        self._level = self._level_index()
        self._snapshot = self._build_snapshot()

    # ------------------------------------------------------------------ life cycle
    def _open(
        self, settings: SessionSettings, players: Sequence[tuple[str, int]], *, new_session: bool
    ) -> tuple[int, Game]:
        info = None if new_session else self.store.open_session()
        if info is not None:
            self.resumed = True
            game, self._last_seq = replay_session(self.store, info.id, clock=self.clock)
            if game.phase == Phase.SETTLED:
                self._settled_at = self.clock()
            return info.id, game
        if len(players) > settings.seats:
            raise CommandError(
                N_("{n} players for {seats} seats"), n=Number(len(players)), seats=Number(settings.seats)
            )
        game = Game(settings, clock=self.clock)
        first = []
        for seat, (name, chips) in enumerate(players):  # checked on the game before anything is written
            step = Seat(seat, name, chips)
            first.append((step.kind, {"step": payload_of(step), "commands": game.apply(step)}))
        session_id = self.store.new_session({"settings": settings.to_dict()}, first)
        commands = self.store.commands(session_id)
        self._last_seq = commands[-1].seq if commands else None
        return session_id, game

    def start(self) -> Service:
        """Start the service thread (the game is already rebuilt from the store)."""
        if self._thread is None:
            self._stop.clear()
            self._show_lights()
            self._thread = threading.Thread(target=self._run, name="tocktable-service", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """Finish the queued inputs already taken, then stop the thread."""
        self._stop.set()
        self.inbox.put((None, None))
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> Service:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ the public surface
    def submit(self, item: Any) -> Ticket:
        """Queue a step, an input (Press, SetBet, Tick, a TableView, CameraStatus); its ticket."""
        ticket = Ticket()
        if self._stop.is_set():
            ticket._resolve(error=ServiceError("the service is stopped"))
            return ticket
        self.inbox.put((item, ticket))
        return ticket

    def call(self, item: Any, *, timeout: float = 10.0) -> Ack:
        """Submit and wait for the answer (raises the command's error)."""
        return self.submit(item).wait(timeout)

    def sync(self, *, timeout: float = 10.0) -> None:
        """Wait until every input queued so far has been handled."""
        self.call(_Barrier(), timeout=timeout)

    def snapshot(self) -> Snapshot:
        """The latest published snapshot."""
        return self._snapshot

    def report_fault(self, fault: StorageFault) -> None:
        """Stop taking steps for a fault found while reading the store elsewhere (the history's
        replay found a step changed, or the disk failed a read): as if a write had failed."""
        self.submit(_FaultFound(fault))

    @property
    def fault(self) -> NotSaving | None:
        """Why the service stopped taking steps (None while every step is kept)."""
        return self._saving.fault

    @property
    def view(self) -> TableView | None:
        """The table view last taken from the camera (None before the first)."""
        return self._view

    def lens_feed(self, *, stop_when: threading.Event) -> LensWorker:
        """A learning lens worker following this service's snapshots (not started yet)."""
        return LensWorker(self, stop_when=stop_when)

    def subscribe(self, *, maxsize: int = 16) -> Subscription:
        """Receive every snapshot published from now on (the current one first)."""
        subscription = Subscription(self._unsubscribe, maxsize)
        # Joining the list and taking the current snapshot happen under the lock _publish() holds while
        # it replaces the snapshot and copies the list: a publish is either before (the subscriber starts
        # on the new snapshot) or after (it is in the copied list), never missed.
        with self._sub_lock:
            self._subscribers.append(subscription)
            subscription._offer(self._snapshot)
        return subscription

    def _unsubscribe(self, subscription: Subscription) -> None:
        with self._sub_lock:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        next_tick = time.monotonic() + self._tick_seconds
        while True:
            try:
                got = self.inbox.get(timeout=max(0.0, next_tick - time.monotonic()))
            except queue.Empty:
                got = (None, None)
            # The console puts its ButtonPressed events on the queue bare; submit() wraps with a ticket.
            item, ticket = got if isinstance(got, tuple) else (got, None)
            if item is None and self._stop.is_set():
                break
            if item is not None:
                self.handle(item, ticket)
            if time.monotonic() >= next_tick:
                next_tick = time.monotonic() + self._tick_seconds
                self.handle(Tick())
        while True:  # answer whatever is left so no caller waits forever
            try:
                got = self.inbox.get_nowait()
            except queue.Empty:
                break
            ticket = got[1] if isinstance(got, tuple) else None
            if ticket is not None:
                ticket._resolve(error=ServiceError("the service stopped before taking this command"))

    def handle(self, item: Any, ticket: Ticket | None = None) -> None:
        """Take one input (on the service thread; tests may call it directly when not started)."""
        try:
            ack = self._dispatch(item)
        except NotSaving as exc:  # refused at once: the store is not written any more
            self._saving.refused += 1
            self._publish()
            if ticket is not None:
                ticket._resolve(error=exc)
            return
        except (StoreError, sqlite3.Error) as exc:
            fault = self._saving.stop(exc, on_fault=self._on_fault)
            self._publish()
            if ticket is not None:
                ticket._resolve(error=fault)
            return
        except TocktableError as exc:
            self._note(Notice("rejected", str(exc), phrase=exc.phrase))
            self._publish()
            if ticket is not None:
                ticket._resolve(error=exc)
            return
        except Exception as exc:  # a bug must not stop the table: report it, keep serving
            log.exception("unexpected error while handling %s", type(item).__name__)
            self._note(Notice("error", f"internal error: {exc}"))
            self._publish()
            if ticket is not None:
                ticket._resolve(error=exc)
            return
        if ticket is not None:
            ticket._resolve(Ack(ack.seq, self._version, ack.steps))

    def _dispatch(self, item: Any) -> Ack:
        if isinstance(item, _Barrier):
            return Ack(None, self._version)
        if isinstance(item, _FaultFound):
            raise item.fault
        self._saving.refuse(item)
        if isinstance(item, Tick):
            return self._tick()
        if isinstance(item, ButtonPressed):
            return self._press(item.button)
        if isinstance(item, Press):
            try:
                button = ConsoleButton(item.button)
            except ValueError:
                allowed = Verbatim(", ".join(b.value for b in ConsoleButton))
                raise CommandError(
                    N_("no button {button}: the console has {allowed}"), button=given(item.button), allowed=allowed
                ) from None
            return self._press(button)
        if isinstance(item, SetBet):
            return self._keep_pending(self._buttons.set_bet(self.game, item.amount))
        if isinstance(item, SetDraw):
            return self._keep_pending(self._buttons.set_draw(self.game, item.count))
        if isinstance(item, TableView):
            if self._saving.fault is not None:  # kept to be shown, not read: what it shows cannot be kept
                self._view = item
                return Ack(None, self._version)
            return self._see(item)
        if isinstance(item, NewSession):
            return self._new_session(item)
        if isinstance(item, CameraStatus):
            if item != self._camera:
                self._camera = item
                self._publish()
            return Ack(None, self._version)
        if type(item) in STEP_TYPES.values():
            lessons = self._lessons(item)
            ack = self._commit(item)
            self._teach(lessons)
            return self._follow(ack)
        raise CommandError(N_("the service does not take {kind} inputs"), kind=Verbatim(type(item).__name__))

    # ------------------------------------------------------------------ the host teaching the camera
    def _lessons(self, step: Step) -> list[HostCard]:
        """The cards a host step puts into the game, for the teacher (none without one)."""
        if self.teacher is None or not isinstance(step, Correct | DealBoard | Show | ChooseButton):
            return []
        return host_cards(step, {**self.game.snapshot(), "session": self.session_id})

    def _teach(self, lessons: list[HostCard]) -> None:
        if not lessons or self.teacher is None:
            return
        try:
            self.teacher(lessons)
        except Exception:  # the camera's learning must never stop the game
            log.exception("the camera could not take the host's cards as lessons")

    # ------------------------------------------------------------------ steps
    def _commit(self, step: Step, *, publish: bool = True) -> Ack:
        game = self.game
        length, session, hand = len(game.session.log), game.session, game.hand
        seen = len(hand.events) if hand is not None else 0
        was = game.phase
        commands = game.apply(step)  # raises with the game unchanged
        now_hand = game.hand
        if now_hand is not None and now_hand is hand:
            events = [event_record(e) for e in now_hand.events[seen:]]
        else:
            events = [event_record(e) for e in now_hand.events] if now_hand is not None else []
        try:
            seq = self.store.append(
                self.session_id, step.kind, {"step": payload_of(step), "commands": commands}, events,
                hand_number=game.hand_number,
            )  # fmt: skip
        except BaseException:  # any failure (StoreError, TypeError from json, raw sqlite3): nothing published
            if isinstance(step, Correct):
                game.session = session
            else:
                game.rollback(length)
            raise
        self._last_seq = seq
        if game.phase == Phase.SETTLED and (was != Phase.SETTLED or isinstance(step, Correct)):
            self._settled_at = self.clock()
        self._buttons.after(step.kind)
        if publish:
            self._show_lights()
            self._publish()
        return Ack(seq, self._version, (step.kind,))

    def _follow(self, ack: Ack) -> Ack:
        """Re-read the latest camera view after a change (a closed round lets the turned board in)."""
        if self._view is None:
            return ack
        more = self._see(self._view)
        return Ack(more.seq or ack.seq, self._version, ack.steps + more.steps)

    def _see(self, view: TableView) -> Ack:
        self._view = view
        seq, kinds = None, []
        for _ in range(64):  # each step changes the game; stop when the view asks for nothing more
            reading = self._interpreter.read(self.game, view)
            if reading.notices != self._camera_notices:
                self._camera_notices = reading.notices
                self._show_lights()
                self._publish()
            if not reading.steps:
                break
            step = reading.steps[0]
            try:
                ack = self._commit(step)
            except StoreError:
                raise
            except TocktableError as exc:
                self._note(Notice("camera", f"what the camera sees cannot be applied: {exc}", phrase=exc.phrase))
                self._publish()
                break
            seq = ack.seq
            kinds.append(step.kind)
        return Ack(seq, self._version, tuple(kinds))

    def _new_session(self, item: NewSession) -> Ack:
        """Open a new session (checked first: a refused one writes nothing), then close the old one."""
        if len(item.players) > item.settings.seats:
            raise CommandError(
                N_("{n} players for {seats} seats"), n=Number(len(item.players)), seats=Number(item.settings.seats)
            )
        trial = Game(item.settings, clock=self.clock)
        for seat, (name, chips) in enumerate(item.players):
            trial.apply(Seat(seat, name, chips))
        old = self.session_id
        self.session_id, self.game = self._open(item.settings, item.players, new_session=True)
        self.store.close_session(old)
        self._interpreter = ViewInterpreter()
        self._camera_notices = ()
        self._buttons.clear()
        self._settled_at = None
        self._level = self._level_index()
        self._show_lights()
        self._publish()
        return Ack(self._last_seq, self._version, ("new_session",))

    # ------------------------------------------------------------------ the console
    def _press(self, button: ConsoleButton) -> Ack:
        meant = self._buttons.press(self.game, button)
        if isinstance(meant, Pending):
            return self._keep_pending(meant)
        return self._follow(self._commit(meant))

    def _keep_pending(self, pending: Pending) -> Ack:
        """Write the pending amount and draw count before showing them: the dealer who set 150
        and lost the power expects 150 on the phones after the restart, not the minimum raise."""
        if pending != self._buttons.pending:
            self.store.save_console(self.session_id, {"bet": pending.bet, "draw": pending.draw},
                                    after_seq=self._last_seq)  # fmt: skip
        self._buttons.keep(pending)
        self._publish()
        return Ack(None, self._version)

    def _restore_console(self) -> None:
        """Take back the pending amount and draw count saved before a stop (see
        :meth:`tocktable.console_buttons.ConsoleButtons.restore`)."""
        saved = self.store.console(self.session_id)
        if saved is not None:
            later = set(self.store.kinds_after(self.session_id, saved.after_seq))
            self._buttons.restore(self.game, saved.state, later)

    # ------------------------------------------------------------------ the clock
    def _level_index(self) -> int:
        return self.game.session.levels.level_index(now=self.clock())

    def _tick(self) -> Ack:
        level = self._level_index()
        if level != self._level:
            self._level = level
            if self.lights is not None:
                self.lights.beep()
            self._publish()
        if (
            self._saving.fault is None
            and self.game.phase == Phase.SETTLED
            and self.confirm_seconds is not None
            and self._settled_at is not None
            and self.clock() - self._settled_at >= self.confirm_seconds
            and self.game.can_deal()
        ):
            return self._follow(self._commit(Confirm()))
        return Ack(None, self._version)

    # ------------------------------------------------------------------ outputs
    def _note(self, notice: Notice) -> None:
        self._recent.append((self.clock(), notice))

    def _show_lights(self) -> None:
        if self.lights is None:
            return
        hand = self.game.hand
        to_act = hand.to_act if hand is not None and self.game.phase == Phase.PLAYING else None
        if to_act is None and isinstance(hand, DrawHand) and self.game.phase == Phase.PLAYING:
            to_act = hand.to_draw  # the seat whose draw the dealer records next
        try:
            self.lights.show(dealer=self.game.button, to_act=to_act)
            ok = self._camera.ok and not self._camera_notices
            if ok != self._status_ok:  # restarting a blink on every press would cost a thread each time
                self._status_ok = ok
                self.lights.set_status(ok)
        except TocktableError as exc:  # a seat without an LED must not stop the game
            log.warning("lights: %s", exc)

    def _build_snapshot(self) -> Snapshot:
        now = self.clock()
        state = self.game.snapshot(now=now)
        recent = [n for at, n in self._recent if now - at < 30.0]
        state["version"] = self._version
        state["session"] = self.session_id
        fault = self._saving.fault
        faults = [Notice("storage", str(fault))] if fault is not None else []
        state["warnings"] = [n.to_dict() for n in (*faults, *self._camera_notices, *recent)]
        state["storage_fault"] = self._saving.state()
        state["camera"] = {"ok": self._camera.ok, "message": self._camera.message}
        state["pending_bet"] = self._buttons.bet
        if self.game.settings.is_draw:
            state["pending_draw"] = self._buttons.draw
        state["last_seq"] = self._last_seq
        settled = self.game.phase == Phase.SETTLED and self._settled_at is not None
        state["confirm_in"] = (
            max(0.0, round(self.confirm_seconds - (now - self._settled_at), 1))  # type: ignore[operator]
            if settled and self.confirm_seconds is not None
            else None
        )
        return Snapshot(self._version, json.dumps(state, separators=(",", ":")))

    def _publish(self) -> None:
        self._version += 1
        snapshot = self._build_snapshot()  # slow work outside the lock
        with self._sub_lock:
            self._snapshot = snapshot
            subscribers = list(self._subscribers)
        for subscription in subscribers:
            subscription._offer(snapshot)
