"""Web benchmark: 50 phones on server-sent events while hands are played.

    python -m bench.web                      # 50 SSE phones, 10 pollers, 8 hands (about 30 s)
    python -m bench.web --phones 20 --hands 3

The server (service + waitress, this process) plays hands at a steady pace of steps. The phones
live in another process (one asyncio loop, as independent of this one as real phones): each
keeps a ``GET /api/events`` stream open and notes when every state arrives. The fan-out
latency of a state is the time from its publication (seen by an in-process subscriber of the
service) to its arrival at a phone, over loopback; both processes read the same monotonic clock.

The peer, measured in the same run: phones that poll ``GET /api/state`` once a second, as the
dashboard does when SSE is cut; their latency is how stale the table is when they learn of a
change. Budgets (DESIGN.md section 5): SSE fan-out p95 <= 100 ms; the whole service <= 200 MB RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

Record = tuple[int, int, float]
"""(client, version, monotonic time received)."""


# ----------------------------------------------------------------------------- the phones
async def _sse_phone(port: int, index: int, records: list[Record], opened: list[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /api/events HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
    await writer.drain()
    opened.append(index)
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                records.append((index, int(line[4:]), time.monotonic()))
    finally:
        writer.close()


async def _poller(port: int, index: int, every: float, records: list[Record]) -> None:
    await asyncio.sleep(every * index / 10)  # spread the pollers over the second
    while True:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /api/state HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
        await writer.drain()
        data = await reader.read()
        writer.close()
        body = data.split(b"\r\n\r\n", 1)[1]
        records.append((index, json.loads(body)["version"], time.monotonic()))
        await asyncio.sleep(every)


async def _phones(port: int, phones: int, pollers: int, every: float, stop: Any, out: Any) -> None:
    sse: list[Record] = []
    polled: list[Record] = []
    opened: list[int] = []
    tasks = [asyncio.create_task(_sse_phone(port, i, sse, opened)) for i in range(phones)]
    tasks += [asyncio.create_task(_poller(port, i, every, polled)) for i in range(pollers)]
    while not stop.is_set():
        await asyncio.sleep(0.05)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    out.put({"sse": sse, "polled": polled, "opened": len(opened)})


def phones_process(port: int, phones: int, pollers: int, every: float, stop: Any, out: Any) -> None:
    """The client side, in its own process."""
    asyncio.run(_phones(port, phones, pollers, every, stop, out))


# ----------------------------------------------------------------------------- the table
class AutoTable:
    """Plays hands on the service: checks and calls (a raise now and then), deals the board
    from a shuffled deck, shows the hands at the showdown, confirms, rebuys the busted."""

    def __init__(self, service: Any, seed: int) -> None:
        from table.cards import Card

        self.service = service
        self.rng = random.Random(seed)
        self.cards = [str(Card.from_id(i)) for i in range(52)]
        self.deck: list[str] = []
        self.hand = -1

    def step(self) -> Any:
        from tocktable.steps import Act, ChooseButton, Confirm, DealBoard, Rebuy, Show

        s = self.service.snapshot().to_dict()
        if s["hand_number"] != self.hand:
            self.hand = s["hand_number"]
            self.deck = self.rng.sample(self.cards, 52)
        if s["phase"] == "seating":
            return ChooseButton(seat=0)
        if s["phase"] in ("settled", "ready"):
            for seat in s["seats"]:
                if seat["name"] and seat["stack"] == 0:
                    return Rebuy(seat["seat"], 1000)
            return Confirm()
        if s["to_act"] is not None:
            legal = {a["action"]: a for a in s["legal_actions"]}
            if "raise" in legal and self.rng.random() < 0.15:
                return Act(s["to_act"], "raise", legal["raise"]["min_to"])
            return Act(s["to_act"], "check" if "check" in legal else "call")
        if s["street"] == "showdown":
            seat = next(p for p in s["seats"] if p["in_hand"] and not p["folded"] and not p["hole"] and not p["mucked"])
            return Show(seat["seat"], (self.deck.pop(), self.deck.pop()))
        count = {"preflop": 3, "flop": 1, "turn": 1}[s["street"]]
        return DealBoard(tuple(self.deck.pop() for _ in range(count)))

    def play(self, hands: int, pause: float, progress: Any) -> int:
        goal = self.service.snapshot().to_dict()["hand_number"] + hands
        steps = 0
        while True:
            state = self.service.snapshot().to_dict()
            if state["hand_number"] >= goal and state["phase"] == "settled":
                return steps
            self.service.call(self.step())
            steps += 1
            after = self.service.snapshot().to_dict()
            if after["phase"] == "settled" and state["phase"] != "settled":
                progress(after["hand_number"])
            time.sleep(pause)


# ----------------------------------------------------------------------------- measuring
def rss_mb() -> tuple[float, float]:
    """This process's resident memory now and at its peak, in MB (Linux /proc)."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0]) / 1024
    return fields.get("VmRSS", float("nan")), fields.get("VmHWM", float("nan"))


def latencies(published: dict[int, float], records: list[Record]) -> tuple[list[float], int]:
    """Milliseconds from the publication of each state until each client had it or a newer one
    (how stale that phone's table was); and how many states a client never got exactly (a
    newer one was already queued: the phone skipped straight to it)."""
    by_client: dict[int, list[tuple[float, int]]] = {}
    for client, version, at in records:
        by_client.setdefault(client, []).append((at, version))
    versions = sorted(published)
    out: list[float] = []
    skipped = 0
    for seen in by_client.values():
        seen.sort()
        exact = {version for _, version in seen}
        skipped += sum(1 for v in versions if v not in exact)
        best, i = -1, 0
        for version in versions:
            while best < version and i < len(seen):
                best = max(best, seen[i][1])
                i += 1
            if best < version:
                break  # this client never caught up (it was stopped first)
            out.append((seen[i - 1][0] - published[version]) * 1000)
    return out, skipped


def summary(samples: list[float]) -> str:
    if not samples:
        return "no samples"
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered):7.1f} ms   p95 {p95:7.1f} ms   max {ordered[-1]:7.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=50, help="SSE clients (default 50)")
    parser.add_argument("--pollers", type=int, default=10, help="polling clients, the peer (default 10)")
    parser.add_argument("--hands", type=int, default=8, help="hands to play (default 8)")
    parser.add_argument("--pause", type=float, default=0.1, help="seconds between steps (default 0.1)")
    parser.add_argument("--threads", type=int, default=64, help="waitress worker threads (default 64)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    from dataclasses import replace

    from table.engine import BlindStructure
    from table.session import SessionSettings
    from tocktable.config import Config
    from tocktable.service import Service
    from tocktable.store import Store
    from web import create_app
    from web.context import EXTENSION
    from web.serve import WebServer

    data_dir = Path(tempfile.mkdtemp(prefix="tocktable-bench-web-"))
    settings = SessionSettings(seats=6, blinds=BlindStructure.fixed(5, 10))
    players = [(name, 1000) for name in ("Ann", "Bob", "Cleo", "Dan", "Eve", "Finn")]
    service = Service(Store(data_dir / "tocktable.sqlite"), settings, players=players, confirm_seconds=None).start()
    app = create_app(replace(Config(), data_dir=data_dir), service, admin_pin="000000")
    server = WebServer(app, "127.0.0.1", 0, threads=args.threads).start()
    published: dict[int, float] = {}
    reference = service.subscribe(maxsize=10_000)
    stop_reference = threading.Event()

    def watch() -> None:
        while not stop_reference.is_set():
            snapshot = reference.get(timeout=0.1)
            if snapshot is not None:
                published.setdefault(snapshot.version, time.monotonic())

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    spawn = multiprocessing.get_context("spawn")
    stop, out = spawn.Event(), spawn.Queue()
    phones = spawn.Process(target=phones_process, args=(server.port, args.phones, args.pollers, 1.0, stop, out))
    phones.start()
    ctx = app.extensions[EXTENSION]
    deadline = time.monotonic() + 60
    while ctx.streams < args.phones and time.monotonic() < deadline:
        time.sleep(0.05)
    print(f"{ctx.streams} SSE phones connected, {args.pollers} polling once a second; "
          f"playing {args.hands} hands, a step every {args.pause * 1000:.0f} ms", flush=True)  # fmt: skip
    published.clear()  # measure the hands only, not the states sent at connection
    started = time.monotonic()
    steps = AutoTable(service, args.seed).play(
        args.hands, args.pause, lambda n: print(f"  hand {n} done", flush=True)
    )  # fmt: skip
    played = time.monotonic() - started
    time.sleep(1.5)  # let the last states arrive, and the pollers see them
    now_mb, peak_mb = rss_mb()
    stop.set()
    results = out.get(timeout=60)
    phones.join(timeout=30)
    stop_reference.set()
    watcher.join(timeout=2)
    server.stop()
    service.stop()
    service.store.close()

    sse, skipped = latencies(published, results["sse"])
    polled, _ = latencies(published, results["polled"])
    print(f"\n{steps} steps in {played:.1f} s: {len(published)} states published, {results['opened']} streams")
    print(f"SSE fan-out ({args.phones} phones):  {summary(sse)}   ({len(sse)} state x phone pairs; {skipped} states "
          "skipped because a newer one was already queued)")  # fmt: skip
    print(f"polling 1/s ({args.pollers} phones): {summary(polled)}")
    if sse and polled:
        print(f"SSE is {statistics.median(polled) / statistics.median(sse):.0f}x fresher than polling (medians)")
    p95 = sorted(sse)[int(0.95 * (len(sse) - 1))] if sse else float("inf")
    print(f"service RSS: {now_mb:.0f} MB now, {peak_mb:.0f} MB peak (this process: service, store, web, "
          f"{args.threads} worker threads)")  # fmt: skip
    verdict = f"p95 <= 100 ms: {'yes' if p95 <= 100 else 'NO'}; RSS <= 200 MB: {'yes' if peak_mb <= 200 else 'NO'}"
    print(f"budgets: {verdict}")
    return 0 if p95 <= 100 and peak_mb <= 200 else 1


if __name__ == "__main__":
    sys.exit(main())
