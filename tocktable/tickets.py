"""What callers get back from the service: a ticket per input, and subscriptions to snapshots."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass

from tocktable.snapshot import Snapshot
from web.protocols import ServiceUnavailable

__all__ = ["Ack", "ServiceError", "Subscription", "Ticket"]


class ServiceError(ServiceUnavailable):
    """The service cannot take the command (stopped, or no answer in time); the web answers 503."""


@dataclass(frozen=True)
class Ack:
    """A command accepted: ``seq`` of the last step written (None when it wrote none)."""

    seq: int | None
    version: int
    steps: tuple[str, ...] = ()


class _Barrier:
    """Answered once every input queued before it has been handled."""


class Ticket:
    """The answer to one submitted input, filled in by the service thread."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self._ack: Ack | None = None
        self._error: BaseException | None = None

    def _resolve(self, ack: Ack | None = None, error: BaseException | None = None) -> None:
        self._ack, self._error = ack, error
        self._done.set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = 10.0) -> Ack:
        """The acknowledgement; raises the command's error, or :class:`ServiceError` on timeout."""
        if not self._done.wait(timeout):
            raise ServiceError(f"the service did not answer within {timeout} s")
        if self._error is not None:
            raise self._error
        assert self._ack is not None
        return self._ack


class Subscription:
    """Snapshots as they are published; a slow reader loses the oldest, never blocks the game."""

    def __init__(self, unsubscribe: Callable[[Subscription], None], maxsize: int) -> None:
        self._unsubscribe = unsubscribe
        self._queue: queue.Queue[Snapshot] = queue.Queue(maxsize)

    def _offer(self, snapshot: Snapshot) -> None:
        while True:
            try:
                self._queue.put_nowait(snapshot)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self._queue.get_nowait()

    def get(self, timeout: float | None = None) -> Snapshot | None:
        """The next snapshot, or None if none came within ``timeout``."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self._unsubscribe(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
