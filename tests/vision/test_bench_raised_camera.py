"""bench.raised_camera: the cards' outlines follow the synthetic camera as it is raised and tilted."""

from __future__ import annotations

import numpy as np
import pytest

from bench.raised_camera import _area, _moved
from hardware.camera_rig import CameraRig


@pytest.mark.parametrize(("lift", "tilt"), [(0.3, 0.0), (0.6, 12.0)])
def test_a_mark_drawn_at_a_corner_is_where_the_moved_camera_shows_it(lift: float, tilt: float) -> None:
    rig = CameraRig(1.0)
    rig.set(lift=lift, tilt=tilt)
    image = np.zeros((360, 640, 3), np.uint8)
    image[100:104, 200:204] = 255  # a bright square whose middle is (201.5, 101.5)
    seen = rig.view(image).max(axis=2).astype(float)
    ys, xs = np.nonzero(seen > 60)
    weights = seen[ys, xs]
    centre = np.array([(xs * weights).sum(), (ys * weights).sum()]) / weights.sum()
    assert np.linalg.norm(_moved(rig, (640, 360), np.array([[201.5, 101.5]]))[0] - centre) < 1.0


def test_a_raised_camera_shows_a_card_smaller_by_the_square_of_the_heights() -> None:
    rig = CameraRig(1.0)
    rig.set(lift=0.25)
    card = np.array([[300.0, 100.0], [371.0, 100.0], [371.0, 200.0], [300.0, 200.0]])
    assert _area(_moved(rig, (640, 360), card)) == pytest.approx(_area(card) * (1 / 1.25) ** 2, rel=1e-6)
