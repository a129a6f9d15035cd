"""The corner models' training augmentation (vision.train.__main__._augment)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.classify import prepare_crops  # noqa: E402
from vision.train.__main__ import _augment  # noqa: E402


def _glyphs(n: int) -> torch.Tensor:
    """Prepared crops of a dark bar (a '1') on paper, with a little noise."""
    rng = np.random.default_rng(3)
    crops = np.full((n, 64, 32, 3), 225, np.uint8)
    crops[:, 10:30, 12:16] = 30
    crops = np.clip(crops + rng.normal(0, 3, crops.shape), 0, 255).astype(np.uint8)
    return torch.from_numpy(prepare_crops(crops))


@pytest.mark.parametrize("version", [1, 2])
def test_augmentation_is_reproducible_from_its_generator(version: int) -> None:
    x = _glyphs(8)
    a = _augment(x, torch.Generator().manual_seed(4), version)
    b = _augment(x, torch.Generator().manual_seed(4), version)
    c = _augment(x, torch.Generator().manual_seed(5), version)
    assert a.shape == x.shape and a.dtype == x.dtype
    assert torch.equal(a, b)
    assert not torch.equal(a, c)


def test_version_2_varies_the_stroke_weight_and_width_of_the_glyph() -> None:
    x = _glyphs(256)
    ink = [(_augment(x, torch.Generator().manual_seed(0), v)[:, 0] < 0.0).float().sum(dim=(1, 2)) for v in (1, 2)]
    # Same zoom for both (same draws first); version 2 also thickens or thins the bar and stretches it.
    assert float(ink[1].std()) > 1.2 * float(ink[0].std())
    assert abs(float(ink[1].mean()) - float(ink[0].mean())) < 0.25 * float(ink[0].mean())


def test_version_2_invents_no_ink_on_blank_paper() -> None:
    blank = torch.from_numpy(prepare_crops(np.full((16, 64, 32, 3), 200, np.uint8)))
    out = _augment(blank, torch.Generator().manual_seed(1), 2)
    assert float(out.std(dim=(2, 3)).max()) < 1e-4
