"""The ledger CSV: text a spreadsheet would evaluate as a formula is kept as text."""

import csv
import io

import pytest

from tocktable.export import FORMULA_STARTS, csv_cell, ledger_csv


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("name", ["=1+2", "+1", "-1+1", "@SUM(A1)", "\tAnn", "\rAnn", '=HYPERLINK("http://x")'])
def test_a_name_that_starts_like_a_formula_is_written_as_text(name: str) -> None:
    data = {"ledger": [{"name": name, "bought_in": 1000, "cashed_out": 960, "net": -40}]}
    header, line = rows(ledger_csv(data))
    assert header == ["name", "bought_in", "cashed_out", "net"]
    assert line[0] == "'" + name  # the quote makes it text; what follows is the name unchanged
    assert not line[0].startswith(FORMULA_STARTS)
    assert line[1:] == ["1000", "960", "-40"]  # numbers stay numbers, a negative net included


def test_ordinary_names_and_numbers_are_unchanged() -> None:
    data = {"ledger": [{"name": "Ann", "bought_in": 1000, "cashed_out": 1040, "net": 40},
                       {"name": "Bob = Rob", "bought_in": 1000, "cashed_out": 960, "net": -40}]}  # fmt: skip
    assert rows(ledger_csv(data))[1:] == [["Ann", "1000", "1040", "40"], ["Bob = Rob", "1000", "960", "-40"]]


def test_csv_cell_leaves_non_text_alone() -> None:
    assert csv_cell(-40) == -40 and csv_cell(0) == 0 and csv_cell(None) is None
    assert csv_cell("") == "" and csv_cell("'=x") == "'=x"  # already text-quoted: not quoted twice


def test_a_line_break_inside_a_name_stays_inside_its_cell() -> None:
    data = {"ledger": [{"name": "Ann\nBob\rCy", "bought_in": 1, "cashed_out": 2, "net": 1}]}
    assert rows(ledger_csv(data)) == [["name", "bought_in", "cashed_out", "net"], ["Ann\nBob\rCy", "1", "2", "1"]]
