"""The open session read back from the store, for the dashboard's history and exports: a replay
of its stored steps, its ledger and its hand histories (what :class:`web.protocols.SessionRecords`
asks for).

A session that cannot be read back (a stored step changed under the running service, a read the
disk failed) raises :class:`web.protocols.HistoryUnavailable` saying why. A storage fault found
this way is also handed to the service, which stops taking steps: the steps after it would go to a
session that no longer replays.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any, Protocol

from table.session import Session
from tocktable.export import find_session, ledger_csv, ledger_data, phh_text
from tocktable.faults import StorageFault, StoreError, storage_fault
from tocktable.replay import replay_session
from tocktable.store import SessionInfo, Store
from web.protocols import HistoryUnavailable

__all__ = ["Replayed", "StoredRecords"]


class RecordsOwner(Protocol):
    """What the records read of the service that owns them."""

    @property
    def store(self) -> Store: ...
    @property
    def session_id(self) -> int: ...
    @property
    def fault(self) -> BaseException | None: ...
    def report_fault(self, fault: StorageFault) -> None: ...


@dataclass(frozen=True)
class Replayed:
    """One session rebuilt from the store, with what the exports make of it."""

    info: SessionInfo
    session: Session

    @property
    def id(self) -> int:
        return self.info.id

    def ledger(self) -> dict[str, Any]:
        """Who bought in, who is up or down, who pays whom, and every hand's results."""
        return ledger_data(self.session, self.info)

    def ledger_csv(self) -> str:
        return ledger_csv(self.ledger())

    def phh(self) -> str:
        """Every finished hand as a PHH collection (TOML)."""
        return phh_text(self.session)


class StoredRecords:
    """The service's open session, read back from its store on each :meth:`replay`."""

    def __init__(self, owner: RecordsOwner) -> None:
        self._owner = owner

    def replay(self) -> Replayed:
        owner = self._owner
        try:
            info = find_session(owner.store, owner.session_id)
            game, _ = replay_session(owner.store, owner.session_id)
        except sqlite3.ProgrammingError as exc:  # the store was closed: the service is stopping
            raise HistoryUnavailable(f"the history cannot be read: the service is stopping ({exc})") from None
        except (StoreError, sqlite3.Error) as exc:
            fault = storage_fault(exc, owner.store.path, doing="read") if isinstance(exc, sqlite3.Error) else exc
            if isinstance(fault, StorageFault) and owner.fault is None:
                owner.report_fault(fault)  # the service logs it, once
            raise HistoryUnavailable(f"the history cannot be read: {fault}") from None
        return Replayed(info, game.session)
