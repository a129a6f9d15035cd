"""Every trainer of ``vision/train`` run end to end on a tiny rendered set: a couple of steps, its
export, and the run-time code loading what it wrote.

Each command line (``python -m vision.train``, ``.expert``, ``.expert_fit``, ``.seg_train``,
``.small``, ``.suits``, ``.joker``) is called as a user would, with a few cards or tables instead of
thousands. Checked: every training step's loss is finite and moves the weights; the ONNX files
load in onnxruntime and answer the shapes the readers expect; the readers of :mod:`vision` load the
folder (what ships is what these commands write). The figures of such tiny runs mean nothing and
are not checked. Needs torch and onnx (``pip install -e ".[train]"``); skipped without them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the trainers need torch: pip install -e '.[train]'")
pytest.importorskip("onnx", reason="exporting and quantising need onnx: pip install -e '.[train]'")
ort = pytest.importorskip("onnxruntime")

from vision.reader import MODELS_DIR  # noqa: E402

pytestmark = [
    pytest.mark.slow,
    # The trainers export with torch's TorchScript exporter (dynamo=False), which gives the graphs
    # onnxruntime's quantiser and the readers were made for; torch warns that it is the old one,
    # and its own code inside that exporter calls functions it has deprecated.
    pytest.mark.filterwarnings("ignore:You are using the legacy TorchScript-based ONNX export:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:torch.onnx"),
]


@pytest.fixture(autouse=True)
def _torch_settings() -> Iterator[None]:
    """The trainers set torch's threads and determinism for the whole process: put them back."""
    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    yield
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(deterministic)


class Steps:
    """Every call of a trainer's ``descend`` (one optimiser step): the loss and whether it moved
    the weights (each parameter compared before and after)."""

    def __init__(self) -> None:
        self.losses: list[float] = []
        self.moved: list[bool] = []

    def watch(self, monkeypatch: pytest.MonkeyPatch, module: Any) -> None:
        real = module.descend

        def descend(loss: Any, optimiser: Any, schedule: Any, running: float, *, first: bool) -> float:
            params = [p for group in optimiser.param_groups for p in group["params"]]
            before = [p.detach().clone() for p in params]
            out: float = real(loss, optimiser, schedule, running, first=first)
            self.losses.append(float(loss.detach()))
            self.moved.append(any(not torch.equal(b, p.detach()) for b, p in zip(before, params, strict=True)))
            return out

        monkeypatch.setattr(module, "descend", descend)

    def check(self, count: int) -> None:
        assert len(self.losses) == count, f"{count} steps asked, {len(self.losses)} taken"
        assert all(np.isfinite(self.losses)), self.losses
        assert all(self.moved), f"a step left the weights as they were: {self.moved}"


def _run(session_path: Path, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    session = ort.InferenceSession(str(session_path), providers=["CPUExecutionProvider"])
    out: list[np.ndarray] = session.run(None, feeds)
    return out


CORNER_DATA = ["--cards", "40", "--focus-cards", "12", "--check-cards", "16", "--jobs", "1"]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Rendered sets shared by the corner ensemble's and the expert's trainers (as their cache is)."""
    return tmp_path_factory.mktemp("train-cache")


def test_the_corner_trainer_writes_models_the_reader_reads(tmp_path: Path, cache: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from vision.classify import NO_INDEX
    from vision.reader import CardReader
    from vision.rectify import CROP_H, CROP_W, THUMB_H, THUMB_W
    from vision.render.scene import PlacedCard, SceneSpec, render_scene
    from vision.train import __main__ as corners

    steps = Steps()
    steps.watch(monkeypatch, corners)
    out = tmp_path / "models"
    argv = [*CORNER_DATA, "--cache", str(cache), "--members", "2", "--steps", "2", "--calibration-scenes", "2",
            "--threads", "1", "--out", str(out)]  # fmt: skip
    assert corners.main(argv) == 0
    steps.check(2 * 2)  # two members, two steps each

    crops = np.zeros((3, 2, CROP_H, CROP_W), np.float32)
    rank_logits, suit_logits, embedding = _run(out / "corners.onnx", {"crops": crops})
    assert rank_logits.shape == (2, 3, NO_INDEX + 1) and suit_logits.shape == (2, 3, 4)  # member × crop × class
    assert embedding.shape[0] == 3
    face_logits, _ = _run(out / "card.onnx", {"thumbnails": np.zeros((5, 3, THUMB_H, THUMB_W), np.float32)})
    assert face_logits.shape == (5, 2)
    manifest = json.loads((out / "reader.json").read_text())
    assert manifest["members"] == 2 and manifest["quantized"] is True
    assert 0.5 <= manifest["threshold"] <= 0.99 and manifest["temperature"] > 0
    assert np.isfinite(manifest["figures"]["holdout_crops"]["top1"])

    # The calibration read scenes through the shipped detector, copied beside the new models; the
    # run-time reader reads with them (its other stages' models are not in this folder).
    assert (out / "detector.onnx").read_bytes() == (MODELS_DIR / "detector.onnx").read_bytes()
    reader = CardReader(out, stages=("find", "corners", "orient"))
    frame = render_scene(SceneSpec(cards=(PlacedCard("Ah", True, (0.4, 0.5)),))).image
    seen = reader.read(frame)
    assert all(0.0 <= s.confidence <= 1.0 for s in seen)


def test_the_expert_trainer_and_its_fit_write_an_expert_the_reader_loads(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vision.classify import NO_INDEX
    from vision.expert import Expert
    from vision.rectify import CROP_H, CROP_W
    from vision.train import expert, expert_fit

    steps = Steps()
    steps.watch(monkeypatch, expert)
    out = tmp_path / "expert"
    assert expert.main([*CORNER_DATA, "--cache", str(cache), "--steps", "2", "--threads", "1", "--out", str(out)]) == 0
    steps.check(2)
    rank_logits, suit_logits = _run(out / "expert.onnx", {"crops": np.zeros((3, 2, CROP_H, CROP_W), np.float32)})
    assert rank_logits.shape == (3, NO_INDEX + 1) and suit_logits.shape == (3, 4)
    assert (out / "expert.pt").is_file()

    # Fitted against the shipped reader on two calibration scenes; the shipped models stay as they are.
    shipped = (MODELS_DIR / "expert.json").read_bytes()
    assert expert_fit.main(["--expert", str(out), "--scenes", "2", "--cache", str(cache)]) == 0
    assert (MODELS_DIR / "expert.json").read_bytes() == shipped
    use = json.loads((out / "expert.json").read_text())["use"]
    assert 0.0 <= use["gate"] <= 1.0 and 0.0 <= use["weight"] <= 1.0
    loaded = Expert.load(out)
    assert loaded is not None and loaded.settings.gate == use["gate"]
    cards, none = loaded.probabilities(np.full((4, CROP_H, CROP_W, 3), 255, np.uint8))
    assert cards.shape == (4, 52) and none.shape == (4,)
    assert np.allclose(cards.sum(axis=1), 1.0)


def test_the_segmenter_trainer_writes_a_detector_the_reader_loads(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from vision.segment import OUT_SCALE, CardSegmenter
    from vision.train import seg_train
    from vision.train.seg_data import WORK_WIDTH

    steps = Steps()
    steps.watch(monkeypatch, seg_train)
    out = tmp_path / "models"
    argv = ["--samples", "4", "--steps", "2", "--batch", "2", "--jobs", "1", "--out", str(out)]
    assert seg_train.main(argv) == 0
    steps.check(2)
    (maps,) = _run(out / "detector.onnx", {"frame": np.zeros((1, 3, 192, WORK_WIDTH), np.float32)})
    assert maps.shape == (1, 2, 192 // OUT_SCALE, WORK_WIDTH // OUT_SCALE)  # card and core
    settings = json.loads((out / "detector.json").read_text())
    assert 0.0 <= settings["int8"]["agreement_with_float"] <= 1.0

    options = ort.SessionOptions()
    segmenter = CardSegmenter.load(out, options, ["CPUExecutionProvider"])
    assert segmenter is not None
    card, core = segmenter.probabilities(np.full((180, WORK_WIDTH, 3), 90, np.uint8))
    assert card.shape == core.shape and card.shape[:2] == (180, WORK_WIDTH)
    assert np.all((card >= 0) & (card <= 1))


def test_the_small_card_trainer_writes_a_model_the_reader_loads(tmp_path: Path) -> None:
    from vision.small import SMALL_H, SMALL_W, SmallReader
    from vision.train import small

    out, cache = tmp_path / "models", tmp_path / "cache"
    argv = ["--cards", "24", "--check-cards", "24", "--steps", "2", "--jobs", "1", "--threads", "1",
            "--cache", str(cache), "--out", str(out)]  # fmt: skip
    assert small.main(argv) == 0
    (logits,) = _run(out / "small.onnx", {"crops": np.zeros((3, 2, SMALL_H, SMALL_W), np.float32)})
    assert logits.shape == (3, 53)  # 52 cards and "nothing to name"
    settings = json.loads((out / "small.json").read_text())
    assert 0.5 <= settings["threshold"] <= 0.999 and settings["temperature"] > 0
    reader = SmallReader(out)
    assert reader.settings.threshold == settings["threshold"]

    # Its training loop steps the optimiser itself: two steps on the cards it rendered (from its
    # cache) move the weights from where the same seed starts them, and keep them finite.
    data = small.render(24, pool="train", seed=1, jobs=1, cache=cache, name="train")
    torch.manual_seed(7)
    start = small.SmallNet().state_dict()
    trained = small.train(data, steps=2, seed=7).state_dict()
    assert any(not torch.equal(start[k], trained[k]) for k in start)
    assert all(bool(torch.isfinite(v).all()) for v in trained.values() if v.is_floating_point())


def test_the_suit_trainer_writes_a_model_the_witness_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.suit_witness import SuitWitness
    from vision.train import suits

    steps = Steps()
    steps.watch(monkeypatch, suits)
    out = tmp_path / "models"
    argv = ["--samples", "48", "--held", "16", "--epochs", "1", "--batch", "16", "--out", str(out)]
    assert suits.main(argv) == 0
    steps.check(48 // 16)
    (logits,) = _run(out / "suits.onnx", {"symbols": np.zeros((4, 2, suits.SYMBOL, suits.SYMBOL), np.float32)})
    assert logits.shape == (4, len(suits.CLASSES))
    held = json.loads((out / "suits.json").read_text())["held_out"]
    assert held["samples"] == 16 and 0.0 <= held["top1"] <= 1.0
    assert SuitWitness.load(out) is not None


def test_the_joker_trainer_writes_a_check_the_reader_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.joker import JokerCheck
    from vision.train import joker

    steps = Steps()
    steps.watch(monkeypatch, joker)
    out = tmp_path / "models"
    argv = ["--jokers", "6", "--cards", "8", "--check", "4", "--scenes", "4", "--hard-scenes", "2", "--steps", "2",
            "--batch", "8", "--cache", str(tmp_path / "cache"), "--out", str(out)]  # fmt: skip
    assert joker.main(argv) == 0
    steps.check(2)
    (logits,) = _run(out / "joker.onnx", {"crops": np.zeros((6, 2, 64, 32), np.float32)})
    assert logits.shape == (6, 2)
    settings = json.loads((out / "joker.json").read_text())
    assert 0.9 <= settings["threshold"] < 1 and settings["check_holdout_fonts"]["joker_crops"] > 0
    assert settings["scenes"] == 4 and settings["hard_scenes"] == 2 and settings["min_card_height"] < 75
    check = JokerCheck.load(out)
    assert check.min_height == settings["min_card_height"]
    assert check.corner_scores(np.zeros((4, 64, 32, 3), np.uint8)).shape == (2, 2)
    assert sorted(p.name for p in (tmp_path / "cache").iterdir())  # the drawn crops kept for the next run
