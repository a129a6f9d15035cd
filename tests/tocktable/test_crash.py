"""Crash safety: `tocktable serve` is killed with SIGKILL at random moments while a host sends
commands; after every restart nothing acknowledged is missing and the game is a clean replay."""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tocktable.service import replay_session
from tocktable.snapshot import game_state
from tocktable.steps import payload_of, step_from_json
from tocktable.store import Store

PIN = "2468"
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, config: Path, data: Path, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tocktable", "serve", "--config", str(config), "--data", str(data),
             "--port", str(port), "--mock-pins"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while True:
            try:
                self.state()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.process.kill()
                    _, err = self.process.communicate(timeout=10)
                    raise AssertionError(f"serve did not start: {err.decode()}") from None
                time.sleep(0.02)

    def state(self) -> dict:
        with urllib.request.urlopen(self.url + "/api/state", timeout=5) as response:
            return json.loads(response.read())

    def command(self, body: dict) -> tuple[int, dict]:
        request = urllib.request.Request(
            self.url + "/api/command", data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", "X-Admin-Pin": PIN},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self.process.stderr.close()


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
    """Send commands until the server dies; keep every acknowledged one."""
    try:
        while True:
            state = server.state()
            if rng.random() < 0.05 and state["to_act"] is not None:  # a press for a seat that is not to act
                wrong = (state["to_act"] + 1) % 3
                status, answer = server.command({"kind": "act", "seat": wrong, "action": "call"})
                if status == 409:
                    assert server.state()["last_seq"] == state["last_seq"], "a refused command was written"
                    refused.append(answer["error"])
                    continue
            body = next_command(state, rng)
            status, answer = server.command(body)
            if status == 200:
                acked.append((answer["seq"], body))
    except (OSError, ValueError, http.client.HTTPException):
        return  # killed mid-request or mid-answer: that command was not acknowledged
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
        f'[web]\nadmin_pin = "{PIN}"\n'
    )
    data = tmp_path / "data"
    rng = random.Random(20261122)
    acked: list[tuple[int, dict]] = []
    refused: list[str] = []
    failures: list[str] = []
    kills = hands = 0
    server = None
    try:
        while kills < 22:
            server = Server(config, data, free_port())
            hands = check_restart(server, data, acked)
            driver = threading.Thread(target=drive, args=(server, rng, acked, refused, failures))
            driver.start()
            time.sleep(rng.uniform(0.05, 0.7))
            server.kill()
            kills += 1
            driver.join(timeout=10)
        server = Server(config, data, free_port())
        hands = check_restart(server, data, acked)
    finally:
        if server is not None and server.process.poll() is None:
            server.kill()
    print(f"{kills} kills, {len(acked)} acknowledged commands, {len(refused)} refused, {hands} hands")
    assert not failures
    assert kills >= 20 and len(acked) >= 150 and hands >= 5, (kills, len(acked), hands)
    assert refused and all("turn, not seat" in message for message in refused)


@pytest.mark.slow
def test_a_killed_demo_resumes_where_it_stopped(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "tocktable", "demo", "--fast", "--no-web", "--perfect-camera", "--data",
            str(tmp_path / "demo")]  # fmt: skip
    rng = random.Random(5)
    steps_before = 0
    for _ in range(4):
        process = subprocess.Popen([*args, "--hands", "1000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=env, cwd=ROOT)  # fmt: skip
        time.sleep(rng.uniform(1.5, 3.0))
        process.send_signal(signal.SIGKILL)
        _, err = process.communicate(timeout=10)
        assert b"Traceback" not in err, err.decode()
        with Store(tmp_path / "demo" / "tocktable.sqlite", create=False) as store:
            steps = len(store.commands(1))
            replay_session(store, 1)  # the log replays after every kill
        assert steps > steps_before
        steps_before = steps
    finished = subprocess.run([*args, "--hands", "3"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert "Resuming session 1 at hand" in finished.stdout and "all accounted for" in finished.stdout
