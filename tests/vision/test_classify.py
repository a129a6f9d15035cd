"""How the corner readings of one card are combined (vision.classify)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classify import NO_INDEX, corner_probabilities, corner_ranks, prepare_crops, vote


def _corner(card: int, sure: float) -> np.ndarray:
    """P(card) for one corner: ``sure`` on ``card``, the rest spread over the other 51."""
    p = np.full(52, (1.0 - sure) / 51)
    p[card] = sure
    return p


def test_a_covered_corner_abstains() -> None:
    seen, covered = _corner(17, 0.9), _corner(40, 0.99)  # the covered corner shows someone else's index
    cards = np.stack([seen, covered])[None]
    best, posterior, index_seen = vote(cards, np.array([[0.0, 1.0]]), 1.0)
    alone, alone_posterior, _ = vote(seen[None, None], np.zeros((1, 1)), 1.0)
    assert best[0] == alone[0] == 17
    assert posterior[0] == pytest.approx(alone_posterior[0], rel=1e-6)
    assert index_seen[0] == pytest.approx(1.0)


def test_corners_that_agree_are_surer_than_one_and_disagreeing_ones_less_sure() -> None:
    a, b = _corner(5, 0.8), _corner(9, 0.8)
    one = vote(a[None, None], np.zeros((1, 1)), 1.0)[1][0]
    agree = vote(np.stack([a, a])[None], np.zeros((1, 2)), 1.0)[1][0]
    disagree = vote(np.stack([a, b])[None], np.zeros((1, 2)), 1.0)[1][0]
    assert agree > one > disagree
    assert disagree <= 0.5


def test_a_higher_temperature_lowers_the_confidence_not_the_choice() -> None:
    cards = np.stack([_corner(30, 0.7), _corner(30, 0.6)])[None]
    cold = vote(cards, np.zeros((1, 2)), 0.5)
    warm = vote(cards, np.zeros((1, 2)), 2.0)
    assert cold[0][0] == warm[0][0] == 30
    assert cold[1][0] > warm[1][0]


def test_corner_probabilities_factor_rank_and_suit_and_set_aside_no_index() -> None:
    rank_logits = np.full((1, 1, NO_INDEX + 1), -10.0)
    rank_logits[0, 0, 12] = 5.0  # ace
    rank_logits[0, 0, NO_INDEX] = 5.0  # as likely that no index is there at all
    suit_logits = np.full((1, 1, 4), -10.0)
    suit_logits[0, 0, 3] = 5.0  # spades
    cards, none = corner_probabilities(rank_logits, suit_logits)
    assert none[0] == pytest.approx(0.5, abs=1e-3)
    assert int(cards[0].argmax()) == 12 * 4 + 3
    assert cards[0].sum() == pytest.approx(1.0)


def test_prepare_crops_ignores_the_light_and_sees_red() -> None:
    rng = np.random.default_rng(0)
    ink = rng.random((1, 64, 32)) < 0.2
    crop = np.where(ink[..., None], np.uint8(30), np.uint8(230)).repeat(3, axis=-1).astype(np.uint8)
    dim = (crop.astype(np.float32) * 0.4).astype(np.uint8)
    red = crop.copy()
    red[ink] = (40, 40, 200)
    bright, dark, reddish = prepare_crops(np.concatenate([crop, dim, red]))
    assert np.abs(bright[0] - dark[0]).max() < 0.1  # same grey picture under a dimmer light
    assert reddish[1][ink[0]].mean() > 0.5 > abs(bright[1][ink[0]].mean())
    with pytest.raises(ValueError, match="BGR"):
        prepare_crops(crop[..., 0])


def test_full_dependence_counts_two_agreeing_corners_as_one_witness() -> None:
    a = _corner(21, 0.7)
    one = vote(a[None, None], np.zeros((1, 1)), 0.5)[1][0]
    independent = vote(np.stack([a, a])[None], np.zeros((1, 2)), 0.5)[1][0]
    same = vote(np.stack([a, a])[None], np.zeros((1, 2)), 0.5, dependence=1.0)[1][0]
    half = vote(np.stack([a, a])[None], np.zeros((1, 2)), 0.5, dependence=0.5)[1][0]
    assert same == pytest.approx(one, rel=1e-9)
    assert one < half < independent


def test_dependence_never_sharpens_a_card_seen_by_one_corner() -> None:
    seen, covered = _corner(8, 0.6), _corner(44, 0.9)
    for none in ([[0.0, 1.0]], [[0.3, 0.9]]):  # one clean corner; or a doubtful one and a covered one
        cards = np.stack([seen, covered])[None]
        plain = vote(cards, np.array(none), 0.7)
        dependent = vote(cards, np.array(none), 0.7, dependence=1.0)
        assert dependent[0][0] == plain[0][0] == 8
        assert dependent[1][0] == pytest.approx(plain[1][0], rel=1e-9)


@pytest.mark.parametrize("dependence", [-0.1, 1.5])
def test_dependence_outside_0_to_1_is_refused(dependence: float) -> None:
    cards = np.stack([_corner(3, 0.9), _corner(3, 0.9)])[None]
    with pytest.raises(ValueError, match="dependence"):
        vote(cards, np.zeros((1, 2)), 1.0, dependence=dependence)


@pytest.mark.parametrize("shape", [(24, 2048), (5, 7), (3, 1), (2, 333)])
def test_the_crops_percentiles_are_numpys_to_the_bit(shape: tuple[int, int]) -> None:
    from vision.classify import _percentiles

    rng = np.random.default_rng(shape[1])
    for dtype in (np.float32, np.float64):
        rows = (rng.random(shape) * 255).astype(dtype)
        reference = np.percentile(rows, [2, 98], axis=1)
        ours = _percentiles(rows, (2.0, 98.0))
        assert all(np.array_equal(reference[k], ours[k]) for k in range(2))


def test_corner_ranks_are_each_corners_best_of_the_other_ranks() -> None:
    cards = np.full((1, 2, 52), 1e-4)
    cards[0, 0, 6 * 4 + 2] = 0.7  # corner 1: an 8h, a 6 (rank index 4) at 0.2
    cards[0, 0, 4 * 4 + 2] = 0.2
    cards[0, 1, 6 * 4 + 2] = 0.9  # corner 2: an 8h, a 5 at 0.05
    cards[0, 1, 3 * 4 + 1] = 0.05
    ranks = corner_ranks(cards, np.array([[0.0, 0.0]]), np.array([6 * 4 + 2]))
    assert ranks.shape == (1, 13)
    assert ranks[0, 6] == 0.0  # the best card's own rank
    assert ranks[0, 4] == pytest.approx(0.2 + 3e-4) and ranks[0, 3] == pytest.approx(0.05 + 3e-4)
    blind = corner_ranks(cards, np.array([[0.9, 0.0]]), np.array([6 * 4 + 2]))  # corner 1 sees no index
    assert blind[0, 4] == pytest.approx(4e-4)
    assert corner_ranks(np.zeros((0, 2, 52)), np.zeros((0, 2)), np.zeros(0, np.int64)).shape == (0, 13)
