"""The body check (vision.body_check): a sure reading whose rank the card's body plainly contradicts
(a regular pip count, a picture, an ace's one pip) is unsure; a right reading is kept. Measured on
rendered cards, then as the reader's "body" stage on one card and on touching rows."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.stages
from table.cards import Card
from vision.body_check import ACE, BodyCues, ace_pip, body_cues, contradictions
from vision.evidence import Evidence
from vision.pip_check import BODY
from vision.reader import MODELS_DIR, CardReader
from vision.rectify import Pyramid, order_corners
from vision.render.faces import deck_style, render_face
from vision.render.scene import PlacedCard, RenderedScene, SceneSpec, deal_rows, render_scene
from vision.stages import Body, Corners, Sources

RANKS = "23456789TJQKA"


def _body(card: str, seed: int, pool: str = "train") -> np.ndarray:
    face = render_face(deck_style(seed, pool), Card.parse(card))  # type: ignore[arg-type]
    return cv2.resize(np.ascontiguousarray(face[..., :3]), BODY, interpolation=cv2.INTER_AREA)


def _rank(char: str) -> int:
    return RANKS.index(char)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("pool", ["train", "holdout"])
def test_no_card_of_a_deck_contradicts_its_own_rank(seed: int, pool: str) -> None:
    for rank in RANKS:
        for suit in "cdhs":
            cues = body_cues(_body(rank + suit, seed, pool))
            assert not cues.contradicts(_rank(rank)), (rank + suit, cues)


@pytest.mark.parametrize(("card", "read"), [
    ("6c", "8"),   # a six's regular six pips against an eight
    ("Th", "Q"),   # a ten's ten pips against a queen
    ("9c", "J"),   # a nine's pips against a jack
    ("Ac", "5"),   # an ace's one large pip against a five
    ("As", "J"),   # ... and against a jack (the French ace printed "1")
    ("8d", "A"),   # an eight's pips against an ace
])  # fmt: skip
def test_a_body_contradicts_a_reading_of_another_rank(card: str, read: str) -> None:
    vetoed = [body_cues(_body(card, seed)).contradicts(_rank(read)) for seed in range(6)]
    assert sum(vetoed) >= 5, vetoed  # plain in (nearly) every deck


def test_a_court_picture_contradicts_a_number_reading_in_most_decks() -> None:
    vetoed = [body_cues(_body("Kd", seed)).contradicts(_rank("9")) for seed in range(12)]
    assert sum(vetoed) >= 8, vetoed


def test_the_aces_pip_is_seen_on_aces_and_on_no_number_or_court_card() -> None:
    for seed in range(4):
        assert ace_pip(_body("Ah", seed))
        for card in ("5h", "9d", "Tc", "Js", "Qh", "Kc"):
            assert not ace_pip(_body(card, seed)), (card, seed)


def test_the_check_measures_the_picture_only_where_it_can_change_the_answer() -> None:
    for seed in (0, 4):
        for card in ("6c", "Th", "Kd", "Qh", "Ah", "2s"):
            body = _body(card, seed)
            cues = body_cues(body)
            by_rank = contradictions(np.repeat(body[None], 13, axis=0), np.arange(13))
            own = _rank(card[0])
            assert not by_rank[own], card
            assert [bool(v) for v in by_rank] == [cues.contradicts(r) for r in range(13)], card


def test_the_cues_speak_only_for_what_they_plainly_show() -> None:
    blank = BodyCues(None, 0, False, False)
    assert not any(blank.contradicts(rank) for rank in range(13))  # nothing plain: no veto
    two = BodyCues(2, 2, False, False)  # a court picture can split into a two's layout
    assert two.contradicts(_rank("5")) and not two.contradicts(_rank("K")) and not two.contradicts(ACE)
    picture_and_pips = BodyCues(6, 6, True, False)  # six regular pips and two inks
    assert not picture_and_pips.contradicts(_rank("Q"))  # pips inside a picture say nothing against a court
    assert not picture_and_pips.contradicts(_rank("6"))  # the regular count of the reading itself wins
    assert picture_and_pips.contradicts(_rank("9"))
    assert BodyCues(None, 0, True, False).contradicts(_rank("6"))  # a picture, no regular pips: no number card
    irregular = BodyCues(None, 10, False, False)  # ten alike pips, the outline a little off
    assert irregular.contradicts(_rank("Q")) and irregular.contradicts(ACE)
    assert not irregular.contradicts(_rank("8"))  # an irregular count never names a number card
    assert not BodyCues(None, 4, False, False).contradicts(_rank("Q"))  # too few to be sure


# --- the stage ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader(MODELS_DIR)


def _one(card: str, seed: int) -> RenderedScene:
    placed = (PlacedCard(card, True, (0.5, 0.5), angle=0.0, height=0.6),)
    return render_scene(SceneSpec(cards=placed, seed=seed, deck=f"holdout-{seed}"))


def _read_as(reader: CardReader, scene: RenderedScene, read: str) -> Evidence:
    """The evidence of a one-card scene whose corners read ``read`` all but surely."""
    corners = np.stack([order_corners(t.corners) for t in scene.truth])
    ev = Evidence(scene.image, Pyramid(scene.image), reader.settings.threshold, corners, np.zeros(1, bool),
                  np.ones(1), reader.embedding_size, reader.card_embedding_size)  # fmt: skip
    Corners(None).run(ev, reader, Sources(None, None))
    sure = np.full(52, 1e-9)
    sure[Card.parse(read).id] = 1.0
    ev.set_posteriors(sure[None] / sure.sum())
    return ev


@pytest.mark.parametrize(("card", "misread"), [("6c", "8c"), ("Th", "Qh"), ("9c", "Jc"), ("Ac", "5c")])
def test_the_body_stage_makes_a_sure_misreading_unsure(reader: CardReader, card: str, misread: str) -> None:
    ev = _read_as(reader, _one(card, 5), misread)
    assert ev.decide().cards == [misread]
    Body().run(ev, reader, Sources(None, None))
    assert ev.asked["body"][0] and ev.body_veto[0]
    assert ev.decide().cards == [None]


@pytest.mark.parametrize("card", ["6c", "Th", "9c", "Ac", "Qd", "2s"])
def test_the_body_stage_keeps_a_right_reading(reader: CardReader, card: str) -> None:
    ev = _read_as(reader, _one(card, 5), card)
    Body().run(ev, reader, Sources(None, None))
    assert ev.asked["body"][0] and not ev.body_veto[0]
    assert ev.decide().cards == [card]


def test_the_bodies_read_ahead_on_the_helper_thread_give_the_same_verdict(reader: CardReader,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    scene = _one("6c", 5)
    corners = np.stack([order_corners(t.corners) for t in scene.truth])
    ev = Evidence(scene.image, Pyramid(scene.image), reader.settings.threshold, corners, np.zeros(1, bool),
                  np.ones(1), reader.embedding_size, reader.card_embedding_size)  # fmt: skip
    monkeypatch.setattr(vision.stages, "_taken", lambda job: False)  # the helper keeps every job given it
    body = Body()
    Corners(None, body=body).run(ev, reader, Sources(None, None))
    assert ev.decide().cards == ["6c"] and "body" in ev.ahead  # read surely: its body read ahead
    sure = np.full(52, 1e-9)
    sure[Card.parse("8c").id] = 1.0
    ev.set_posteriors(sure[None] / sure.sum())  # a later stage's misreading, the outline unchanged

    def read_here(*_: object) -> np.ndarray:
        raise AssertionError("the body read again: the cues made ahead were not taken")

    monkeypatch.setattr(vision.stages, "body_vetoes", read_here)
    body.run(ev, reader, Sources(None, None))
    assert "body" not in ev.ahead and ev.body_veto[0] and ev.decide().cards == [None]


def test_on_touching_rows_the_body_stage_asks_every_named_card_and_loses_no_right_reading(reader: CardReader) -> None:
    without = CardReader(MODELS_DIR, stages=[s for s in reader.pipeline.names if s != "body"])
    asked = right = 0
    for seed in (71, 72, 73, 74):  # enough named cards that the pips do not name (those the body is not asked)
        rng = np.random.default_rng(seed)
        scene = render_scene(SceneSpec(cards=deal_rows(rng, touching=True), seed=seed, deck=f"holdout-{seed}"))
        ev = reader.evidence(scene.image)
        named = ev.named & ~ev.small_named & ev.readable & (ev.pip_named < 0)
        assert np.array_equal(ev.asked["body"], named)
        asked += int(named.sum())
        with_body, plain = reader.read(scene.image).cards, without.read(scene.image).cards
        truth = {}
        for t in scene.truth:
            truth[t.card] = t.face_up
        for a, b in zip(with_body, plain, strict=True):
            assert a == b or a is None  # the body only ever makes a reading unsure
            if b is not None and truth.get(b, False):
                right += 1
                assert a == b, f"{b} lost"
    assert asked >= 20 and right >= 20


def _torn(*shares: tuple[str, float]) -> np.ndarray:
    p = np.full(52, 1e-6)
    for card, share in shares:
        p[Card.parse(card).id] = share
    out: np.ndarray = p / p.sum()
    return out


@pytest.mark.parametrize(("card", "best", "runner_up"), [
    ("As", "3s", "As"),  # a French "1" read as a 3, the ace its runner-up
    ("Ah", "Ah", "Jh"),  # the ace ahead, but not surely: a "1" taken for a J
])  # fmt: skip
def test_an_ace_the_corners_hesitate_over_is_named_by_its_one_large_pip(reader: CardReader, card: str, best: str,
                                                                         runner_up: str) -> None:  # fmt: skip
    from vision.body_check import ace_evidence
    from vision.pip_check import weighed
    from vision.stages import Pips

    ev = _read_as(reader, _one(card, 5), card)
    ev.set_posteriors(_torn((best, 0.51), (runner_up, 0.48), (card[0] + "d", 0.01))[None])
    assert ev.decide().cards == [None]  # the premise: the corners leave it unsure
    named, sure = ace_evidence(ev.pyramid, ev.corners, ev.face_up, ev.posteriors, ev.required, threshold=ev.threshold)
    assert named[0] == Card.parse(card).id
    assert sure[0] == pytest.approx(weighed(ev.posteriors[0], Card.parse(card).id)) and sure[0] > 0.95
    Pips().run(ev, reader, Sources(None, None))
    assert ev.decide().cards == [card]


def test_an_ace_whose_letter_neither_corner_is_sure_of_is_named_by_its_one_large_pip(reader: CardReader) -> None:
    # A French "1" each corner reads between an ace (0.45) and a jack (0.4): the vote, 0.85, passes
    # the threshold but not the doubt on a letter (vision.evidence.LETTER_SURE). The pip settles it.
    from vision.stages import Pips

    ev = _read_as(reader, _one("As", 5), "As")
    ev.set_posteriors(_torn(("As", 0.85), ("Js", 0.15))[None])
    corner = _torn(("As", 0.45), ("Js", 0.4), ("3s", 0.15))
    ev.cards[0] = corner
    assert ev.posterior[0] > ev.threshold and ev.letter_doubt.tolist() == [True]
    assert ev.decide().cards == [None]
    Pips().run(ev, reader, Sources(None, None))
    assert ev.pip_named[0] == Card.parse("As").id and ev.decide().cards == ["As"]
    # A three read so (an ace's letter doubted, its body three pips) is not made an ace.
    three = _read_as(reader, _one("3s", 5), "3s")
    three.set_posteriors(_torn(("As", 0.85), ("Js", 0.15))[None])
    three.cards[0] = corner
    Pips().run(three, reader, Sources(None, None))
    assert three.pip_named[0] != Card.parse("As").id and three.decide().cards == [None]


def test_a_three_read_as_an_ace_or_a_three_is_not_made_an_ace_and_a_far_ace_is_not_asked(reader: CardReader) -> None:
    from vision.body_check import ace_evidence

    ev = _read_as(reader, _one("3s", 5), "3s")
    torn = _torn(("As", 0.51), ("3s", 0.48))
    named, _ = ace_evidence(ev.pyramid, ev.corners, ev.face_up, torn[None], ev.required, threshold=ev.threshold)
    assert named[0] == -1  # three pips are no ace's pip
    ace = _read_as(reader, _one("As", 5), "As")
    far = _torn(("3s", 0.6), ("2s", 0.3), ("As", 0.1))  # the ace only the corners' third rank
    sure = _torn(("As", 0.999), ("3s", 0.001))  # no doubt to settle
    for posterior in (far, sure):
        named, _ = ace_evidence(ace.pyramid, ace.corners, ace.face_up, posterior[None], ace.required,
                                threshold=ace.threshold)  # fmt: skip
        assert named[0] == -1
