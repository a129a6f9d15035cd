"""bench.hands_apart: the demo's five-card tables, scored card by card with and without the split."""

from __future__ import annotations

import numpy as np

from bench.hands_apart import score, table, without_split
from vision.gap_split import looked_at


def test_a_table_holds_twenty_cards_face_up_five_at_each_seat() -> None:
    image, truth = table(4)
    assert image.shape == (720, 1280, 3)
    assert len(truth) == 20 and len({card for card, _ in truth}) == 20


def test_a_table_is_drawn_at_the_size_asked_with_its_cards_in_proportion() -> None:
    from bench.hands_apart import main

    _, truth = table(4)
    large, truth_large = table(4, (2304, 1296))
    assert large.shape == (1296, 2304, 3) and [c for c, _ in truth] == [c for c, _ in truth_large]
    from vision.rectify import card_heights

    ratio = np.median(card_heights(np.array([q for _, q in truth_large]))) / np.median(
        card_heights(np.array([q for _, q in truth]))
    )
    assert abs(ratio - 1296 / 720) < 0.05
    try:
        main(["--size", "2304by1296"])
    except SystemExit as exc:
        assert exc.code == 2
    else:
        raise AssertionError("a size not WIDTHxHEIGHT is refused")


def test_without_the_split_no_outline_is_looked_at_and_with_it_the_real_one_is() -> None:
    import vision.detect

    quads = np.stack([np.array([[0.0, 0], [63, 0], [63, 88], [0, 88]]) * k for k in (1, 1, 1, 2)])
    with without_split():
        assert not vision.detect.looked_at(quads).any()
    assert vision.detect.looked_at is looked_at and looked_at(quads).tolist() == [False, False, False, True]


class _Seen(list):  # type: ignore[type-arg]
    corners: list[np.ndarray]


def test_a_card_is_found_right_unsure_or_wrong_by_the_outline_over_it() -> None:
    card = np.array([[0.0, 0], [63, 0], [63, 88], [0, 88]])
    truth = [("As", card), ("Kd", card + 200), ("7c", card + 400), ("2h", card + 600)]

    class Reader:
        def read(self, image: np.ndarray) -> object:
            seen = _Seen([type("O", (), {"card": c})() for c in ("As", "Kh", None)])
            seen.corners = [card, card + 200, card + 400]
            return seen

    counts = score(Reader(), np.zeros((8, 8, 3), np.uint8), truth)  # type: ignore[arg-type]
    assert counts == {"cards": 4, "found": 3, "right": 1, "unsure": 1, "wrong": 1}
