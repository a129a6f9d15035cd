"""Resident memory of tocktable: real processes sampled over minutes of play, and where it goes.

    python -m bench.memory                  # the demo, then serve on a replayed camera, 3 minutes each
    python -m bench.memory --minutes 10     # longer runs
    python -m bench.memory --steps          # only where the memory goes (about a minute)

- **the demo**: ``python -m tocktable demo`` (the card reader reading the rendered table, the
  dashboard, the simulated players) in its own process, its resident memory read from
  ``/proc/PID/status`` every second; the peak is the kernel's high-water mark (``VmHWM``).
  Budget 400 MB.
- **serve on a replayed camera**: ``python -m tocktable serve --mock-pins`` with the card reader
  reading a folder of 1280x720 frames of a rendered hand, looped at 15 frames a second (a camera
  source like any other: ``camera.source`` names the folder). Budget 300 MB.
- in both, the host's phone watches the camera page the whole time (its picture and what was
  read, once a second) and reloads the dashboard's history every ten seconds.
- **where it goes**: one process takes each step of a start in turn (the libraries, the card
  reader's sessions, the renderer, frames read, the evaluator's tables, the service and the web
  server's threads) and reports its resident memory after each, split into anonymous memory (heap,
  arenas, stacks) and file-backed pages (the libraries' code); then the live Python objects and
  numpy arrays by package, from ``tracemalloc``.

Figures depend on the machine and on how many threads the allocator gave arenas to: run it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

# Imports inside functions: the start measured step by step imports each part in the step that
# reports its memory, and each run imports only what it measures.

DEMO_BUDGET_MB = 400
SERVE_BUDGET_MB = 300
SERVE_PIN = "864209"
CAMERA_SIZE = (1280, 720)
CAMERA_FPS = 15


# ------------------------------------------------------------------------------ a process's memory
def proc_status(pid: int | str = "self") -> dict[str, int]:
    """``VmRSS``, ``VmHWM``, ``RssAnon``, ``RssFile`` (kB) and ``Threads`` of a process."""
    wanted = ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem", "Threads")
    out: dict[str, int] = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in wanted:
                out[key] = int(value.split()[0])
    return out


def cpu_seconds(pid: int) -> float:
    """User and system CPU time the process has used."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Run:
    """What one sampled process did and held."""

    name: str
    budget_mb: int
    seconds: float = 0.0
    peak_mb: float = 0.0
    last_mb: float = 0.0
    anon_mb: float = 0.0
    threads: int = 0
    cpu_s: float = 0.0
    work: str = ""
    exit_code: int | None = None
    samples: list[tuple[float, float]] = field(default_factory=list)

    def line(self) -> str:
        verdict = "within" if self.peak_mb < self.budget_mb else "OVER"
        return (f"{self.name:34s} peak {self.peak_mb:5.0f} MB, at the end {self.last_mb:5.0f} MB "
                f"({self.anon_mb:.0f} MB anonymous), {self.threads} threads, {self.cpu_s:.0f} CPU s in "
                f"{self.seconds / 60:.1f} min; {self.work}: {verdict} the {self.budget_mb} MB budget")  # fmt: skip


def sample(process: subprocess.Popen[Any], run: Run, seconds: float) -> None:
    """Read the process's memory every second for ``seconds``."""
    started = time.monotonic()
    while time.monotonic() - started < seconds and process.poll() is None:
        time.sleep(1.0)
        try:
            status = proc_status(process.pid)
            run.cpu_s = cpu_seconds(process.pid)
        except (FileNotFoundError, ProcessLookupError):
            break
        run.seconds = time.monotonic() - started
        run.last_mb, run.peak_mb = status["VmRSS"] / 1024, status["VmHWM"] / 1024
        run.anon_mb, run.threads = status["RssAnon"] / 1024, max(run.threads, status["Threads"])
        run.samples.append((run.seconds, run.last_mb))


def stop(process: subprocess.Popen[Any]) -> int | None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)  # as systemd stops it (SIGINT may be ignored in a background job)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return process.returncode


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **(extra or {})}
    env.pop("TOCKTABLE_DATA", None)
    return env


# ------------------------------------------------------------------------------ the demo
TOCKTABLE = (sys.executable, "-m", "tocktable")
"""How the processes are started (another command runs another copy of tocktable, to compare)."""


def demo_run(minutes: float, *, env: dict[str, str] | None = None, log: Path | None = None,
             tocktable: Sequence[str] = TOCKTABLE) -> Run:  # fmt: skip
    """The live demo with the card reader and the dashboard, for ``minutes``."""
    folder = Path(tempfile.mkdtemp(prefix="tocktable-mem-demo-"))
    log = log or folder / "demo.log"
    command = [*tocktable, "demo", "--data", str(folder / "data"), "--port", str(free_port())]
    port = int(command[-1])
    run = Run("tocktable demo (card reader, web)", DEMO_BUDGET_MB)

    def printed_pin() -> str | None:
        found = re.search(r"Admin PIN: (\d+)", log.read_text())
        return found.group(1) if found else None

    host = HostWatching(port, printed_pin)
    watched(command, log, run, host, minutes, env)
    text = log.read_text()
    hands = len(re.findall(r"^hand +\d+:", text, re.MULTILINE))
    reader = "the card reader" if "card reader reads" in text else "a perfect camera (no card reader!)"
    run.work = f"{hands} hands played, read by {reader}; the host's camera page asked {host.requests} times"
    return run


# ------------------------------------------------------------------------------ serve on a replayed camera
def render_frames(folder: Path, *, seed: int = 4) -> dict[str, Any]:
    """A hold'em hand drawn at the camera's size as JPEG files, one per 1/15 s; the table's zones."""
    import cv2

    from hardware.table_model import TableModel
    from hardware.table_script import TableScript

    model = TableModel(6, seed=seed, size=CAMERA_SIZE)
    script = TableScript.holdem_hand(model, seed=seed, pace=0.5)
    count = int((script.duration + 1.0) * CAMERA_FPS)
    folder.mkdir(parents=True, exist_ok=True)
    for i, scene in enumerate(script.render_at([i / CAMERA_FPS for i in range(count)])):
        cv2.imwrite(str(folder / f"frame{i:04d}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return {name: [list(point) for point in zone] for name, zone in model.zones.items()}


def serve_config(path: Path, frames: Path, zones: dict[str, Any]) -> None:
    seats = sorted((n for n in zones if n.startswith("seat:")), key=lambda n: int(n.partition(":")[2]))
    lines = [
        "[table]", f"seats = {len(seats)}", 'names = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"]', "",
        "[camera]", f"source = {json.dumps(str(frames))}", f"size = [{CAMERA_SIZE[0]}, {CAMERA_SIZE[1]}]",
        f"fps = {CAMERA_FPS}", "",
        "[zones]", f"board = {json.dumps(zones['board'])}", f"seats = {json.dumps([zones[n] for n in seats])}", "",
        "[web]", f'admin_pin = "{SERVE_PIN}"', "",
    ]  # fmt: skip
    path.write_text("\n".join(lines))


def log_in(opener: urllib.request.OpenerDirector, base: str, pin: str) -> bool:
    """Log ``opener`` in as the host with ``pin`` (the login form's CSRF token first); False when
    the page has no form yet."""
    page = opener.open(f"{base}/admin", timeout=10).read().decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    if token is None:
        return False
    body = urllib.parse.urlencode({"pin": pin, "csrf_token": token.group(1)}).encode()
    opener.open(f"{base}/admin/login", data=body, timeout=10).read()
    return True


def camera_frame(port: int) -> int | None:
    """The index of the frame the camera page shows (the newest one read), as the host sees it."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    base = f"http://127.0.0.1:{port}"
    try:
        if not log_in(opener, base, SERVE_PIN):
            return None
        view = json.loads(opener.open(f"{base}/admin/camera/view.json", timeout=10).read())
    except (OSError, ValueError):
        return None
    frame = view.get("frame")
    return int(frame) if frame is not None else None


class HostWatching(threading.Thread):
    """The host's phone on the camera page (its picture and what was read, once a second, as
    ``camera.js`` asks) and the dashboard's history after every few pictures, for as long as the
    process runs: the pages that draw and replay while the table plays."""

    def __init__(self, port: int, pin: Callable[[], str | None]) -> None:
        super().__init__(name="host-watching", daemon=True)
        self.port, self.pin = port, pin
        self.stopped = threading.Event()
        self.requests = 0
        self.frame: int | None = None

    def run(self) -> None:
        base = f"http://127.0.0.1:{self.port}"
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        while not self.stopped.is_set():  # log in once the server answers
            try:
                pin = self.pin()
                if pin and log_in(opener, base, pin):
                    break
            except OSError:
                pass
            self.stopped.wait(1.0)
        while not self.stopped.wait(1.0):
            try:
                view = json.loads(opener.open(f"{base}/admin/camera/view.json", timeout=30).read())
                self.frame = view.get("frame")
                if self.frame is not None:
                    opener.open(f"{base}/admin/camera/frame.jpg?f={self.frame}", timeout=30).read()
                if self.requests % 10 == 0:
                    opener.open(f"{base}/api/history?limit=8", timeout=30).read()
                self.requests += 1
            except (OSError, ValueError):
                continue


def watched(command: Sequence[str], log: Path, run: Run, host: HostWatching, minutes: float,
            env: dict[str, str] | None) -> None:  # fmt: skip
    """Run ``command`` (output to ``log``) for ``minutes`` with the host's phone watching, sampling
    its memory into ``run``; stopped as systemd stops it, its exit status kept."""
    with open(log, "w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=child_env(env))
        host.start()
        try:
            sample(process, run, minutes * 60)
        finally:
            host.stopped.set()
            run.exit_code = stop(process)


def serve_run(minutes: float, *, env: dict[str, str] | None = None, log: Path | None = None,
              tocktable: Sequence[str] = TOCKTABLE) -> Run:  # fmt: skip
    """``tocktable serve --mock-pins`` reading a replayed camera, for ``minutes``."""
    folder = Path(tempfile.mkdtemp(prefix="tocktable-mem-serve-"))
    zones = render_frames(folder / "frames")
    serve_config(folder / "tocktable.toml", folder / "frames", zones)
    log = log or folder / "serve.log"
    port = free_port()
    command = [*tocktable, "serve", "--mock-pins", "--config", str(folder / "tocktable.toml"),
               "--data", str(folder / "data"), "--port", str(port), "--host", "127.0.0.1"]  # fmt: skip
    run = Run("tocktable serve (replayed camera)", SERVE_BUDGET_MB)
    host = HostWatching(port, lambda: SERVE_PIN)
    watched(command, log, run, host, minutes, env)
    text = log.read_text()
    reader = "the card reader" if "Card reader: ready" in text else "NO card reader"
    count = len(list((folder / "frames").iterdir()))
    shown = f"at frame {host.frame}" if host.frame is not None else "camera frame unknown"
    run.work = (f"{reader} on {count} frames looped at {CAMERA_FPS} fps, {shown}; "
                f"the host's camera page asked {host.requests} times")  # fmt: skip
    return run


# ------------------------------------------------------------------------------ where it goes
def steps_child(use_tracemalloc: bool) -> None:
    """Take a start's steps in turn, printing one JSON line per step (``--steps-child``)."""
    if use_tracemalloc:
        import tracemalloc

        tracemalloc.start(1)

    def report(step: str) -> None:
        print(json.dumps({"step": step, **proc_status()}), flush=True)

    from tocktable.memory import few_malloc_arenas

    few_malloc_arenas()  # as demo and serve do first

    report("Python and the standard library")
    import numpy as np

    report("numpy")
    import cv2  # noqa: F401

    report("OpenCV (cv2)")
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    import onnxruntime  # noqa: F401

    report("onnxruntime")
    import flask  # noqa: F401  (web's own modules load it with an app only)

    import tocktable.run  # noqa: F401
    import web
    import web.serve

    report("tocktable, table, hardware, vision, web (Flask, waitress)")
    from hardware.table_model import TableModel
    from hardware.table_script import TableScript
    from tocktable.camera import VisionWatcher

    model = TableModel(6, seed=4, size=CAMERA_SIZE)
    watcher = VisionWatcher.default(model.zones, size=CAMERA_SIZE)
    report("the card reader's 6 onnxruntime sessions and the tracker")
    script = TableScript.holdem_hand(model, seed=4, pace=0.5)
    times = [i / CAMERA_FPS for i in range(int((script.duration + 1.0) * CAMERA_FPS))]
    for t in times:
        script.frame(t)
    report(f"the renderer: a hand drawn frame by frame ({len(times)} frames, none kept)")
    index = 0
    for t in times:
        index += 1
        watcher.watch(script.frame(t), index=index, timestamp=t)
    report(f"the card reader: the hand read frame by frame ({len(times)} frames)")
    from web.present import describe_shown

    describe_shown(["As", "Kd"], ["Qh", "Jc", "9s", "2c", "3d"])
    describe_shown(["As", "Ks"], ["Qs", "Js", "Ts", "2c", "3d"])
    report("the hand evaluator's tables")
    folder = Path(tempfile.mkdtemp(prefix="tocktable-mem-steps-"))
    from dataclasses import replace

    from tocktable.config import Config
    from tocktable.run import game_settings
    from tocktable.service import Service
    from tocktable.store import Store

    config = replace(Config(), data_dir=folder)
    settings, players = game_settings(config)
    service = Service(Store(folder / "tocktable.sqlite"), settings, players=players).start()
    app = web.create_app(config, service, admin_pin=SERVE_PIN, lens=False)
    report("service, store and the web app")
    server = web.serve.WebServer(app, "127.0.0.1", 0).start()
    report("the web server started (its worker threads)")
    for _ in range(4):
        for t in times:
            index += 1
            watcher.watch(script.frame(t), index=index, timestamp=index / CAMERA_FPS)
    report(f"the hand drawn and read 4 times more ({4 * len(times)} frames)")
    if use_tracemalloc:
        snapshot = tracemalloc.take_snapshot()
        numpy_domain = np.lib.tracemalloc_domain
        by_package: dict[str, list[int]] = {}
        for trace in snapshot.traces:
            sizes = by_package.setdefault(package_of(trace.traceback[0].filename), [0, 0])
            sizes[1 if trace.domain == numpy_domain else 0] += trace.size
        rows = sorted(((name, objects, arrays) for name, (objects, arrays) in by_package.items()),
                      key=lambda row: -(row[1] + row[2]))
        print(json.dumps({"tracemalloc": rows}), flush=True)
    server.stop()
    service.stop()
    service.store.close()


def package_of(filename: str) -> str:
    """A short name for where an allocation was made: a project package or a library."""
    path = filename.replace("\\", "/")
    if "site-packages/" in path:
        return path.split("site-packages/")[1].split("/")[0].removesuffix(".py")
    root = str(Path(__file__).resolve().parent.parent).replace("\\", "/") + "/"
    if path.startswith(root):
        return path[len(root) :].split("/")[0]
    if path.startswith("<"):
        return path
    return "the standard library"


def steps(env: dict[str, str] | None = None, *, out: Any = sys.stdout) -> None:
    """Print where the memory goes, step by step, and the live Python objects by package."""
    command = [sys.executable, "-m", "bench.memory", "--steps-child"]
    result = subprocess.run(command, capture_output=True, text=True, env=child_env(env))
    if result.returncode != 0:
        raise SystemExit(f"the steps failed:\n{result.stderr}")
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    out.write(f"\n{'after':68s} {'RSS':>7s} {'+':>6s} {'anon':>6s} {'files':>6s} {'threads':>7s}\n")
    before = 0
    for row in rows:
        rss = row["VmRSS"] / 1024
        out.write(f"{row['step']:68s} {rss:5.0f} MB {rss - before:+5.0f} {row['RssAnon'] / 1024:6.0f} "
                  f"{row['RssFile'] / 1024:6.0f} {row['Threads']:7d}\n")  # fmt: skip
        before = rss
    traced = subprocess.run([*command, "--tracemalloc"], capture_output=True, text=True, env=child_env(env))
    if traced.returncode != 0:
        raise SystemExit(f"the steps under tracemalloc failed:\n{traced.stderr}")
    found = [json.loads(line) for line in traced.stdout.splitlines() if line.startswith('{"tracemalloc"')]
    if found:
        rows = found[-1]["tracemalloc"]
        objects, arrays = sum(r[1] for r in rows) / 2**20, sum(r[2] for r in rows) / 2**20
        out.write(f"\nAlive at the end, allocated through Python (tracemalloc, another run of the same steps): "
                  f"{objects:.1f} MB of Python objects, {arrays:.1f} MB of numpy arrays; by where they were made:\n"
                  f"  {'':40s} {'objects':>9s} {'arrays':>9s}\n")  # fmt: skip
        for name, obj, arr in rows[:10]:
            out.write(f"  {name:40s} {obj / 2**20:6.1f} MB {arr / 2**20:6.1f} MB\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="how long each process plays (default 3)")
    parser.add_argument("--steps", action="store_true", help="only where the memory goes")
    parser.add_argument("--only", choices=("demo", "serve"), default=None, help="one of the two processes")
    parser.add_argument("--no-steps", action="store_true", help="leave out where the memory goes")
    parser.add_argument("--steps-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tracemalloc", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.steps_child:
        steps_child(args.tracemalloc)
        return 0
    report(args.minutes, steps_only=args.steps, only=args.only, with_steps=not args.no_steps)
    return 0


def report(minutes: float, *, steps_only: bool = False, only: str | None = None, with_steps: bool = True,
           out: Any = sys.stdout) -> bool:
    """Run the processes and the breakdown; True when both budgets were kept."""
    kept = True
    if not steps_only:
        for name, make in (("demo", demo_run), ("serve", serve_run)):
            if only not in (None, name):
                continue
            out.write(f"{name}: {minutes:g} minutes...\n")
            out.flush()
            run = make(minutes)
            out.write(run.line() + "\n")
            out.flush()
            kept = kept and run.peak_mb < run.budget_mb
    if with_steps or steps_only:
        out.write("\nWhere the memory goes (one process taking a start's steps in turn):\n")
        out.flush()
        steps(out=out)
    return kept


if __name__ == "__main__":
    sys.exit(main())
