"""Real disk faults through the command line: a full filesystem, a read-only mount, a read-only
folder or file, a file of another user. Each gives exit status 2 and one line naming the fault,
never a traceback, an endless loop, or advice to move a healthy file aside.

The full and read-only filesystems are tmpfs mounts in a private mount namespace (``unshare
-rm``: no root needed where unprivileged user namespaces are allowed). Permissions do not stop
root, so as root the command runs with the capabilities that override them dropped (``setpriv``).
"""

from __future__ import annotations

import functools
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import ROOT, cli_env, run_cli

DEMO = ("demo", "--fast", "--no-web", "--perfect-camera")
MISLEADING = ("damaged", "move it aside", "Traceback")


@functools.cache
def _works(*command: str) -> bool:
    try:
        return subprocess.run(command, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def permissions_hold() -> tuple[str, ...]:
    """A command prefix under which file permissions stop writes (empty unless running as root)."""
    if os.geteuid() != 0:
        return ()
    prefix = ("setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--")
    if shutil.which("setpriv") is None or not _works(*prefix, "true"):
        pytest.skip("running as root, whom permissions do not stop, and setpriv cannot drop that power here")
    return prefix


def in_namespace(tmp_path: Path, script: str) -> subprocess.CompletedProcess[str]:
    """A shell script in a private user and mount namespace (its tmpfs mounts die with it)."""
    if shutil.which("unshare") is None or not _works("unshare", "-rm", "true"):
        pytest.skip("no private mount namespace here (unshare -rm): a small filesystem cannot be made")
    env = cli_env(PY=sys.executable, TOCKTABLE_DATA=str(tmp_path / "default-data"))
    return subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=300)  # fmt: skip


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line, got:\n{text}"
    return lines[0]


def demo_line(data: Path, *more: str) -> str:
    """The shell line running the fast demo on ``data`` (the interpreter is ``$PY``)."""
    return '"$PY" -m tocktable ' + shlex.join([*DEMO, "--data", str(data), *more])


def test_a_full_disk_stops_the_demo_with_one_line_and_the_night_resumes_once_there_is_room(tmp_path):
    mount, logs = tmp_path / "mnt", tmp_path / "logs"
    mount.mkdir()
    logs.mkdir()
    data = mount / "data"
    script = f"""
set -e
mount -t tmpfs -o size=1200k tmpfs {mount}
set +e
{demo_line(data, "--hands", "100000")} > {logs}/full.out 2> {logs}/full.err
echo $? > {logs}/full.rc
set -e
mount -o remount,size=16m {mount}
set +e
{demo_line(data, "--hands", "2")} > {logs}/again.out 2> {logs}/again.err
echo $? > {logs}/again.rc
"""
    done = in_namespace(tmp_path, script)
    assert done.returncode == 0, done.stderr
    line = one_line((logs / "full.err").read_text())
    assert (logs / "full.rc").read_text().strip() == "2", line
    assert line.startswith(f"tocktable demo: not saving: the disk holding {data} is full"), line
    assert "free some space" in line and not any(word in line for word in MISLEADING)
    out = (logs / "again.out").read_text()
    assert (logs / "again.rc").read_text().strip() == "0", (logs / "again.err").read_text()
    assert "Resuming session 1" in out and "all accounted for" in out


def test_a_read_only_mount_is_named_read_only(tmp_path):
    mount, logs = tmp_path / "mnt", tmp_path / "logs"
    mount.mkdir()
    logs.mkdir()
    data = mount / "data"
    script = f"""
set -e
mount -t tmpfs -o size=16m tmpfs {mount}
{demo_line(data, "--hands", "2")} > {logs}/first.out 2> {logs}/first.err
ls -l {data} > {logs}/before.ls
mount -o remount,ro {mount}
set +e
{demo_line(data, "--hands", "2")} > {logs}/ro.out 2> {logs}/ro.err
echo $? > {logs}/ro.rc
ls -l {data} > {logs}/after.ls
"""
    done = in_namespace(tmp_path, script)
    assert done.returncode == 0, done.stderr + (logs / "first.err").read_text()
    line = one_line((logs / "ro.err").read_text())
    assert (logs / "ro.rc").read_text().strip() == "2", line
    assert line.startswith(f"tocktable demo: the disk holding {data} is read-only"), line
    assert not any(word in line for word in MISLEADING)
    assert (logs / "after.ls").read_text() == (logs / "before.ls").read_text()


@pytest.fixture
def night(tmp_path: Path) -> Path:
    """A data directory holding a short night (made before any permission is taken away)."""
    data = tmp_path / "night"
    result = run_cli(*DEMO, "--hands", "2", "--data", str(data), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return data


def snapshot(data: Path) -> dict[str, tuple[int, bytes]]:
    return {p.name: (p.stat().st_mode, p.read_bytes()) for p in sorted(data.iterdir())}


@pytest.mark.parametrize("what", ["folder", "file"])
def test_a_read_only_folder_or_file_is_named_and_left_as_it_was(tmp_path, night, what):
    prefix = permissions_hold()
    target = night if what == "folder" else night / "tocktable.sqlite"
    target.chmod(0o555 if what == "folder" else 0o444)
    before = snapshot(night)
    try:
        result = run_cli(*DEMO, "--hands", "2", "--data", str(night), cwd=tmp_path, prefix=prefix)
    finally:
        night.chmod(0o755)
    line = one_line(result.stderr)
    assert result.returncode == 2, line
    assert f"the {what} {target} is read-only" in line and f"chmod u+w {target}" in line
    assert not any(word in line for word in MISLEADING)
    assert snapshot(night) == before


def test_a_file_of_another_user_is_named_with_its_owner(tmp_path, night):
    if os.geteuid() != 0:
        pytest.skip("giving a file to another user needs root")
    prefix = permissions_hold()
    database = night / "tocktable.sqlite"
    os.chown(database, 65534, 65534)
    result = run_cli(*DEMO, "--hands", "2", "--data", str(night), cwd=tmp_path, prefix=prefix)
    line = one_line(result.stderr)
    assert result.returncode == 2, line
    assert f"no permission to write the file {database}: it belongs to" in line and "tocktable runs as root" in line
    assert not any(word in line for word in MISLEADING)


SERVE_UNTIL_FULL = r"""
import json, re, subprocess, sys, time, urllib.error, urllib.request
data, config, report = sys.argv[1:4]
words = ["serve", "--config", config, "--data", data, "--port", "0", "--host", "127.0.0.1", "--mock-pins"]
serve = subprocess.Popen([sys.executable, "-m", "tocktable", *words], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
url = None
while url is None:
    line = serve.stdout.readline()
    if not line:
        raise SystemExit(serve.stderr.read())
    found = re.search(r"Dashboard: (http://\S+?)/?$", line.strip())
    url = found.group(1) if found else None
def command(body):
    request = urllib.request.Request(url + "/api/command", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-Admin-Pin": "2468"})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
code, answer = command({"kind": "choose_button", "seat": 0})
accepted = 0
while code == 200 and accepted < 100000:
    code, answer = command({"kind": "press", "button": "plus" if accepted % 2 else "minus"})
    accepted += code == 200
refused_at = time.monotonic()
status = serve.wait(timeout=120)
json.dump({"accepted": accepted, "code": code, "answer": answer, "status": status, "stderr": serve.stderr.read(),
           "seconds": time.monotonic() - refused_at}, open(report, "w"))
"""


def test_serve_refuses_the_step_a_full_disk_cannot_keep_and_stops(tmp_path):
    """Mid-night: the phone's command gets 503 "not saving: ...", serve exits 2 with that one line.
    Prints how long after the refusal it stopped (no bound asserted: a loaded machine is slower)."""
    mount, logs = tmp_path / "mnt", tmp_path / "logs"
    mount.mkdir()
    logs.mkdir()
    (tmp_path / "driver.py").write_text(SERVE_UNTIL_FULL)
    config = tmp_path / "table.toml"
    config.write_text('[camera]\nsource = "none"\n[web]\nadmin_pin = "2468"\n')
    script = f"""
set -e
mount -t tmpfs -o size=700k tmpfs {mount}
"$PY" {tmp_path / "driver.py"} {mount / "data"} {config} {logs / "report.json"}
"""
    done = in_namespace(tmp_path, script)
    assert done.returncode == 0, done.stderr
    report = json.loads((logs / "report.json").read_text())
    print(f"\nserve exited {report['seconds']:.2f} s after the refused command ({report['accepted']} accepted before)")
    assert report["accepted"] > 10 and report["code"] == 503 and report["status"] == 2
    assert report["answer"]["error"].startswith(f"not saving: the disk holding {mount / 'data'} is full")
    line = one_line(report["stderr"])
    assert line == f"tocktable serve: {report['answer']['error']}"
