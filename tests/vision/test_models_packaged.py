"""The models ship in the wheel: a plain (non-editable) install, as on the Pi, must find them."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

from vision.letters import PROBE_FILES
from vision.reader import MODELS_DIR, CardReader

ROOT = Path(__file__).resolve().parents[2]


def test_every_model_file_the_reader_needs_is_in_the_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "models" in config["packages"]["find"]["include"]
    patterns = config["package-data"]["models"]
    reader = CardReader(MODELS_DIR)
    needed = {name for _, name in reader.pipeline.files()} | {"reader.json", "corners.onnx", "card.onnx"}
    needed |= {"expert.onnx", "expert.json"} if reader.settings.expert else set()
    needed |= set(PROBE_FILES.values())  # the index settings' letter probes (vision.letters)
    shipped = {p.name for p in MODELS_DIR.iterdir() if any(fnmatch.fnmatch(p.name, pat) for pat in patterns)}
    assert needed <= shipped, f"model files a plain install would lack: {sorted(needed - shipped)}"
