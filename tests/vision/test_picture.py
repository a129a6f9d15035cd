"""Whether a card's body shows a picture (vision.picture) and the reader's picture stage."""

from __future__ import annotations

import numpy as np

from table.cards import Card
from vision.evidence import Evidence
from vision.picture import pictures
from vision.reader import MODELS_DIR, CardReader
from vision.rectify import Pyramid, order_corners
from vision.render.scene import PlacedCard, RenderedScene, SceneSpec, deal_rows, render_scene
from vision.stages import Corners, Picture, Sources


def _court(card: Card) -> bool:
    return 9 <= card.rank <= 11


def test_number_cards_never_show_a_picture_and_most_court_cards_do() -> None:
    numbers = number_pictures = courts = court_pictures = 0
    for seed in range(21, 33):
        rng = np.random.default_rng(seed)
        spec = SceneSpec(cards=deal_rows(rng, face_up=1.0), seed=seed * 100, deck=f"holdout-{seed * 100}")
        scene = render_scene(spec)
        seen = pictures(Pyramid(scene.image), [order_corners(t.corners) for t in scene.truth])
        for truth, picture in zip(scene.truth, seen, strict=True):
            card = Card.parse(truth.card)
            if _court(card):
                courts, court_pictures = courts + 1, court_pictures + bool(picture)
            elif card.rank < 9:
                numbers, number_pictures = numbers + 1, number_pictures + bool(picture)
    assert numbers >= 80 and number_pictures == 0
    assert courts >= 20 and court_pictures >= 0.7 * courts


def _one(card: str, seed: int) -> RenderedScene:
    placed = (PlacedCard(card, True, (0.5, 0.5), angle=0.0, height=0.6),)
    return render_scene(SceneSpec(cards=placed, seed=seed, deck=f"holdout-{seed}"))


def test_the_picture_stage_vetoes_a_number_the_corners_read_on_a_court_card() -> None:
    reader = CardReader(MODELS_DIR)
    for seed in range(40, 60):
        scene = _one("Kd", seed)
        corners = np.stack([order_corners(t.corners) for t in scene.truth])
        if not pictures(Pyramid(scene.image), list(corners))[0]:
            continue  # this deck's king shows too few inks; another deck
        ev = Evidence(scene.image, Pyramid(scene.image), reader.settings.threshold, corners, np.zeros(1, bool),
                      np.ones(1), reader.embedding_size, reader.card_embedding_size)  # fmt: skip
        Corners(None).run(ev, reader, Sources(None, None))
        wrong = np.zeros(52)
        wrong[Card.parse("9d").id], wrong[Card.parse("Kd").id] = 0.95, 0.05  # a K read as a 9, sure enough
        ev.posteriors[0] = wrong
        ev.set_posteriors(ev.posteriors)
        assert ev.decide().cards == ["9d"]
        Picture().run(ev, reader, Sources(None, None))
        assert ev.asked["picture"][0] and ev.picture_veto[0]
        assert ev.decide().cards == [None]
        return
    raise AssertionError("no hold-out king showed a picture in 20 decks")


def test_the_picture_stage_leaves_number_cards_and_sure_readings_alone() -> None:
    reader = CardReader(MODELS_DIR)
    scene = _one("7h", 61)
    corners = np.stack([order_corners(t.corners) for t in scene.truth])
    ev = Evidence(scene.image, Pyramid(scene.image), reader.settings.threshold, corners, np.zeros(1, bool),
                  np.ones(1), reader.embedding_size, reader.card_embedding_size)  # fmt: skip
    Corners(None).run(ev, reader, Sources(None, None))
    hesitant = np.zeros(52)
    hesitant[Card.parse("7h").id], hesitant[Card.parse("Jh").id] = 0.9, 0.1
    ev.posteriors[0] = hesitant
    ev.set_posteriors(ev.posteriors)
    Picture().run(ev, reader, Sources(None, None))
    assert ev.asked["picture"][0] and not ev.picture_veto[0] and ev.decide().cards == ["7h"]
