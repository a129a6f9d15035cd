"""bench.joker_misses: the jokers the reader does not read, with the check's scores at the
reader's outline and at the true one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import pytest

from bench.joker_misses import joker_misses
from vision.reader import CardReader


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader.default()


class NoJokers:
    """The shipped reader, but naming no joker: the joker check's threshold out of reach."""

    def __init__(self, reader: CardReader) -> None:
        self.reader = reader
        self.joker_check = reader.joker_check

    def evidence(self, frame: Any) -> Any:
        evidence = self.reader.evidence(frame)
        evidence.joker_threshold = 2.0
        return evidence


def test_every_joker_a_reader_does_not_name_is_listed_with_its_scores_and_picture(reader: CardReader,
                                                                                   tmp_path: Path) -> None:  # fmt: skip
    count, rows = joker_misses(NoJokers(reader), "en", touching=False, scenes=2, pictures=tmp_path)  # type: ignore[arg-type]
    assert count == 4  # the deck's two jokers in each scene
    assert len(rows) == 4
    for row in rows:
        assert row["letters"] == "en" and row["layout"] == "apart" and row["scene"] in (3000, 3001)
        assert len(row["true_bare"]) == 2 and all(0.0 <= p <= 1.0 for p in row["true_bare"])
        if row["iou"] >= 0.5:  # found: read as none of the 52 or unsure, never as the joker here
            assert row["read"] != "Jk"
        picture = cv2.imread(row["picture"])
        assert picture is not None and picture.ndim == 3
    # the check at the true outline: a joker's corner, for most of them (hold-out fonts)
    assert sum(max(row["true_bare"]) >= 0.5 for row in rows) >= 3
