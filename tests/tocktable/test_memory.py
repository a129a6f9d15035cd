"""Resident memory of the real processes: ``serve`` with the card reader on a replayed camera
stays under 300 MB, the demo with the card reader and the dashboard under 400 MB.

Each runs as a process of its own and its peak is the kernel's high-water mark of its resident
memory (``VmHWM`` in ``/proc/PID/status``; not the child's ``ru_maxrss``, which also counts the
copy of this test process it was forked from), read once the work was done: the serve test
waits until the camera page shows that the reader has gone twice through the replayed hand, the
demo plays a fixed number of hands on its virtual clock. Nothing depends on how fast the machine is.
``python -m bench.memory`` measures both over minutes of play and says where the memory goes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.memory import camera_frame, free_port, proc_status, render_frames, serve_config

SERVE_BUDGET_MB = 300
DEMO_BUDGET_MB = 400


def reader_or_skip() -> None:
    from tocktable.camera import VisionUnavailable, VisionWatcher

    try:
        VisionWatcher.default({"board": ((0.3, 0.3), (0.7, 0.3), (0.7, 0.7), (0.3, 0.7))}, size=(1280, 720))
    except VisionUnavailable as exc:
        pytest.skip(f"the card reader is not there: {exc}")


def high_water_mb(process: subprocess.Popen[bytes]) -> float | None:
    """The process's peak resident memory so far (MB), None once it has ended."""
    try:
        return proc_status(process.pid)["VmHWM"] / 1024
    except (FileNotFoundError, ProcessLookupError, KeyError):  # gone, or a zombie without memory
        return None


def env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("TOCKTABLE_DATA", "MALLOC_ARENA_MAX")}


@pytest.mark.slow
def test_serve_reading_a_replayed_camera_stays_under_300_mb(tmp_path: Path) -> None:
    reader_or_skip()
    zones = render_frames(tmp_path / "frames")
    files = len(list((tmp_path / "frames").iterdir()))
    serve_config(tmp_path / "tocktable.toml", tmp_path / "frames", zones)
    port = free_port()
    command = [sys.executable, "-m", "tocktable", "serve", "--mock-pins", "--config", str(tmp_path / "tocktable.toml"),
               "--data", str(tmp_path / "data"), "--port", str(port), "--host", "127.0.0.1"]  # fmt: skip
    with open(tmp_path / "serve.log", "wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env())
    peak = None
    try:
        read = None
        deadline = time.monotonic() + 600  # against a hang only: the loop ends when the frames were read
        while process.poll() is None and time.monotonic() < deadline:
            read = camera_frame(port)
            if read is not None and read > 2 * files:
                break
            time.sleep(0.5)
        peak = high_water_mb(process)
        output = (tmp_path / "serve.log").read_text()
        assert read is not None and read > 2 * files, output
        assert "Card reader: ready" in output
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        code = process.wait(60)
    assert code == 0, (tmp_path / "serve.log").read_text()
    assert peak is not None and 100 < peak < SERVE_BUDGET_MB  # above 100: the reader's process was measured


@pytest.mark.slow
def test_the_demo_with_the_card_reader_and_the_dashboard_stays_under_400_mb(tmp_path: Path) -> None:
    reader_or_skip()
    command = [sys.executable, "-m", "tocktable", "demo", "--fast", "--hands", "4", "--seed", "3",
               "--data", str(tmp_path / "data"), "--port", str(free_port())]  # fmt: skip
    with open(tmp_path / "demo.log", "wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env())
    peak = 0.0
    while process.poll() is None:  # the demo ends by itself after its hands; the mark only grows
        peak = max(peak, high_water_mb(process) or 0.0)
        time.sleep(0.1)
    output = (tmp_path / "demo.log").read_text()
    assert process.returncode == 0, output
    assert "the card reader reads" in output and "4 hands played" in output, output
    assert 100 < peak < DEMO_BUDGET_MB


def test_two_malloc_arenas_unless_the_environment_says(monkeypatch: pytest.MonkeyPatch) -> None:
    import platform

    from tocktable.memory import few_malloc_arenas

    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert few_malloc_arenas() is False  # the host's own setting wins: nothing asked of the allocator
    monkeypatch.delenv("MALLOC_ARENA_MAX")
    assert few_malloc_arenas() is (platform.libc_ver()[0] == "glibc")
