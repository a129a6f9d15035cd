"""``--data`` fully honoured: everything the service writes lives in the data directory, nothing
in the home folder, the temporary folder or the folder it was started from."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from .helpers import cli_env, run_cli
from .test_datalock import killed, wait_for_line

PIN = "135790"


def elsewhere(tmp_path: Path) -> tuple[dict[str, str], list[Path]]:
    """An environment whose home, temporary and start folders are new and empty (no XDG or
    TOCKTABLE_DATA to point anywhere else): the folders to find empty afterwards."""
    folders = [tmp_path / name for name in ("home", "tmp", "start")]
    for folder in folders:
        folder.mkdir()
    env = {k: v for k, v in cli_env().items() if not k.startswith("XDG_") and k != "TOCKTABLE_DATA"}
    env.update(HOME=str(folders[0]), TMPDIR=str(folders[1]))
    env.pop("ORT_DISABLE_TELEMETRY", None)  # the command sets what it needs itself
    return env, folders


def written(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_the_demo_with_its_dashboard_and_card_reader_writes_only_in_data(tmp_path):
    env, folders = elsewhere(tmp_path)
    data = tmp_path / "data"
    result = run_cli("demo", "--fast", "--hands", "2", "--port", "0", "--data", str(data), cwd=folders[2], env=env)
    assert result.returncode == 0, result.stderr
    assert "Card reader" in result.stdout or "Camera:" in result.stdout
    for folder in folders:
        assert written(folder) == [], f"written outside --data, in {folder.name}"
    assert {"tocktable.sqlite", "admin-pin", "web-secret"} <= set(written(data))


def test_serve_keeps_the_dashboard_settings_in_data(tmp_path):
    env, folders = elsewhere(tmp_path)
    data = tmp_path / "data"
    config = tmp_path / "table.toml"
    config.write_text(f'[camera]\nsource = "none"\n[web]\nadmin_pin = "{PIN}"\n')
    serve = subprocess.Popen(
        [sys.executable, "-m", "tocktable", "serve", "--config", str(config), "--data", str(data), "--port", "0",
         "--host", "127.0.0.1", "--mock-pins"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=folders[2],
    )  # fmt: skip
    try:
        url = wait_for_line(serve, r"Dashboard: (http://\S+/)").group(1).rstrip("/")
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        form = browser.open(f"{url}/admin", timeout=60).read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
        login = urllib.parse.urlencode({"pin": PIN, "csrf_token": token}).encode()
        page = browser.open(f"{url}/admin/login", data=login, timeout=60).read().decode()
        token = re.search(r'<meta name="csrf-token" content="([^"]+)">', page).group(1)
        headers = {"Content-Type": "application/json", "X-CSRF-Token": token}
        body = json.dumps({"name": "dealer"}).encode()
        request = urllib.request.Request(f"{url}/admin/chip-set", data=body, headers=headers)
        assert json.loads(browser.open(request, timeout=60).read())["ok"]
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=60) == 0
    finally:
        killed(serve)
    for folder in folders:
        assert written(folder) == [], f"written outside --data, in {folder.name}"
    assert {"tocktable.sqlite", "web-secret", "dashboard.json"} <= set(written(data))
    assert json.loads((data / "dashboard.json").read_text())["chip_set"] == "dealer"
    assert not (data / "tocktable.lock").exists()
    assert os.stat(data / "web-secret").st_mode & 0o077 == 0
