"""Where a read's work goes, function by function: the reader's whole work done on one thread and
profiled, at each capture size of :mod:`bench.read_profile`.

    python -m bench.read_hotspots                           # the three sizes, 12 reads each
    python -m bench.read_hotspots --sizes 4608x2592 --frames 6 --top 30

A read normally shares its work between the reading thread, the helper thread and the detector's
worker thread (:mod:`vision.stages`, :mod:`vision.detect`); here every job given to those threads
runs in place when it is given (the same work, the same readings), so one profiler
(:mod:`cProfile`) sees all of it. Printed for each size: the time of a read so made, the stages'
share of its wall time, and the functions of most CPU time of their own per read (onnxruntime's and OpenCV's own
threads work inside the calls that start them). Times are of the CPU of this one thread (waits for
a core on a busy machine left out); the load average is printed beside.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any

import numpy as np

import vision.detect
from bench.read_profile import SIZES, frames_of
from vision.reader import CardReader


class InPlace:
    """An executor that runs each job when it is given, on the caller's thread."""

    def submit(self, job: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(job(*args, **kwargs))
        except BaseException as error:  # handed to whoever asks for the result, as a thread's would be
            future.set_exception(error)
        return future

    def shutdown(self, wait: bool = True) -> None:
        return None


@contextmanager
def one_thread(reader: CardReader) -> Iterator[None]:
    """The reader's helper thread and the detector's worker replaced by :class:`InPlace` meanwhile."""
    in_place = InPlace()
    pool = vision.detect._Ahead.__dict__["pool"]
    reader.helper = lambda: in_place  # type: ignore[method-assign,assignment,return-value]
    vision.detect._Ahead.pool = classmethod(lambda cls: in_place)  # type: ignore[assignment,method-assign]
    try:
        yield
    finally:
        del reader.helper  # the class's method again
        vision.detect._Ahead.pool = pool  # type: ignore[method-assign]


def hotspots(reader: CardReader, images: list[np.ndarray], frames: int) -> tuple[float, dict[str, float], list[
        tuple[str, int, float, float]]]:  # fmt: skip
    """CPU ms of a read made on one thread (median), each stage's mean wall ms, and (function, calls,
    own ms, cumulative ms) per read of every function (CPU), most own time first."""
    with one_thread(reader):
        for image in images:
            reader.read(image)
        reader.timings.clear()
        own = []
        profiler = cProfile.Profile(time.thread_time)
        for k in range(frames):
            start = time.thread_time()
            profiler.enable()
            reader.read(images[k % len(images)])
            profiler.disable()
            own.append(time.thread_time() - start)
    stages = {name: ms / frames for name, ms in reader.timings.items()}
    rows = []
    found = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    for (path, line, name), (_, calls, own_s, cumulative_s, _) in found.items():
        place = os.path.relpath(path) if path.startswith(os.getcwd()) else os.path.basename(path)
        where = name if path == "~" else f"{place}:{line}({name})"
        rows.append((where, round(calls / frames), 1000 * own_s / frames, 1000 * cumulative_s / frames))
    rows.sort(key=lambda row: -row[2])
    return 1000 * float(np.median(own)), stages, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.read_hotspots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=12, help="reads profiled per size (default 12)")
    parser.add_argument("--top", type=int, default=25, help="functions listed per size (default 25)")
    parser.add_argument("--sizes", default=",".join(f"{w}x{h}" for w, h in SIZES),
                        help="sizes to profile, of " + ", ".join(f"{w}x{h}" for w, h in SIZES))  # fmt: skip
    args = parser.parse_args(argv)
    try:
        wanted = [tuple(int(v) for v in size.split("x")) for size in args.sizes.split(",")]
    except ValueError:
        wanted = []
    if not wanted or any(size not in SIZES for size in wanted) or args.frames < 1 or args.top < 1:
        parser.error(f"sizes must be among {', '.join(f'{w}x{h}' for w, h in SIZES)}; frames and top at least 1")
    reader = CardReader.default()
    for size in wanted:
        read_ms, stages, rows = hotspots(reader, frames_of((size[0], size[1])), args.frames)
        load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
        print(f"{size[0]}x{size[1]} (load average {load}): {read_ms:.1f} ms of CPU per read made on one thread "
              f"(profiled, {args.frames} reads)")  # fmt: skip
        shares = ", ".join(f"{name} {ms:.1f}" for name, ms in stages.items() if ms >= 0.05)
        print(f"  stages, ms of wall per read (the profiler's cost and any wait for a core in them): {shares}")
        print(f"  {'own ms':>7} {'cum ms':>7} {'calls':>6}  function (per read)")
        for where, calls, own_ms, cumulative_ms in rows[: args.top]:
            print(f"  {own_ms:7.2f} {cumulative_ms:7.2f} {calls:6d}  {where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
