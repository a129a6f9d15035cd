"""vision.rim: along a card's sides the paper meets the table; along cloth taken for a card, the
same pattern lies on both hands."""

from __future__ import annotations

import numpy as np

from vision.rim import rim_contrast

QUAD = np.array([[100.0, 60.0], [220.0, 60.0], [220.0, 230.0], [100.0, 230.0]])


def _stripes(height: int = 300, width: int = 320, period: int = 14) -> np.ndarray:
    y, x = np.mgrid[:height, :width]
    light = ((x + y) // period) % 2 == 0
    return np.where(light[..., None], np.uint8(225), np.uint8(60)).repeat(3, axis=2)


def test_a_card_on_a_plain_table_stands_out_on_every_side() -> None:
    frame = np.full((300, 320, 3), 40, np.uint8)
    frame[60:231, 100:221] = 235
    assert np.all(rim_contrast(frame, QUAD, 5.0) > 5.0)


def test_a_card_on_stripes_stands_out_on_every_side() -> None:
    frame = _stripes()
    frame[60:231, 100:221] = (250, 245, 240)
    assert np.all(rim_contrast(frame, QUAD, 5.0) > 1.0)


def test_a_striped_back_without_a_border_stands_out_from_wood() -> None:
    frame = np.full((300, 320, 3), (40, 70, 110), np.uint8)  # brown
    frame[60:231, 100:221] = _stripes()[60:231, 100:221]
    assert np.all(rim_contrast(frame, QUAD, 5.0) > 0.75)


def test_stripes_alone_do_not_stand_out() -> None:
    contrast = rim_contrast(_stripes(), QUAD, 5.0)
    assert np.all(contrast < 0.5), contrast


def test_a_side_beyond_the_frame_cannot_be_measured() -> None:
    frame = np.full((300, 320, 3), 40, np.uint8)
    frame[0:231, 100:221] = 235
    quad = np.array([[100.0, -40.0], [220.0, -40.0], [220.0, 230.0], [100.0, 230.0]])
    contrast = rim_contrast(frame, quad, 5.0)
    assert np.isnan(contrast[0]) and np.all(contrast[1:] > 5.0)
