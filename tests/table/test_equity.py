import random
from itertools import permutations

import numpy as np
import pytest

from table.cards import Card, Deck, parse_cards
from table.equity import _layout, _sample, combinations_array, equity
from table.errors import InvalidCardsError
from table.evaluate import evaluate, evaluate_many, evaluate_seats
from table.tock import Mark, mark_of


def test_heads_up_preflop_exact_known_figure():
    result = equity([parse_cards("Ah Kh"), parse_cards("Qs Qd")])
    assert result[0].exact and result[0].deals == 1_712_304
    assert round(result[0].equity, 6) == 0.462145
    assert abs(result[0].equity + result[1].equity - 1) < 1e-12
    assert result[0].tie == result[1].tie and result[0].stderr == 0


def test_evaluate_seats_matches_evaluate_many():
    rng = np.random.default_rng(3)
    deals = np.argsort(rng.random((2000, 52)), axis=1)[:, :17]
    hole, board = deals[:, :12].reshape(-1, 6, 2), deals[:, 12:]
    seven = np.concatenate([hole, np.repeat(board[:, None, :], 6, axis=1)], axis=2).reshape(-1, 7)
    assert (evaluate_seats(hole, board) == evaluate_many(seven).reshape(-1, 6)).all()


def test_river_is_a_plain_showdown():
    board = parse_cards("2c 7d 9h Js Kc")
    a, b, c = parse_cards("Ah Ad"), parse_cards("Kh Kd"), parse_cards("3s 4s")
    result = equity([a, b, c], board)
    assert [r.win for r in result] == [0, 1, 0] and result[0].deals == 1
    split = equity([parse_cards("2h 3h"), parse_cards("2d 3d")], parse_cards("Ah Kd Qc Js Ts"))
    assert [r.tie for r in split] == [1, 1] and [r.equity for r in split] == [0.5, 0.5]


def test_exact_turn_matches_brute_force():
    hands = [parse_cards("Ah 9h"), parse_cards("Kc Kd"), parse_cards("7s 8s")]
    board = parse_cards("Kh 6h 9s 2c")
    used = {c for h in hands for c in h} | set(board)
    shares = np.zeros(3)
    rivers = [c for c in Deck() if c not in used]
    for river in rivers:
        values = [evaluate([*h, *board, river]).rank for h in hands]
        best = [v == max(values) for v in values]
        shares += np.array(best) / sum(best)
    result = equity(hands, board)
    assert result[0].deals == len(rivers) == 42
    assert np.allclose([r.equity for r in result], shares / len(rivers))


SAMPLES = 2500


@pytest.mark.parametrize("seed", [1, 2])
def test_agrees_with_pokerkit_within_error(seed):
    pokerkit = pytest.importorskip("pokerkit")
    deck = Deck(rng=random.Random(seed))
    hands = [deck.draw(2) for _ in range(3)]
    flop = deck.draw(3)
    ours = equity(hands, flop)  # exact: every turn and river
    assert ours[0].exact
    theirs = pokerkit.calculate_equities(
        [pokerkit.parse_range("".join(map(str, h))) for h in hands],
        pokerkit.Card.parse("".join(map(str, flop))),
        2,
        5,
        pokerkit.Deck.STANDARD,
        (pokerkit.StandardHighHand,),
        sample_count=SAMPLES,
    )
    for mine, their in zip(ours, theirs, strict=True):
        error = np.sqrt(max(mine.equity * (1 - mine.equity), 0.01) / SAMPLES)
        assert abs(mine.equity - their) < 5 * error, (hands, flop, mine.equity, their)


def test_monte_carlo_is_close_to_exact_and_reports_its_error():
    hands = [parse_cards("Ah Kh"), parse_cards("Qs Qd")]
    exact = equity(hands)[0].equity
    estimate = equity(hands, trials=40_000, seed=7)[0]
    assert not estimate.exact and estimate.deals == 40_000
    assert 0.0015 < estimate.stderr < 0.004
    assert abs(estimate.equity - exact) < 5 * estimate.stderr
    again = equity(hands, trials=40_000, seed=7)[0]
    assert again == estimate  # seeded: reproducible


def test_unknown_hands_are_symmetric():
    result = equity([[None, None]] * 4, trials=40_000, seed=2)
    for seat in result:
        assert abs(seat.equity - 0.25) < 5 * seat.stderr


def test_tock_sampler_is_uniform_and_never_repeats_a_card():
    small_hearts = Mark.parse("h:small")
    table = _layout([[small_hearts, small_hearts], [small_hearts, None]], [None])
    deals = _sample(table, 48_000, np.random.default_rng(11))
    assert all(len(set(row)) == len(row) for row in deals[:5000].tolist())
    pool = [c.id for c in small_hearts.cards()]
    assert np.isin(deals[:, :3], pool).all()
    outcomes = {p: i for i, p in enumerate(permutations(pool, 3))}
    counts = np.bincount([outcomes[tuple(row)] for row in deals[:, :3].tolist()], minlength=24)
    expected = len(deals) / 24
    chi_square = float(((counts - expected) ** 2 / expected).sum())
    assert chi_square < 49.7  # 23 degrees of freedom, p = 0.001
    # Unknown cards are uniform over what the deal left: a card outside the pool is free in
    # every deal, a pool card only in the quarter of deals that did not use it.
    counts = np.bincount(deals[:, 3:].ravel(), minlength=52)
    expected = deals[:, 3:].size / 49
    outside = np.delete(counts, pool)
    assert np.abs(outside / expected - 1).max() < 0.12
    assert np.abs(counts[pool] / (expected / 4) - 1).max() < 0.25


def test_marks_leaving_one_deal_give_the_exact_showdown():
    hands = [[Mark.parse("s:ace"), Mark.parse("h:ace")], parse_cards("Kc Kd")]
    board = [Mark.parse("d:ace"), Mark.parse("c:ace"), *parse_cards("2c 3c 4d")]
    result = equity(hands, board)
    assert result[0].exact and result[0].deals == 1 and result[0].win == 1


def test_a_marked_card_is_each_card_of_its_pool_equally():
    large_heart = mark_of(Card.parse("Qh"))
    board = parse_cards("Qc Jd 9s 3s 2c")
    hero, villain = Card.parse("Ah"), parse_cards("Tc Td")
    result = equity([[large_heart, hero], villain], board)
    assert result[0].exact and result[0].deals == 4  # Th, Jh, Qh or Kh
    wins = [evaluate([c, hero, *board]) > evaluate([*villain, *board]) for c in large_heart.cards()]
    assert result[0].win == pytest.approx(sum(wins) / 4) and 0 < result[0].win < 1


def test_mixed_marks_and_unknowns_are_consistent():
    deck = Deck(rng=random.Random(5))
    cards = deck.draw(9)
    hands = [[mark_of(cards[0]), mark_of(cards[1])], [mark_of(cards[2]), mark_of(cards[3])]]
    board = [mark_of(c) for c in cards[4:9]]
    lens = equity(hands, board, trials=60_000, seed=3)
    exact = equity(hands, board, trials=10**9)
    assert exact[0].exact
    for a, b in zip(lens, exact, strict=True):
        assert abs(a.equity - b.equity) < 5 * a.stderr + 1e-9


@pytest.mark.parametrize(
    ("hands", "board", "message"),
    [
        ([parse_cards("Ah Kd"), parse_cards("Ah Qs")], [], r"Ah is on the table twice \(seat 1 and seat 2\)"),
        ([parse_cards("Ah Kd"), ["h:ace", None]], [], r"mark h:ace.*Ah \(seat 1\) already known"),
        ([parse_cards("Ah Kd")], [], "2 to 10 hands"),
        ([parse_cards("Ah Kd"), [None]], [], "seat 2 has 1 cards"),
        ([parse_cards("Ah Kd"), [None, None]], [None] * 6, "at most 5 cards"),
        ([parse_cards("Ah Kd"), [None, 3.5]], [], "is not a card, a Tock mark or None"),
    ],
)
def test_bad_input_says_which(hands, board, message):
    with pytest.raises(InvalidCardsError, match=message):
        equity(hands, board)


def test_combinations_array():
    combos = combinations_array(7, 3)
    assert len(combos) == 35 and len({tuple(r) for r in combos.tolist()}) == 35
    assert (np.diff(combos, axis=1) > 0).all()
    assert combinations_array(5, 0).shape == (1, 0)
