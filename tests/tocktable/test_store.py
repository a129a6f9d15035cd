import sqlite3

import pytest

from tocktable.store import SCHEMA_VERSION, Store, StoreError


def test_append_and_replay_in_order(tmp_path):
    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        session = store.new_session({"variant": "holdem", "seats": 3})
        for i in range(5):
            store.append(
                session, "press", {"button": "fold", "i": i}, [("ActionTaken", {"seat": i % 3})], hand_number=1
            )
    with Store(path) as again:  # reopened: everything is there
        commands = again.commands(session)
        assert [c.payload["i"] for c in commands] == [0, 1, 2, 3, 4]
        assert [c.seq for c in commands] == sorted(c.seq for c in commands)
        assert all(c.kind == "press" and c.hand_number == 1 for c in commands)
        events = again.events(session)
        assert [e.payload["seat"] for e in events] == [0, 1, 2, 0, 1]
        assert events[0].command_seq == commands[0].seq
        info = again.open_session()
        assert info is not None and info.id == session and info.commands == 5 and info.meta["seats"] == 3


def test_sessions_close_and_list(tmp_path):
    with Store(tmp_path / "g.sqlite") as store:
        first = store.new_session({"n": 1})
        store.close_session(first)
        second = store.new_session({"n": 2})
        assert [s.id for s in store.sessions()] == [first, second]
        assert store.open_session().id == second
        store.close_session(second)
        assert store.open_session() is None


def test_wal_and_full_sync(tmp_path):
    with Store(tmp_path / "g.sqlite") as store:
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_failed_write_leaves_nothing(tmp_path):
    with Store(tmp_path / "g.sqlite") as store:
        session = store.new_session({})
        with pytest.raises(TypeError):
            store.append(session, "press", {"bad": object()})  # not JSON: refused before writing
        with pytest.raises(StoreError):
            store.append(9999, "press", {})  # no such session: the foreign key refuses it
        assert store.commands(session) == [] and store.commands(9999) == []


def test_truncated_file_is_refused_clearly(tmp_path):
    path = tmp_path / "g.sqlite"
    with Store(path) as store:
        session = store.new_session({})
        for i in range(200):
            store.append(session, "press", {"i": i, "pad": "x" * 200})
        store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    with pytest.raises(StoreError, match="damaged or not a database"):
        Store(path).commands(session)


def test_garbage_file_is_refused(tmp_path):
    path = tmp_path / "g.sqlite"
    path.write_bytes(b"this is a text file, not a database" * 100)
    with pytest.raises(StoreError, match="damaged or not a database"):
        Store(path)


def test_foreign_database_is_refused_untouched(tmp_path):
    path = tmp_path / "other.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes(name TEXT)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="another program"):
        Store(path)
    db = sqlite3.connect(path)
    assert [r[0] for r in db.execute("SELECT name FROM sqlite_master")] == ["recipes"]
    db.close()


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "g.sqlite"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer tocktable"):
        Store(path)


class _CommitFailsAfterSQLiteRolledBack:
    """A connection whose COMMIT fails the way a full disk does: SQLite has already rolled back."""

    def __init__(self, db):
        self.db = db

    @property
    def in_transaction(self):
        return self.db.in_transaction

    def execute(self, sql, *args):
        if sql == "COMMIT":
            self.db.execute("ROLLBACK")
            raise sqlite3.OperationalError("disk I/O error")
        return self.db.execute(sql, *args)


def test_a_failed_commit_is_a_store_error_and_the_store_stays_usable(tmp_path, monkeypatch):
    from tocktable.store import _Transaction

    with Store(tmp_path / "g.sqlite") as store:
        session = store.new_session({"n": 1})
        monkeypatch.setattr(
            store, "_transaction", lambda: _Transaction(_CommitFailsAfterSQLiteRolledBack(store._db), store.path)
        )
        with pytest.raises(StoreError, match="disk I/O error"):
            store.append(session, "press", {"button": "fold"})
        monkeypatch.undo()
        assert store.commands(session) == []
        with pytest.raises(TypeError):  # not JSON: rolled back, the error is the caller's
            store.append(session, "press", {"n": object()})
        assert store.commands(session) == []
        store.append(session, "press", {"button": "fold"})
        assert [c.kind for c in store.commands(session)] == ["press"]
