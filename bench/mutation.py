"""Mutation testing of core rule modules with mutmut: the share of deliberate bugs the tests catch.

    pip install -e ".[mutation]"             # mutmut 3 (the mutation extra; not needed to run tocktable)
    python -m bench.mutation                 # every target below
    python -m bench.mutation --target pots   # one target; --list names them

For each target, the module and the tests that guard it are copied into a scratch folder (the
work tree is never touched), mutmut makes every small change it knows to the module (an
operator flipped, a constant changed, a call's argument dropped, a result replaced by None...)
and runs the target's tests against each mutant. A mutant is *killed* when a test fails, and
*survives* when every test passes. Prints, per target, the mutants killed out of those tried,
the share, and the survivors (``--show`` prints the change of each survivor).

A survivor is either a gap in the tests or an equivalent change (code that cannot be reached or
whose change cannot be seen, such as a message's wording in a branch no test names): read each
with ``--show`` before deciding.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Target:
    """A module to mutate and the test files that guard it."""

    module: str
    tests: tuple[str, ...]


TARGETS: dict[str, Target] = {
    "pots": Target(
        "table/engine/pots.py",
        ("tests/table/test_engine_pots.py", "tests/table/test_engine_hand.py", "tests/table/test_engine_showdown.py"),
    ),
    "showdown": Target(
        "table/engine/showdown.py",
        ("tests/table/test_engine_hand.py", "tests/table/test_engine_showdown.py", "tests/table/test_draw_engine.py"),
    ),
    "dice-combination": Target(
        "table/dice/combination.py",
        (
            "tests/table/test_dice_rolls.py",
            "tests/table/test_dice_referee.py",
            "tests/table/test_dice_announcements.py",
        ),
    ),
}
"""Core rule modules with their tests (each run takes a minute or two on two cores)."""

_RESULT = re.compile(r"^\s*(\S+__mutmut_\d+): (\w[\w ]*)$")


def run_target(name: str, target: Target, *, show: bool) -> tuple[int, int, list[str]]:
    """Mutate one target in a scratch copy; returns (killed, tried, survivors)."""
    mutmut = shutil.which("mutmut", path=str(Path(sys.executable).parent)) or shutil.which("mutmut")
    if mutmut is None:
        raise SystemExit('mutmut is not installed: pip install -e ".[mutation]"')
    with tempfile.TemporaryDirectory(prefix=f"mutation-{name}-") as scratch:
        work = Path(scratch)
        skip = shutil.ignore_patterns("__pycache__")
        shutil.copytree(ROOT / "table", work / "table", ignore=skip)
        shutil.copytree(ROOT / "tests" / "table", work / "tests" / "table", ignore=skip)
        (work / "tests" / "__init__.py").write_text("")
        (work / "pyproject.toml").write_text(
            "[tool.mutmut]\n"
            f'source_paths = ["{target.module}"]\n'
            'also_copy = ["table", "tests"]\n'
            f"pytest_add_cli_args_test_selection = {list(target.tests)!r}\n".replace("'", '"')
            + 'pytest_add_cli_args = ["-q", "-x", "-p", "no:cacheprovider"]\n'
        )
        subprocess.run([mutmut, "run"], cwd=work, check=False, capture_output=True, text=True)
        listing = subprocess.run(
            [mutmut, "results", "--all", "true"], cwd=work, check=True, capture_output=True, text=True
        ).stdout
        statuses = {m.group(1): m.group(2) for m in map(_RESULT.match, listing.splitlines()) if m}
        survivors = sorted((k for k, v in statuses.items() if v == "survived"), key=_number)
        killed = sum(1 for v in statuses.values() if v == "killed")
        tried = sum(1 for v in statuses.values() if v in ("killed", "survived", "timeout"))
        print(f"{name}: {target.module}, tests {', '.join(Path(t).name for t in target.tests)}")
        share = killed / tried if tried else 0.0
        print(f"  killed {killed} of {tried} mutants: {share:.1%}")
        others = {v for v in statuses.values() if v not in ("killed", "survived")}
        if others:
            print(f"  also: {', '.join(f'{v} {sum(1 for s in statuses.values() if s == v)}' for v in sorted(others))}")
        for mutant in sorted((k for k, v in statuses.items() if v == "no tests"), key=_number):
            print(f"  no tests: {mutant}")  # no test runs the mutated function: not counted as tried
        for mutant in survivors:
            print(f"  survived: {mutant}")
            if show:
                diff = subprocess.run([mutmut, "show", mutant], cwd=work, capture_output=True, text=True).stdout
                print("\n".join(f"    {line}" for line in diff.splitlines() if line.startswith(("-", "+", "@@"))))
        return killed, tried, survivors


def _number(mutant: str) -> tuple[str, int]:
    stem, _, number = mutant.rpartition("_")
    return stem, int(number)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", action="append", choices=sorted(TARGETS), help="a target (default: all)")
    parser.add_argument("--show", action="store_true", help="print the change of each survivor")
    parser.add_argument("--list", action="store_true", help="list the targets and their tests")
    args = parser.parse_args(argv)
    if args.list:
        for name, target in TARGETS.items():
            print(f"{name}: {target.module} <- {', '.join(target.tests)}")
        return
    total_killed = total_tried = 0
    for name in args.target or list(TARGETS):
        killed, tried, _ = run_target(name, TARGETS[name], show=args.show)
        total_killed += killed
        total_tried += tried
    if total_tried:
        print(f"all targets: killed {total_killed} of {total_tried} mutants: {total_killed / total_tried:.1%}")


if __name__ == "__main__":
    main()
