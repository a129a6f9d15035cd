"""The crash-safe store: an append-only log of accepted commands and their events in SQLite.

The service writes a command and the events it caused in one transaction *before* it
acknowledges the command, with SQLite in WAL mode and ``synchronous=FULL``: once a press is
acknowledged it survives a power cut. On start the service rebuilds its state by replaying
the commands of the open session.

Beside the log, one row per session keeps the console's pending inputs (the amount the +/-
buttons set for BET/RAISE, a draw count), so a power cut does not silently turn a bet of 150
into the minimum raise; the service takes them back only if no later command cleared them.

The file is marked with an application id and a schema version, so a foreign or newer
database is refused with a clear message instead of being damaged. A new file is made under a
temporary name and renamed into place once its tables are written, so the database file is
never empty: an empty one is reported (it held a night that is gone), never made a new session.

Every stored step carries a checksum chained to the one before it (and the session's first to
the session's settings), and the session row keeps the last one: :meth:`Store.verified_session`
recomputes the chain, so a changed byte in a stored step, a step missing, added or out of order
is reported with where it is, never replayed. Storage faults (disk full, read-only, no
permission, damaged) are :class:`tocktable.faults.StorageFault` named for what they are.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tocktable.faults import StorageFault, StoreError, damaged_message, empty_fault, sqlite_code, storage_fault

APPLICATION_ID = 0x546F636B  # "Tock"
_NOT_THE_DISK = (1, 19)
"""SQLite's ERROR (a statement it cannot run) and CONSTRAINT (a row it refuses)."""
SCHEMA_VERSION = 3

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

_CHAIN = """
ALTER TABLE sessions ADD COLUMN digest TEXT;
ALTER TABLE sessions ADD COLUMN head TEXT;
ALTER TABLE commands ADD COLUMN digest TEXT;
"""
"""The checksums: the session's own (its id, start and settings), the last step's (``head``),
and each step's, chained to the step before it."""

_SCHEMA += _CONSOLE + _CHAIN

_MIGRATIONS: dict[int, str] = {1: _CONSOLE, 2: _CHAIN}
"""Schema version → the SQL that brings it to the next version (additive only). Reaching version 3
also seals the steps already stored (their checksums are computed from them as they are)."""


__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "ConsoleState", "SessionInfo", "Store", "StoreError", "StoredCommand",
           "StoredEvent"]  # fmt: skip


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
    writes; web handlers read histories). ``create=False`` opens an existing file to read it
    (an export): nothing is made, and a file that needs no upgrade is not written."""

    def __init__(self, path: str | Path, *, clock: Any = time.time, create: bool = True) -> None:
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.Lock()
        if not create and not self.path.is_file():
            raise StoreError(f"no tocktable database at {self.path}: check --data (nothing was created)")
        if self.path.is_file() and self.path.stat().st_size == 0:
            raise empty_fault(self.path)
        self._writer = create
        if not self.path.exists():
            self._create()
        elif create and not os.access(self.path, os.W_OK):  # before SQLite makes its journal files beside it
            raise storage_fault(PermissionError(errno.EACCES, "not writable"), self.path, doing="open")
        self._db = self._connect()

    def _create(self) -> None:
        """Make a new database under a temporary name and rename it into place once its tables
        are written: a crash while making it leaves no file at ``path``, never an empty one."""
        journal = self.path.with_name(self.path.name + "-wal")
        if journal.is_file() and journal.stat().st_size > 0:
            raise StorageFault(
                "damaged",
                f"{journal} is there without its database {self.path}: the database was moved or deleted "
                "without its journal; put it back beside the journal, or choose another --data",
            )
        temp = self.path.with_name(self.path.name + ".new")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            for leftover in (temp, *(temp.with_name(temp.name + end) for end in ("-wal", "-shm", "-journal"))):
                leftover.unlink(missing_ok=True)  # a creation cut short: it held no game yet
            db = sqlite3.connect(temp, isolation_level=None)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("BEGIN IMMEDIATE")
                for statement in _statements(_SCHEMA):
                    db.execute(statement)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                db.execute("COMMIT")
            finally:
                db.close()  # the last connection checkpoints: everything is in the file itself
            _fsync(temp)
            os.replace(temp, self.path)
            _fsync(self.path.parent)
        except (sqlite3.Error, OSError) as exc:
            with contextlib.suppress(OSError):
                temp.unlink(missing_ok=True)
            raise storage_fault(exc, self.path, doing="create") from None

    def _connect(self) -> sqlite3.Connection:
        # Everything is read and checked before the first write (the WAL switch writes the
        # header), so a foreign, newer or damaged file is refused byte-for-byte unchanged.
        try:
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise storage_fault(exc, self.path, doing="open") from None
        try:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if app_id == 0 and version == 0 and not _has_tables(db):
                raise StorageFault(
                    "empty",
                    f"{self.path} is an SQLite file with no tables in it, not a tocktable database: delete it to "
                    "start a fresh database there, or choose another --data",
                )
            refused = self._refusal(app_id, version)
            if refused:
                raise StoreError(refused)
            damage = self._damage(db)
            if damage:
                raise StorageFault("damaged", damage)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            if self._writer or version < SCHEMA_VERSION:
                db.execute("BEGIN IMMEDIATE")
                for v in range(version, SCHEMA_VERSION):
                    for statement in _statements(_MIGRATIONS[v]):
                        db.execute(statement)
                if version < 3:
                    _seal(db)
                # Written on every start, even unchanged: a read-only or full disk is found now, before
                # the service takes its first step, not on the first press of the night.
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                db.execute("COMMIT")
        except StoreError:
            db.close()
            raise
        except sqlite3.Error as exc:
            db.close()
            raise _write_error(exc, self.path, doing="open") from None
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
            return damaged_message(self.path, str(rows[0][0]) if rows else "no answer to an integrity check")
        return None

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
        now = float(self._clock())
        meta_text = json.dumps(dict(meta))
        texts = [(kind, json.dumps(dict(payload))) for kind, payload in first]
        with self._lock, self._transaction():
            cursor = self._db.execute("INSERT INTO sessions(created_at, meta) VALUES (?, ?)", (now, meta_text))
            session_id = int(cursor.lastrowid or 0)
            head = _session_digest(session_id, now, meta_text)
            self._db.execute("UPDATE sessions SET digest=?, head=? WHERE id=?", (head, head, session_id))
            for kind, text in texts:
                _, head = self._insert(session_id, 0, kind, text, (), now, head)
            self._db.execute("UPDATE sessions SET head=? WHERE id=?", (head, session_id))
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
        now = float(self._clock())
        text = json.dumps(dict(payload))
        event_texts = [(k, json.dumps(dict(p))) for k, p in events]
        with self._lock, self._transaction():
            row = self._db.execute("SELECT head FROM sessions WHERE id=?", (session_id,)).fetchone()
            if row is None:
                raise StoreError(f"{self.path} has no session {session_id}: nothing was written")
            seq, head = self._insert(session_id, hand_number, kind, text, event_texts, now, row[0])
            self._db.execute("UPDATE sessions SET head=? WHERE id=?", (head, session_id))
        return seq

    def _insert(
        self, session_id: int, hand_number: int | None, kind: str, text: str,
        events: Sequence[tuple[str, str]], at: float, previous: str | None,
    ) -> tuple[int, str]:  # fmt: skip
        """One command row and its event rows (inside a transaction): its seq and checksum."""
        cursor = self._db.execute(
            "INSERT INTO commands(session_id, hand_number, kind, payload, at) VALUES (?, ?, ?, ?, ?)",
            (session_id, hand_number, kind, text, at),
        )
        seq = int(cursor.lastrowid or 0)
        digest = _step_digest(previous, seq, session_id, hand_number, kind, text, at, events)
        self._db.execute("UPDATE commands SET digest=? WHERE seq=?", (digest, seq))
        self._db.executemany(
            "INSERT INTO events(command_seq, session_id, hand_number, kind, payload) VALUES (?, ?, ?, ?, ?)",
            [(seq, session_id, hand_number, k, p) for k, p in events],
        )
        return seq, digest

    def verified_session(self, session_id: int) -> tuple[SessionInfo, list[StoredCommand]]:
        """A session and its commands, once every checksum of the chain is found as written
        (:class:`tocktable.faults.StorageFault` of kind ``altered`` saying where, otherwise)."""
        with self._lock:
            info = self._db.execute(
                "SELECT id, created_at, closed_at, meta, digest, head FROM sessions WHERE id=?", (session_id,)
            ).fetchone()
            if info is None:
                raise StoreError(f"{self.path} has no session {session_id}")
            rows = self._db.execute(
                "SELECT seq, session_id, hand_number, kind, payload, at, digest FROM commands WHERE session_id=? "
                "ORDER BY seq",
                (session_id,),
            ).fetchall()
            events: dict[int, list[tuple[str, str]]] = {}
            for seq, kind, text in self._db.execute(
                "SELECT command_seq, kind, payload FROM events WHERE session_id=? ORDER BY id", (session_id,)
            ):
                events.setdefault(seq, []).append((kind, text))
        where = f"{self.path}: session {session_id}"
        advice = (
            "Nothing was replayed or written. Restore the file from a backup, or keep it for a bug report and "
            "start a new session beside it (--new-session)"
        )
        head = _session_digest(info[0], info[1], info[3])
        if info[4] != head:
            raise StorageFault("altered", f"{where}: its settings do not match their checksum: the file was changed "
                                          f"after they were written. {advice}")  # fmt: skip
        digests = [head]
        for number, (seq, sid, hand, kind, text, at, digest) in enumerate(rows, start=1):
            expected = _step_digest(head, seq, sid, hand, kind, text, at, events.get(seq, ()))
            if digest != expected:
                hand_text = f" of hand {hand}" if hand else ""
                raise StorageFault(
                    "altered",
                    f"{where}: step {number} of {len(rows)} (stored as number {seq}: {kind!r}{hand_text}) does not "
                    f"match its checksum: the file was changed after it was written. {advice}",
                )
            head = expected
            digests.append(head)
        if info[5] != head:
            if info[5] in digests:
                missing = f"steps were added after step {digests.index(info[5])} without being recorded"
            else:
                missing = f"the session's last recorded step is not among its {len(rows)} steps (steps are missing)"
            raise StorageFault("altered", f"{where}: {missing}: the file was changed after it was written. {advice}")
        session = SessionInfo(info[0], info[1], info[2], json.loads(info[3]), len(rows))
        return session, [StoredCommand(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]

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
            raise _write_error(exc, self.path) from None

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if kind is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.Error as error:
                self._rollback()
                raise _write_error(error, self.path) from None
        self._rollback()
        if isinstance(exc, sqlite3.Error):
            raise _write_error(exc, self.path) from exc

    def _rollback(self) -> None:
        # After a failed COMMIT (disk full, I/O error) SQLite may have rolled back already, and a second
        # ROLLBACK would raise "no transaction is active" over the real error: the real one is reported.
        if self.db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")


def _write_error(error: sqlite3.Error, path: Path, *, doing: str = "write to") -> StoreError:
    """A refused row or statement (a constraint, an SQL error: a program's mistake, not the disk's) as it
    is; anything else as the storage fault it is."""
    if sqlite_code(error) in _NOT_THE_DISK or isinstance(error, sqlite3.IntegrityError | sqlite3.ProgrammingError):
        return StoreError(f"cannot {doing} {path}: {error}")
    return storage_fault(error, path, doing=doing)


def _has_tables(db: sqlite3.Connection) -> bool:
    return int(db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]) > 0


def _statements(script: str) -> list[str]:
    """The statements of a schema script (no ``;`` inside any of them)."""
    return [part.strip() for part in script.split(";") if part.strip()]


def _hash(parts: Sequence[Any]) -> str:
    return hashlib.sha256(json.dumps(list(parts), separators=(",", ":")).encode("utf-8")).hexdigest()


def _session_digest(session_id: int, created_at: float, meta: str) -> str:
    return _hash(["session", session_id, float(created_at), meta])


def _step_digest(
    previous: str | None, seq: int, session_id: int, hand_number: int | None, kind: str, payload: str, at: float,
    events: Sequence[tuple[str, str]],
) -> str:  # fmt: skip
    """A step's checksum: the one before it, everything stored for the step, its events in order."""
    return _hash([previous, seq, session_id, hand_number, kind, payload, float(at), [list(e) for e in events]])


def _seal(db: sqlite3.Connection) -> None:
    """Compute the checksums of steps stored before the file had them (inside the upgrade's transaction)."""
    sessions = db.execute("SELECT id, created_at, meta FROM sessions ORDER BY id").fetchall()
    for session_id, created_at, meta in sessions:
        head = _session_digest(session_id, created_at, meta)
        db.execute("UPDATE sessions SET digest=? WHERE id=?", (head, session_id))
        events: dict[int, list[tuple[str, str]]] = {}
        for seq, kind, text in db.execute(
            "SELECT command_seq, kind, payload FROM events WHERE session_id=? ORDER BY id", (session_id,)
        ):
            events.setdefault(seq, []).append((kind, text))
        rows = db.execute(
            "SELECT seq, hand_number, kind, payload, at FROM commands WHERE session_id=? ORDER BY seq", (session_id,)
        ).fetchall()
        for seq, hand, kind, text, at in rows:
            head = _step_digest(head, seq, session_id, hand, kind, text, at, events.get(seq, ()))
            db.execute("UPDATE commands SET digest=? WHERE seq=?", (head, seq))
        db.execute("UPDATE sessions SET head=? WHERE id=?", (head, session_id))


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
