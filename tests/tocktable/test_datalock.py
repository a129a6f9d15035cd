"""One process per data directory: a second start names the holder and writes nothing; a
holder killed with SIGKILL holds nothing."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tocktable.datalock import LOCK_NAME, DataDirInUse, DataLock, check_free

from .helpers import ROOT, cli_env, run_cli

PATIENCE = 180.0
"""Seconds before a wait gives up: only a hung process gets there, however loaded the machine."""

HOLDER = """
import sys, time
from pathlib import Path
from tocktable.datalock import DataLock
lock = DataLock(Path(sys.argv[1]), command="tocktable serve --port 8123", port=8123).acquire()
print("held", flush=True)
time.sleep(600)
"""


def files_under(path: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def wait_for_line(process: subprocess.Popen[str], pattern: str) -> re.Match[str]:
    """Read the process's output until a line matches (it must not end first)."""
    deadline = time.monotonic() + PATIENCE
    assert process.stdout is not None
    seen = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise AssertionError(f"the process ended before {pattern!r}: {''.join(seen)}")
        seen.append(line)
        found = re.search(pattern, line)
        if found:
            return found
    raise AssertionError(f"waited {PATIENCE:g} s for {pattern!r}")


def killed(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    if process.stdout is not None:
        process.stdout.close()


def test_a_second_holder_is_refused_by_name_and_the_lock_dies_with_a_killed_holder(tmp_path):
    data = tmp_path / "data"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(data)], stdout=subprocess.PIPE, text=True,
                              env=cli_env(), cwd=ROOT)  # fmt: skip
    try:
        wait_for_line(holder, "^held")
        before = files_under(data)
        with pytest.raises(DataDirInUse) as caught:
            check_free(data)
        message = str(caught.value)
        assert f"PID {holder.pid}" in message and "'tocktable serve --port 8123'" in message
        assert "dashboard on port 8123" in message and "another --data" in message
        assert caught.value.kind == "in_use"
        with pytest.raises(DataDirInUse, match=f"PID {holder.pid}"):
            DataLock(data).acquire()
        assert files_under(data) == before  # the refused ones wrote nothing
    finally:
        killed(holder)
    assert (data / LOCK_NAME).exists()  # SIGKILL left the file, and the kernel dropped the lock
    check_free(data)
    with DataLock(data, command="tocktable demo") as lock:
        assert lock.held and '"tocktable demo"' in (data / LOCK_NAME).read_text()
    assert not (data / LOCK_NAME).exists()  # a clean stop takes its file away


def test_a_lock_released_while_another_opens_it_is_not_held_twice(tmp_path):
    """The holder removes the file on release: a starter that opened the old file locks the new one."""
    first = DataLock(tmp_path).acquire()
    path = tmp_path / LOCK_NAME
    stale = path.open("rb")  # a starter that opened the file just before the holder released it
    first.release()
    second = DataLock(tmp_path).acquire()
    try:
        import fcntl
        import os

        fcntl.flock(stale.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)  # the removed file: lockable, but not the lock
        assert os.fstat(stale.fileno()).st_ino != path.stat().st_ino
        with pytest.raises(DataDirInUse):
            DataLock(tmp_path).acquire()
    finally:
        stale.close()
        second.release()


def test_serve_and_demo_refuse_a_data_directory_in_use_and_take_it_once_the_holder_is_killed(tmp_path):
    data = tmp_path / "data"
    config = tmp_path / "table.toml"
    config.write_text('[camera]\nsource = "none"\n')
    serve = subprocess.Popen(
        [sys.executable, "-m", "tocktable", "serve", "--config", str(config), "--data", str(data), "--port", "0",
         "--host", "127.0.0.1", "--mock-pins"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=cli_env(), cwd=tmp_path,
    )  # fmt: skip
    try:
        port = wait_for_line(serve, r"Dashboard: http://[^:]+:(\d+)/").group(1)
        before = files_under(data)
        for args in (["demo", "--fast", "--no-web"], ["serve", "--config", str(config), "--mock-pins", "--port", "0"]):
            result = run_cli(*args, "--data", str(data), cwd=tmp_path)
            assert result.returncode == 2, result.stderr
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and "Traceback" not in result.stderr
            assert f"{data} is in use by another tocktable (PID {serve.pid}" in lines[0]
            assert "'tocktable serve --config" in lines[0] and f"dashboard on port {port}" in lines[0]
            assert files_under(data) == before  # not a byte written by the refused start
    finally:
        killed(serve)
    result = run_cli("demo", "--fast", "--no-web", "--perfect-camera", "--hands", "1", "--data", str(data),
                     cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Resuming session 1" in result.stdout and "all accounted for" in result.stdout
    assert not (data / LOCK_NAME).exists()
