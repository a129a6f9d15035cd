import random

import numpy as np
import pytest

from table.cards import Card, Deck, parse_cards
from table.equity import _deal_blocks, combinations_array, lay_out
from table.evaluate import Category, category_of, evaluate, evaluate_seats
from table.reach import BOARD_LIMIT, describe_target, nut_ranks, reach
from table.tock import mark_of


def brute_nuts(boards):
    on_board = np.zeros((len(boards), 52), dtype=bool)
    on_board[np.arange(len(boards))[:, None], boards] = True
    rest = np.nonzero(~on_board)[1].reshape(len(boards), 47)
    return evaluate_seats(rest[:, combinations_array(47, 2)], boards).max(axis=1)


def test_nut_ranks_equal_the_best_of_every_pair_of_hole_cards():
    rng = np.random.default_rng(8)
    random_boards = np.argsort(rng.random((300, 52)), axis=1)[:, :5]
    # Boards rich in flushes, pairs, trips and quads, where the shortcuts could go wrong.
    suited = np.array([np.sort(rng.choice(13, 5, replace=False)) * 4 + i % 4 for i in range(200)])
    paired = np.array([[r * 4, r * 4 + 1, r * 4 + 2, (r * 4 + 7) % 52, (r * 4 + 11) % 52] for r in range(13)])
    quads = np.array([[r * 4, r * 4 + 1, r * 4 + 2, r * 4 + 3, (r * 4 + 9) % 52] for r in range(13)])
    four_suited = np.array([[0, 8, 16, 24, 5], [48, 44, 40, 36, 1], [2, 6, 10, 14, 51]])
    boards = np.concatenate([random_boards, suited, paired, quads, four_suited])
    assert (nut_ranks(boards) == brute_nuts(boards)).all()


def test_the_nuts_of_known_boards():
    royal = np.array([[c.id for c in parse_cards("Ah Kh Qh Jh Th")]])
    assert evaluate(parse_cards("Ah Kh Qh Jh Th 2c 3d")).rank == nut_ranks(royal)[0]
    dry = np.array([[c.id for c in parse_cards("2c 7d 9h Js Kc")]])
    assert evaluate(parse_cards("Qd Td 2c 7d 9h Js Kc")).rank == nut_ranks(dry)[0]  # king-high straight


def brute_reach(layout):
    """Best rank and whether it can hold the nuts, per seat, over every consistent deal."""
    best = np.zeros(layout.seats, dtype=np.int64)
    nuts = np.zeros(layout.seats, dtype=bool)
    for deals in _deal_blocks(layout):
        seats = layout.seats
        ranks = evaluate_seats(deals[:, : 2 * seats].reshape(-1, seats, 2), deals[:, 2 * seats : 2 * seats + 5])
        best = np.maximum(best, ranks.max(axis=0))
        nuts |= (ranks == nut_ranks(deals[:, 2 * seats : 2 * seats + 5])[:, None]).any(axis=0)
    return best, nuts


def tock_table(seed, seats, face_up):
    cards = Deck(rng=random.Random(seed)).draw(2 * seats + 5)
    hands = [[mark_of(c) for c in cards[2 * s : 2 * s + 2]] for s in range(seats)]
    board = cards[2 * seats : 2 * seats + face_up] + [mark_of(c) for c in cards[2 * seats + face_up :]]
    return hands, board


@pytest.mark.parametrize(("seed", "seats", "face_up"), [(1, 3, 3), (2, 3, 3), (3, 2, 2), (4, 4, 4), (5, 3, 4)])
def test_reach_equals_a_walk_over_every_deal(seed, seats, face_up):
    hands, board = tock_table(seed, seats, face_up)
    layout = lay_out(hands, board)
    assert layout.deal_count() < 400_000
    best, nuts = brute_reach(layout)
    for seat, found in enumerate(reach(layout)):
        assert found.best == category_of(np.array([best[seat]]))[0]
        assert found.nuts == nuts[seat]
        assert evaluate(found.best_cards).rank == best[seat]
        assert found.best_hand == evaluate(found.best_cards).describe()
        # The example deal is consistent with what the seat and the board show.
        shown = [*layout.items[2 * seat : 2 * seat + 2], *layout.items[2 * layout.seats :]]
        for item, card in zip(shown, found.best_cards, strict=True):
            assert item == card or item == mark_of(card)


def test_reach_with_unknown_cards():
    # Dead cards shrink the deck so that every deal can be walked; two unknown board cards.
    keep = set(parse_cards("2h 3h 4h 5h 6h 7s 7c 9d Jc Qd Ks Ah Ac 8h"))
    dead = [c for c in Deck() if c not in keep]
    hands = [["h:small", None], ["Qd", "7s"], ["h:small", "Ks"]]
    layout = lay_out(hands, ["Ah", None, "h:medium", None, "Ac"], dead=dead)
    best, nuts = brute_reach(layout)
    found = reach(layout)
    assert [f.best for f in found] == list(category_of(best))
    # Two unseen board cards are still few enough boards to enumerate: exact hands and nuts too.
    assert all(f.best_cards is not None for f in found)
    assert [evaluate(f.best_cards).rank for f in found] == list(best)
    assert [f.nuts for f in found] == list(nuts)
    # A-2-3-4-5 of hearts would need three more small hearts, but seat 3 shows one of the
    # four: only a flush is left.
    assert found[0].best == Category.FLUSH


def test_reach_gives_up_the_nuts_when_the_board_is_unseen():
    layout = lay_out(["Ah Kh", "Qs Qd"], [])
    found = reach(layout)
    assert found[0].nuts is None and found[0].best_hand is None
    assert found[0].best == Category.STRAIGHT_FLUSH and set(found[0].example) >= set(parse_cards("Ah Kh"))
    assert 45**2 < BOARD_LIMIT * 20 < 45**3  # two unseen board cards are enumerated, three are not


def test_a_card_known_elsewhere_rules_out_its_targets():
    # Th at seat 2 rules out seat 1's royal flush; AhKh is then the best flush on any board.
    hands = [["Ah", "Kh"], ["Th", "2c"]]
    board = ["Qh", "Jh", "3d", "h:small", "c:large"]
    found = reach(lay_out(hands, board))
    assert found[0].best == Category.FLUSH and found[0].nuts is True
    assert found[1].best == Category.TWO_PAIR and found[1].nuts is False
    # With a large heart face down on the board instead, it may be Th: a royal flush is possible.
    royal = reach(lay_out([["Ah", "Kh"], ["9s", "2c"]], ["Qh", "Jh", "3d", "h:large", "c:large"]))
    assert royal[0].best == Category.STRAIGHT_FLUSH and royal[0].best_hand == "Royal flush"
    assert royal[0].nuts is True


def test_reach_of_a_finished_hand_is_the_hand():
    hands = [parse_cards("Ah Ad"), parse_cards("7c 8c"), parse_cards("4d 5c")]
    board = parse_cards("As 9c Tc 2d 3h")
    nuts = brute_nuts(np.array([[c.id for c in board]]))[0]
    for hand, found in zip(hands, reach(lay_out(hands, board)), strict=True):
        value = evaluate([*hand, *board])
        assert found.best_hand == value.describe() and found.best == value.category
        assert found.nuts == (value.rank == nuts)
    assert [f.nuts for f in reach(lay_out(hands, board))] == [False, False, True]  # the wheel is the nuts


@pytest.mark.parametrize(
    ("category", "cards", "words"),
    [
        (Category.STRAIGHT_FLUSH, "Ah Kh Qh Jh Th", "a royal flush in hearts"),
        (Category.STRAIGHT_FLUSH, "As 2s 3s 4s 5s", "a straight flush in spades, five high"),
        (Category.FOUR_OF_A_KIND, "Tc Td Th Ts", "four tens"),
        (Category.FULL_HOUSE, "Kc Kd Kh 7c 7d", "a full house, kings full of sevens"),
        (Category.FLUSH, "Ad Jd 9d 5d 2d", "a flush in diamonds"),
        (Category.STRAIGHT, "9c Td Jh Qs Kc", "a straight, king high"),
        (Category.THREE_OF_A_KIND, "6c 6d 6h", "three sixes"),
        (Category.TWO_PAIR, "Ac Ad 9h 9s", "two pair, aces and nines"),
        (Category.PAIR, "Qc Qd", "a pair of queens"),
        (Category.HIGH_CARD, "", "a high card"),
    ],
)
def test_describe_target(category, cards, words):
    assert describe_target(category, tuple(parse_cards(cards)) if cards else ()) == words


def test_example_uses_the_seats_own_cards():
    found = reach(lay_out(["5s 9d", "2h 3c"], []))
    assert Card.parse("5s") in found[0].example or Card.parse("9d") in found[0].example
    assert found[0].best == Category.STRAIGHT_FLUSH
