"""Storage faults named for what they are, an empty or altered database reported, never replaced
or replayed, and a service that stops taking steps the moment the store cannot keep one."""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
from pathlib import Path

import pytest

from hardware.console import ButtonPressed
from hardware.pins import ConsoleButton
from tocktable.faults import StorageFault, storage_fault
from tocktable.service import NotSaving, replay_session
from tocktable.steps import ChooseButton, DealBoard, Press, SetBet, Tick
from tocktable.store import Store, StoreError

from .helpers import FakeClock, dump_database, make_service

ADVICE_TO_MOVE = ("move it aside", "move the file aside")


def files_under(path: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


# ------------------------------------------------------------------------------- naming
@pytest.mark.parametrize(
    ("number", "kind"),
    [(errno.ENOSPC, "disk_full"), (errno.EDQUOT, "disk_full"), (errno.EROFS, "read_only"),
     (errno.EACCES, "no_permission"), (errno.EIO, "io_error")],
)  # fmt: skip
def test_an_os_error_is_named_by_its_errno(tmp_path, number, kind):
    fault = storage_fault(OSError(number, os.strerror(number)), tmp_path / "t.sqlite")
    assert fault.kind == kind and isinstance(fault, StoreError)
    assert fault.errno == {"disk_full": errno.ENOSPC, "read_only": errno.EROFS,
                           "no_permission": errno.EACCES}.get(kind)  # fmt: skip
    assert os.strerror(number) in str(fault) and not any(a in str(fault) for a in ADVICE_TO_MOVE)


def test_sqlites_own_disk_full_is_a_full_disk(tmp_path):
    """SQLite's FULL, produced for real: the database may not grow past a page limit."""
    with Store(tmp_path / "t.sqlite") as store:
        session = store.new_session({})
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count={pages + 2}")
        with pytest.raises(StorageFault) as caught:
            for i in range(500):
                store.append(session, "act", {"i": i, "pad": "x" * 2000})
        written = len(store.commands(session))
    assert caught.value.kind == "disk_full" and caught.value.errno == errno.ENOSPC
    assert f"the disk holding {tmp_path} is full" in str(caught.value) and "free some space" in str(caught.value)
    assert 0 < written < 500


def test_a_damaged_database_is_named_damaged(tmp_path):
    error = sqlite3.DatabaseError("database disk image is malformed")
    error.sqlite_errorcode = 11  # SQLITE_CORRUPT
    fault = storage_fault(error, tmp_path / "t.sqlite")
    assert fault.kind == "damaged" and "is damaged" in str(fault)


# ------------------------------------------------------------------------------- empty files
def test_an_empty_file_is_reported_never_made_a_new_session(tmp_path):
    path = tmp_path / "tocktable.sqlite"
    path.write_bytes(b"")
    with pytest.raises(StorageFault, match=r"is empty \(0 bytes\)") as caught:
        Store(path)
    assert caught.value.kind == "empty"
    assert files_under(tmp_path) == {path: b""}  # nothing written, nothing made beside it


def test_an_sqlite_file_without_tables_is_reported(tmp_path):
    path = tmp_path / "tocktable.sqlite"
    db = sqlite3.connect(path)
    db.execute("VACUUM")  # a valid SQLite file with nothing in it
    db.close()
    before = files_under(tmp_path)
    with pytest.raises(StorageFault, match="no tables") as caught:
        Store(path)
    assert caught.value.kind == "empty" and files_under(tmp_path) == before


def test_a_new_database_is_never_empty_on_disk(tmp_path):
    """Made under another name and renamed whole: at the path there is a full file or none."""
    path = tmp_path / "tocktable.sqlite"
    Store(path).close()
    assert path.stat().st_size > 0 and not (tmp_path / "tocktable.sqlite.new").exists()
    with Store(path) as again:
        assert again.sessions() == []


def test_a_journal_without_its_database_is_not_made_a_new_database(tmp_path):
    path = tmp_path / "tocktable.sqlite"
    (tmp_path / "tocktable.sqlite-wal").write_bytes(b"\x37\x7f\x06\x82" + b"\0" * 60)
    with pytest.raises(StorageFault, match="without its database"):
        Store(path)
    assert not path.exists()


# ------------------------------------------------------------------------------- altered steps
def played(path: Path, clock: FakeClock) -> int:
    """A service that played a flop into the store; the id of its session."""
    svc = make_service(path, clock=clock).start()
    svc.call(ChooseButton(seat=0))
    for _ in range(3):
        svc.call(Press("check_call"))
    svc.call(DealBoard(("Td", "7c", "2s")))
    svc.call(Press("check_call"))
    session = svc.session_id
    svc.stop()
    svc.store.close()  # the last connection checkpoints: every row is in the file itself
    return session


def test_a_changed_byte_in_a_stored_step_is_found_and_named(tmp_path):
    """Td turned into Th on the flop, in the file's bytes: the replay refuses and says where."""
    path, clock = tmp_path / "t.sqlite", FakeClock()
    session = played(path, clock)
    data = path.read_bytes()
    spot = data.find(b'"commands": [{"op": "deal_board", "cards": ["Td"')
    assert spot > 0  # the session command the replay runs (the step and its event name Td too)
    spot = data.index(b'"Td"', spot)
    path.write_bytes(data[: spot + 2] + b"h" + data[spot + 3 :])
    with Store(path) as store:
        steps = store.commands(session)
        assert steps[-2].payload["commands"][0]["cards"] == ["Th", "7c", "2s"]  # SQLite itself sees nothing wrong
        with pytest.raises(StorageFault) as caught:
            replay_session(store, session)
    message = str(caught.value)
    assert caught.value.kind == "altered"
    number = len(steps) - 1
    assert f"session {session}: step {number} of {len(steps)}" in message and "'deal_board' of hand 1" in message
    assert "does not match its checksum" in message and "Nothing was replayed" in message


def test_a_step_removed_added_or_moved_is_found(tmp_path):
    path, clock = tmp_path / "t.sqlite", FakeClock()
    session = played(path, clock)
    cases = {
        "last steps removed": "DELETE FROM commands WHERE seq = (SELECT MAX(seq) FROM commands)",
        "a step in the middle removed": "DELETE FROM commands WHERE seq = 5",
        "a step added by hand": "INSERT INTO commands(session_id, hand_number, kind, payload, at, digest) "
                                "SELECT session_id, hand_number, kind, payload, at, digest FROM commands WHERE seq = 6",
        "settings changed": "UPDATE sessions SET meta = replace(meta, '\"seats\": 3', '\"seats\": 4') "
                            "WHERE meta LIKE '%\"seats\": 3%'",
        "an event changed": "UPDATE events SET payload = payload || ' ' WHERE id = 3",
    }  # fmt: skip
    pristine = path.read_bytes()
    for what, sql in cases.items():
        path.write_bytes(pristine)
        db = sqlite3.connect(path)
        db.execute("PRAGMA foreign_keys=OFF")
        assert db.execute(sql).rowcount == 1, what
        db.commit()
        db.close()
        with Store(path) as store:
            try:
                replay_session(store, session)
            except StorageFault as fault:
                assert fault.kind == "altered" and "changed after" in str(fault), what
            else:
                pytest.fail(f"{what}: not found")


def test_the_service_does_not_start_on_an_altered_session(tmp_path):
    path, clock = tmp_path / "t.sqlite", FakeClock()
    played(path, clock)
    db = sqlite3.connect(path)
    db.execute("UPDATE commands SET payload = replace(payload, '7c', '7h')")
    db.commit()
    db.close()
    before = dump_database(path)
    with pytest.raises(StorageFault, match="does not match its checksum"):
        make_service(path, clock=clock).store.close()
    assert dump_database(path) == before  # not replayed, not rewritten, no session added


# ------------------------------------------------------------------------------- the service
class FullDisk:
    """The store's write path failing as a full disk makes SQLite fail, counting the attempts."""

    def __init__(self, store: Store) -> None:
        self.store, self.real, self.attempts = store, store.append, 0

    def __call__(self, *args, **kwargs):
        self.attempts += 1
        error = sqlite3.OperationalError("database or disk is full")
        error.sqlite_errorcode = 13  # SQLITE_FULL
        raise storage_fault(error, self.store.path)


def test_the_service_stops_taking_steps_at_once_and_says_not_saving(tmp_path, monkeypatch, caplog):
    clock = FakeClock()
    svc = make_service(tmp_path / "t.sqlite", clock=clock).start()
    try:
        svc.call(ChooseButton(seat=0))
        before = svc.snapshot().to_dict()
        assert before["storage_fault"] is None
        full = FullDisk(svc.store)
        monkeypatch.setattr(svc.store, "append", full)
        monkeypatch.setattr(svc.store, "save_console", full)
        with caplog.at_level(logging.ERROR, logger="tocktable.service"):
            with pytest.raises(NotSaving, match=r"not saving: the disk holding .* is full"):
                svc.call(Press("check_call"))
            assert svc.faulted.is_set() and svc.fault is not None and svc.fault.kind == "disk_full"
            for item in (Press("check_call"), SetBet(40), Press("fold"), ChooseButton(seat=1)):
                with pytest.raises(NotSaving):
                    svc.call(item)
            for _ in range(20):  # the console's presses come without a ticket: refused all the same
                svc.inbox.put(ButtonPressed(ConsoleButton.FOLD, 0.0))
            svc.sync()
        assert full.attempts == 1  # the disk was tried once: every later step is refused without it
        logged = [r for r in caplog.records if r.name == "tocktable.service"]
        assert len(logged) == 1 and "not saving: the disk holding" in logged[0].getMessage()
        now = svc.snapshot().to_dict()
        fault = now["storage_fault"]
        assert fault["kind"] == "disk_full" and fault["message"].startswith("not saving: ")
        assert fault["refused"] == 24
        assert {"kind": "storage", "message": fault["message"], "seat": None} in now["warnings"]
        assert now["to_act"] == before["to_act"] and now["seats"] == before["seats"]  # nothing was taken
    finally:
        svc.stop()
        svc.store.close()


def test_a_fault_is_given_to_on_fault_once_and_not_logged(tmp_path, caplog):
    seen: list[NotSaving] = []
    svc = make_service(tmp_path / "t.sqlite")
    svc._on_fault = seen.append
    svc.start()
    try:
        svc.call(ChooseButton(seat=0))
        svc.store.append = FullDisk(svc.store)  # type: ignore[method-assign]
        with caplog.at_level(logging.ERROR, logger="tocktable.service"):
            for _ in range(3):
                with pytest.raises(NotSaving):
                    svc.call(Press("check_call"))
        assert len(seen) == 1 and seen[0] is svc.fault and not caplog.records
    finally:
        svc.stop()
        svc.store.close()


def test_the_clock_does_not_knock_on_a_full_disk(tmp_path):
    """A settled hand is confirmed by the clock: not once the service stopped saving."""
    clock = FakeClock()
    svc = make_service(tmp_path / "t.sqlite", clock=clock, confirm_seconds=2.0, seats=2)
    svc.start()
    try:
        svc.call(ChooseButton(seat=0))
        svc.call(Press("fold"))  # the hand is over: settled, confirmed after two seconds
        assert svc.snapshot().to_dict()["phase"] == "settled"
        full = FullDisk(svc.store)
        svc.store.append = full  # type: ignore[method-assign]
        clock.advance(3.0)
        svc.submit(Tick())
        svc.sync()
        assert full.attempts == 1 and svc.fault is not None  # the clock's confirm found the disk full
        for _ in range(10):
            clock.advance(3.0)
            svc.submit(Tick())
        svc.sync()
        assert full.attempts == 1 and svc.snapshot().to_dict()["phase"] == "settled"
    finally:
        svc.stop()
        svc.store.close()
