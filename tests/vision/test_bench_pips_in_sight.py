"""bench.pips_in_sight: the layouts the pips in sight fit, tallied on rendered touching rows."""

from __future__ import annotations

from collections import Counter

import pytest

from bench.pips_in_sight import main, measure
from vision.reader import MODELS_DIR, CardReader


def test_a_touching_row_is_tallied_and_no_number_card_fits_another_rank() -> None:
    tally: Counter[str] = Counter()
    measure(CardReader(MODELS_DIR), "holdout", True, 1, tally)
    number = "holdout  touching number"
    assert tally[f"{number}|cards"] >= 5  # the face-up cards of one row scene
    assert tally[f"{number}|one fits"] >= 1 and tally[f"{number}|one fits, not the card"] == 0
    outcomes = ("one fits", "several fit", "none fits")
    assert sum(tally[f"{number}|{name}"] for name in outcomes) == tally[f"{number}|cards"]


def test_the_table_prints_a_row_per_pool_layout_and_class(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--scenes", "1"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].split()[:3] == ["pool", "layout", "class"]
    assert any(row.startswith("holdout  touching number") for row in rows[1:])
