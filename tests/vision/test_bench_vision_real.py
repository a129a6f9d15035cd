"""bench.vision's labels of the real photo sets: file names and label files parsed to cards.

The real photos live in ``../shared/vision-real`` (measured only, never copied here); the test on
them is skipped when the folder is absent, as in a user's clone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.vision import REAL, closeup_label, table_labels


@pytest.mark.parametrize(("name", "card"), [("10hearts.jpg", "Th"), ("Aspades.jpg", "As"), ("2clubs.jpg", "2c"),
                                            ("Qdiamonds.jpg", "Qd")])  # fmt: skip
def test_a_closeup_is_labelled_by_its_file_name(name: str, card: str) -> None:
    assert closeup_label(Path(name)) == card


@pytest.mark.parametrize("name", ["1hearts.jpg", "Ahearts2.jpg", "Tspades.jpg", "Kstars.jpg"])
def test_a_closeup_with_another_name_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="rank"):
        closeup_label(Path(name))


def test_table_labels_give_each_photo_its_cards_and_its_cut_cards(tmp_path: Path) -> None:
    (tmp_path / "labels.txt").write_text("0.jpg: Qh 4s\n\n10.jpg: 7s Td 3d\n")
    (tmp_path / "optional.txt").write_text("10.jpg: 6s 9s\n")
    labels = table_labels(tmp_path)
    assert labels == {"0.jpg": (frozenset({"Qh", "4s"}), frozenset()),
                      "10.jpg": (frozenset({"7s", "Td", "3d"}), frozenset({"6s", "9s"}))}  # fmt: skip


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/vision-real is not here (measure-only photos)")
def test_the_real_sets_parse_to_52_closeups_and_53_table_cards() -> None:
    closeups = sorted((REAL / "closeups").glob("*.jpg"))
    assert len({closeup_label(p) for p in closeups}) == len(closeups) == 52
    labels = table_labels(REAL / "tables")
    assert len(labels) == 11
    assert sum(len(want) for want, _ in labels.values()) == 53
    assert all(not (want & optional) for want, optional in labels.values())
