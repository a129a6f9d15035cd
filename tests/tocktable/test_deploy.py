"""The systemd unit and the Pi install constraints say what the README promises."""

import configparser
import tomllib
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read(DEPLOY / "tocktable.service")
    return parser


def test_the_service_runs_unprivileged_in_a_writable_directory_and_restarts_on_failure():
    service = unit()["Service"]
    assert service["User"] not in ("", "root") and service["Group"] not in ("", "root")
    assert service["StateDirectory"] == "tocktable" and service["WorkingDirectory"] == "/var/lib/tocktable"
    assert service["Restart"] == "on-failure"
    assert " serve " in service["ExecStart"] and "--data /var/lib/tocktable" in service["ExecStart"]
    assert set(service["SupplementaryGroups"].split()) >= {"gpio", "video"}
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


def test_the_pi_constraints_keep_numpy_1_within_what_the_project_accepts():
    constraints = {
        line.split("==")[0].split(">=")[0].split("<")[0]: line
        for line in (DEPLOY / "pi-constraints.txt").read_text().splitlines()
        if line and not line.startswith("#")
    }
    assert constraints["numpy"] == "numpy>=1.26,<2"
    project = tomllib.loads((DEPLOY.parent / "pyproject.toml").read_text())["project"]["dependencies"]
    assert "numpy>=1.26" in project and any(d.startswith("opencv-python-headless") for d in project)
