"""The one decision at the end of a read (vision.evidence.Evidence.decide), rule by rule."""

from __future__ import annotations

import numpy as np

from table.cards import Card
from vision.evidence import Evidence
from vision.rectify import Pyramid


def _evidence(n: int, threshold: float = 0.8) -> Evidence:
    image = np.zeros((64, 64, 3), np.uint8)
    corners = np.tile(np.array([[0, 0], [10, 0], [10, 14], [0, 14]], np.float64), (n, 1, 1))
    return Evidence(image, Pyramid(image), threshold, corners, np.zeros(n, bool), np.ones(n), 4, 3)


def _sure(evidence: Evidence, i: int, card: str, p: float) -> None:
    posterior = np.full(52, (1 - p) / 51)
    posterior[Card.parse(card).id] = p
    evidence.posteriors[i] = posterior
    evidence.set_posteriors(evidence.posteriors)
    evidence.seen[i] = 0.99


def test_a_card_is_named_only_above_the_threshold_and_face_down_without_an_index() -> None:
    ev = _evidence(3)
    _sure(ev, 0, "Ah", 0.95)
    _sure(ev, 1, "Kd", 0.6)
    ev.p_face[2] = 0.1  # a back: no index seen, the card model says face down
    seen = ev.decide()
    assert seen.cards == ["Ah", None, None]
    assert seen.face_up.tolist() == [True, True, False]
    assert np.isclose(seen.confidence[1], 0.6) and np.isclose(seen.confidence[2], 0.9)


def test_the_pips_name_a_card_or_veto_one() -> None:
    ev = _evidence(2)
    _sure(ev, 0, "8s", 0.55)
    _sure(ev, 1, "6h", 0.9)
    ev.pip_named[0], ev.pip_confidence[0] = Card.parse("6s").id, 0.97
    ev.pip_veto[1] = True
    seen = ev.decide()
    assert seen.cards == ["6s", None]
    assert np.isclose(seen.confidence[0], 0.97) and np.isclose(seen.confidence[1], 0.9)


def test_body_symbols_that_all_show_another_suit_veto_a_reading() -> None:
    ev = _evidence(4)
    for i in range(4):
        _sure(ev, i, "3s", 0.92)
    ev.suit_likelihood[0] = [1.0, 0.02, 0.02, 0.02]  # three clubs on the body: not a spade
    ev.suit_likelihood[1] = [1.0, 0.1, 0.1, 0.57]  # symbols that leave a spade possible
    ev.suit_likelihood[2] = [0.02, 0.02, 0.02, 1.0]  # spades, as read
    seen = ev.decide()  # the fourth: the witness was not asked (ones)
    assert seen.cards == [None, "3s", "3s", "3s"]
    assert np.isclose(seen.confidence[0], 0.92)  # the best guess's, as for the other vetoes
    # A court card's symbols, read less surely beside its picture, veto nothing.
    _sure(ev, 1, "Ks", 0.92)
    ev.suit_likelihood[1] = [1.0, 0.1, 0.1, 0.1]
    assert ev.decide().cards[:2] == [None, "Ks"]


def test_the_profile_names_a_card_or_makes_a_disagreeing_one_unsure() -> None:
    ev = _evidence(3)
    _sure(ev, 0, "Qc", 0.5)  # unsure: the profile names it
    _sure(ev, 1, "Qc", 0.99)  # sure, and the profile surely says another card: unsure
    _sure(ev, 2, "Qc", 0.99)  # sure, and the profile agrees
    ev.profile_card[:] = [Card.parse("Qs").id, Card.parse("Qs").id, Card.parse("Qc").id]
    ev.profile_confidence[:] = [0.9, 0.95, 0.9]
    seen = ev.decide()
    assert seen.cards == ["Qs", None, "Qc"]
    assert np.allclose(seen.confidence, [0.9, 0.05, 0.99])


def test_marks_belong_to_backs_and_multiply_their_confidence() -> None:
    ev = _evidence(2)
    ev.p_face[:] = [0.1, 0.1]
    _sure(ev, 1, "2c", 0.99)  # its index shows: face up whatever the card model says
    ev.marks[:] = ["h:large", "s:ace"]
    ev.mark_confidence[:] = [0.5, 0.9]
    seen = ev.decide()
    assert seen.marks == ("h:large", None)
    assert np.isclose(seen.confidence[0], 0.9 * 0.5) and seen.cards == [None, "2c"]


def test_a_moved_outline_forgets_what_was_read_of_its_back_and_body() -> None:
    ev = _evidence(2)
    ev.marks[:] = ["plain", "d:small"]
    ev.backs_read[:] = True
    ev.suit_likelihood[:] = [1.0, 0.02, 0.02, 0.02]
    ev.move(np.array([1]), np.zeros((1, 4, 2)))
    assert ev.marks == ["plain", None] and ev.backs_read.tolist() == [True, False]
    assert np.array_equal(ev.corners[1], np.zeros((4, 2)))
    assert ev.suit_likelihood[0, 1] == 0.02 and (ev.suit_likelihood[1] == 1.0).all()


def test_no_cards_decide_to_empty_observations_of_the_right_widths() -> None:
    seen = _evidence(0).decide()
    assert len(seen) == 0 and seen.embeddings.shape == (0, 4) and seen.card_embeddings.shape == (0, 3)


def test_a_card_smaller_than_the_trained_ones_is_never_named() -> None:
    image = np.zeros((64, 64, 3), np.uint8)
    small, tall = _rect(40.0), _rect(90.0)
    ev = Evidence(image, Pyramid(image), 0.8, np.stack([small, tall]), np.zeros(2, bool), np.ones(2), 4, 3,
                  min_height=75.0)  # fmt: skip
    for i in range(2):
        _sure(ev, i, "9c", 0.999)
    ev.pip_named[0], ev.pip_confidence[0] = Card.parse("9c").id, 0.99
    ev.profile_card[0], ev.profile_confidence[0] = Card.parse("9c").id, 0.99
    seen = ev.decide()
    assert seen.cards == [None, "9c"] and seen.face_up.tolist() == [True, True]
    assert ev.readable.tolist() == [False, True]


def _rect(height: float) -> np.ndarray:
    width = height * 63 / 88
    return np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)


def test_which_cards_are_too_small_follows_every_change_of_the_outlines_and_the_smallest_height() -> None:
    from vision.rectify import card_heights

    ev = _evidence(3)  # cards 14 pixels tall
    ev.min_height = 12.0
    assert not ev.too_small.any() and ev.readable.all()
    ev.too_small[:] = True  # the answer is the caller's to change, not the record's
    assert not ev.too_small.any()
    ev.move(np.array([1]), ev.corners[1:2] * 0.5)  # a new outline 7 pixels tall
    assert ev.too_small.tolist() == [False, True, False]
    ev.corners[2] *= 0.6  # changed in place: 8.4 pixels
    assert ev.too_small.tolist() == [False, True, True]
    ev.min_height = 8.0
    assert ev.too_small.tolist() == [False, True, False]
    assert ev.too_small.tolist() == (card_heights(ev.corners) < 8.0).tolist()


def test_a_small_card_must_read_surer_than_a_large_one_to_be_named() -> None:
    # Rule 2's caution: cards of 90, 120 and 150 px, each read at 0.995 and at 0.99995.
    ev = _evidence(6)
    for k, height in enumerate((90.0, 120.0, 150.0, 90.0, 120.0, 150.0)):
        ev.corners[k] = np.array([[0, 0], [height * 0.716, 0], [height * 0.716, height], [0, height]])
    for k, p in enumerate((0.995, 0.995, 0.995, 0.99995, 0.99995, 0.99995)):
        _sure(ev, k, "Ks", p)
    assert ev.decide().cards == ["Ks"] * 6  # no caution: the threshold alone
    ev.caution = ((105.0, 0.9999), (135.0, 0.999))
    seen = ev.decide()
    assert seen.cards == [None, None, "Ks", "Ks", "Ks", "Ks"]
    assert ev.cautious.tolist() == [True, True, False, False, False, False]
    assert np.isclose(seen.confidence[0], 0.995)  # the best guess's confidence stays for the host's page
    _sure(ev, 1, "Ks", 0.9995)
    _sure(ev, 3, "Ks", 0.9995)
    assert ev.decide().cards[:4] == [None, "Ks", "Ks", None]  # enough under 135 px, not under 105


def _corners_read(evidence: Evidence, i: int, readings: dict[str, float]) -> None:
    """Both corners of card ``i`` give these cards these probabilities (the rest spread evenly)."""
    p = np.full(52, (1 - sum(readings.values())) / (52 - len(readings)))
    for card, q in readings.items():
        p[Card.parse(card).id] = q
    evidence.cards[i] = p


def test_a_letter_neither_corner_is_sure_of_must_be_read_surer() -> None:
    # An R of a hold-out face read as a jack: each corner gives the jack 0.53 and the king 0.35; the
    # vote is 0.86, above the threshold. A letter has no pips to check it: unsure below LETTER_SURE.
    from vision.evidence import LETTER_SHARE, LETTER_SURE

    ev = _evidence(5)
    for i, (card, sure) in enumerate((("Jd", 0.86), ("Jd", LETTER_SURE + 0.01), ("Ad", 0.86), ("8d", 0.86),
                                      ("Jd", 0.86))):  # fmt: skip
        _sure(ev, i, card, sure)
    _corners_read(ev, 0, {"Jd": 0.53, "Kd": 0.35})
    _corners_read(ev, 1, {"Jd": 0.53, "Kd": 0.35})  # as unsure corners, but a surer vote
    _corners_read(ev, 2, {"Ad": 0.5, "Jd": 0.4})  # an ace's 1 read between an ace and a jack
    _corners_read(ev, 3, {"8d": 0.5, "6d": 0.4})  # a number card: its pips check it (rule 3)
    _corners_read(ev, 4, {"Jd": LETTER_SHARE + 0.05, "Kd": 0.2})  # one corner sure enough of its letter
    assert ev.letter_doubt.tolist() == [True, False, True, False, False]
    seen = ev.decide()
    assert seen.cards == [None, "Jd", None, "8d", "Jd"]
    assert np.isclose(seen.confidence[0], 0.86)  # the best guess's confidence stays
    # One corner that sees the letter plainly is enough, whatever the other (covered) corner reads.
    ev.cards[0, 0] = 0.0
    ev.cards[0, 0, Card.parse("Jd").id] = 0.9
    assert ev.decide().cards[0] == "Jd"


def test_the_letter_doubt_leaves_a_dutch_decks_probed_letters_and_unread_corners_alone() -> None:
    ev = _evidence(2)
    for i in range(2):
        _sure(ev, i, "Kh", 0.85)
        _corners_read(ev, i, {"Jh": 0.8, "Kh": 0.1})  # the corners read a Dutch H as a jack
    ev.asked["letters"] = np.array([True, False])  # the letter probe shared the court mass out for the first
    assert ev.decide().cards == ["Kh", None]
    ev.cards[1] = 0.0  # corners not read at all: nothing to doubt the posterior with
    assert ev.decide().cards == ["Kh", "Kh"]


def test_the_pips_name_a_rank_whose_suit_the_body_s_symbols_may_still_deny() -> None:
    ev = _evidence(2)
    for i in range(2):
        _sure(ev, i, "8s", 0.55)  # the corners lean to an 8 of spades, unsure
        ev.pip_named[i], ev.pip_confidence[i] = Card.parse("Ts").id, 0.9  # ten pips: a ten, in the corners' suit
    ev.suit_likelihood[0] = [1.0, 0.02, 0.02, 0.02]  # but ten clubs on the body
    ev.suit_likelihood[1] = [0.02, 0.02, 0.02, 1.0]  # ten spades
    assert ev.decide().cards == [None, "Ts"]


def test_a_small_card_the_pips_name_must_be_as_sure_as_its_height_asks() -> None:
    # The pips tell the rank; the suit is still the corners', which misname small suits.
    ev = _evidence(3)
    for k, height in enumerate((90.0, 90.0, 150.0)):
        ev.corners[k] = np.array([[0, 0], [height * 0.716, 0], [height * 0.716, height], [0, height]])
        _sure(ev, k, "8s", 0.55)
    for k, sure in enumerate((0.97, 0.99995, 0.97)):
        ev.pip_named[k], ev.pip_confidence[k] = Card.parse("6s").id, sure
    ev.caution = ((105.0, 0.9999),)
    assert ev.decide().cards == [None, "6s", "6s"]
    ev.caution = ()
    assert ev.decide().cards == ["6s", "6s", "6s"]


def test_the_caution_leaves_the_small_card_readers_readings_alone() -> None:
    ev = _evidence(1)
    ev.corners[0] = np.array([[0, 0], [40, 0], [40, 56], [0, 56]])
    ev.small[0], ev.small_best[0], ev.small_posterior[0], ev.small_threshold = True, Card.parse("7d").id, 0.95, 0.9
    ev.caution = ((105.0, 0.9999),)
    assert ev.decide().cards == ["7d"]


def test_a_back_is_not_reported_from_a_partial_outline_that_fits_poorly() -> None:
    # Rule 7: two backs and two faces, each pair with a whole outline and a partial, poorly fitting one.
    # Only the back from the poor partial outline goes: it is more often not a card than a back.
    from vision.evidence import BACK_FIT

    ev = _evidence(5)
    ev.p_face[:] = [0.1, 0.1, 0.1, 0.9, 0.9]
    ev.partial[:] = [False, True, True, True, False]
    ev.fit[:] = [BACK_FIT - 0.2, BACK_FIT + 0.01, BACK_FIT - 0.01, BACK_FIT - 0.2, BACK_FIT - 0.2]
    ev.corners[:, :, 0] += np.arange(5)[:, None]  # tell them apart in the result
    seen = ev.report()
    assert seen.corners[:, 0, 0].tolist() == [0, 1, 3, 4]
    assert seen.face_up.tolist() == [False, False, True, True]
    assert len(seen.embeddings) == len(seen.marks) == len(seen.partial) == 4
    assert len(ev.decide()) == 5  # the decision keeps every candidate, row for row the evidence's


def test_an_outline_found_as_a_face_only_is_never_reported_as_a_back() -> None:
    # Rule 7: on a cloth taken for card, outlines are sought as faces (vision.paper); one the card
    # model takes for a back holds no card there. Faces from such outlines, and backs from others, stay.
    image = np.zeros((64, 64, 3), np.uint8)
    corners = np.tile(np.array([[0, 0], [10, 0], [10, 14], [0, 14]], np.float64), (4, 1, 1))
    corners[:, :, 0] += np.arange(4)[:, None]
    ev = Evidence(image, Pyramid(image), 0.8, corners, np.zeros(4, bool), np.ones(4), 4, 3,
                  faces_only=np.array([True, True, False, False]))  # fmt: skip
    ev.p_face[:] = [0.1, 0.9, 0.1, 0.9]
    seen = ev.report()
    assert seen.corners[:, 0, 0].tolist() == [1, 2, 3]
    assert seen.face_up.tolist() == [True, False, True]
    assert _evidence(2).faces_only.tolist() == [False, False]  # none unless said
