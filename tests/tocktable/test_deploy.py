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


def test_docs_pi_shows_the_unit_as_deploy_has_it():
    """docs/pi.md prints the unit file: every setting in it, and no other, is in deploy/tocktable.service."""
    text = (DEPLOY.parent / "docs" / "pi.md").read_text()
    shown = text.split("```ini\n", 1)[1].split("```", 1)[0]
    shipped = (DEPLOY / "tocktable.service").read_text()
    settings = [line for line in shipped.splitlines() if line.strip() and not line.startswith("#")]
    assert [line for line in shown.splitlines() if line.strip()] == settings
