"""What the root conftest.py leaves out of doctest collection on a machine without the train extra:
every training module that imports torch or onnx at its top, directly or through another."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import conftest


def _without(monkeypatch: pytest.MonkeyPatch, *missing: str) -> None:
    """As on a machine where ``missing`` are not installed and the other extras are."""
    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any, **kwargs: Any) -> Any:
        if name in missing:
            return None
        if name in conftest._EXTRAS.values():
            return object()
        return real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)


def test_without_torch_every_module_importing_it_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    _without(monkeypatch, "torch")
    left_out = set(conftest._needing_missing_extras())
    for path in (Path(conftest.__file__).parent / "vision" / "train").glob("*.py"):
        direct = {name.split(".")[0] for name in conftest._top_level_imports(path)}
        if "torch" in direct:
            assert f"vision/train/{path.name}" in left_out, path.name
    assert "vision/train/__main__.py" in left_out  # through vision.train.model
    assert "vision/train/quantize.py" not in left_out  # onnx is not missing here


def test_without_onnx_the_quantizer_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    _without(monkeypatch, "onnx")
    assert "vision/train/quantize.py" in conftest._needing_missing_extras()


def test_with_every_extra_nothing_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("onnx") is None:
        pytest.skip("the train extra is not installed here")
    assert conftest._needing_missing_extras() == []
