"""The shipped models on real photos of other people's decks (measured only, never trained on).

Skipped when ``../shared/vision-real`` (a sibling of the repository) is absent, as in a user's clone.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from table.cards import Card
from vision import CardReader

REAL = Path(__file__).resolve().parents[2] / ".." / "shared" / "vision-real"
RANKS = {"Ace": "A", "King": "K", "Queen": "Q", "Jack": "J", "10": "T"}
SUITS = {"club": "c", "diamond": "d", "heart": "h", "spade": "s"}

pytestmark = [
    pytest.mark.real_photos,
    pytest.mark.skipif(not REAL.is_dir(), reason="../shared/vision-real is not here (measure-only photos)"),
]


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader.default()


def test_bicycle_webcam_photos_are_read_right_and_never_wrong(reader: CardReader) -> None:
    photos = sorted((REAL / "bicycle-webcam").glob("*.jpg"))[::2]  # half of them: a quick test
    assert len(photos) >= 100
    right = wrong = 0
    for path in photos:
        rank, suit, _ = path.stem.split("_")
        truth = RANKS.get(rank, rank) + SUITS[suit]
        seen = reader.read(cv2.imread(str(path)))
        assert len(seen), f"no card found in {path.name}"
        biggest = seen[int(np.argmax([cv2.contourArea(c.astype(np.float32)) for c in seen.corners]))]
        right += biggest.card == truth
        wrong += biggest.card not in (None, truth)
    assert wrong == 0
    assert right >= 0.97 * len(photos), f"{right} of {len(photos)} read right"


def test_fanned_corner_indices_are_read_from_their_boxes(reader: CardReader) -> None:
    image = cv2.imread(str(REAL / "fanned-corners" / "0.jpg"))
    shapes = json.loads((REAL / "fanned-corners" / "0.labelme.json").read_text())["shapes"]
    right = wrong = 0
    for shape in shapes:
        (x0, y0), (x1, y1) = np.min(shape["points"], axis=0), np.max(shape["points"], axis=0)
        truth = str(Card.parse(re.sub(r"^(10|[2-9AJQK])([CDHS])$", r"\1\2", shape["label"]).lower()))
        reading = reader.read_index_box(image, (x0, y0, x1, y1))
        right += reading.card == truth
        wrong += reading.card not in (None, truth)
    assert wrong == 0
    assert right >= 17
