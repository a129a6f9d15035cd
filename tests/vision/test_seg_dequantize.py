"""The shipped 8-bit detector back in float (vision.train.seg_train.dequantized), to fine-tune from:
it computes what the ONNX file computes, before and after its batch norms get real statistics.
Needs torch and onnx (training only); skipped without them."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from vision.reader import MODELS_DIR  # noqa: E402
from vision.segment import prepare_frame  # noqa: E402
from vision.train.seg_data import hard_sample, sample  # noqa: E402
from vision.train.seg_train import _batch, dequantized, renormalize, seg_loss  # noqa: E402

MODEL = MODELS_DIR / "detector.onnx"


@pytest.fixture(scope="module")
def frames() -> list[tuple[np.ndarray, np.ndarray]]:
    if not MODEL.is_file():
        pytest.skip("no shipped detector")
    samples = [sample(500_000 + k, 0.6, 0.5) for k in range(6)] + [hard_sample(k) for k in range(3)]
    return [(s.image, s.target) for s in samples]


def _outputs(net: object, frames: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    with torch.no_grad():
        return [net(torch.from_numpy(prepare_frame(image)))[0].numpy() for image, _ in frames]  # type: ignore[operator]


def test_the_dequantised_network_agrees_with_the_onnx_file(frames: list[tuple[np.ndarray, np.ndarray]]) -> None:
    net = dequantized(MODEL)
    session = ort.InferenceSession(str(MODEL), providers=["CPUExecutionProvider"])
    agree = []
    for (image, _), mine in zip(frames, _outputs(net, frames), strict=True):
        (theirs,) = session.run(None, {"frame": prepare_frame(image)})
        assert mine.shape == theirs[0].shape
        agree.append(float(((mine > 0) == (theirs[0] > 0)).mean()))
    # The file also rounds its activations to 8 bits (where that rounding lands on a pixel's sign moves a
    # little with the onnxruntime build); the weights are the same.
    assert min(agree) > 0.99 and float(np.mean(agree)) > 0.997, agree


def test_real_batch_norm_statistics_keep_what_it_computes(frames: list[tuple[np.ndarray, np.ndarray]]) -> None:
    net = dequantized(MODEL)
    before = _outputs(net, frames)
    rng = np.random.default_rng(0)
    renormalize(net, [_batch(frames, rng, 8)[0] for _ in range(3)])
    after = _outputs(net, frames)
    assert max(float(np.abs(a - b).max()) for a, b in zip(before, after, strict=True)) < 1e-3
    # In train mode a batch's own statistics are about the calibrated ones: nearly the same maps.
    x, _ = _batch(frames, rng, 8)
    with torch.no_grad():
        evaluated = net.eval()(x)
        trained = net.train()(x)
    assert float(((evaluated > 0) == (trained > 0)).float().mean()) > 0.98


def test_padding_beyond_a_small_look_is_left_out_of_the_loss() -> None:
    small = hard_sample(1)  # a second look, smaller than a training crop
    assert small.image.shape[0] < 160 or small.image.shape[1] < 192
    x, y = _batch([(small.image, small.target)], np.random.default_rng(0), 2)
    assert tuple(x.shape[1:]) == (3, 160, 192) and tuple(y.shape[1:]) == (2, 80, 96)
    assert bool((y < 0).any()) and bool((y >= 0).any())
    logits = torch.zeros_like(y)
    valid = y >= 0
    expected = torch.nn.functional.binary_cross_entropy_with_logits(logits[valid], y[valid], reduction="none")
    # Core counts twice, card once; the mean over the pixels with a target.
    weights = torch.tensor([1.0, 2.0]).view(1, 2, 1, 1).expand_as(y)[valid]
    assert abs(float(seg_loss(logits, y)) - float((expected * weights).sum() / valid.sum())) < 1e-5
