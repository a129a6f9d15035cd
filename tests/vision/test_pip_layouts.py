"""A number card's rank from the pips left in sight when a neighbour lies over part of it: the printed
layouts, what is hidden, and the one rank that fits (or none when two do)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from table.cards import Card
from vision.mark_reader import card_regions
from vision.pip_check import BODY, pip_evidence, pip_layout
from vision.pip_layouts import counts_in_sight, hidden_mask, layout
from vision.rectify import Pyramid, order_corners
from vision.render.faces import deck_style, render_face

RANKS = "23456789T"
CARD = (180, 252)


def _face(card: str, seed: int = 0) -> np.ndarray:
    face = render_face(deck_style(seed, "train"), Card.parse(card))
    return np.ascontiguousarray(face[..., :3])


def _quad(x0: float, y0: float) -> np.ndarray:
    w, h = CARD
    return order_corners(np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], np.float64) - 0.5)


def _row(card: str, over: str | None, *, share: float = 0.25, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A dark table with ``card`` lying straight and, when ``over`` is given, that card lying over its
    right ``share`` (a touching row); the frame and both outlines (the card's first)."""
    frame = np.full((400, 560, 3), 40, np.uint8)
    w, h = CARD
    x0, y0 = 60, 70
    frame[y0 : y0 + h, x0 : x0 + w] = cv2.resize(_face(card, seed), CARD, interpolation=cv2.INTER_AREA)
    quads = [_quad(x0, y0)]
    if over is not None:
        x1 = x0 + round(w * (1.0 - share))
        frame[y0 - 6 : y0 - 6 + h, x1 : x1 + w] = cv2.resize(_face(over, seed + 1), CARD, interpolation=cv2.INTER_AREA)
        quads.append(_quad(x1, y0 - 6))
    return frame, np.stack(quads)


def _fits(frame: np.ndarray, quads: np.ndarray) -> list[int]:
    body = card_regions(Pyramid(frame), [quads[0]], (0.0, 0.0, 1.0, 1.0), BODY, ordered=True)[0]
    return counts_in_sight(body, quads, 0, (frame.shape[1], frame.shape[0]))


def test_each_layout_has_its_count_of_places_point_symmetric_but_the_seven() -> None:
    for count in range(2, 11):
        places = layout(count, 0.3, 0.2, 0.8)
        assert len(places) == count
        turned = 1.0 - places
        gaps = np.abs(places[:, None, :] - turned[None, :, :]).sum(axis=2).min(axis=1)
        assert (gaps < 1e-9).all() == (count != 7), count
    assert not np.allclose(layout(7, 0.3, 0.2, 0.8), layout(7, 0.3, 0.2, 0.8, upside_down=True))
    with pytest.raises(ValueError, match="2 to 10"):
        layout(11, 0.3, 0.2, 0.8)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_card_in_full_sight_fits_its_own_layout_alone(seed: int) -> None:
    for k, rank in enumerate(RANKS):
        frame, quads = _row(rank + "s", None, seed=seed)
        assert _fits(frame, quads) == [k + 2], rank


@pytest.mark.parametrize("rank", list(RANKS))
def test_a_card_whose_right_quarter_a_neighbour_hides_still_fits_its_layout_alone(rank: str) -> None:
    """The neighbour hides the right column's pips and one index; what is left is one rank's layout."""
    frame, quads = _row(rank + "h", "Kc")
    assert _fits(frame, quads) == [RANKS.index(rank) + 2]


def test_the_hidden_part_is_what_other_outlines_cover_and_what_falls_outside_the_frame() -> None:
    frame, quads = _row("8h", "Kc")
    w, h = BODY
    hidden = hidden_mask(quads[0], quads[1:], (frame.shape[1], frame.shape[0]), BODY, margin=0)
    assert hidden[: int(0.95 * h), int(0.8 * w) :].all() and not hidden[:, : int(0.7 * w)].any()
    # The same card half out of a frame cut at its middle: the lower half is out of sight.
    cut = hidden_mask(quads[0], quads[:0], (frame.shape[1], 70 + CARD[1] // 2), BODY, margin=0)
    assert cut[int(0.55 * h) :].all() and not cut[: int(0.45 * h)].any()


def test_a_seven_whose_extra_pip_is_hidden_fits_a_six_too_and_names_nothing() -> None:
    frame, quads = _row("7d", None)
    assert _fits(frame, quads) == [7]
    # A card lying over the middle of the seven's upper half, where only its extra pip is.
    over = np.array([[130.0, 138.0], [170.0, 138.0], [170.0, 180.0], [130.0, 180.0]])
    cv2.fillPoly(frame, [over.astype(np.int32)], (200, 60, 60))
    assert _fits(frame, np.stack([quads[0], order_corners(over)])) == [6, 7]


def _posterior(best: str, runner_up: str, share: float) -> np.ndarray:
    out = np.full(52, 1e-6)
    out[Card.parse(runner_up).id] = share
    out[Card.parse(best).id] = 1.0 - share
    normal: np.ndarray = out / out.sum()
    return normal


def _named(frame: np.ndarray, quads: np.ndarray, posterior: np.ndarray) -> str | None:
    found = pip_evidence(frame, quads, np.array([True] * len(quads)), np.stack([posterior] * len(quads)),
                         pyramid=Pyramid(frame), threshold=0.784)  # fmt: skip
    return str(Card.from_id(int(found.named[0]))) if found.named[0] >= 0 else None


@pytest.mark.parametrize(("best", "runner_up", "named"), [
    ("8h", "5h", "8h"),  # the corners lean the right way: the layout makes it sure
    ("5h", "8h", "8h"),  # the corners lean the wrong way: the layout is the runner-up's
    ("8h", "6h", "8h"),  # the same, whatever the runner-up
])  # fmt: skip
def test_a_hesitant_card_in_a_touching_row_is_named_by_the_pips_in_sight(best: str, runner_up: str,
                                                                           named: str) -> None:  # fmt: skip
    frame, quads = _row("8h", "Kc")
    assert _named(frame, quads, _posterior(best, runner_up, 0.4)) == named


def test_the_layout_names_only_the_corners_best_or_runner_up_rank() -> None:
    frame, quads = _row("8h", "Kc")
    assert _named(frame, quads, _posterior("5h", "4h", 0.4)) is None  # an eight, but they read 5 or 4
    assert _named(frame, quads, _posterior("Kh", "8h", 0.4)) is None  # a court card's best: never a number


def test_corners_all_but_sure_of_another_rank_are_not_overturned() -> None:
    frame, quads = _row("8h", "Kc")
    assert _named(frame, quads, _posterior("5h", "8h", 0.002)) is None


def _torn(best: str, runner_up: str) -> np.ndarray:
    """Corners torn between two number ranks, each in two suits: the best card leads, but no card
    the pips could name reaches the threshold (the best rank's weight is split over two suits)."""
    out = np.full(52, 1e-6)
    for card, share in ((best, 0.32), (best[0] + "d", 0.25), (runner_up, 0.3), (runner_up[0] + "d", 0.13)):
        out[Card.parse(card).id] = share
    normal: np.ndarray = out / out.sum()
    return normal


def _evidence(frame: np.ndarray, quads: np.ndarray, posterior: np.ndarray) -> tuple[bool, bool, int | None]:
    """Whether the pips were asked about the first card, whether they veto its best card, and the
    pips the count finds on its body (hidden or not)."""
    found = pip_evidence(frame, quads, np.ones(len(quads), bool), np.stack([posterior] * len(quads)),
                         pyramid=Pyramid(frame), threshold=0.784)  # fmt: skip
    body = card_regions(Pyramid(frame), [quads[0]], (0.0, 0.0, 1.0, 1.0), BODY, ordered=True)[0]
    return bool(found.asked[0]), bool(found.veto[0]), pip_layout(body).count


def test_a_count_a_neighbour_cut_short_vetoes_no_rank_whose_layout_fits_the_pips_in_sight() -> None:
    cut = []  # fives whose neighbour hides enough of them that four pips are counted
    for seed in range(3):
        for share in (0.33, 0.35, 0.38):
            frame, quads = _row("5h", "Kc", share=share, seed=seed)
            asked, vetoed, count = _evidence(frame, quads, _torn("5h", "4h"))
            if count == 4 and _fits(frame, quads) == [5]:
                cut.append((seed, share, asked, vetoed))
    assert cut  # the premise: the count is the corners' runner-up, a five's layout fits what is in sight
    assert all(asked and not vetoed for *_, asked, vetoed in cut), cut
    # the same count on a card in full sight is a four: the five the corners lean to is vetoed
    frame, quads = _row("4h", None)
    asked, vetoed, count = _evidence(frame, quads, _torn("5h", "4h"))
    assert (asked, count) == (True, 4)
    assert vetoed
