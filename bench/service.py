"""Service benchmark: what a press costs from the console to the disk, what a restart costs, and
the memory the running product holds.

    python -m bench.service                       # half a minute, then about 13 minutes of memory
    python -m bench.service --hands 40 --memory-minutes 0   # shorter, memory breakdown only
    python -m bench.service --memory-only --memory-minutes 10

Measured in one run on a temporary SQLite file:

- **acknowledged press**: ``service.call(Press(...))`` from the caller's thread until the step is
  applied, written (WAL, ``synchronous=FULL``) and acknowledged, p50 and p95; against its peers,
  the bare cost of the same durable write: one SQLite ``INSERT`` + ``COMMIT`` with the same
  settings, and one ``write`` + ``fsync`` on an append-only file;
- **snapshot**: building and publishing one snapshot (JSON for every phone);
- **restart**: replaying a whole night from the store (the demo's hands), per hand and in total;
- **memory of this process**: its peak RSS after all of it (the service alone, budget 200 MB);
- **memory of the product** (:mod:`bench.memory`): ``tocktable demo`` and ``tocktable serve``
  with the card reader on a replayed camera, each a real process sampled for
  ``--memory-minutes`` (peak resident memory, budgets 400 MB and 300 MB), then where the memory
  goes, step by step through a start.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from bench.memory import report
from table.steps import Press, SetBet
from tocktable.config import load_config
from tocktable.run import DB_NAME, DemoOptions, open_demo
from tocktable.service import replay_session
from tocktable.store import Store


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]


class DurablePeers:
    """The bare durable writes a press contains, timed in turn with the presses (the machine is
    shared, so interleaving keeps the comparison fair)."""

    def __init__(self, folder: Path) -> None:
        self.db = sqlite3.connect(folder / "peer.sqlite", isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE log(seq INTEGER PRIMARY KEY, payload TEXT)")
        self.file = open(folder / "peer.log", "ab")  # noqa: SIM115 - closed in close()
        self.sqlite: list[float] = []
        self.fsync: list[float] = []

    def once(self, i: int) -> None:
        payload = f'{{"seat": {i % 6}, "action": "call"}}'
        start = time.perf_counter()
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute("INSERT INTO log(payload) VALUES (?)", (payload,))
        self.db.execute("COMMIT")
        self.sqlite.append(time.perf_counter() - start)
        start = time.perf_counter()
        self.file.write(payload.encode() + b"\n")
        self.file.flush()
        os.fsync(self.file.fileno())
        self.fsync.append(time.perf_counter() - start)

    def close(self) -> None:
        self.db.close()
        self.file.close()


def can_raise(snap: dict[str, object]) -> bool:
    legal = snap["legal_actions"]
    assert isinstance(legal, list)
    return snap["phase"] == "playing" and snap["to_act"] is not None and any(
        a["action"] in ("bet", "raise") for a in legal
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100, help="hands the demo plays first (default 100)")
    parser.add_argument("--presses", type=int, default=300, help="timed presses (default 300)")
    parser.add_argument("--memory-minutes", type=float, default=3.0,
                        help="how long the demo and serve each run for their memory (default 3; 0: only the breakdown)")
    parser.add_argument("--memory-only", action="store_true", help="only the memory of the demo and serve")
    args = parser.parse_args()
    if not args.memory_only:
        timings(args)
    memory(args.memory_minutes)


def memory(minutes: float) -> None:
    print("\nMemory of the product (bench.memory):", flush=True)
    kept = report(minutes, steps_only=minutes <= 0)
    if minutes > 0:
        print(f"\nBoth budgets {'kept' if kept else 'NOT kept'}.")


def timings(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="tocktable-bench-"))
    config = load_config(None, data_dir=folder)
    options = DemoOptions(data_dir=folder, fast=True, seed=1, web=False, camera="view")
    print(f"playing {args.hands} hands with the fast demo...", flush=True)
    started = time.perf_counter()
    with open_demo(config, options, out=io.StringIO()) as demo:
        demo.run_fast(args.hands, confirm_seconds=options.confirm_seconds)
        played = time.perf_counter() - started
        service = demo.service
        press: list[float] = []
        publish: list[float] = []
        while not can_raise(service.snapshot().to_dict()):
            demo.run_fast(1, confirm_seconds=options.confirm_seconds)
        while len(press) < args.presses:  # PLUS/MINUS change the pending bet: a full round trip, no game change
            start = time.perf_counter()
            service.call(Press("plus" if len(press) % 2 else "minus"))
            press.append(time.perf_counter() - start)
            start = time.perf_counter()
            service._publish()
            publish.append(time.perf_counter() - start)
        written = []
        peers = DurablePeers(folder)
        for i in range(args.presses // 3):  # a step that is applied and written: a bet, then its undo
            snap = service.snapshot().to_dict()
            legal = {a["action"]: a for a in snap["legal_actions"]}
            kind = "bet" if "bet" in legal else "raise" if "raise" in legal else None
            if snap["phase"] != "playing" or kind is None:
                break
            service.call(SetBet(legal[kind]["min_to"]))
            start = time.perf_counter()
            service.call(Press("bet_raise"))
            written.append(time.perf_counter() - start)
            service.call(Press("undo"))
            peers.once(i)
        peers.close()
        session, hands = service.session_id, len(service.game.session.records)
    sqlite_times, file_times = peers.sqlite, peers.fsync
    with Store(folder / DB_NAME, create=False) as store:
        steps = len(store.commands(session))
        start = time.perf_counter()
        replay_session(store, session)
        replay = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(f"\n{hands} hands played by the fast demo in {played:.1f} s ({played / max(hands, 1) * 1000:.0f} ms a hand)")
    rows = [
        ("press, not written (+/-)", percentiles(press)),
        ("press, applied and written (BET/RAISE)", percentiles(written) if written else (float("nan"),) * 2),
        ("peer: SQLite INSERT+COMMIT, WAL, FULL", percentiles(sqlite_times)),
        ("peer: append + fsync", percentiles(file_times)),
        ("snapshot built and published", percentiles(publish)),
    ]
    print(f"\n{'':42s} {'p50 ms':>8s} {'p95 ms':>8s}")
    for name, (p50, p95) in rows:
        print(f"{name:42s} {p50 * 1000:8.2f} {p95 * 1000:8.2f}")
    if written:
        overhead = percentiles(written)[0] / percentiles(sqlite_times)[0]
        print(f"\nA written press costs {overhead:.1f}x the bare durable SQLite commit it contains.")
    print(f"Restart: {steps} steps of {hands} hands replayed in {replay * 1000:.0f} ms "
          f"({replay / max(hands, 1) * 1000:.2f} ms a hand).")  # fmt: skip
    print(f"Peak RSS of this process: {rss:.0f} MB (service budget 200 MB).")


if __name__ == "__main__":
    main()
