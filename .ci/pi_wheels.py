#!/usr/bin/env python3
"""Check that installing tocktable on a Raspberry Pi never compiles anything.

A Raspberry Pi OS Bookworm (64-bit) install runs ``pip install -c deploy/pi-constraints.txt
-e ".[pi]"`` in a venv (docs/pi.md). This asks pip to resolve exactly that, for the Pi's
platform (linux aarch64, glibc 2.36, CPython 3.11), accepting nothing but wheels, twice:

1. the runtime dependencies and the ``pi`` extra under ``deploy/pi-constraints.txt``, as
   docs/pi.md installs them;
2. the same without the constraints (the newest releases, as a plain ``pip install`` takes);

plus the project's build requirements (``[build-system] requires``: pip fetches them to build
tocktable itself), and it builds tocktable's own wheel to see that it is pure Python
(``py3-none-any``). pip resolves from the wheels' metadata (``--dry-run --report``), so
nothing large is downloaded; it needs to reach the package index (PyPI by default).

picamera2 is not a pip dependency: on Raspberry Pi OS it comes from apt (``python3-picamera2``,
with libcamera's Python bindings, which are not on PyPI at all), and the venv sees it through
``--system-site-packages``. The check fails if anything would pull it from PyPI.

Exit status: 0 when everything resolves to wheels, 1 when something would be built from source
(pip's message names it), 2 when the index cannot be reached. Run by ``.ci/run``; by hand::

    python3 .ci/pi_wheels.py                       # Bookworm: CPython 3.11, glibc 2.36
    python3 .ci/pi_wheels.py --python 3.13 --glibc 2.41   # another release, to see what breaks
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / "deploy" / "pi-constraints.txt"
NOT_FROM_PIP = {"picamera2": "apt install python3-picamera2 (libcamera's bindings are not on PyPI)"}


def requirements(extra: str = "pi") -> tuple[list[str], list[str]]:
    """The runtime dependencies with ``extra``, and the build requirements, from pyproject.toml."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    runtime = [*project["project"]["dependencies"], *project["project"]["optional-dependencies"][extra]]
    return runtime, list(project["build-system"]["requires"])


def platforms(glibc: str) -> list[str]:
    """Every platform tag pip accepts on linux aarch64 with this glibc: manylinux2014 and
    manylinux_2_17 up to the glibc's own version, and the bare linux tag."""
    major, minor = (int(x) for x in glibc.split("."))
    assert major == 2 and minor >= 17, f"glibc {glibc}: manylinux wheels need 2.17 or newer"
    return ["manylinux2014_aarch64", "linux_aarch64", *(f"manylinux_2_{m}_aarch64" for m in range(17, minor + 1))]


class NoWheel(Exception):
    """pip found no way to install the requirements from wheels alone (its message)."""


def resolve(specs: list[str], *, python: str, glibc: str, index: str, constraints: Path | None) -> list[dict[str, str]]:
    """What pip would install for ``specs`` on the Pi, wheels only: name, version, file.
    Raises :class:`NoWheel` with pip's message when something has no wheel."""
    abi = "cp" + python.replace(".", "")
    with tempfile.TemporaryDirectory(prefix="pi-wheels-") as tmp:
        report = Path(tmp) / "report.json"
        command = [sys.executable, "-m", "pip", "install", "--isolated", "--disable-pip-version-check",
                   "--dry-run", "--ignore-installed", "--only-binary=:all:", "--index-url", index,
                   "--python-version", python, "--implementation", "cp", "--abi", abi, "--abi", "abi3",
                   "--abi", "none", "--target", str(Path(tmp) / "target"), "--report", str(report),
                   "--quiet"]  # fmt: skip
        for tag in platforms(glibc):
            command += ["--platform", tag]
        if constraints is not None:
            command += ["--constraint", str(constraints)]
        done = subprocess.run([*command, *specs], capture_output=True, text=True)
        if done.returncode != 0:
            raise NoWheel((done.stdout + done.stderr).strip())
        items = json.loads(report.read_text())["install"]
    return [{"name": i["metadata"]["name"], "version": i["metadata"]["version"],
             "file": i["download_info"]["url"].rsplit("/", 1)[-1]} for i in items]  # fmt: skip


def own_wheel(index: str) -> str:
    """Build tocktable's wheel (its build requirements from ``index``) and return its file name."""
    with tempfile.TemporaryDirectory(prefix="pi-wheels-own-") as tmp:
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--isolated", "--disable-pip-version-check",
                               "--no-deps", "--quiet", "--index-url", index, "--wheel-dir", tmp, str(ROOT)],
                              capture_output=True, text=True)  # fmt: skip
        if done.returncode != 0:
            print(done.stdout + done.stderr, file=sys.stderr)
            raise SystemExit(1)
        return next(Path(tmp).glob("*.whl")).name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default="3.11", help="the Pi's CPython version (Bookworm: 3.11)")
    parser.add_argument("--glibc", default="2.36", help="the Pi's glibc version (Bookworm: 2.36)")
    parser.add_argument("--index-url", default="https://pypi.org/simple", help="the package index (default PyPI)")
    args = parser.parse_args(argv)

    try:
        urllib.request.urlopen(f"{args.index_url.rstrip('/')}/pip/", timeout=20).close()
    except (urllib.error.URLError, OSError) as exc:
        print(f"cannot reach the package index {args.index_url} ({exc}): nothing checked", file=sys.stderr)
        return 2

    runtime, build = requirements()
    print(f"Raspberry Pi: linux aarch64, glibc {args.glibc}, CPython {args.python}; wheels only, from {args.index_url}")
    failed = False
    for title, constraints in ((f"with {CONSTRAINTS.relative_to(ROOT)} (docs/pi.md)", CONSTRAINTS),
                               ("without constraints (the newest releases)", None)):  # fmt: skip

        def attempt(specs: list[str], constraints: Path | None = constraints) -> list[dict[str, str]]:
            return resolve(specs, python=args.python, glibc=args.glibc, index=args.index_url, constraints=constraints)

        try:
            found = attempt([*runtime, *build])
        except NoWheel as exc:
            failed = True
            # Which requirement is it? Each one alone, under the same constraints.
            alone = []
            for spec in [*runtime, *build]:
                try:
                    attempt([spec])
                except NoWheel:
                    alone.append(spec)
            culprits = ", ".join(alone) or "none alone: only their combination"
            print(f"\n{title}: NOT every package has a wheel; a Pi would compile (or fail on) {culprits}\n"
                  f"pip said:\n{exc}", file=sys.stderr)  # fmt: skip
            continue
        print(f"\n{title}: {len(found)} packages, every one a wheel")
        for item in sorted(found, key=lambda i: i["name"].lower()):
            print(f"  {item['name']:<24} {item['version']:<14} {item['file']}")
        pulled = sorted({i["name"].lower() for i in found} & set(NOT_FROM_PIP))
        if pulled:
            print(f"{', '.join(pulled)} would come from PyPI: {'; '.join(NOT_FROM_PIP[p] for p in pulled)}",
                  file=sys.stderr)  # fmt: skip
            return 1
    if failed:
        return 1
    wheel = own_wheel(args.index_url)
    if not wheel.endswith("-py3-none-any.whl"):
        print(f"tocktable's own wheel is {wheel}: it holds compiled code, so a Pi would compile it", file=sys.stderr)
        return 1
    print(f"\ntocktable itself: {wheel} (pure Python)")
    print("picamera2: not from pip; " + NOT_FROM_PIP["picamera2"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
