"""The detector fine-tune's anchor to its start (``seg_train --anchor``): the divergence term is 0
where the network agrees with its frozen start, grows as it strays, and counts only the crops of
ordinary tables. Needs torch (training only); skipped without it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.train.seg_data import WORK_WIDTH, is_hard, sample_seeds  # noqa: E402
from vision.train.seg_train import anchor_loss, batch_kinds, main, ordinary_frames  # noqa: E402


def _logits(seed: int, size: int = 4) -> Any:
    return torch.randn(size, 2, 10, 12, generator=torch.Generator().manual_seed(seed)) * 3.0


def test_the_anchor_is_zero_where_the_network_agrees_with_its_start() -> None:
    start = _logits(1)
    every = torch.ones(4, dtype=torch.bool)
    assert float(anchor_loss(start.clone(), start, every)) == pytest.approx(0.0, abs=1e-6)
    moved = anchor_loss(start + 0.5, start, every)
    further = anchor_loss(start + 1.5, start, every)
    assert 0.0 < float(moved) < float(further)


def test_the_anchor_counts_only_the_ordinary_crops() -> None:
    start = _logits(2)
    ordinary = torch.tensor([True, False, True, False])
    student = start.clone()
    student[1] = _logits(3, 1)[0]  # far from the start, but a hard look (not ordinary)
    student[3] = -start[3]
    assert float(anchor_loss(student, start, ordinary)) == pytest.approx(0.0, abs=1e-6)
    student[2, 1] += 2.0  # the core of an ordinary crop strays
    assert float(anchor_loss(student, start, ordinary)) > 0.0
    assert float(anchor_loss(student, start, torch.zeros(4, dtype=torch.bool))) == 0.0


def test_the_anchor_pulls_the_network_back_towards_its_start() -> None:
    start = _logits(4)
    student = (start + torch.randn_like(start)).requires_grad_(True)
    anchor_loss(student, start, torch.ones(4, dtype=torch.bool)).backward()  # type: ignore[no-untyped-call]
    assert student.grad is not None
    # A small step down the gradient brings every probability closer to the start's.
    stepped = student.detach() - 50.0 * student.grad
    before = (torch.sigmoid(student.detach()) - torch.sigmoid(start)).abs().sum()
    after = (torch.sigmoid(stepped) - torch.sigmoid(start)).abs().sum()
    assert float(after) < float(before)


def test_ordinary_frames_leave_out_hard_looks_side_frames_and_close_frames() -> None:
    rendered, seed, share = 60, 5, 0.3
    hard = [is_hard(s, share) for s in sample_seeds(rendered, seed)]
    assert any(hard) and not all(hard)
    flags = ordinary_frames(rendered, seed, share, rendered + 4, close_ones=[0, 1, rendered + 1])
    assert len(flags) == rendered + 4
    assert not any(flags[rendered:])  # the side frames
    assert not flags[0] and not flags[1]  # close frames
    assert flags[2:rendered] == [not h for h in hard[2:]]
    assert all(ordinary_frames(rendered, seed, 0.0, rendered))  # no hard looks drawn


def _frame(card: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    image = rng.integers(0, 255, (180, WORK_WIDTH, 3), dtype=np.uint8)
    return image, np.full((2, 90, 160), card, np.float32)


def test_batch_kinds_mark_crops_of_ordinary_tables_shown_as_they_are() -> None:
    rng = np.random.default_rng(0)
    data = [_frame(0.0, rng), _frame(1.0, rng)]  # frame 0 ordinary, frame 1 not
    _, y, kinds = batch_kinds(data, np.random.default_rng(5), 16, ordinary=[True, False])
    assert kinds.dtype == torch.bool and kinds.shape == (16,)
    assert bool(kinds.any()) and not bool(kinds.all())
    assert torch.equal(kinds, y[:, 0].amax(dim=(1, 2)) == 0.0)  # exactly the crops of frame 0
    # Without the kinds, no crop is anchored; the batch itself is the same.
    x0, y0, none = batch_kinds(data, np.random.default_rng(5), 16)
    x1, y1, _ = batch_kinds(data, np.random.default_rng(5), 16, ordinary=[True, False])
    assert not bool(none.any()) and torch.equal(x0, x1) and torch.equal(y0, y1)
    # Crops drawn from the close frames are anchored as their frame is (ordinary_frames leaves the
    # close frames out; --anchor-all keeps them in); crops shown as a raised camera sees them never.
    *_, kinds = batch_kinds(data, np.random.default_rng(5), 16, close=1.0, close_ones=[0], ordinary=[False, True])
    assert not bool(kinds.any())
    *_, kinds = batch_kinds(data, np.random.default_rng(5), 16, close=1.0, close_ones=[0], ordinary=[True, False])
    assert bool(kinds.all())
    *_, kinds = batch_kinds(data, np.random.default_rng(5), 16, beyond=1.0, ordinary=[True, True])
    assert not bool(kinds.any())


def test_the_anchor_needs_a_start_to_stay_close_to(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--anchor", "1"])
    assert "--init" in capsys.readouterr().err


def test_anchoring_all_but_the_surfaces_needs_an_anchor(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--anchor-all"])
    assert "--anchor WEIGHT" in capsys.readouterr().err
