"""Where a read's time goes at the capture sizes the README recommends, in figures that load on a
shared machine blurs less than wall time: CPU time per read of the reading thread alone (the
critical path: the helper threads work beside it) and of all threads, and each stage's share.

    python -m bench.read_profile                 # the frames of bench.vision's speed group
    python -m bench.read_profile --frames 40 --sizes 1280x720

The frames are those ``python -m bench.vision --only speed`` times (1280×720 with 12 cards; the
ring tables at 2304×1296 and 4608×2592). The load average is printed beside every line: wall
times mean little when other work shares the cores, the reading thread's CPU time a little more.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from bench.vision import _ring
from vision.reader import CardReader
from vision.render.scene import SceneSpec, deal_rows, render_scene

SIZES = ((1280, 720), (2304, 1296), (4608, 2592))


def frames_of(size: tuple[int, int]) -> list[np.ndarray]:
    """The speed bench's frames of ``size`` (bench.vision: ``speed`` and ``speed_sizes``)."""
    if size == (1280, 720):
        rng = np.random.default_rng(99)
        return [render_scene(SceneSpec(cards=deal_rows(rng, touching=False), seed=5000 + k)).image for k in range(8)]
    seats, height = {(2304, 1296): (6, 0.055), (4608, 2592): (10, 0.035)}[size]
    rng = np.random.default_rng(size[0])
    return [render_scene(SceneSpec(cards=_ring(rng, seats, height), size=size, seed=5100 + k)).image
            for k in range(3)]  # fmt: skip


def profile(reader: CardReader, images: list[np.ndarray], frames: int) -> dict[str, float]:
    """Medians over ``frames`` reads (ms): wall, CPU of all threads, CPU of the reading thread;
    and each stage's mean wall time."""
    for image in images:
        reader.read(image)
    reader.timings.clear()
    wall, cpu, own = [], [], []
    for k in range(frames):
        start, start_cpu, start_own = time.perf_counter(), time.process_time(), time.thread_time()
        reader.read(images[k % len(images)])
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        own.append(time.thread_time() - start_own)
    out = {"wall": 1000 * float(np.median(wall)), "cpu": 1000 * float(np.median(cpu)),
           "reading_thread": 1000 * float(np.median(own))}  # fmt: skip
    out.update({f"stage {name}": ms / frames for name, ms in reader.timings.items()})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.read_profile", description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=30, help="reads timed per size (default 30)")
    parser.add_argument("--sizes", default=",".join(f"{w}x{h}" for w, h in SIZES),
                        help="sizes to measure, of " + ", ".join(f"{w}x{h}" for w, h in SIZES))  # fmt: skip
    args = parser.parse_args(argv)
    wanted = [tuple(int(v) for v in size.split("x")) for size in args.sizes.split(",")]
    unknown = [size for size in wanted if size not in SIZES]
    if unknown or args.frames < 1:
        parser.error(f"sizes must be among {', '.join(f'{w}x{h}' for w, h in SIZES)} and frames at least 1")
    reader = CardReader.default()
    for size in wanted:
        figures = profile(reader, frames_of((size[0], size[1])), args.frames)
        load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
        print(
            f"{size[0]}x{size[1]} (load average {load}): wall median {figures['wall']:.1f} ms; CPU per read"
            f" {figures['cpu']:.1f} ms (all threads), {figures['reading_thread']:.1f} ms (reading thread)"
        )
        stages = [f"{name[6:]} {ms:.1f}" for name, ms in figures.items() if name.startswith("stage ")]
        print("  stages, ms of wall per read: " + ", ".join(stages))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
