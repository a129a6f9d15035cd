"""The session so far, for the dashboard and the exports: finished hands, stacks over time,
the ledger and the hand histories (PHH).

Everything is rebuilt from the store (the service's :class:`web.protocols.SessionRecords`), so
it holds no more than the game knew: hole cards only where they were shown at the showdown. A
replay is kept until the service writes its next step, so fifty phones asking after a hand cost
one replay.

A session that cannot be read back raises :class:`HistoryUnavailable` saying why; the routes
answer it as a JSON 503.
"""

from __future__ import annotations

import threading
from typing import Any

from table.session import HandRecord, Session
from web.present import present_hand
from web.protocols import HistoryUnavailable, ReplayedSession, TableService
from web.words import Words

__all__ = ["History", "HistoryUnavailable", "finished_records", "stack_series"]


class History:
    """Reads the open session's history through the service's records."""

    def __init__(self, service: TableService) -> None:
        self._service = service
        self._lock = threading.Lock()
        self._key: tuple[int, int | None] | None = None
        self._replayed: ReplayedSession | None = None

    def _replay(self) -> ReplayedSession:
        service = self._service
        with self._lock:
            # The last step's sequence number, as published: cheap to read (reading the store's
            # log to find it would cost as much as a small replay, for every phone).
            key = (service.session_id, service.snapshot().to_dict().get("last_seq"))
            if key != self._key or self._replayed is None:
                self._replayed = service.records.replay()
                self._key = key
            return self._replayed

    def hands(self, *, limit: int = 20, words: Words | None = None) -> dict[str, Any]:
        """The last ``limit`` finished hands (newest first) and every seat's stack after each hand,
        the hands named in ``words``' language (English by default)."""
        replayed = self._replay()
        session = replayed.session
        records = finished_records(session)
        newest = [present_hand(r.to_dict(), words) for r in reversed(records[-limit:])] if limit > 0 else []
        return {
            "session": replayed.id,
            "hands_played": len(records),
            "hands": newest,
            "stacks": stack_series(session, records),
            "ledger": [line.to_dict() for line in session.ledger()],
        }

    def ledger(self) -> dict[str, Any]:
        """Who bought in, who is up or down, who pays whom, and every hand's results."""
        return self._replay().ledger()

    def ledger_csv(self) -> str:
        return self._replay().ledger_csv()

    def phh(self) -> str:
        """Every finished hand as a PHH collection (TOML)."""
        return self._replay().phh()

    @property
    def session_id(self) -> int:
        return self._service.session_id


def finished_records(session: Session) -> list[HandRecord]:
    """Every finished hand's record, the settled one not yet confirmed included."""
    records = list(session.records)
    last = session.last_record
    if last is not None and (not records or records[-1].number != last.number):
        records.append(last)
    return records


def stack_series(session: Session, records: list[HandRecord]) -> dict[str, Any]:
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
