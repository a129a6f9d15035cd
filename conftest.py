"""What pytest collects from the packages themselves (their doctests, ``--doctest-modules``).

Every module of ``table``, ``vision``, ``hardware``, ``web`` and ``tocktable`` is imported for its
doctests; none touches a device at import. The training modules import torch (and the quantizer
onnx), which come only with the ``train`` extra: without it they are left out of collection here,
and their tests in ``tests/vision`` skip saying so. ``bench`` is not collected (pyproject's
``--ignore=bench``): it has no doctests, and its comparisons import the ``bench`` extra's peers.
"""

from __future__ import annotations

import importlib.util

_NEEDS = {
    "torch": ["__main__", "model", "expert", "expert_fit", "seg_train", "small", "suits"],
    "onnx": ["quantize"],
}
"""Extra module → the ``vision/train`` modules that import it at the top."""

collect_ignore = [
    f"vision/train/{name}.py"
    for extra, names in _NEEDS.items()
    if importlib.util.find_spec(extra) is None
    for name in names
]
