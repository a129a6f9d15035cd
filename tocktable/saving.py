"""Whether the service still saves: once the store cannot keep a step (disk full, read-only, no
permission, damaged: a :class:`tocktable.faults.StorageFault`), the service stops taking steps.

:class:`Saving` holds the first fault, as the :class:`NotSaving` every later step, press or new
game is refused with (without touching the disk), counts those refusals, and says each different
fault once: the first to ``on_fault`` when the service was given one, the others (and the first
without it) to the log.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardware.console import ButtonPressed
from table.steps import STEP_TYPES, NewSession, Press, SetBet, SetDraw
from tocktable.faults import StorageFault, StoreError, storage_fault
from tocktable.tickets import ServiceError

__all__ = ["WRITING_INPUTS", "NotSaving", "Saving"]

WRITING_INPUTS = (Press, ButtonPressed, SetBet, SetDraw)
"""Inputs that may write to the store besides the steps themselves and a new session."""


class NotSaving(StorageFault, ServiceError):
    """The service has stopped taking steps: the store could not keep one (the message says why,
    beginning "not saving: "). Nothing after the last acknowledged step was written."""


class Saving:
    """The store's state as the service sees it: saving, or stopped by :attr:`fault`."""

    def __init__(self, path: Path, *, log: logging.Logger) -> None:
        self.path = path
        self.fault: NotSaving | None = None
        """Why the service stopped taking steps (None while every step is kept)."""
        self.refused = 0
        """Inputs refused since (each would have written to the store)."""
        self.faulted = threading.Event()
        """Set once the store could not keep a step."""
        self._log = log
        self._seen: dict[str, int] = {}

    def stop(self, error: BaseException, *, on_fault: Callable[[NotSaving], None] | None) -> NotSaving:
        """The store failed to keep a step: stop taking steps, say why once (later faults: once each)."""
        fault = error if isinstance(error, StorageFault) else (
            storage_fault(error, self.path) if isinstance(error, sqlite3.Error | OSError) and not
            isinstance(error, StoreError) else StorageFault("io_error", str(error))
        )  # fmt: skip
        message = str(fault) if str(fault).startswith("not saving: ") else f"not saving: {fault}"
        first = self.fault is None
        if self.fault is None:
            # A step changed in the file is not "kept": its message says what to do instead.
            kept = "" if fault.kind == "altered" else "; every step acknowledged before is kept"
            self.fault = NotSaving(fault.kind, f"{message}{kept}")
        seen = self._seen.get(message, 0)
        self._seen[message] = seen + 1
        if seen == 0:
            if first and on_fault is not None:
                on_fault(self.fault)
            else:
                self._log.error("%s", message)
        self.faulted.set()
        return self.fault

    def refuse(self, item: Any) -> None:
        """Raise :class:`NotSaving` for an input that would write, once the service stopped saving."""
        if self.fault is None:
            return
        if type(item) in STEP_TYPES.values() or isinstance(item, (*WRITING_INPUTS, NewSession)):
            raise NotSaving(self.fault.kind, str(self.fault))

    def state(self) -> dict[str, Any] | None:
        """The snapshot's ``storage_fault``: the fault's kind and message, and the inputs refused."""
        if self.fault is None:
            return None
        return {"kind": self.fault.kind, "message": str(self.fault), "refused": self.refused}
