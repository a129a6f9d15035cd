"""Torch weights taken back from the shipped ONNX models (vision.train.onnx_weights), the start of
a fine-tune: the torch model reads rendered crops as the ONNX one does."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")  # the training extra

from vision.classify import prepare_crops  # noqa: E402
from vision.reader import MODELS_DIR  # noqa: E402
from vision.train.data import make_samples  # noqa: E402
from vision.train.expert import ExpertNet  # noqa: E402
from vision.train.model import CornerEnsemble, CornerNet  # noqa: E402
from vision.train.onnx_weights import _module_name, freeze_norms, load_onnx_weights  # noqa: E402


def test_node_names_give_module_names() -> None:
    assert _module_name("/members.2/features/features.0/features.0.0/Conv") == "members.2.features.0.0"
    assert _module_name("/members.0/embed/embed.0/Gemm") == "members.0.embed.0"
    assert _module_name("/rank/Gemm") == "rank"


@pytest.mark.parametrize(("file", "make"), [("corners.onnx", lambda: CornerEnsemble([CornerNet() for _ in range(3)])),
                                            ("expert.onnx", ExpertNet)])  # fmt: skip
def test_the_torch_model_reads_as_the_shipped_onnx_one(file: str, make: object) -> None:
    import onnxruntime as ort

    corner, _ = make_samples(40, pool="holdout", seed=5)
    crops = prepare_crops(corner.crops)
    model = load_onnx_weights(make(), MODELS_DIR / file).eval()  # type: ignore[operator]
    session = ort.InferenceSession(str(MODELS_DIR / file), providers=["CPUExecutionProvider"])
    onnx_rank, onnx_suit = session.run(None, {"crops": crops})[:2]
    with torch.no_grad():
        rank, suit = (t.numpy() for t in model(torch.from_numpy(crops))[:2])
    assert (rank.argmax(-1) == onnx_rank.argmax(-1)).mean() >= 0.99  # the 8-bit model against its float weights
    assert (suit.argmax(-1) == onnx_suit.argmax(-1)).mean() >= 0.97
    assert np.corrcoef(rank.ravel(), onnx_rank.ravel())[0, 1] > 0.98
    fresh = make().eval()  # type: ignore[operator]
    with torch.no_grad():
        untrained = fresh(torch.from_numpy(crops))[0].numpy()
    assert (untrained.argmax(-1) == onnx_rank.argmax(-1)).mean() < 0.5  # the weights are what agrees


def test_a_model_of_another_architecture_is_refused() -> None:
    with pytest.raises(ValueError, match=r"has no convolution .members\.\d\.features\.0\.0. in the model"):
        load_onnx_weights(CornerNet(), MODELS_DIR / "corners.onnx")  # one member, not the ensemble


def test_frozen_norms_keep_their_statistics_while_the_rest_trains() -> None:
    model = freeze_norms(CornerNet().train())
    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert norms and not any(m.training for m in norms)
    assert model.dropout.training  # dropout still active
