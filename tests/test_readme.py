"""The README's commands, run as written, in order, on a fresh clone of the repository.

The README opens with a ``sh`` block of set-up commands (install and run the demo; install the
test extra and run the suite). This test reads every ``sh`` block of README.md, so it follows
the README when the README changes, clones the repository (``git clone``: the committed state,
as a user gets it; uncommitted changes are not in it) into a temporary folder and runs each line
there with bash, one after the other, as a newcomer would:

- ``HOME`` and ``XDG_DATA_HOME`` are empty temporary folders (nothing of this machine's data
  or settings is used), ``python3`` is the one on ``PATH`` (this test's own virtualenv taken
  off it), and ``PIP_CACHE_DIR`` is the real user's pip cache, so packages come from it quickly.
- A line that starts the live demo (``tocktable demo`` without ``--fast`` serves until Ctrl-C)
  runs in the background until the dashboard answers ``/api/state`` and a hand has been played,
  then gets SIGINT, as Ctrl-C in a terminal sends it, and must stop cleanly (status 0, the
  ledger printed) within a few seconds. ``TOCKTABLE_PORT`` gives it a free port, so the line
  runs exactly as written.
- A line that runs pytest runs with ``--collect-only -q`` appended (the suite must collect more
  than a thousand tests), then one quick module is really run with the same interpreter: running
  the whole suite inside the suite would run it twice. CI itself runs the whole suite with the
  same command (``.ci/run``).
- Any other line runs to completion and must succeed.

It installs packages and plays a hand (a few minutes), so it runs when ``CI=true`` (``.ci/run``
sets it) or ``TOCKTABLE_README_TEST=1`` and is skipped otherwise:
``TOCKTABLE_README_TEST=1 .venv/bin/python -m pytest -q -s tests/test_readme.py`` (``-s`` shows
its progress as it goes).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

ENABLED = os.environ.get("CI", "").lower() == "true" or os.environ.get("TOCKTABLE_README_TEST") == "1"
SKIP_REASON = (
    "runs the README's commands on a fresh clone (pip installs: a few minutes); "
    "run it with TOCKTABLE_README_TEST=1 .venv/bin/python -m pytest -s tests/test_readme.py (CI=true runs it too)"
)

QUICK_MODULE = "tests/table/test_cards.py"
"""The module really run by a pytest line: quick, and it touches the installed package."""

MIN_TESTS = 1000
FIRST_HAND = "hand   1:"
"""The demo's line for the first hand it saw finished."""
SERVER_DEADLINE = 900.0
"""Seconds for a demo line to install, start, serve and finish a hand (about a minute and a half
with packages in the pip cache; generous for a busy machine or a cold cache)."""
STOP_DEADLINE = 15.0
LINE_TIMEOUT = 1200.0


def sh_commands(markdown: str) -> list[str]:
    """The command lines of every ```` ```sh ```` block, in order (blank lines and comments left out)."""
    commands: list[str] = []
    for block in re.findall(r"^```(?:sh|bash|shell)[ \t]*\n(.*?)^```", markdown, flags=re.MULTILINE | re.DOTALL):
        for line in block.splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                commands.append(line)
    return commands


def serves_until_stopped(command: str) -> bool:
    """A line whose last command is the live demo (it serves until Ctrl-C)."""
    last = command.split("&&")[-1]
    return re.search(r"\btocktable demo\b", last) is not None and "--fast" not in last and "--hands" not in last


def runs_pytest(command: str) -> bool:
    return re.search(r"\bpytest\b", command.split("&&")[-1]) is not None


def test_the_readme_opens_with_the_demo_and_the_test_commands() -> None:
    """What the slow test below relies on, checked on every run: the README's first ``sh`` block
    has the demo line, then the test line, each run by the rules above."""
    commands = sh_commands(README.read_text(encoding="utf-8"))
    assert len(commands) >= 2, commands
    assert serves_until_stopped(commands[0]) and not runs_pytest(commands[0]), commands[0]
    assert runs_pytest(commands[1]) and not serves_until_stopped(commands[1]), commands[1]
    assert not serves_until_stopped("tocktable demo --fast") and not serves_until_stopped("tocktable export")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _user_pip_cache() -> str:
    if os.environ.get("PIP_CACHE_DIR"):
        return os.environ["PIP_CACHE_DIR"]
    cache_home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return str(Path(cache_home) / "pip")


def _newcomer_env(tmp_path: Path, port: int) -> dict[str, str]:
    """This process's environment made a newcomer's: own HOME and data, no virtualenv, no
    tocktable settings but the port."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOCKTABLE_") or k == "TOCKTABLE_FONTS"}
    for name in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTEST_ADDOPTS", "PYTEST_CURRENT_TEST"):
        env.pop(name, None)
    own_bin = Path(sys.prefix) / "bin" if sys.prefix != sys.base_prefix else None
    path = [p for p in env.get("PATH", "").split(os.pathsep) if p and (own_bin is None or Path(p) != own_bin)]
    (tmp_path / "home").mkdir()
    (tmp_path / "data").mkdir()
    env.update(
        PATH=os.pathsep.join(path), HOME=str(tmp_path / "home"), XDG_DATA_HOME=str(tmp_path / "data"),
        PIP_CACHE_DIR=_user_pip_cache(), TOCKTABLE_PORT=str(port),
    )  # fmt: skip
    return env


def _state(port: int) -> dict[str, object] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as answer:
            data: dict[str, object] = json.load(answer)
            return data
    except (OSError, ValueError):
        return None


def _run_server_line(command: str, clone: Path, env: dict[str, str], port: int, say: Callable[[str], None],
                     log: Path) -> str:  # fmt: skip
    """Run the live demo's line until a hand is played, then Ctrl-C it; its output."""
    started = time.monotonic()
    with log.open("w") as out:
        process = subprocess.Popen(["bash", "-c", command], cwd=clone, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    try:
        state: dict[str, object] | None = None
        next_word = started
        while True:
            elapsed = time.monotonic() - started
            if process.poll() is not None:
                pytest.fail(f"the line stopped by itself (status {process.returncode}):\n{log.read_text()[-3000:]}")
            state = _state(port)
            if state is not None and FIRST_HAND in log.read_text():  # the demo printed the first hand's result
                break
            assert elapsed < SERVER_DEADLINE, f"no hand played after {elapsed:.0f} s:\n{log.read_text()[-3000:]}"
            if time.monotonic() >= next_word:
                where = "installing" if state is None else f"serving, hand {state.get('hand_number')}"
                say(f"  {elapsed:4.0f} s: {where}")
                next_word += 30
            time.sleep(2)
        say(f"  {time.monotonic() - started:4.0f} s: the dashboard answers and hand 1 is played; Ctrl-C")
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole foreground group
        stop = time.monotonic()
        status = process.wait(timeout=STOP_DEADLINE)
        say(f"  stopped in {time.monotonic() - stop:.1f} s with status {status}")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    output = log.read_text()
    assert status == 0, f"Ctrl-C did not stop the demo cleanly (status {status}):\n{output[-3000:]}"
    return output


def _run(command: str, clone: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", command], cwd=clone, env=env, capture_output=True, text=True,
                          timeout=LINE_TIMEOUT)  # fmt: skip


@pytest.mark.skipif(not ENABLED, reason=SKIP_REASON)
def test_every_readme_command_runs_in_order_on_a_fresh_clone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout to clone")
    commands = sh_commands(README.read_text(encoding="utf-8"))
    clone = tmp_path / "tocktable"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True, capture_output=True)
    port = _free_port()
    env = _newcomer_env(tmp_path, port)

    def say(words: str) -> None:
        with capsys.disabled():
            sys.stdout.write(words + "\n")
            sys.stdout.flush()

    began = time.monotonic()
    for number, command in enumerate(commands, 1):
        say(f"\nREADME command {number}: {command}")
        if serves_until_stopped(command):
            output = _run_server_line(command, clone, env, port, say, tmp_path / f"line-{number}.log")
            assert f"Dashboard: http://127.0.0.1:{port} " in output, output[-3000:]
            assert f"Data: {tmp_path / 'data' / 'tocktable' / 'demo'}" in output, output[-3000:]
            assert re.search(r"^\d+ hands? played in session 1\.$", output, flags=re.MULTILINE), output[-3000:]
            assert "(all accounted for)" in output, output[-3000:]
        elif runs_pytest(command):
            collected = _run(f"{command} --collect-only -q -p no:cacheprovider", clone, env)
            assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
            found = re.search(r"^(\d+) tests? collected", collected.stdout, flags=re.MULTILINE)
            assert found is not None, collected.stdout[-3000:]
            assert int(found.group(1)) > MIN_TESTS, found.group(0)
            say(f"  {found.group(0)}")
            last = command.split("&&")[-1].strip()
            quick = _run(f"{last} -q -p no:cacheprovider {QUICK_MODULE}", clone, env)
            assert quick.returncode == 0, quick.stdout[-3000:] + quick.stderr[-3000:]
            say(f"  {QUICK_MODULE}: {quick.stdout.strip().splitlines()[-1]}")
        else:
            done = _run(command, clone, env)
            assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        say(f"  done at {time.monotonic() - began:.0f} s")
