"""Bad input at the command line: a clear message, exit status 2, no traceback, nothing written."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tocktable.cli import main
from tocktable.store import Store

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TOCKTABLE_DATA": str(cwd / "default-data")}
    return subprocess.run([sys.executable, "-m", "tocktable", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=60)  # fmt: skip


def files_under(path: Path) -> list[Path]:
    return sorted(p for p in path.rglob("*") if p.is_file())


@pytest.mark.parametrize(
    ("config_text", "message"),
    [
        ("[table\nseats = 3\n", "not valid TOML"),
        ("[table]\nseats = 12\n", "table.seats = 12 is not allowed: use 2..10"),
        ("[camera]\nsource = \"/no/such/folder\"\n", "unknown camera '/no/such/folder'"),
        ("[pins]\nstatus_led = 17\n", "GPIO 17 is used twice"),
    ],
)
def test_serve_with_a_bad_configuration_says_what_is_wrong_and_writes_nothing(tmp_path, config_text, message):
    config = tmp_path / "table.toml"
    config.write_text(config_text)
    data = tmp_path / "data"
    result = run("serve", "--config", str(config), "--data", str(data), "--mock-pins", cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr + result.stdout
    assert not data.exists() and not (tmp_path / "default-data").exists()


def test_a_camera_that_gives_no_picture_stops_serve_before_anything_is_written(tmp_path, capsys):
    config = tmp_path / "table.toml"
    config.write_text('[camera]\nsource = "rtsp://127.0.0.1:9/none"\n')
    data = tmp_path / "data"
    code = main(["serve", "--config", str(config), "--data", str(data), "--mock-pins", "--camera-wait", "0.5"])
    err = capsys.readouterr().err
    assert code == 2 and "gives no picture" in err and 'camera.source = "none"' in err
    assert not data.exists()


def test_serve_without_gpio_says_to_use_mock_pins(tmp_path, capsys):
    import warnings

    from gpiozero import Device
    from gpiozero.exc import GPIOZeroError

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            Device._default_pin_factory().close()
            pytest.skip("this machine has GPIO pins")
        except GPIOZeroError:
            pass
    config = tmp_path / "table.toml"
    config.write_text('[camera]\nsource = "none"\n')
    code = main(["serve", "--config", str(config), "--data", str(tmp_path / "data")])
    assert code == 2 and "--mock-pins" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()


def damaged(path: Path) -> None:
    with Store(path) as store:
        session = store.new_session({"settings": {}})
        for i in range(300):
            store.append(session, "act", {"i": i, "pad": "x" * 100})
        store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    path.write_bytes(path.read_bytes()[:9000])


def foreign(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes(name TEXT)")
    db.commit()
    db.close()


@pytest.mark.parametrize(
    ("make", "message"),
    [(damaged, "is damaged or not a database"), (foreign, "database of another program")],
)
@pytest.mark.parametrize("command", ["serve", "demo", "export"])
def test_a_truncated_or_foreign_database_is_refused_untouched(tmp_path, capsys, make, message, command):
    data = tmp_path / "data"
    data.mkdir()
    path = data / "tocktable.sqlite"
    make(path)
    before = {p: p.read_bytes() for p in files_under(data)}
    config = tmp_path / "table.toml"
    config.write_text('[camera]\nsource = "none"\n')
    args = {"serve": ["serve", "--config", str(config), "--mock-pins"], "demo": ["demo", "--fast", "--no-web"],
            "export": ["export", "-o", str(tmp_path / "out")]}[command]  # fmt: skip
    code = main([*args, "--data", str(data)])
    err = capsys.readouterr().err
    assert code == 2 and message in err and str(path) in err
    assert {p: p.read_bytes() for p in files_under(data)} == before
    assert not (tmp_path / "out").exists()


def test_export_of_a_missing_database_creates_nothing(tmp_path, capsys):
    code = main(["export", "--data", str(tmp_path / "nothing"), "-o", str(tmp_path / "out")])
    assert code == 2 and "no tocktable database" in capsys.readouterr().err
    assert files_under(tmp_path) == []


def test_demo_refuses_impossible_options(tmp_path, capsys):
    assert main(["demo", "--seats", "11", "--data", str(tmp_path / "d")]) == 2
    assert "--seats 11 is not allowed" in capsys.readouterr().err
    assert main(["demo", "--hands", "0", "--data", str(tmp_path / "d")]) == 2
    assert not (tmp_path / "d").exists()


def test_a_port_in_use_is_named(tmp_path, capsys):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        config = tmp_path / "table.toml"
        config.write_text('[camera]\nsource = "none"\n')
        code = main(["serve", "--config", str(config), "--data", str(tmp_path / "data"), "--mock-pins",
                     "--host", "127.0.0.1", "--port", str(port)])  # fmt: skip
    assert code == 2 and f"cannot serve on 127.0.0.1:{port}" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["demo", "serve", "export", "enroll", "marks", "config", "check-hardware"])
def test_every_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    assert f"usage: tocktable {command}" in capsys.readouterr().out


def test_marks_passes_its_options_through_and_writes_the_sheet(tmp_path, capsys):
    sheet = tmp_path / "stickers.png"
    assert main(["marks", "-o", str(sheet), "--cards", "As 7h", "--dpi", "100"]) == 0
    written = sorted(tmp_path.glob("stickers*.png"))
    assert written, capsys.readouterr()
    from PIL import Image

    with Image.open(written[0]) as page:
        # A4 at 100 dpi is 827 x 1169 pixels: the sheet is drawn at true size.
        assert abs(page.size[0] - 827) <= 2 and abs(page.size[1] - 1169) <= 2


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_dashboard_port_comes_from_the_option_else_tocktable_port(tmp_path, capsys, monkeypatch):
    wanted, given = _free_port(), _free_port()
    monkeypatch.setenv("TOCKTABLE_PORT", str(wanted))
    base = ["demo", "--fast", "--perfect-camera", "--hands", "1"]
    assert main([*base, "--data", str(tmp_path / "a")]) == 0
    assert f"Dashboard: http://127.0.0.1:{wanted} " in capsys.readouterr().out
    assert main([*base, "--data", str(tmp_path / "b"), "--port", str(given)]) == 0
    assert f"Dashboard: http://127.0.0.1:{given} " in capsys.readouterr().out


@pytest.mark.parametrize("value", ["eighty", "0", "70000", "-1"])
@pytest.mark.parametrize("command", ["demo", "serve"])
def test_a_tocktable_port_that_is_no_port_is_refused_before_anything_is_written(
    tmp_path, capsys, monkeypatch, value, command
):
    monkeypatch.setenv("TOCKTABLE_PORT", value)
    config = tmp_path / "table.toml"
    config.write_text('[camera]\nsource = "none"\n')
    extra = ["--fast"] if command == "demo" else ["--mock-pins"]
    assert main([command, *extra, "--config", str(config), "--data", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err
    assert f"TOCKTABLE_PORT={value!r} is not a port" in err and "1..65535" in err
    assert not (tmp_path / "data").exists()
