"""Two trees' readers timed read by read in turn, on the speed bench's frames, with the classical
peer beside each: a speed-up measured in the same seconds as what it is compared with, which a
shared, busy machine allows where two runs minutes apart do not.

    python -m bench.speed_pair ../other-checkout             # this tree and another, 30 rounds
    python -m bench.speed_pair ../other-checkout --rounds 10

Each tree's reader runs in a process of its own, started in that tree's folder (its packages and
models), with the interpreter running this command; the two are asked in turn (which goes first
alternates) to read one frame of :mod:`bench.read_profile`'s frames (1280×720 with 12 cards, the
ring tables at 2304×1296 and 4608×2592) or to have the peer (:mod:`bench.vision_peer`) read a
1280×720 one. Printed: each tree's median wall time, reading-thread CPU time and CPU time of the
whole process (every thread: the helper threads', onnxruntime's and OpenCV's too) per read, the
second tree's ÷ the first's, the peer's ms ÷ the reader's ms in each tree's own process, and the
load average over the run. The other tree needs ``bench/read_profile.py`` and
``bench/vision_peer.py``; this file need not be in it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, TextIO

import numpy as np

KINDS = (("1280x720", 4), ("peer", 4), ("2304x1296", 2), ("4608x2592", 2))
"""What a round times, and how many reads of it each tree makes in a round."""


def serve(requests: TextIO, answers: TextIO) -> None:
    """Answer timing requests ("1280x720 3": read that size's frame 3; "peer 3": the peer reads the
    1280×720 frame 3) with [wall ms, reading-thread CPU ms, process CPU ms], one JSON line each."""
    # Imported here, once the tree to time is first on sys.path (its packages, not this tree's).
    import vision
    from bench.read_profile import SIZES, frames_of
    from bench.vision_peer import TemplateReader
    from vision.reader import CardReader

    reader, peer = CardReader.default(), TemplateReader()
    frames = {f"{w}x{h}": frames_of((w, h)) for w, h in SIZES}
    for images in frames.values():
        reader.read(images[0])
    peer.read(frames["1280x720"][0])
    answers.write(json.dumps({"ready": str(Path(vision.__file__).resolve().parents[1])}) + "\n")
    answers.flush()
    for line in requests:
        what, number = line.split()
        images = frames["1280x720" if what == "peer" else what]
        image = images[int(number) % len(images)]
        read = peer.read if what == "peer" else reader.read
        start, start_cpu, start_all = time.perf_counter(), time.thread_time(), time.process_time()
        read(image)
        wall, cpu = 1000 * (time.perf_counter() - start), 1000 * (time.thread_time() - start_cpu)
        answers.write(json.dumps([wall, cpu, 1000 * (time.process_time() - start_all)]) + "\n")
        answers.flush()


def _start(tree: Path) -> subprocess.Popen[str]:
    code = ("import os, sys; sys.path.insert(0, os.getcwd()); sys.path.insert(1, sys.argv[1]); "
            "from speed_pair import serve; serve(sys.stdin, sys.stdout)")  # fmt: skip
    process = subprocess.Popen([sys.executable, "-c", code, str(Path(__file__).resolve().parent)], cwd=tree,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert process.stdout is not None
    ready = json.loads(process.stdout.readline() or "{}").get("ready")
    if ready is None or Path(ready) != tree.resolve():
        process.kill()
        raise SystemExit(f"the reader of {tree} did not start from its own folder (it read from {ready})")
    return process


def _ask(process: subprocess.Popen[str], what: str, number: int) -> list[float]:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(f"{what} {number}\n")
    process.stdin.flush()
    answer: list[float] = json.loads(process.stdout.readline())
    return answer


def measure(trees: tuple[Path, Path], rounds: int) -> dict[str, Any]:
    """Times of both trees, read by read in turn: {kind: [[wall, cpu] ...] per tree}, and the loads."""
    processes = [_start(tree) for tree in trees]
    times: dict[str, list[list[list[float]]]] = {kind: [[], []] for kind, _ in KINDS}
    loads = [os.getloadavg()[0]]
    try:
        for r in range(rounds):
            for kind, reads in KINDS:
                for k in range(reads):
                    for side in (0, 1) if (r + k) % 2 == 0 else (1, 0):
                        times[kind][side].append(_ask(processes[side], kind, r * reads + k))
            loads.append(os.getloadavg()[0])
    finally:
        for process in processes:
            assert process.stdin is not None
            process.stdin.close()
            process.wait()
    return {"times": times, "loads": loads}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.speed_pair", description=__doc__.split("\n\n")[0])
    parser.add_argument("other", type=Path, help="the folder of the other tree (a checkout of another commit)")
    parser.add_argument("--rounds", type=int, default=30, help="rounds (default 30: 120 reads of 1280x720 each)")
    args = parser.parse_args(argv)
    if args.rounds < 1 or not (args.other / "vision").is_dir():
        parser.error("--rounds must be at least 1 and OTHER a folder holding a tree (with vision/)")
    this = Path(__file__).resolve().parents[1]
    trees = (args.other, this)
    start = time.strftime("%Y-%m-%d %H:%M")
    found = measure(trees, args.rounds)
    loads = found["loads"]
    print(f"{start}, {args.rounds} rounds, load average (1 min) {min(loads):.1f} to {max(loads):.1f}; "
          f"first {trees[0]}, second {trees[1]}")  # fmt: skip
    medians = {kind: [np.median(np.array(found["times"][kind][side]), axis=0) for side in (0, 1)] for kind, _ in KINDS}
    for kind, _ in KINDS:
        (wall_a, cpu_a, all_a), (wall_b, cpu_b, all_b) = medians[kind]
        print(f"  {kind:9s} wall median {wall_a:6.1f} / {wall_b:6.1f} ms (second ÷ first {wall_b / wall_a:.2f}); "
              f"reading thread's CPU {cpu_a:5.1f} / {cpu_b:5.1f} ms ({cpu_b / cpu_a:.2f}); "
              f"all threads' CPU {all_a:5.1f} / {all_b:5.1f} ms ({all_b / all_a:.2f})")  # fmt: skip
    for side, tree in enumerate(trees):
        ratio = medians["peer"][side][0] / medians["1280x720"][side][0]
        print(f"  {tree}: peer ms ÷ reader ms at 1280x720 {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
