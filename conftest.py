"""What pytest collects from the packages themselves (their doctests, ``--doctest-modules``).

Every module of ``table``, ``vision``, ``hardware``, ``web`` and ``tocktable`` is imported for its
doctests; none touches a device at import. The training modules import torch (and the quantizer
onnx), which come only with the ``train`` extra: without it they are left out of collection here,
and their tests in ``tests/vision`` skip saying so. ``bench`` is not collected (pyproject's
``--ignore=bench``): it has no doctests, and its comparisons import the ``bench`` extra's peers.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

_TRAIN = Path(__file__).parent / "vision" / "train"
_EXTRAS = {"torch": "torch", "onnx": "onnx", "onnxruntime.quantization": "onnx"}
"""Imports that need what only the ``train`` extra installs (onnxruntime's quantizer imports onnx)."""


def _top_level_imports(path: Path) -> set[str]:
    """The modules ``path`` imports at its top level (not inside functions)."""
    found: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def _needing_missing_extras() -> list[str]:
    """The ``vision/train`` modules that import a missing extra at the top, directly or through
    another training module (read from the source, so a new trainer is covered without a list)."""
    missing = {extra for extra in set(_EXTRAS.values()) if importlib.util.find_spec(extra) is None}
    if not missing:
        return []
    needs = [name for name, extra in _EXTRAS.items() if extra in missing]
    imports = {f"vision.train.{p.stem}": _top_level_imports(p) for p in _TRAIN.glob("*.py")}
    needing = {m for m, names in imports.items()
               if any(n == need or n.startswith(need + ".") for n in names for need in needs)}  # fmt: skip
    while True:
        more = {m for m, names in imports.items() if m not in needing and names & needing}
        if not more:
            break
        needing |= more
    return sorted(f"vision/train/{m.rsplit('.', 1)[1]}.py" for m in needing)


collect_ignore = _needing_missing_extras()
