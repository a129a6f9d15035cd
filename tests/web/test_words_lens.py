"""The lens's lessons in words: English (the sentences the lens has always said) and French."""

import pytest

from table.cards import Card
from table.lens import lens, own_view, showdown
from table.lessons import board_lesson
from table.tock import Mark
from web.words import words_for
from web.words.lens import board_sentence, item_words, pair_words, percent, seat_sentences, view_words

EN, FR = words_for("en"), words_for("fr")


def said(view, index, words=EN):
    return seat_sentences(words, view.to_json(), index)


def summary(view, words=EN):
    return view_words(words, view.to_json())["summary"]


def board_words(board, words=EN):
    return board_sentence(words, board_lesson(board).to_json())


def test_the_issue_example_sentence():
    hands = [["c:small", "d:medium"], ["s:ace", "c:large"], ["h:large", "h:large"]]
    board = ["h:small", "h:small", "h:medium", "d:small", "s:large"]
    view = lens(hands, board, seed=1)
    assert said(view, 2)[0] == ("Seat 3 shows two large hearts and the board has three hearts: a flush is possible.")
    assert view.seats[2].best_example == "a flush in hearts"


def test_a_seat_that_cannot_make_a_flush_is_told_its_best():
    view = lens(
        [["c:small", "d:medium"], ["h:large", "h:large"]], ["h:small", "h:small", "h:medium", "d:small", "s:large"]
    )
    first = said(view, 0)
    assert first[0] == "Seat 1 shows a small club and a medium diamond."
    assert first[1].startswith("At best it can make ")
    assert any("nuts" in sentence for sentence in first)
    assert first[-1].startswith("From what the table can see, Seat 1 wins ")


def test_sentences_speak_to_the_viewer():
    hands = [["c:small", "d:medium"], ["h:large", "h:large"]]
    board = ["Kc", "9d", "2h", "d:small", "s:large"]
    view = own_view(hands, board, seat=0, cards="3c 8d", seed=1)
    mine = said(view, 0)
    assert mine[0] == "You hold the three of clubs and the eight of diamonds."
    assert mine[1] == "You have king high now."
    assert mine[2].startswith("At best you can make ")
    assert mine[-1].startswith("Knowing your cards, you win ")
    assert said(view, 1)[-1].startswith("Knowing your cards, Seat 2 wins ")
    assert summary(view).startswith("Knowing your cards, ")


def test_a_finished_hand_is_named():
    view = showdown(["Ah Ad", "Kh Qh"], "As 9h Th 2d 3h")
    assert said(view, 0)[0] == "Seat 1 shows the ace of hearts and the ace of diamonds: three of a kind, aces."
    assert said(view, 1)[0].endswith(": a flush, king high.")
    # Ah Kh would be a bigger flush (Ah is in a hand, not on the board: the nuts look at the board only).
    assert said(view, 1)[1] == "Other cards could make a better hand on this board: it is not the nuts."
    assert summary(view) == "With the hands face up, Seat 2 cannot lose."


def test_a_hand_with_no_chance_left_is_drawing_dead():
    view = showdown(["Ah Ad", "7c 2d"], "As Ac Kh Kd")
    assert view.seats[1].outs == ()
    assert "No river card can save it: it is drawing dead." in said(view, 1)
    assert "With the hands face up, Seat 2 cannot win." in said(view, 1)
    split = showdown(["2h 3h", "2d 3d", "Kc 4s"], "Ah Kd Qc Js")  # the ten gives both low hands a straight
    assert any(line.endswith("cannot win outright, but splits the pot 10%.") for line in said(split, 0))


@pytest.mark.parametrize(
    ("item", "words"),
    [
        (Card.parse("Kh"), "the king of hearts"),
        (Mark.parse("h:large"), "a large heart"),
        (Mark.parse("c:small"), "a small club"),
        (Mark.parse("s:ace"), "the ace of spades"),
        (None, "an unseen card"),
    ],
)
def test_item_words(item, words):
    assert item_words(EN, None if item is None else str(item)) == words


def test_pair_words_group_alike_marks():
    assert pair_words(EN, "d:medium", "d:medium") == "two medium diamonds"
    assert pair_words(EN, "d:medium", "s:ace") == "a medium diamond and the ace of spades"
    assert pair_words(EN, None, None) == "two unseen cards"


@pytest.mark.parametrize(
    ("chance", "exact", "words"),
    [(0.4137, False, "about 41%"), (0.4137, True, "41%"), (0, True, "0%"), (0, False, "almost 0%"),
     (0.003, True, "less than 1%"), (0.997, False, "more than 99%"), (1, True, "100%")],
)  # fmt: skip
def test_percent(chance, exact, words):
    assert percent(EN, chance, exact=exact) == words


def test_board_words_point_at_a_flush():
    board = [Card.parse("Kh"), Card.parse("7h"), Mark.parse("h:small"), Mark.parse("c:large"), None]
    assert board_words(board) == (
        "The board: the king of hearts and the seven of hearts face up; two face down: a small heart and a large "
        "club; one not seen yet. Three are hearts: a flush is possible for anyone holding two more."
    )
    assert board_words([None] * 5) == "The board: five not seen yet."


def test_summary_names_the_leader_or_a_tie():
    level = showdown(["2h 3h", "2d 3d"], "Ah Kd Qc Js Ts")
    assert summary(level) == "With the hands face up, Seat 1 and Seat 2 are level at 50% each."
    ahead = showdown(["Ah Kh", "Qs Qd"])
    assert summary(ahead) == "With the hands face up, Seat 2 leads with 54%, then Seat 1 with 46%."
