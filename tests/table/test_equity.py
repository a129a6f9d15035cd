import math
import random
import warnings
from itertools import permutations

import numpy as np
import pytest

from table.cards import ALL_CARDS, Card, Deck, parse_cards
from table.equity import (
    SeatEquity,
    _deal_blocks,
    _sample,
    _Tally,
    combinations_array,
    equity,
    lay_out,
    trials_for,
)
from table.errors import InvalidCardsError, TocktableError
from table.evaluate import Category, evaluate, evaluate_many, evaluate_seats
from table.tock import Mark, mark_of


def brute_force(hands, board, dead=()):
    """Equity by walking every ordered deal of the open positions in plain Python."""
    items = [*[c for h in hands for c in h], *board, *[None] * (5 - len(board)), *dead]
    known = {c for c in items if isinstance(c, Card)}
    open_positions = [i for i, c in enumerate(items) if not isinstance(c, Card)]
    rest = [c for c in ALL_CARDS if c not in known]
    seats = len(hands)
    shares, deals = np.zeros(seats), 0
    for pick in permutations(rest, len(open_positions)):
        pairs = zip(open_positions, pick, strict=True)
        if any(isinstance(items[p], Mark) and mark_of(c) != items[p] for p, c in pairs):
            continue
        deal = list(items)
        for p, c in zip(open_positions, pick, strict=True):
            deal[p] = c
        table = deal[2 * seats : 2 * seats + 5]
        values = [evaluate([deal[2 * s], deal[2 * s + 1], *table]).rank for s in range(seats)]
        best = [v == max(values) for v in values]
        shares += np.array(best) / sum(best)
        deals += 1
    return shares / deals, deals


def test_heads_up_preflop_exact_known_figure():
    result = equity([parse_cards("Ah Kh"), parse_cards("Qs Qd")])
    assert result[0].exact and result[0].deals == 1_712_304
    assert round(result[0].equity, 6) == 0.462145
    assert abs(result[0].equity + result[1].equity - 1) < 1e-12
    assert result[0].tie == result[1].tie and result[0].stderr == 0 == result[0].half_width
    assert result[0].win + result[0].tie / 2 == pytest.approx(result[0].equity)


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
    assert result[1].hands[Category.THREE_OF_A_KIND] == 1 and result[0].hands[Category.PAIR] == 1
    split = equity([parse_cards("2h 3h"), parse_cards("2d 3d")], parse_cards("Ah Kd Qc Js Ts"))
    assert [r.tie for r in split] == [1, 1] and [r.equity for r in split] == [0.5, 0.5]


def test_exact_turn_matches_brute_force_with_categories():
    hands = [parse_cards("Ah 9h"), parse_cards("Kc Kd"), parse_cards("7s 8s")]
    board = parse_cards("Kh 6h 9s 2c")
    used = {c for h in hands for c in h} | set(board)
    rivers = [c for c in Deck() if c not in used]
    shares, categories = np.zeros(3), np.zeros((3, 9))
    for river in rivers:
        values = [evaluate([*h, *board, river]) for h in hands]
        best = [v.rank == max(x.rank for x in values) for v in values]
        shares += np.array(best) / sum(best)
        for seat, value in enumerate(values):
            categories[seat, value.category] += 1
    result = equity(hands, board)
    assert result[0].deals == len(rivers) == 42
    assert np.allclose([r.equity for r in result], shares / len(rivers))
    assert np.allclose([r.hands for r in result], categories / len(rivers))


def test_unknown_hole_cards_are_enumerated_exactly_when_few():
    board = parse_cards("Kd 7c 2h 9s 3d")
    result = equity(["Ah Kh", [None, None]], board)
    assert result[0].exact and result[0].deals == math.comb(45, 2) == 990
    beaten = 0.0
    hero = evaluate([*parse_cards("Ah Kh"), *board]).rank
    rest = [c for c in ALL_CARDS if c not in {*board, *parse_cards("Ah Kh")}]
    for i, a in enumerate(rest):
        for b in rest[i + 1 :]:
            villain = evaluate([a, b, *board]).rank
            beaten += 1.0 if hero > villain else 0.5 if hero == villain else 0.0
    assert result[0].equity == pytest.approx(beaten / 990)


@pytest.mark.parametrize(
    ("hands", "board"),
    [
        ([["h:small", None], ["h:small", "h:small"]], ["Qd", "Ks", "Ah", "Ac"]),
        ([["h:small", None], [None, "Kh"]], ["Qd", None, "Ah"]),
        ([[None, None], ["h:small", "Qd"], ["Ac", None]], ["h:small", "Ks", "Kd", "Ah"]),
    ],
)
def test_exact_enumeration_matches_a_walk_over_every_ordered_deal(hands, board):
    parse = lambda h: [Mark.parse(c) if c and ":" in c else Card.parse(c) if c else None for c in h]  # noqa: E731
    parsed_hands, parsed_board = [parse(h) for h in hands], parse(board)
    # Dead cards shrink the deck to the small hearts and a few others, two more cards than the
    # open positions need, so that plain Python can walk every ordered deal.
    known = {c for c in [*(c for h in parsed_hands for c in h), *parsed_board] if isinstance(c, Card)}
    open_count = 2 * len(hands) + 5 - len(known)
    keep = known | set(parse_cards("2h 3h 4h 5h"))
    keep |= set([c for c in Deck(rng=random.Random(1)) if c not in keep][: open_count + 2 - 4])
    dead = [c for c in ALL_CARDS if c not in keep]
    expected, ordered = brute_force(parsed_hands, parsed_board, dead)
    result = equity(parsed_hands, parsed_board, dead=dead)
    assert result[0].exact
    assert np.allclose([r.equity for r in result], expected)
    layout = lay_out(parsed_hands, parsed_board, dead=dead)
    blocks = list(_deal_blocks(layout, chunk=7))  # tiny chunks: the slicing itself is exercised
    assert len(blocks) > 3 and sum(len(b) for b in blocks) == layout.deal_count() == result[0].deals
    rows = np.concatenate(blocks)
    assert all(len(set(row)) == len(row) for row in rows.tolist())
    # Unordered groups: each enumerated deal stands for the same number of ordered ones.
    assert ordered % layout.deal_count() == 0


@pytest.mark.parametrize("seed", [1, 2])
def test_agrees_with_pokerkit_within_error(seed):
    pokerkit = pytest.importorskip("pokerkit")
    samples = 2500
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
        sample_count=samples,
    )
    for mine, their in zip(ours, theirs, strict=True):
        error = np.sqrt(max(mine.equity * (1 - mine.equity), 0.01) / samples)
        assert abs(mine.equity - their) < 5 * error, (hands, flop, mine.equity, their)


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_agrees_with_eval7_within_monte_carlo_error(seed):
    eval7 = pytest.importorskip("eval7")
    samples = 100_000
    deck = Deck(rng=random.Random(seed))
    hero, villain, flop = deck.draw(2), deck.draw(2), deck.draw(3)
    with warnings.catch_warnings():  # eval7's range parser calls a deprecated pyparsing name
        warnings.simplefilter("ignore", DeprecationWarning)
        villain_range = eval7.HandRange("".join(map(str, villain)))
    theirs = eval7.py_hand_vs_range_monte_carlo(
        [eval7.Card(str(c)) for c in hero], villain_range, [eval7.Card(str(c)) for c in flop], samples
    )
    their_error = math.sqrt(max(theirs * (1 - theirs), 0.01) / samples)
    exact = equity([hero, villain], flop)[0]
    assert exact.exact and abs(exact.equity - theirs) < 5 * their_error
    sampled = equity([hero, villain], flop, trials=600, seed=seed)[0]  # fewer than the 990 deals
    assert not sampled.exact and abs(sampled.equity - theirs) < 5 * math.hypot(sampled.stderr, their_error)


def test_monte_carlo_is_close_to_exact_and_reports_its_error():
    hands = [parse_cards("Ah Kh"), parse_cards("Qs Qd")]
    exact = equity(hands)[0].equity
    estimate = equity(hands, trials=40_000, seed=7)[0]
    assert not estimate.exact and estimate.deals == 40_000
    assert 0.0015 < estimate.stderr < 0.004
    assert abs(estimate.equity - exact) < 5 * estimate.stderr
    assert sum(estimate.hands) == pytest.approx(1)
    again = equity(hands, trials=40_000, seed=7)[0]
    assert again == estimate  # seeded: reproducible
    generator = equity(hands, trials=40_000, rng=np.random.default_rng(7))[0]
    assert generator == estimate


def test_precision_runs_until_every_seat_is_within_it():
    hands = [[None, None]] * 3
    result = equity(hands, precision=0.004, seed=3)
    assert not result[0].exact and result[0].deals > 10_000
    assert max(r.half_width for r in result) <= 0.004
    # About the deals the observed variance asks for: not many more.
    worst = max(r.stderr**2 * r.deals for r in result)
    assert result[0].deals < 1.3 * worst * (1.96 / 0.004) ** 2
    capped = equity(hands, precision=0.0001, trials=20_000, seed=3)
    assert capped[0].deals == 20_000
    few = equity(["Ah Kh", "? ?"], "Kd 7c 2h 9s 3d", precision=0.005)
    assert few[0].exact and few[0].deals == 990 <= trials_for(0.005)


def test_unknown_hands_are_symmetric():
    result = equity([[None, None]] * 4, trials=40_000, seed=2)
    for seat in result:
        assert abs(seat.equity - 0.25) < 5 * seat.stderr


def chi_square_limit(df: int, z: float = 3.09) -> float:
    """Upper p = 0.001 point of chi-square (Wilson-Hilferty approximation)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


UNIFORM_HANDS = [[Mark.parse("h:small"), None], [Mark.parse("h:small"), Mark.parse("h:small")]]
UNIFORM_BOARD = [None, *parse_cards("Qd Ks Ah Ac")]
# Forty-one dead cards leave seven in the deck: the four small hearts and 7s 9d Jc. Three
# positions show a small heart; one seat card and one board card are unknown and may take
# the fourth small heart.
UNIFORM_DEAD = [c for c in ALL_CARDS if c not in {*parse_cards("2h 3h 4h 5h 7s 9d Jc Qd Ks Ah Ac")}]


def consistent_outcomes(layout):
    """The open positions' cards in every consistent ordered deal, by brute force."""
    items = layout.items
    open_positions = [p for p in range(layout.positions) if p not in layout.known]
    outcomes = []
    for pick in permutations(layout.free.tolist(), len(open_positions)):
        if all(
            not isinstance(items[p], Mark) or mark_of(Card.from_id(c)) == items[p]
            for p, c in zip(open_positions, pick, strict=True)
        ):
            outcomes.append(pick)
    return open_positions, outcomes


def chi_square(deals, open_positions, outcomes):
    index = {o: i for i, o in enumerate(outcomes)}
    keys = [index.get(tuple(row)) for row in deals[:, open_positions].tolist()]
    assert None not in keys, "a sampled deal is not consistent with the table"
    counts = np.bincount(keys, minlength=len(outcomes))
    expected = len(deals) / len(outcomes)
    return float(((counts - expected) ** 2 / expected).sum())


def test_tock_sampler_is_uniform_over_consistent_deals_and_never_repeats_a_card():
    layout = lay_out(UNIFORM_HANDS, UNIFORM_BOARD, dead=UNIFORM_DEAD)
    open_positions, outcomes = consistent_outcomes(layout)
    assert len(outcomes) == 4 * 3 * 2 * 4 * 3 == 288
    deals = _sample(layout, 100_000, np.random.default_rng(11))
    assert all(len(set(row)) == len(row) == layout.positions for row in deals[:3000].tolist())
    assert chi_square(deals, open_positions, outcomes) < chi_square_limit(len(outcomes) - 1)


def test_the_chi_square_test_catches_the_classic_biased_sampler():
    """Filling the unknown positions first and then the marks from what is left (rejecting the
    deals where a mark can no longer be filled) favours deals where the unknowns took a small
    heart: the same test must reject it, or it could not catch a wrong sampler either."""
    layout = lay_out(UNIFORM_HANDS, UNIFORM_BOARD, dead=UNIFORM_DEAD)
    open_positions, outcomes = consistent_outcomes(layout)
    rng = np.random.default_rng(11)
    rows = []
    unknown = [p for group in layout.unknown for p in group]
    while len(rows) < 30_000:
        deal = np.full(layout.positions, -1)
        for position, card in layout.known.items():
            deal[position] = card
        deal[unknown] = rng.choice(layout.free, size=len(unknown), replace=False)
        pool = layout.pools[0]
        left = np.setdiff1d(pool.cards, deal[unknown])
        if len(left) < len(pool.positions):
            continue
        deal[list(pool.positions)] = rng.choice(left, size=len(pool.positions), replace=False)
        rows.append(deal)
    assert chi_square(np.array(rows), open_positions, outcomes) > 10 * chi_square_limit(len(outcomes) - 1)


def test_sampler_never_deals_a_card_twice_on_a_full_table():
    deck = Deck(rng=random.Random(9))
    cards = deck.draw(25)
    hands = [[mark_of(cards[0]), None], *[[mark_of(cards[2 * s]), mark_of(cards[2 * s + 1])] for s in range(1, 9)]]
    hands.append([cards[18], None])
    board = [mark_of(cards[20]), None, cards[22]]
    dead = [mark_of(c) for c in deck.draw(6)] + [None] * 4
    layout = lay_out(hands, board, dead=dead)
    deals = _sample(layout, 20_000, np.random.default_rng(4))
    assert (np.sort(deals, axis=1)[:, 1:] != np.sort(deals, axis=1)[:, :-1]).all()
    for pool in layout.pools:
        assert np.isin(deals[:, list(pool.positions)], pool.cards).all()


def test_marks_leaving_one_deal_give_the_exact_showdown():
    hands = [[Mark.parse("s:ace"), Mark.parse("h:ace")], parse_cards("Kc Kd")]
    board = [Mark.parse("d:ace"), Mark.parse("c:ace"), *parse_cards("2c 3c 4d")]
    result = equity(hands, board)
    assert result[0].exact and result[0].deals == 1 and result[0].win == 1
    # Three large hearts known elsewhere leave one card for the mark h:large: Kh.
    board = parse_cards("Qh 2c 7d 9s 3s")
    marked = equity([["h:large", "Ad"], ["Th", "Jh"]], board)
    known = equity([["Kh", "Ad"], ["Th", "Jh"]], board)
    assert marked[0].deals == 1 and marked == known


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


def test_dead_cards_leave_the_deck():
    hearts = [c for c in ALL_CARDS if c.suit == Card.parse("2h").suit and str(c) not in {"Ah", "Kh"}]
    result = equity(["Ah Kh", "Qs Qd"], dead=hearts, trials=10**6)
    assert result[0].exact and result[0].deals == math.comb(52 - 4 - 11, 5)
    # The same figure by evaluating every board of the 37 cards left, independently.
    gone = {*parse_cards("Ah Kh Qs Qd"), *hearts}
    rest = np.array([c.id for c in ALL_CARDS if c not in gone])
    boards = rest[combinations_array(len(rest), 5)]
    hero = evaluate_many(np.hstack([np.tile([c.id for c in parse_cards("Ah Kh")], (len(boards), 1)), boards]))
    villain = evaluate_many(np.hstack([np.tile([c.id for c in parse_cards("Qs Qd")], (len(boards), 1)), boards]))
    assert result[0].equity == pytest.approx(((hero > villain) + 0.5 * (hero == villain)).mean(), abs=1e-12)
    layout = lay_out(["Ah Kh", "Qs Qd"], dead=[*hearts[:5], None, None])
    deals = _sample(layout, 5_000, np.random.default_rng(0))
    assert not np.isin(deals[:, :9], [c.id for c in hearts[:5]]).any()


def test_texts_are_read_as_items():
    a = equity(["Ah Kh", "h:large ?"], "Qs Jd 2c", trials=5_000, seed=1)
    b = equity([parse_cards("Ah Kh"), [Mark.parse("h:large"), None]], parse_cards("Qs Jd 2c"), trials=5_000, seed=1)
    assert a == b


def test_results_are_values():
    result = equity(["Ah Kh", "Qs Qd"], "2c 7d 9h Js")
    assert isinstance(result[0], SeatEquity)
    with pytest.raises(AttributeError):
        result[0].win = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    ("hands", "board", "dead", "message"),
    [
        ([parse_cards("Ah Kd"), parse_cards("Ah Qs")], [], [], r"Ah is on the table twice \(seat 1 and seat 2\)"),
        (["Ah Kd", "Qs Jc"], ["2c", "Qs"], [], r"Qs is on the table twice \(seat 2 and the board\)"),
        (["Ah Kd", "Qs Jc"], [], ["Kd"], r"Kd is on the table twice \(seat 1 and the dead cards\)"),
        ([parse_cards("Ah Kd"), ["h:ace", None]], [], [], r"mark h:ace.*Ah \(seat 1\) already known"),
        (["Th Jh", "h:large h:large"], ["h:large"], [], r"3 cards show the mark h:large.*only 2"),
        (["Ah Kd", "? ?"], [], [None] * 44, r"the table holds 53 cards \(4 in hands, 5 on the board, 44 dead\)"),
        ([parse_cards("Ah Kd")], [], [], "2 to 10 hands"),
        ([["Ah", "Kd"]] * 11, [], [], "2 to 10 hands, got 11"),
        ("Ah Kd Qs Qc", [], [], "2 to 10 hands, got 'Ah Kd Qs Qc'"),
        ([parse_cards("Ah Kd"), [None]], [], [], "seat 2 has 1 cards"),
        ([parse_cards("Ah Kd"), [None, None]], [None] * 6, [], "at most 5 cards"),
        ([parse_cards("Ah Kd"), [None, 3.5]], [], [], "seat 2: 3.5 is not a card, a Tock mark or None"),
        ([parse_cards("Ah Kd"), 7], [], [], "seat 2: 7 is not a list"),
        (["Ah Kd", "Zz Qc"], [], [], "cannot read card 'Zz'"),
        (["Ah Kd", "h:huge Qc"], [], [], "cannot read Tock mark 'h:huge'"),
    ],
)
def test_bad_input_says_which(hands, board, dead, message):
    with pytest.raises(TocktableError, match=message) as caught:
        equity(hands, board, dead=dead)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"trials": 0}, "trials must be a whole number, 1 or more, got 0"),
        ({"trials": 2.5}, "trials must be a whole number"),
        ({"trials": True}, "trials must be a whole number"),
        ({"precision": 0}, "precision is a 95 % half-width between 0 and 0.5"),
        ({"precision": 0.7}, "precision is a 95 % half-width"),
    ],
)
def test_bad_options_say_what_is_allowed(options, message):
    with pytest.raises(InvalidCardsError, match=message):
        equity(["Ah Kd", "Qs Qc"], **options)


def test_tally_counts_splits_as_shares():
    tally = _Tally(3)
    # Deal 1: seat 1 wins alone; deal 2: all three tie (same board plays).
    deals = np.array(
        [
            [c.id for c in parse_cards("Ah Ad Kh Kd 2c 3c 9s 8s 4d 5h Jc")],
            [c.id for c in parse_cards("2h 3h 2d 3d 4c 5c As Ks Qs Js Ts")],
        ],
        dtype=np.int8,
    )
    tally.add(deals)
    results = tally.results(exact=True)
    assert [r.win for r in results] == [0.5, 0, 0]
    assert [r.tie for r in results] == [0.5, 0.5, 0.5]
    assert [r.equity for r in results] == pytest.approx([0.5 + 1 / 6, 1 / 6, 1 / 6])


def test_combinations_array():
    combos = combinations_array(7, 3)
    assert len(combos) == 35 and len({tuple(r) for r in combos.tolist()}) == 35
    assert (np.diff(combos, axis=1) > 0).all()
    assert combinations_array(5, 0).shape == (1, 0)
    assert not combinations_array(7, 3).flags.writeable


def shares_of(deals: np.ndarray, seats: int) -> np.ndarray:
    """Each seat's share of the pot in each deal, one hand at a time with ``evaluate``: 1/k for
    each of k best hands, 0 for the others (rows: hole cards of every seat, then the board)."""
    from table.evaluate import evaluate

    shares = np.zeros((len(deals), seats))
    for row, deal in enumerate(deals.tolist()):
        board = deal[2 * seats : 2 * seats + 5]
        ranks = [evaluate([*deal[2 * s : 2 * s + 2], *board]).rank for s in range(seats)]
        best = [s for s in range(seats) if ranks[s] == max(ranks)]
        shares[row, best] = 1 / len(best)
    return shares


SPLIT_SPOT = (["Ah Kh", "Ad Kd", "Qs Js"], "Ac Kc 7s")
"""Two of the three hands are the same: most deals split the pot between them."""


def test_monte_carlo_standard_error_is_the_sample_standard_deviation_of_the_pot_share_over_root_n():
    from table.equity import _sample, lay_out

    hands, flop = SPLIT_SPOT
    trials, seed = 800, 11
    result = equity(hands, flop, trials=trials, rng=np.random.default_rng(seed))
    # The same deals, drawn again from the same generator, valued one hand at a time.
    deals = _sample(lay_out(hands, flop), trials, np.random.default_rng(seed))
    shares = shares_of(deals, 3)
    assert 0.3 < np.mean(shares[:, 0] == 0.5) < 0.95  # the spot really is mostly split pots
    for seat, got in enumerate(result):
        assert not got.exact and got.deals == trials
        assert got.equity == pytest.approx(shares[:, seat].mean(), abs=1e-12)
        assert got.stderr == pytest.approx(shares[:, seat].std(ddof=1) / math.sqrt(trials), rel=1e-9)


def test_monte_carlo_standard_error_agrees_with_the_spread_of_every_deal():
    """Against the true standard deviation of the pot share, from all 903 turn-and-river deals."""
    import itertools

    hands, flop = SPLIT_SPOT
    known = [c.id for text in [*hands, flop] for c in parse_cards(text)]
    rest = [c for c in range(52) if c not in known]
    everything = np.array([[*known, *pair] for pair in itertools.combinations(rest, 2)])
    assert len(everything) == 903
    spread = shares_of(everything, 3).std(axis=0)  # population: every deal once
    trials = 800  # fewer than the deals: sampled
    for seed in (1, 2, 3):
        result = equity(hands, flop, trials=trials, seed=seed)
        for seat in range(3):
            expected = spread[seat] / math.sqrt(trials)
            # The sample's spread is within a few per cent of the true one at 800 deals; a
            # formula ignoring split pots (p(1-p)) would be off by a factor of two or more for the two split hands.
            assert result[seat].stderr == pytest.approx(expected, rel=0.15), (seed, seat)
