"""The crash-safe store: an append-only log of accepted commands and their events in SQLite.

The service writes a command and the events it caused in one transaction *before* it
acknowledges the command, with SQLite in WAL mode and ``synchronous=FULL``: once a press is
acknowledged it survives a power cut. On start the service rebuilds its state by replaying
the commands of the open session.

Beside the log, one row per session keeps the console's pending inputs (the amount the +/-
buttons set for BET/RAISE, a draw count), so a power cut does not silently turn a bet of 150
into the minimum raise; the service takes them back only if no later command cleared them.

The file is marked with an application id and a schema version, so a foreign or newer
database is refused with a clear message instead of being damaged.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from table.errors import TocktableError

APPLICATION_ID = 0x546F636B  # "Tock"
SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    created_at REAL NOT NULL,
    closed_at REAL,
    meta TEXT NOT NULL
);
CREATE TABLE commands (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    hand_number INTEGER,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX commands_by_session ON commands(session_id, seq);
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    command_seq INTEGER NOT NULL REFERENCES commands(seq),
    session_id INTEGER NOT NULL,
    hand_number INTEGER,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL
);
CREATE INDEX events_by_session ON events(session_id, id);
"""

_CONSOLE = """
CREATE TABLE console (
    session_id INTEGER PRIMARY KEY REFERENCES sessions(id),
    after_seq INTEGER,
    state TEXT NOT NULL,
    at REAL NOT NULL
);
"""

_SCHEMA += _CONSOLE

_MIGRATIONS: dict[int, str] = {1: _CONSOLE}
"""Schema version → the SQL that brings it to the next version (additive only)."""


class StoreError(TocktableError, OSError):
    """The database file cannot be used (damaged, foreign, newer schema, unwritable)."""


@dataclass(frozen=True)
class StoredCommand:
    seq: int
    session_id: int
    hand_number: int | None
    kind: str
    payload: dict[str, Any]
    at: float


@dataclass(frozen=True)
class StoredEvent:
    id: int
    command_seq: int
    hand_number: int | None
    kind: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class ConsoleState:
    """The console's pending inputs of a session, as saved after the command ``after_seq``."""

    after_seq: int | None
    state: dict[str, Any]
    at: float


@dataclass(frozen=True)
class SessionInfo:
    id: int
    created_at: float
    closed_at: float | None
    meta: dict[str, Any]
    commands: int


class Store:
    """One SQLite file. Thread-safe: one connection guarded by a lock (the service thread
    writes; web handlers read histories)."""

    def __init__(self, path: str | Path, *, clock: Any = time.time, create: bool = True) -> None:
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.Lock()
        if not create and not (self.path.is_file() and self.path.stat().st_size > 0):
            raise StoreError(f"no tocktable database at {self.path}: check --data (nothing was created)")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the data directory {self.path.parent}: {exc}") from None
        self._db = self._connect()

    def _connect(self) -> sqlite3.Connection:
        existed = self.path.exists() and self.path.stat().st_size > 0
        # Everything is read and checked before the first write (the WAL switch writes the
        # header), so a foreign, newer or damaged file is refused byte-for-byte unchanged.
        try:
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {self.path}: {exc}") from None
        try:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            fresh = not existed or (app_id == 0 and version == 0 and not _has_tables(db))
            if not fresh:
                problem = self._refusal(app_id, version) or self._damage(db)
                if problem:
                    db.close()
                    raise StoreError(problem)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            if fresh:
                db.executescript(
                    f"BEGIN IMMEDIATE; {_SCHEMA} PRAGMA application_id={APPLICATION_ID}; "
                    f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;"
                )
            elif version < SCHEMA_VERSION:
                steps = " ".join(_MIGRATIONS[v] for v in range(version, SCHEMA_VERSION))
                db.executescript(f"BEGIN IMMEDIATE; {steps} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
        except sqlite3.DatabaseError as exc:
            db.close()
            raise StoreError(self._damaged(str(exc))) from None
        return db

    def _refusal(self, app_id: int, version: int) -> str | None:
        if app_id != APPLICATION_ID:
            return f"{self.path} is a database of another program, not tocktable's: choose another --data"
        if version > SCHEMA_VERSION:
            return (
                f"{self.path} was written by a newer tocktable (schema {version}, this one knows {SCHEMA_VERSION}): "
                "upgrade tocktable"
            )
        return None

    def _damage(self, db: sqlite3.Connection) -> str | None:
        rows = db.execute("PRAGMA quick_check").fetchall()
        if [r[0] for r in rows] != ["ok"]:
            return self._damaged(str(rows[0][0]) if rows else "no answer to an integrity check")
        return None

    def _damaged(self, why: str) -> str:
        return f"{self.path} is damaged or not a database ({why}); move it aside to start a fresh one"

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- sessions ------------------------------------------------------------------------
    def new_session(self, meta: Mapping[str, Any], first: Sequence[tuple[str, Mapping[str, Any]]] = ()) -> int:
        """Start a session (a night of play) and return its id; ``first`` commands (kind, payload),
        such as the players sitting down, are written in the same transaction: all or nothing."""
        now = self._clock()
        with self._lock, self._transaction():
            cursor = self._db.execute(
                "INSERT INTO sessions(created_at, meta) VALUES (?, ?)", (now, json.dumps(dict(meta)))
            )
            session_id = int(cursor.lastrowid or 0)
            self._db.executemany(
                "INSERT INTO commands(session_id, hand_number, kind, payload, at) VALUES (?, 0, ?, ?, ?)",
                [(session_id, kind, json.dumps(dict(payload)), now) for kind, payload in first],
            )
            return session_id

    def close_session(self, session_id: int) -> None:
        with self._lock, self._transaction():
            self._db.execute("UPDATE sessions SET closed_at=? WHERE id=?", (self._clock(), session_id))

    def sessions(self) -> list[SessionInfo]:
        """Every session, newest last, with its number of commands."""
        with self._lock:
            rows = self._db.execute(
                "SELECT s.id, s.created_at, s.closed_at, s.meta, COUNT(c.seq) FROM sessions s "
                "LEFT JOIN commands c ON c.session_id = s.id GROUP BY s.id ORDER BY s.id"
            ).fetchall()
        return [SessionInfo(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def open_session(self) -> SessionInfo | None:
        """The newest session that was not closed, if any (the one to resume)."""
        open_ones = [s for s in self.sessions() if s.closed_at is None]
        return open_ones[-1] if open_ones else None

    # -- the log -------------------------------------------------------------------------
    def append(
        self,
        session_id: int,
        kind: str,
        payload: Mapping[str, Any],
        events: Sequence[tuple[str, Mapping[str, Any]]] = (),
        *,
        hand_number: int | None = None,
    ) -> int:
        """Write one accepted command and its events in one durable transaction; its sequence number."""
        now = self._clock()
        with self._lock, self._transaction():
            cursor = self._db.execute(
                "INSERT INTO commands(session_id, hand_number, kind, payload, at) VALUES (?, ?, ?, ?, ?)",
                (session_id, hand_number, kind, json.dumps(dict(payload)), now),
            )
            seq = int(cursor.lastrowid or 0)
            self._db.executemany(
                "INSERT INTO events(command_seq, session_id, hand_number, kind, payload) VALUES (?, ?, ?, ?, ?)",
                [(seq, session_id, hand_number, k, json.dumps(dict(p))) for k, p in events],
            )
        return seq

    def commands(self, session_id: int) -> list[StoredCommand]:
        """Every command of a session in the order it was accepted."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, session_id, hand_number, kind, payload, at FROM commands WHERE session_id=? ORDER BY seq",
                (session_id,),
            ).fetchall()
        return [StoredCommand(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]

    def kinds_after(self, session_id: int, seq: int | None) -> list[str]:
        """The kinds of a session's commands accepted after ``seq`` (all of them for None), in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT kind FROM commands WHERE session_id=? AND seq>? ORDER BY seq", (session_id, seq or 0)
            ).fetchall()
        return [r[0] for r in rows]

    # -- the console's pending inputs ----------------------------------------------------------
    def save_console(self, session_id: int, state: Mapping[str, Any], *, after_seq: int | None) -> None:
        """Keep the console's pending inputs (durably, like a command) as set after ``after_seq``."""
        text = json.dumps(dict(state))
        with self._lock, self._transaction():
            self._db.execute(
                "INSERT INTO console(session_id, after_seq, state, at) VALUES (?, ?, ?, ?) ON CONFLICT(session_id) "
                "DO UPDATE SET after_seq=excluded.after_seq, state=excluded.state, at=excluded.at",
                (session_id, after_seq, text, self._clock()),
            )

    def console(self, session_id: int) -> ConsoleState | None:
        """The console's pending inputs last saved for a session (None: never saved)."""
        with self._lock:
            row = self._db.execute(
                "SELECT after_seq, state, at FROM console WHERE session_id=?", (session_id,)
            ).fetchone()
        return ConsoleState(row[0], json.loads(row[1]), row[2]) if row is not None else None

    def events(self, session_id: int) -> list[StoredEvent]:
        """Every event of a session in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, command_seq, hand_number, kind, payload FROM events WHERE session_id=? ORDER BY id",
                (session_id,),
            ).fetchall()
        return [StoredEvent(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self.path)


class _Transaction:
    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db, self.path = db, path

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write to {self.path}: {exc}") from None

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if kind is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.Error as error:
                self._rollback()
                raise StoreError(f"cannot write to {self.path}: commit failed ({error})") from None
        self._rollback()
        if isinstance(exc, sqlite3.Error):
            raise StoreError(f"cannot write to {self.path}: {exc}") from exc

    def _rollback(self) -> None:
        # After a failed COMMIT (disk full, I/O error) SQLite may have rolled back already, and a second
        # ROLLBACK would raise "no transaction is active" over the real error: the real one is reported.
        if self.db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")


def _has_tables(db: sqlite3.Connection) -> bool:
    return int(db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]) > 0
