"""One process per data directory: an exclusive lock that the operating system releases on a crash.

``tocktable serve`` and ``tocktable demo`` hold ``tocktable.lock`` in their data directory with
``flock`` for as long as they run. A second one started on the same directory finds it held and
stops before writing anything, saying who holds it (process id, command, dashboard port, since
when), which the holder writes into the file. A process that dies, even by SIGKILL or a power
cut, holds nothing: the kernel drops the lock with its last file descriptor, and the next start
takes it and writes its own details over the dead one's.

A clean stop removes the file (while still holding the lock). A starter that opened the file just
before it was removed would lock a file no longer in the directory; it checks, after locking,
that the path still names the file it locked, and tries again otherwise.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from tocktable.faults import StorageFault, storage_fault

LOCK_NAME = "tocktable.lock"
RETRY_SECONDS = 0.5
"""How long a start keeps trying a lock held for a moment (another start's check)."""


class DataDirInUse(StorageFault):
    """Another running tocktable holds the data directory."""

    def __init__(self, message: str) -> None:
        super().__init__("in_use", message)


def _describe(data_dir: Path, text: str) -> str:
    try:
        info = json.loads(text)
    except ValueError:
        info = None
    if not isinstance(info, dict):
        who = "another tocktable (its details are not written yet)"
    else:
        parts = [f"PID {info.get('pid', '?')}"]
        if info.get("command"):
            parts.append(repr(info["command"]))
        if info.get("port") is not None:
            parts.append(f"dashboard on port {info['port']}")
        if info.get("started"):
            parts.append(f"since {info['started']}")
        who = f"another tocktable ({', '.join(parts)})"
    return (
        f"{data_dir} is in use by {who}: one tocktable per data directory; stop that one first, or give this "
        "one another --data (nothing was written)"
    )


def check_free(data_dir: Path) -> None:
    """Raise :class:`DataDirInUse` if a running tocktable holds ``data_dir``; writes nothing."""
    path = Path(data_dir) / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return  # no lock file (or none readable): nobody to name; acquire() decides
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DataDirInUse(_describe(Path(data_dir), _read(fd))) from None
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _read(fd: int) -> str:
    try:
        return os.pread(fd, 4096, 0).decode("utf-8", "replace")
    except OSError:
        return ""


class DataLock:
    """The lock on one data directory, held from :meth:`acquire` to :meth:`release`.

    ``command`` and ``port`` are written into the lock file for a second start to name the holder."""

    def __init__(self, data_dir: Path, *, command: str | None = None, port: int | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / LOCK_NAME
        self.info: dict[str, Any] = {
            "pid": os.getpid(),
            "command": command or " ".join(["tocktable", *sys.argv[1:]]),
            "port": port,
            "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        }
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> DataLock:
        """Take the lock (making the directory if needed), or raise :class:`DataDirInUse`."""
        if self._fd is not None:
            return self
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise storage_fault(exc, self.path, doing="create the data directory for") from None
        deadline = time.monotonic() + RETRY_SECONDS
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError as exc:
                raise storage_fault(exc, self.path, doing="create the lock file") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                text = _read(fd)
                os.close(fd)
                if time.monotonic() < deadline:
                    time.sleep(0.05)
                    continue
                raise DataDirInUse(_describe(self.data_dir, text)) from None
            if _same_file(fd, self.path):
                break
            os.close(fd)  # the holder removed it as we opened it: lock the file that is there now
        self._fd = fd
        try:
            self._write()
        except OSError as exc:
            self.release()
            raise storage_fault(exc, self.path, doing="write the lock file") from None
        return self

    def update(self, **info: Any) -> None:
        """Add to what the lock file says of the holder (the port once the server has one)."""
        self.info.update(info)
        if self._fd is not None:
            with contextlib.suppress(OSError):  # only a description: the lock itself holds
                self._write()

    def _write(self) -> None:
        assert self._fd is not None
        data = (json.dumps(self.info) + "\n").encode("utf-8")
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, data, 0)

    def release(self) -> None:
        """Remove the lock file and let go of the lock (the file is removed while still held)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            if _same_file(fd, self.path):
                self.path.unlink(missing_ok=True)
        except OSError:
            pass  # a read-only disk: the file stays, the lock goes with the descriptor
        finally:
            os.close(fd)

    def __enter__(self) -> DataLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _same_file(fd: int, path: Path) -> bool:
    try:
        here, there = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)
