"""The tracker and jokers: ``"Jk"`` is a card it follows like any other, a deck holds up to two
(alike, never a duplicate of each other), a third is the duplicate, and a joker has no Tock mark."""

from __future__ import annotations

import pytest

from tests.vision.test_track import Feed, all_faces, down, seen
from vision.track import TrackerError


def test_a_joker_read_steadily_is_reported_as_jk() -> None:
    feed = Feed()
    view = feed(seen("Jk", 0.4), seen("Ah", 0.6), times=3)
    assert sorted(all_faces(view)) == ["Ah", "Jk"]
    assert not view.conflicts


@pytest.mark.parametrize("spelling", ["joker", "JK", "Fou"])
def test_the_tables_spellings_of_a_joker_are_taken_as_jk(spelling: str) -> None:
    view = Feed()(seen(spelling, 0.4), times=3)
    assert all_faces(view) == ["Jk"]


def test_two_jokers_are_no_duplicate_and_a_third_is() -> None:
    feed = Feed()
    view = feed(seen("Jk", 0.3), seen("Jk", 0.5), times=3)
    assert all_faces(view) == ["Jk", "Jk"] and not view.conflicts
    view = feed(seen("Jk", 0.3), seen("Jk", 0.5), seen("Jk", 0.7), times=3)
    assert all_faces(view) == ["Jk", "Jk"]
    (conflict,) = view.conflicts
    assert conflict.kind == "duplicate" and conflict.card == "Jk" and "at most 2" in conflict.message


def test_a_third_joker_in_a_seat_is_withheld_without_naming_it() -> None:
    feed = Feed()
    feed(seen("Jk", 0.45, 0.86), seen("Jk", 0.55, 0.86), times=3)
    view = feed(seen("Jk", 0.45, 0.86), seen("Jk", 0.55, 0.86), seen("Jk", 0.6, 0.9), times=3)
    (conflict,) = view.conflicts
    assert conflict.kind == "duplicate" and "joker" not in conflict.message.lower() and "Jk" not in conflict.message


def test_a_marked_back_turned_up_as_a_joker_is_a_changed_conflict() -> None:
    feed = Feed()
    feed(down(0.4, mark="h:large"), times=3)
    view = feed(seen("Jk", 0.4), times=3)
    assert "Jk" not in all_faces(view)
    assert [c.kind for c in view.conflicts] == ["changed"]


def test_a_plain_back_turned_up_as_a_joker_is_the_joker() -> None:
    feed = Feed()
    feed(down(0.4, mark="plain"), times=3)
    view = feed(seen("Jk", 0.4), times=3)
    assert all_faces(view) == ["Jk"] and not view.conflicts


def test_a_card_that_is_no_card_nor_a_joker_is_refused_naming_the_joker() -> None:
    with pytest.raises(TrackerError, match="'Jk' for a joker"):
        Feed()(seen("Jq", 0.4))
