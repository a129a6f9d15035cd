"""Storage faults named for what they are: disk full, read-only, no permission, damaged, empty.

When the database cannot be opened or written, SQLite answers with a code ("database or disk is
full", "attempt to write a readonly database", "unable to open database file", "disk I/O
error") that does not always say why. :func:`storage_fault` turns such an error (or an
``OSError`` with its errno) into a :class:`StorageFault` whose ``kind`` and message name the
cause and what to do about it, looking at the disk when the code leaves it open:

===============  ====================================================================
kind             what it is
===============  ====================================================================
``disk_full``    no space left (SQLite's FULL, errno ENOSPC or EDQUOT)
``read_only``    the disk is mounted read-only (EROFS), or the file or its folder has no
                 write permission for its owner (a chmod)
``no_permission`` the file or folder belongs to another user who keeps it from this one
                 (EACCES, EPERM)
``damaged``      the file is not a readable SQLite database (CORRUPT, NOTADB, a failed
                 integrity check)
``empty``        the file is there but holds nothing (0 bytes, or no tables)
``altered``      a stored step does not match its checksum (see ``tocktable.store``)
``in_use``       another process holds the data directory or the database
``io_error``     the disk failed a read or write for another reason
===============  ====================================================================

Only ``damaged`` and ``altered`` say the file itself is bad; every other message says what
to fix around a healthy file, never to move it aside.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from table.errors import TocktableError
from web.protocols import STORAGE_FAULT_KINDS as KINDS

_ERRNO = {"disk_full": errno.ENOSPC, "read_only": errno.EROFS, "no_permission": errno.EACCES}

# SQLite's primary result codes (the low byte of an extended code).
_SQLITE_PERM, _SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY = 3, 5, 6, 8
_SQLITE_IOERR, _SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_CANTOPEN = 10, 11, 13, 14
_SQLITE_AUTH, _SQLITE_NOTADB = 23, 26
_AMBIGUOUS = {_SQLITE_PERM, _SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_CANTOPEN, _SQLITE_AUTH}

LOW_SPACE = 64 * 1024
"""Bytes free under which a failed write is put down to a full disk."""


class StoreError(TocktableError, OSError):
    """The database file cannot be used (damaged, foreign, newer schema, unwritable)."""


class StorageFault(StoreError):
    """The data directory cannot keep the game: ``kind`` (one of :data:`KINDS`) says why,
    ``errno`` is ENOSPC, EROFS or EACCES for a full, read-only or forbidden disk."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.errno = _ERRNO.get(kind)

    def __str__(self) -> str:
        return str(self.args[0])


def sqlite_code(error: BaseException) -> int | None:
    """SQLite's primary result code of an error (None when it carries none)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def storage_fault(error: BaseException, path: Path, *, doing: str = "write to") -> StorageFault:
    """The fault behind ``error`` (a ``sqlite3.Error`` or an ``OSError``) met while ``doing``
    (``"write to"``, ``"open"``) the database at ``path``."""
    if isinstance(error, StorageFault):
        return error
    path = Path(path)
    what = _reason(error)
    if isinstance(error, OSError) and error.errno is not None:
        number = error.errno
        if number in (errno.ENOSPC, errno.EDQUOT):
            return _full(path, what)
        if number == errno.EROFS:
            return StorageFault("read_only", _read_only_disk(path, what))
        if number in (errno.EACCES, errno.EPERM):
            return _probe(path, what) or StorageFault("no_permission", f"no permission to {doing} {path} ({what})")
        return _probe(path, what) or StorageFault("io_error", _io(path, doing, what))
    code = sqlite_code(error)
    if code == _SQLITE_FULL:
        return _full(path, what)
    if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return StorageFault("damaged", damaged_message(path, what))
    if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return StorageFault(
            "in_use",
            f"{path} is locked by another program ({what}): close whatever else has the database open "
            "(an sqlite3 shell, a backup tool), then start again",
        )
    if code in _AMBIGUOUS or code is None:
        found = _probe(path, what)
        if found is not None:
            return found
    if code == _SQLITE_READONLY:
        return StorageFault("read_only", f"{path} cannot be written: SQLite opened it read-only ({what})")
    return StorageFault("io_error", _io(path, doing, what))


def damaged_message(path: Path, why: str) -> str:
    return (
        f"{path} is damaged or not a database ({why}): keep a copy (the sqlite3 tool's .recover may save "
        "part of it), then move it aside to start a fresh database, or choose another --data"
    )


def empty_fault(path: Path) -> StorageFault:
    return StorageFault(
        "empty",
        f"{path} is empty (0 bytes): a tocktable database is never empty, so whatever it held is gone; "
        "restore it from a backup, or delete the empty file to start a fresh database there",
    )


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def _free_bytes(folder: Path) -> int | None:
    try:
        st = os.statvfs(_existing(folder))
    except OSError:
        return None
    blocks = st.f_bfree if os.geteuid() == 0 else st.f_bavail  # root may use the reserved blocks
    return blocks * st.f_frsize


def _full(path: Path, what: str) -> StorageFault:
    free = _free_bytes(path.parent)
    left = f", {free:,} bytes free" if free is not None else ""
    return StorageFault(
        "disk_full",
        f"the disk holding {path.parent} is full ({what}{left}): free some space on it, then start again",
    )


def _read_only_disk(path: Path, what: str) -> str:
    return (
        f"the disk holding {path.parent} is read-only ({what}): remount it read-write (a card or disk that "
        "turns read-only by itself may be failing), or choose another --data"
    )


def _io(path: Path, doing: str, what: str) -> str:
    return (
        f"cannot {doing} {path}: the disk reported an error ({what}); check the card or disk (dmesg shows the "
        "kernel's view), then start again"
    )


def _existing(folder: Path) -> Path:
    """The folder, or its nearest parent that exists (the one a missing data folder is made in)."""
    while not folder.exists() and folder.parent != folder:
        folder = folder.parent
    return folder


def _probe(path: Path, what: str) -> StorageFault | None:
    """Look at the disk for the reason an ambiguous error had: read-only mount, permissions, space."""
    folder = _existing(path.parent)
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return StorageFault("read_only", _read_only_disk(path, what))
    except OSError:
        pass
    found = _permission(path, what)
    if found is not None:
        return found
    free = _free_bytes(folder)
    if free is not None and free < LOW_SPACE:
        return _full(path, what)
    return None


def _permission(path: Path, what: str) -> StorageFault | None:
    """A read-only or forbidden file (or its journal files, or its folder), named as such."""
    folder = _existing(path.parent)
    for target in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if target.exists() and not os.access(target, os.W_OK):
            return _not_writable(target, "file", what)
    if folder.exists() and not os.access(folder, os.W_OK | os.X_OK):
        return _not_writable(folder, "folder", what)
    return None


def _not_writable(target: Path, noun: str, what: str) -> StorageFault:
    try:
        info = target.stat()
    except OSError:
        return StorageFault("no_permission", f"no permission to write the {noun} {target} ({what})")
    mode = stat.filemode(info.st_mode)
    if info.st_uid == os.geteuid():
        extra = " (tocktable keeps its journal files beside the database)" if noun == "folder" else ""
        return StorageFault(
            "read_only",
            f"the {noun} {target} is read-only ({mode}){extra}: make it writable (chmod u+w {target}), "
            "then start again",
        )
    owner = _user(info.st_uid)
    return StorageFault(
        "no_permission",
        f"no permission to write the {noun} {target}: it belongs to {owner} ({mode}) and tocktable runs as "
        f"{_user(os.geteuid())}; run tocktable as {owner}, or give the {noun} to {_user(os.geteuid())}",
    )


def _user(uid: int) -> str:
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return f"user {uid}"


__all__ = ["KINDS", "StorageFault", "StoreError", "damaged_message", "empty_fault", "sqlite_code", "storage_fault"]
