import json
import random

import numpy as np
import pytest

from table.cards import Card, Deck, parse_cards
from table.equity import equity
from table.errors import InvalidCardsError, TocktableError
from table.evaluate import Category, evaluate
from table.lens import (
    LENS_PRECISION,
    Lens,
    LensHistory,
    MarkMismatchError,
    lens,
    lens_of_hand,
    own_view,
    replay,
    reveal,
    showdown,
)
from table.lessons import Lesson
from table.tock import Mark, mark_of


def deal(seed, seats):
    cards = Deck(rng=random.Random(seed)).draw(2 * seats + 5)
    return [cards[2 * s : 2 * s + 2] for s in range(seats)], cards[2 * seats :]


def marked(holes):
    return [[mark_of(c) for c in hole] for hole in holes]


def test_marks_that_leave_one_deal_give_the_showdown_answer():
    # Every ace is marked as such; the large hearts other than Kh are face up or shown.
    hands = [["s:ace", "h:large"], ["Th", "Jh"], ["h:ace", "d:ace"]]
    board = ["Qh", "c:ace", "2c", "7d", "9s"]
    view = lens(hands, board)
    truth = showdown([["As", "Kh"], ["Th", "Jh"], ["Ah", "Ad"]], ["Qh", "Ac", "2c", "7d", "9s"])
    assert view.exact and view.deals == 1
    for mine, theirs in zip(view.seats, truth.seats, strict=True):
        assert (mine.win, mine.tie, mine.equity) == (theirs.win, theirs.tie, theirs.equity)
        assert mine.best_hand == theirs.best_hand


@pytest.mark.parametrize(("seed", "face_up"), [(1, 1), (2, 2), (4, 0)])
def test_lens_is_within_its_precision_of_the_exact_answer(seed, face_up):
    holes, board = deal(seed, 3)
    hands, marks = marked(holes), [*board[:face_up], *[mark_of(c) for c in board[face_up:]]]
    exact = equity(hands, marks, trials=10**9)
    assert exact[0].exact and exact[0].deals > 40_000  # so that the lens samples
    view = lens(hands, marks, seed=seed)
    assert not view.exact and view.half_width <= LENS_PRECISION
    for seat, truth in zip(view.seats, exact, strict=True):
        assert abs(seat.equity - truth.equity) < 4 * seat.stderr + 1e-9


def test_six_seats_every_card_marked():
    holes, board = deal(7, 6)
    view = lens(marked(holes), [mark_of(c) for c in board], seed=1)
    assert view.street == "preflop" and len(view.seats) == 6
    assert view.half_width <= LENS_PRECISION
    assert sum(s.equity for s in view.seats) == pytest.approx(1)
    for seat, hole in zip(view.seats, holes, strict=True):
        assert seat.shows == tuple(mark_of(c) for c in hole)
        assert sum(seat.hands) == pytest.approx(1)
        # What really happened must have been possible.
        assert evaluate([*hole, *board]).category <= seat.best
        assert seat.explanation and seat.explanation[0].kind in ("shows", "shows_flush_draw")
        assert seat.explanation[0].fields["seat"] == seat.seat and not seat.explanation[0].fields["you"]


def test_the_public_view_holds_no_hidden_card():
    holes, board = deal(3, 4)
    public = lens(marked(holes), [mark_of(c) for c in board], seed=2).to_json()
    text = json.dumps(public)
    for card in [*[c for h in holes for c in h], *board]:
        if card.rank != card.rank.ACE:  # an ace mark names its card: that one is public
            assert f'"{card}"' not in text


def test_own_view_adds_one_seat_and_only_that_seat():
    holes, board = deal(4, 3)
    hands = marked(holes)
    board_marks = [mark_of(c) for c in board]
    mine = own_view(hands, board_marks, seat=1, cards=holes[1], seed=1)
    assert mine.viewer == 1 and mine.seats[1].shows == tuple(holes[1])
    assert mine.seats[0].shows == tuple(hands[0]) and mine.seats[2].shows == tuple(hands[2])
    assert mine.seats[1].explanation[0].fields["you"] and not mine.seats[0].explanation[0].fields["you"]
    assert mine.to_json()["view"] == "seat"
    exact = equity([hands[0], holes[1], hands[2]], board_marks, precision=LENS_PRECISION, seed=1)
    assert [s.equity for s in mine.seats] == [e.equity for e in exact]


def test_own_view_rejects_cards_that_contradict_their_marks():
    hands = [["h:large", "s:small"], ["c:ace", "d:medium"]]
    with pytest.raises(
        MarkMismatchError, match=r"seat 1's first card is Kd, whose back carries d:large.*showed h:large"
    ):
        own_view(hands, [], seat=0, cards="Kd 3s")
    with pytest.raises(InvalidCardsError, match="must be two known cards"):
        own_view(hands, [], seat=0, cards="Kh ?")
    with pytest.raises(InvalidCardsError, match="seat 6 is not at this table"):
        own_view(hands, [], seat=5, cards="Kh 3s")


def test_reveal():
    assert reveal(Mark.parse("h:large"), "Qh") == Card.parse("Qh")
    assert reveal(None, "Qh") == Card.parse("Qh")
    assert reveal("Qh", Card.parse("Qh")) == Card.parse("Qh")
    with pytest.raises(MarkMismatchError, match="showed h:small, which stands for 2h 3h 4h 5h"):
        reveal("h:small", "6h", where="board card 4")
    with pytest.raises(MarkMismatchError, match="was seen as Qh and now as Qd"):
        reveal("Qh", "Qd")
    assert issubclass(MarkMismatchError, TocktableError) and issubclass(MarkMismatchError, ValueError)


def test_folded_seats_keep_their_cards_out_of_the_deck():
    hands = [["Ah", "Ad"], ["Kh", "Kd"], ["Ac", "As"]]
    view = lens(hands, ["2c", "7d", "9h"], folded=[2])
    assert view.seats[2].folded and view.seats[2].equity == 0 and view.seats[2].best is None
    assert view.seats[2].explanation == (Lesson("folded", seat=2, you=False),)
    # With the other two aces dead, seat 1 can no longer make four of a kind.
    assert view.seats[0].hands[Category.FOUR_OF_A_KIND] == 0
    assert sum(s.equity for s in view.seats) == pytest.approx(1)
    alone = lens(hands, [], folded=[1, 2])
    assert alone.seats[0].win == 1 and alone.summary == Lesson("alone", seat=0, you=False)


@pytest.mark.parametrize(
    ("hands", "board", "options", "message"),
    [
        (["Ah Kd", "? ?", "Ah Qs"], [], {"folded": [1]}, r"Ah is on the table twice \(seat 1 and seat 3\)"),
        (["Ah Kd", "? ?"], [], {"folded": [0, 1]}, "every seat has folded"),
        (["Ah Kd", "? ?"], [], {"folded": [2]}, "folded seat 3 is not at this table: seats are 1..2"),
        (["Ah Kd", "? ?"], [], {"names": ["Ann"]}, "give one non-empty name per seat"),
        (["h:ace ?", "Ah ?"], [], {}, r"mark h:ace.*Ah \(seat 2\) already known"),
    ],
)
def test_bad_input_says_which(hands, board, options, message):
    with pytest.raises(InvalidCardsError, match=message):
        lens(hands, board, **options)


def test_streets_follow_the_face_up_board():
    hands = [["h:large", "s:small"], ["c:ace", "d:medium"]]
    board = ["Qh", "2c", "7d", "d:large", "s:medium"]
    assert lens(hands, [mark_of(Card.parse(c)) for c in board[:3]] + board[3:]).street == "preflop"
    assert lens(hands, board).street == "flop"
    assert lens(hands, [*board[:3], "Kd", "s:medium"]).street == "turn"
    assert lens(hands, [*board[:3], "Kd", "9s"]).street == "river"


def test_showdown_is_exact_and_needs_the_hands():
    result = showdown(["Ah Kh", "Qs Qd"])
    assert result.exact and result.deals == 1_712_304
    assert round(result.seats[0].equity, 6) == 0.462145
    chances = result.seats[0].explanation[-1]
    assert chances.kind == "chances" and chances.fields["basis"] == "face_up" and chances.fields["exact"]
    assert chances.fields["win"] == pytest.approx(result.seats[0].win, abs=1e-4)
    with pytest.raises(InvalidCardsError, match=r"every live hand face up: seat 2 shows Qs \?"):
        showdown(["Ah Kh", "Qs ?"])
    assert showdown(["Ah Kh", "Qs ?"], folded=[1]).seats[0].win == 1


def test_outs_on_the_turn_are_the_rivers_that_win_or_split():
    hands = [parse_cards("Ah Kh"), parse_cards("Qs Qd")]
    board = parse_cards("Qh 7h 2c 3d")
    result = showdown(hands, board)
    rivers = [c for c in Deck() if c not in {*hands[0], *hands[1], *board}]
    expected = [c for c in rivers if evaluate([*hands[0], *board, c]).rank >= evaluate([*hands[1], *board, c]).rank]
    assert set(result.seats[0].outs) == set(expected) and 0 < len(expected) < len(rivers)
    assert result.seats[0].equity == pytest.approx(len(expected) / len(rivers))
    outs = [lesson for lesson in result.seats[0].explanation if lesson.kind == "outs"]
    assert len(outs) == 1 and set(outs[0].fields["cards"]) == {str(c) for c in expected}
    assert showdown(hands, [*board, Card.parse("9s")]).seats[0].outs is None


def test_json_is_plain_data():
    holes, board = deal(5, 4)
    view = lens(marked(holes), [*board[:3], *[mark_of(c) for c in board[3:]]], seed=3, names=["Ann", "Bo", "Cy", "Di"])
    data = view.to_json()
    assert json.loads(json.dumps(data)) == data
    assert data["street"] == "flop" and data["view"] == "public" and len(data["board"]) == 5
    assert [s["name"] for s in data["seats"]] == ["Ann", "Bo", "Cy", "Di"]
    first = data["seats"][0]
    assert set(first) >= {"win", "tie", "equity", "best", "nuts", "explanation", "hands", "shows"}
    assert first["shows"] == [str(mark_of(c)) for c in holes[0]]
    assert first["explanation"][0]["kind"] in ("shows", "shows_flush_draw") and first["explanation"][0]["seat"] == 0


def test_history_follows_the_streets():
    holes, board = deal(6, 4)
    history = replay(holes, board, folded={3: "flop"}, seed=1)
    data = history.to_json()
    assert data["streets"] == ["preflop", "flop", "turn", "river"]
    assert len(data["equity"]) == 4 and all(len(line) == 4 for line in data["equity"])
    assert data["folded"][3] == [False, False, True, True]
    for column in range(4):
        assert sum(line[column] for line in data["equity"]) == pytest.approx(1, abs=2e-4)
    # On the river the board is face up; the hands are still only marks.
    river = history.lenses[-1]
    assert river.board == tuple(board) and river.seats[0].shows == tuple(mark_of(c) for c in holes[0])


def test_holdem_replay_ends_with_the_real_showdown():
    holes, board = deal(8, 3)
    history = replay(holes, board, variant="holdem")
    assert all(view.exact for view in history.lenses)
    values = [evaluate([*h, *board]).rank for h in holes]
    river = history.lenses[-1]
    for seat, value in zip(river.seats, values, strict=True):
        assert seat.equity == (1 / values.count(max(values)) if value == max(values) else 0)


def test_history_keeps_one_table_and_one_view():
    first = lens(["h:large s:small", "c:ace d:medium"], [])
    other = lens(["h:large s:small", "c:ace d:medium", "? ?"], [])
    history = LensHistory().add(first)
    with pytest.raises(InvalidCardsError, match="one table and one point of view"):
        history.add(other)
    assert isinstance(history.lenses[0], Lens) and LensHistory().to_json()["seats"] == []


@pytest.mark.parametrize(
    ("options", "message"),
    [({"variant": "omaha"}, "variant must be 'tock' or 'holdem'"), ({"folded": {0: "showdown"}}, "streets are")],
)
def test_replay_bad_input(options, message):
    holes, board = deal(9, 2)
    with pytest.raises(InvalidCardsError, match=message):
        replay(holes, board, **options)
    with pytest.raises(InvalidCardsError, match="needs every hole card and all five board cards"):
        replay(holes, board[:4])


def test_seeded_lens_is_reproducible():
    holes, board = deal(10, 5)
    a = lens(marked(holes), [mark_of(c) for c in board], seed=4)
    b = lens(marked(holes), [mark_of(c) for c in board], rng=np.random.default_rng(4))
    assert a == b


def test_lens_of_a_live_engine_hand():
    from table.engine import Hand, Rules

    holes, board = deal(12, 4)
    hand = Hand(Rules(variant="tock", small_blind=5, big_blind=10), stacks=[200, 0, 200, 200, 200], button=0)
    seats = list(hand.in_hand)
    assert seats == [0, 2, 3, 4]
    for seat, hole in zip(seats, holes, strict=True):
        for index, card in enumerate(hole):
            hand.mark(seat, index, mark_of(card))
    for position, card in enumerate(board):
        hand.mark(None, position, mark_of(card))
    while hand.to_act is not None:
        seat = hand.to_act
        can_check = any(a.action.name == "CHECK" for a in hand.legal_actions())
        hand.act(seat, "fold" if seat == 3 else "check" if can_check else "call")
    hand.deal_board(board[:3])
    view = lens_of_hand(hand, seed=5)
    expected = lens(
        marked(holes),
        [*board[:3], *[mark_of(c) for c in board[3:]]],
        folded=[2],
        names=["Seat 1", "Seat 3", "Seat 4", "Seat 5"],
        seed=5,
    )
    assert view == expected and view.street == "flop" and view.seats[2].folded
