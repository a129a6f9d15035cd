"""The session so far, for the dashboard and the exports: finished hands, stacks over time,
the ledger and the hand histories (PHH).

Everything is rebuilt from the store (``tocktable.service.replay_session``), so it holds no
more than the game knew: hole cards only where they were shown at the showdown. A replay is
kept until the service writes its next step, so fifty phones asking after a hand cost one
replay.

A session that cannot be read back (a stored step changed under the running service, a read the
disk failed) raises :class:`HistoryUnavailable` saying why; the routes answer it as a JSON 503.
A storage fault found this way is also handed to the service, which stops taking steps: the
steps after it would go to a session that no longer replays.
"""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

from table.errors import TocktableError
from web.present import present_hand


class HistoryUnavailable(TocktableError, OSError):
    """The session's history cannot be read back from the store (the message says why)."""


class History:
    """Reads the open session's history through the service's store."""

    def __init__(self, service: Any) -> None:
        self._service = service
        self._lock = threading.Lock()
        self._key: tuple[int, int | None] | None = None
        self._session: Any = None
        self._info: Any = None

    def _replayed(self) -> tuple[Any, Any]:
        service = self._service
        with self._lock:
            # The last step's sequence number, as published: cheap to read (reading the store's
            # log to find it would cost as much as a small replay, for every phone).
            key = (service.session_id, service.snapshot().to_dict().get("last_seq"))
            if key != self._key:
                info, game = self._replay()
                self._key, self._session, self._info = key, game.session, info
            return self._session, self._info

    def _replay(self) -> tuple[Any, Any]:
        from tocktable.export import find_session
        from tocktable.faults import StorageFault, StoreError, storage_fault
        from tocktable.service import replay_session

        service = self._service
        try:
            info = find_session(service.store, service.session_id)
            game, _ = replay_session(service.store, service.session_id)
        except sqlite3.ProgrammingError as exc:  # the store was closed: the service is stopping
            raise HistoryUnavailable(f"the history cannot be read: the service is stopping ({exc})") from None
        except (StoreError, sqlite3.Error) as exc:
            fault = storage_fault(exc, service.store.path, doing="read") if isinstance(exc, sqlite3.Error) else exc
            if isinstance(fault, StorageFault) and service.fault is None:
                service.report_fault(fault)  # the service logs it, once
            raise HistoryUnavailable(f"the history cannot be read: {fault}") from None
        return info, game

    def hands(self, *, limit: int = 20) -> dict[str, Any]:
        """The last ``limit`` finished hands (newest first) and every seat's stack after each hand."""
        session, info = self._replayed()
        records = finished_records(session)
        newest = [present_hand(r.to_dict()) for r in reversed(records[-limit:])] if limit > 0 else []
        return {
            "session": info.id,
            "hands_played": len(records),
            "hands": newest,
            "stacks": stack_series(session, records),
            "ledger": [line.to_dict() for line in session.ledger()],
        }

    def ledger(self) -> dict[str, Any]:
        """Who bought in, who is up or down, who pays whom, and every hand's results."""
        from tocktable.export import ledger_data

        session, info = self._replayed()
        data: dict[str, Any] = ledger_data(session, info)
        return data

    def ledger_csv(self) -> str:
        from tocktable.export import ledger_csv

        text: str = ledger_csv(self.ledger())
        return text

    def phh(self) -> str:
        """Every finished hand as a PHH collection (TOML)."""
        from tocktable.export import phh_text

        session, _ = self._replayed()
        text: str = phh_text(session)
        return text

    @property
    def session_id(self) -> int:
        value: int = self._service.session_id
        return value


def finished_records(session: Any) -> list[Any]:
    """Every finished hand's record, the settled one not yet confirmed included."""
    records = list(session.records)
    last = session.last_record
    if last is not None and (not records or records[-1].number != last.number):
        records.append(last)
    return records


def stack_series(session: Any, records: list[Any]) -> dict[str, Any]:
    """Stacks for the chart: ``hands`` are x values (0 = before the first hand), each player's
    ``stacks`` has one value per x (None when not dealt in that hand)."""
    xs: list[int] = []
    columns: list[dict[str, int]] = []
    order: list[str] = []
    for record in records:
        hand = session.hands[record.number - 1]
        if not xs:
            xs.append(record.number - 1)
            columns.append({record.names[s]: hand.starting_stacks[s] for s in sorted(record.names)})
        xs.append(record.number)
        columns.append({record.names[s]: hand.stacks[s] for s in sorted(record.names)})
        for s in sorted(record.names):
            if record.names[s] not in order:
                order.append(record.names[s])
    return {
        "hands": xs,
        "players": [{"name": name, "stacks": [column.get(name) for column in columns]} for name in order],
    }
