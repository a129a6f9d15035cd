"""Crash safety: `tocktable serve` is killed with SIGKILL at random moments while a host sends
commands; after every restart nothing acknowledged is missing and the game is a clean replay.

Nothing here waits a fixed time for something to happen: a kill comes after a random number of
acknowledged commands (then a random few milliseconds, to land inside a request), so a slow or
loaded machine does the same work, only slower. Waits have long ceilings that only a hung
server reaches, and then they fail saying what was awaited.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from tocktable.service import replay_session
from tocktable.snapshot import game_state
from tocktable.steps import payload_of, step_from_json
from tocktable.store import Store

PIN = "2468"
ROOT = Path(__file__).resolve().parents[2]
PATIENCE = 180.0
"""Seconds before a wait gives up: only a hung process gets there, however loaded the machine."""
HTTP_TIMEOUT = 60.0


def wait_until(condition: Callable[[], bool], what: str, *, timeout: float = PATIENCE) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(0.005)


class Server:
    """``tocktable serve`` in a subprocess on a port it picks itself (no race for a free port
    with other programs), output in files (a full pipe cannot block it)."""

    def __init__(self, config: Path, data: Path, logs: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        logs.mkdir(parents=True, exist_ok=True)
        number = len(list(logs.glob("serve-*.out")))
        self.out, self.err = logs / f"serve-{number}.out", logs / f"serve-{number}.err"
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tocktable", "serve", "--config", str(config), "--data", str(data),
                 "--port", "0", "--mock-pins"],
                stdout=out, stderr=err, env=env, cwd=ROOT,
            )  # fmt: skip
        self.killed = threading.Event()
        self.url = ""
        try:
            wait_until(self._started, "serve to print its address")
            self.state()
        except BaseException:
            self.kill()
            raise

    def _started(self) -> bool:
        found = re.search(r"Dashboard: (http://[^/\s]+)", self.out.read_text(errors="replace"))
        if found:
            self.url = found.group(1)
            return True
        if self.process.poll() is not None:
            raise AssertionError(f"serve did not start: {self.err.read_text(errors='replace')}")
        return False

    def state(self) -> dict:
        with urllib.request.urlopen(self.url + "/api/state", timeout=HTTP_TIMEOUT) as response:
            return json.loads(response.read())

    def command(self, body: dict) -> tuple[int, dict]:
        request = urllib.request.Request(
            self.url + "/api/command", data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", "X-Admin-Pin": PIN},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def kill(self) -> None:
        self.killed.set()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)


def next_command(state: dict, rng: random.Random) -> dict:
    """What a host at the admin page would send next (cards from a deck fixed per hand)."""
    phase = state["phase"]
    if phase == "seating":
        return {"kind": "choose_button", "seat": rng.randrange(3)}
    if phase in ("settled", "ready"):
        return {"kind": "confirm"}
    deck = [f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"]
    random.Random(state["hand_number"]).shuffle(deck)
    seat = state["to_act"]
    if seat is not None:
        legal = {a["action"]: a for a in state["legal_actions"]}
        roll = rng.random()
        if roll < 0.05:
            return {"kind": "undo"}
        if roll < 0.15 and ("bet" in legal or "raise" in legal):
            kind = "bet" if "bet" in legal else "raise"
            return {"kind": "act", "seat": seat, "action": kind, "amount": legal[kind]["min_to"]}
        if roll < 0.25:
            return {"kind": "act", "seat": seat, "action": "fold"}
        return {"kind": "act", "seat": seat, "action": "check" if "check" in legal else "call"}
    if state["street"] == "showdown":
        for p in state["seats"]:
            if p["in_hand"] and not p["folded"] and not p["hole"]:
                return {"kind": "show", "seat": p["seat"], "cards": deck[5 + 2 * p["seat"]: 7 + 2 * p["seat"]]}
        return {"kind": "settle"}
    shown = len(state["board"])
    return {"kind": "deal_board", "cards": deck[shown: 3 if shown == 0 else shown + 1]}


def drive(server: Server, rng: random.Random, acked: list[tuple[int, dict]], refused: list[str],
          failures: list[str]) -> None:  # fmt: skip
    """Send commands until the server is killed; keep every acknowledged one. Any error before
    the kill is a failure (a 60 s silence too: that is a hung server, not a slow one)."""
    unsure = False  # a command answered 503 may still be in the service's queue
    try:
        while True:
            state = server.state()
            if rng.random() < 0.05 and state["to_act"] is not None:  # a press for a seat that is not to act
                wrong = (state["to_act"] + 1) % 3
                status, answer = server.command({"kind": "act", "seat": wrong, "action": "call"})
                if status == 409:
                    if not unsure:
                        assert server.state()["last_seq"] == state["last_seq"], "a refused command was written"
                    refused.append(answer["error"])
                    continue
            body = next_command(state, rng)
            status, answer = server.command(body)
            if status == 200:
                acked.append((answer["seq"], body))
                unsure = False  # one queue, in order: everything sent before is done
            elif status == 503:
                unsure = True
    except (OSError, ValueError, http.client.HTTPException) as exc:
        if not server.killed.is_set():  # killed mid-request or mid-answer: not acknowledged, as expected
            failures.append(f"the server failed before it was killed: {type(exc).__name__}: {exc}")
    except AssertionError as exc:
        failures.append(str(exc))


def check_restart(server: Server, data: Path, acked: list[tuple[int, dict]]) -> int:
    with Store(data / "tocktable.sqlite", create=False) as store:
        session = store.sessions()[-1].id
        rows = {c.seq: c for c in store.commands(session)}
        for seq, body in acked:
            row = rows.get(seq)
            assert row is not None, f"acknowledged command {seq} {body} is lost"
            step = step_from_json(body)
            assert (row.kind, row.payload["step"]) == (step.kind, payload_of(step))
        game, last = replay_session(store, session)
    served = server.state()
    assert served["last_seq"] == last
    replayed = game_state(game.snapshot(now=0))
    assert project(served, replayed) == replayed
    return len(game.session.records)


def project(value: object, like: object) -> object:
    """``value`` cut down to the shape of ``like`` (the web layer may add presentation fields)."""
    if isinstance(like, dict) and isinstance(value, dict):
        return {k: project(value.get(k), v) for k, v in like.items()}
    if isinstance(like, list) and isinstance(value, list) and len(like) == len(value):
        return [project(v, w) for v, w in zip(value, like, strict=True)]
    return value


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_no_acknowledged_command(tmp_path):
    config = tmp_path / "table.toml"
    config.write_text(
        '[table]\nseats = 3\nnames = ["Ann", "Bob", "Cy"]\nauto_confirm = 0\n[camera]\nsource = "none"\n'
        f'[web]\nhost = "127.0.0.1"\nadmin_pin = "{PIN}"\n'
    )
    data, logs = tmp_path / "data", tmp_path / "logs"
    rng = random.Random(20261122)
    acked: list[tuple[int, dict]] = []
    refused: list[str] = []
    failures: list[str] = []
    kills = hands = 0
    server = None
    try:
        while kills < 22:
            server = Server(config, data, logs)
            hands = check_restart(server, data, acked)
            driver = threading.Thread(target=drive, args=(server, random.Random(rng.random()), acked, refused,
                                                          failures))  # fmt: skip
            goal = len(acked) + rng.randint(0, 40)  # 0: killed before the first command is answered
            driver.start()
            wait_until(lambda: len(acked) >= goal or not driver.is_alive(),  # noqa: B023 - used at once
                       f"{goal} acknowledged commands (have {len(acked)})")  # fmt: skip
            time.sleep(rng.uniform(0.0, 0.02))  # a random moment inside the next request
            server.kill()
            kills += 1
            driver.join(timeout=PATIENCE)
            assert not driver.is_alive(), "the driver did not notice the kill"
            assert not failures, failures
        server = Server(config, data, logs)
        hands = check_restart(server, data, acked)
    finally:
        if server is not None:
            server.kill()
    print(f"{kills} kills, {len(acked)} acknowledged commands, {len(refused)} refused, {hands} hands")
    assert not failures
    assert kills >= 20 and len(acked) >= 150 and hands >= 5, (kills, len(acked), hands)
    assert refused and all("turn, not seat" in message for message in refused)


def stored_steps(path: Path) -> int:
    """Commands written so far by a running process (0 before its database exists)."""
    if not path.exists():
        return 0
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            return int(db.execute("SELECT COUNT(*) FROM commands WHERE session_id=1").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:  # created but not yet set up
        return 0


@pytest.mark.slow
def test_a_killed_demo_resumes_where_it_stopped(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "tocktable", "demo", "--fast", "--no-web", "--perfect-camera", "--data",
            str(tmp_path / "demo")]  # fmt: skip
    database = tmp_path / "demo" / "tocktable.sqlite"
    rng = random.Random(5)
    steps_before = 0
    for life in range(4):
        err_path = tmp_path / f"demo-{life}.err"
        with (tmp_path / f"demo-{life}.out").open("wb") as out, err_path.open("wb") as err_file:
            process = subprocess.Popen([*args, "--hands", "1000"], stdout=out, stderr=err_file, env=env, cwd=ROOT)
        goal = steps_before + rng.randint(10, 120)  # some hands, then a random moment in the next one
        try:
            wait_until(lambda: stored_steps(database) >= goal or process.poll() is not None,  # noqa: B023
                       f"the demo to write {goal} steps")  # fmt: skip
            time.sleep(rng.uniform(0.0, 0.3))
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
        err = err_path.read_text(errors="replace")
        assert "Traceback" not in err, err
        with Store(database, create=False) as store:
            steps = len(store.commands(1))
            replay_session(store, 1)  # the log replays after every kill
        assert steps > steps_before
        steps_before = steps
    finished = subprocess.run([*args, "--hands", "3"], capture_output=True, text=True, env=env, cwd=ROOT,
                              timeout=PATIENCE)  # fmt: skip
    assert finished.returncode == 0, finished.stderr
    assert "Resuming session 1 at hand" in finished.stdout and "all accounted for" in finished.stdout
