"""The pips of a number card as a second witness: counted on rendered cards; they veto a reading, or
name a card the corners hesitate on between two ranks when the pips lie as printed."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from table.cards import Card
from vision.mark_reader import card_regions
from vision.pip_check import (
    BODY,
    PipLayout,
    corner_runner_up,
    count_pips,
    hesitant_prior,
    pip_evidence,
    pip_layout,
    pip_verdicts,
)
from vision.rectify import Pyramid, order_corners
from vision.render.faces import deck_style, render_face

RANKS = "23456789T"


def _face(card: str, seed: int = 0) -> np.ndarray:
    face = render_face(deck_style(seed, "train"), Card.parse(card))
    return np.ascontiguousarray(face[..., :3])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_number_card_of_a_deck_shows_its_rank_in_pips(seed: int) -> None:
    for k, rank in enumerate(RANKS):
        body = cv2.resize(_face(rank + "s", seed), BODY, interpolation=cv2.INTER_AREA)
        assert count_pips(body) == k + 2, rank


def test_pips_of_unlike_sizes_are_not_counted() -> None:
    body = cv2.resize(_face("6h"), BODY, interpolation=cv2.INTER_AREA)
    w, h = BODY
    body[int(0.1 * h) : int(0.5 * h), : w // 2] = body[2, w // 2]  # paper over the upper left pips...
    body[int(0.3 * h) : int(0.33 * h), int(0.25 * w) : int(0.35 * w)] = 0  # ...and a sliver of ink left
    assert count_pips(body) is None


def _table_with(card: str) -> tuple[np.ndarray, np.ndarray]:
    """A dark table with ``card`` lying straight in it, and its corners in the reader's order."""
    face = _face(card)
    frame = np.full((400, 400, 3), 40, np.uint8)
    x0, y0 = 100, 60
    h, w = 252, 180
    frame[y0 : y0 + h, x0 : x0 + w] = cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA)
    corners = order_corners(np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], np.float64) - 0.5)
    return frame, corners


def _posterior(best: str, runner_up: str, share: float) -> np.ndarray:
    out = np.full(52, 1e-6)
    out[Card.parse(runner_up).id] = share
    out[Card.parse(best).id] = 1.0 - share
    return out / out.sum()


def _ask(frame: np.ndarray, corners: np.ndarray, read: str | None, posterior: np.ndarray, *,
         face_up: bool = True) -> tuple[str | None, float]:  # fmt: skip
    """The reading of one card after the pips were asked, and its confidence."""
    ids = np.array([Card.parse(read).id if read else -1])
    before = float(posterior.max())
    card_ids, confidence = pip_verdicts(frame, corners[None], (ids, np.array([face_up]), np.array([before])),
                                        posterior[None], pyramid=Pyramid(frame), threshold=THRESHOLD)  # fmt: skip
    return (str(Card.from_id(int(card_ids[0]))) if card_ids[0] >= 0 else None), float(confidence[0])


THRESHOLD = 0.784


@pytest.mark.parametrize(("read", "runner_up", "share", "after"), [
    ("8c", "6c", 1e-3 * 1.1, None),  # the corners read 8 all but surely, the body shows six pips: vetoed
    ("8c", "6c", 1e-5, "8c"),   # no doubt at all about the rank: not asked
    ("6c", "8c", 0.3, "6c"),    # the body agrees with the reading
    ("8c", "9c", 0.3, "8c"),    # six pips are neither rank: the count names nothing
    ("Qc", "6c", 0.3, "Qc"),    # a court card has no pips to count
])  # fmt: skip
def test_a_sure_reading_is_vetoed_only_when_the_pips_are_the_runner_up(read: str, runner_up: str, share: float,
                                                                         after: str | None) -> None:  # fmt: skip
    frame, corners = _table_with("6c")
    assert _ask(frame, corners, read, _posterior(read, runner_up, share))[0] == after


@pytest.mark.parametrize(("read", "best"), [(None, "8c"), ("8c", "8c"), (None, "6c")])
def test_a_card_in_doubt_between_two_ranks_is_named_by_its_pips(read: str | None, best: str) -> None:
    frame, corners = _table_with("6c")
    posterior = _posterior(best, "8c" if best == "6c" else "6c", 0.45)
    card, confidence = _ask(frame, corners, read, posterior)
    assert card == "6c"
    six, eight = posterior[Card.parse("6c").id], posterior[Card.parse("8c").id]
    sixes = sum(posterior[Card.parse("6" + suit).id] for suit in "cdhs")  # every card of the counted rank
    assert confidence == pytest.approx(six * 0.99 / (sixes * 0.99 + (1.0 - sixes) * 0.01))
    assert confidence > max(six, eight)


def test_pips_do_not_overturn_corners_that_barely_doubt() -> None:
    """The count is evidence, not a verdict: against corners sure of an 8 (a 6 at 0.2 %), six
    regular pips make the reading unsure; they do not name a six."""
    frame, corners = _table_with("6c")
    posterior = _posterior("8c", "6c", 0.002)
    assert _ask(frame, corners, None, posterior)[0] is None
    assert _ask(frame, corners, "8c", posterior)[0] is None


def test_pips_cut_by_the_outline_name_nothing() -> None:
    frame, corners = _table_with("6c")
    shifted = corners + np.array([0.0, 30.0])  # an outline a fifth of the card too low: the top pips cut off
    body = cv2.resize(_face("6c"), BODY, interpolation=cv2.INTER_AREA)
    assert pip_layout(body).regular
    shifted_body = card_regions(Pyramid(frame), [shifted], (0.0, 0.0, 1.0, 1.0), BODY, ordered=True)[0]
    assert not pip_layout(shifted_body).regular  # the cut row is what keeps the count from naming
    card, _ = _ask(frame, shifted, None, _posterior("8c", "6c", 0.45))
    assert card is None


def test_a_card_read_face_down_is_never_named() -> None:
    frame, corners = _table_with("6c")
    assert _ask(frame, corners, None, _posterior("8c", "6c", 0.45), face_up=False)[0] is None


def test_every_printed_layout_is_regular_a_seven_s_odd_pip_included() -> None:
    for seed in (0, 1, 2):
        for rank in RANKS:
            body = cv2.resize(_face(rank + "d", seed), BODY, interpolation=cv2.INTER_AREA)
            assert pip_layout(body).regular, (seed, rank)


def _dots(right_rows: tuple[float, ...]) -> np.ndarray:
    """A blank body with six round pips: a left column at 20/50/80 % of the height, a right one at ``right_rows``."""
    w, h = BODY
    body = np.full((h, w, 3), 235, np.uint8)
    for x, rows in ((0.32, (0.2, 0.5, 0.8)), (0.68, right_rows)):
        for y in rows:
            cv2.circle(body, (round(x * w), round(y * h)), 7, (20, 20, 20), -1, cv2.LINE_AA)
    return body


def test_pips_not_mirrored_through_the_centre_are_not_regular() -> None:
    assert pip_layout(_dots((0.2, 0.5, 0.8))) == PipLayout(6, True)
    assert pip_layout(_dots((0.25, 0.55, 0.85))) == PipLayout(6, False)  # the right column a little low


def test_a_ten_with_its_middle_pips_hidden_is_not_a_regular_eight() -> None:
    body = cv2.resize(_face("Th"), BODY, interpolation=cv2.INTER_AREA)
    w, h = BODY
    body[int(0.15 * h) : int(0.85 * h), int(0.42 * w) : int(0.58 * w)] = body[2, w // 2]  # paper down the middle
    layout = pip_layout(body)
    assert layout.count == 8 and not layout.regular  # mirrored, but an eight prints two pips in the middle


def _corners_reading(*readings: dict[str, float]) -> np.ndarray:
    """One card's corner probabilities (1, C, 52) from each corner's {card: probability}."""
    out = np.full((1, len(readings), 52), 1e-6)
    for c, reading in enumerate(readings):
        for card, p in reading.items():
            out[0, c, Card.parse(card).id] = p
    return out


def test_a_rank_one_corner_hesitated_over_is_the_runner_up() -> None:
    cards = _corners_reading({"8h": 0.82, "6h": 0.06, "9h": 0.03}, {"8h": 0.65, "6h": 0.24, "Th": 0.02})
    best = np.array([Card.parse("8h").id])
    assert corner_runner_up(cards, np.array([[0.0, 0.0]]), best).tolist() == [4]  # rank 6 (ranks from 2)
    # a corner that sees no index is not asked; corners sure of their rank hesitate over nothing
    assert corner_runner_up(cards, np.array([[0.0, 0.9]]), best).tolist() == [-1]
    sure = _corners_reading({"8h": 0.97, "6h": 0.02}, {"8h": 0.95, "6h": 0.04})
    assert corner_runner_up(sure, np.array([[0.0, 0.0]]), best).tolist() == [-1]
    # the best card's own rank in another suit is no runner-up
    suits = _corners_reading({"8h": 0.6, "8d": 0.35}, {"8h": 0.7, "8d": 0.25})
    assert corner_runner_up(suits, np.array([[0.0, 0.0]]), best).tolist() == [-1]


@pytest.mark.parametrize(("truth", "vetoed"), [("6c", True), ("8c", False)])
def test_corners_that_hesitated_have_the_pips_asked_though_their_vote_is_sure(truth: str, vetoed: bool) -> None:
    """Two corners printed alike read an 8 at 0.82 and 0.65 and a 6 at 0.06 and 0.24: voted, the
    6 keeps 0.04 %, too little for the pips to be asked by the posterior. The corners' hesitation
    asks them: six pips veto the 8 (unsure, not named a 6); eight pips confirm it."""
    frame, corners = _table_with(truth)
    posterior = _posterior("8c", "6c", 4e-4)
    ask = {"frame": frame, "corners": corners[None], "face_up": np.array([True]), "posterior": posterior[None],
           "pyramid": Pyramid(frame), "threshold": THRESHOLD}  # fmt: skip
    assert not pip_evidence(**ask).veto[0]  # asked by the posterior alone: not at all
    found = pip_evidence(**ask, hesitated=np.array([4]))
    assert found.veto[0] == vetoed
    assert found.named[0] in (-1, Card.parse("8c").id)  # never the six by the vote: its posterior stays small


@pytest.mark.parametrize(("truth", "named"), [("6c", "6c"), ("8c", "8c")])
def test_the_count_is_weighed_against_what_each_corner_says_when_they_hesitated(truth: str, named: str) -> None:
    """The same card with the corners' rank as they say it one by one (8 at 0.82 and 0.65, 6 at
    0.18 and 0.35): six pips lying as printed now name the six (the vote left it 0.04 %); eight
    confirm the eight."""
    frame, corners = _table_with(truth)
    posterior = _posterior("8c", "6c", 4e-4)
    cards = _corners_reading({"8c": 0.82, "6c": 0.18}, {"8c": 0.65, "6c": 0.35})
    prior = hesitant_prior(posterior[None], cards, np.zeros((1, 2)))
    assert prior[0, Card.parse("6c").id] == pytest.approx((0.18 + 0.35) / 2, abs=0.005)
    found = pip_evidence(frame, corners[None], np.array([True]), posterior[None], pyramid=Pyramid(frame),
                         threshold=THRESHOLD, hesitated=np.array([4]), prior=prior)  # fmt: skip
    assert found.named[0] == Card.parse(named).id and found.confidence[0] >= THRESHOLD
    assert not found.veto[0]


def test_the_hesitant_prior_takes_the_rank_from_the_corners_that_see_and_the_suit_from_the_vote() -> None:
    posterior = _posterior("2s", "2c", 0.33)[None]  # the vote: the two of spades, clubs second
    cards = _corners_reading({"2c": 0.8, "3c": 0.2}, {"Kd": 0.5, "Qd": 0.5})  # the second hardly sees
    prior = hesitant_prior(posterior, cards, np.array([[0.02, 0.7]]))
    by_rank = prior[0].reshape(13, 4).sum(axis=1)
    assert by_rank[0] == pytest.approx(0.8, abs=1e-3) and by_rank[1] == pytest.approx(0.2, abs=1e-3)
    assert int(np.argmax(prior[0])) == Card.parse("2s").id  # the suit is the vote's, not the one corner's
    assert hesitant_prior(np.zeros((0, 52)), np.zeros((0, 2, 52)), np.zeros((0, 2))).shape == (0, 52)
