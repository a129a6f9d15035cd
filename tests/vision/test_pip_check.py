"""The pips of a number card as a second witness: counted on rendered cards, used only to veto."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from table.cards import Card
from vision.faces import deck_style, render_face
from vision.pip_check import BODY, count_pips, pip_vetoes
from vision.rectify import Pyramid, order_corners

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


@pytest.mark.parametrize(("read", "runner_up", "share", "vetoed"), [
    ("8c", "6c", 0.3, True),    # the corners read 8, nearly 6, and the body shows six pips
    ("8c", "6c", 1e-5, False),  # no doubt at all about the rank: not asked
    ("6c", "8c", 0.3, False),   # the body agrees with the reading
    ("8c", "9c", 0.3, False),   # six pips are neither rank: the count names nothing
    ("Qc", "6c", 0.3, False),   # a court card has no pips to count
])  # fmt: skip
def test_a_reading_is_vetoed_only_when_the_pips_are_the_runner_up(read: str, runner_up: str, share: float,
                                                                    vetoed: bool) -> None:  # fmt: skip
    frame, corners = _table_with("6c")
    posterior = _posterior(read, runner_up, share)[None]
    ids = np.array([Card.parse(read).id])
    veto = pip_vetoes(frame, corners[None], ids, posterior, pyramid=Pyramid(frame))
    assert veto.tolist() == [vetoed]


def test_unsure_readings_are_never_asked() -> None:
    frame, corners = _table_with("6c")
    veto = pip_vetoes(frame, corners[None], np.array([-1]), _posterior("8c", "6c", 0.3)[None], pyramid=Pyramid(frame))
    assert not veto.any()
