"""The colour of the index ink (vision.ink) and the reader's ink stage."""

from __future__ import annotations

import numpy as np

from table.cards import Card
from vision.evidence import Evidence
from vision.ink import red_inks, red_likelihood
from vision.reader import MODELS_DIR, CardReader
from vision.rectify import Pyramid, index_crops, order_corners
from vision.render.scene import SceneSpec, deal_rows, render_scene
from vision.stages import Corners, Ink, Sources


def _scenes(count: int, seed: int) -> list:  # type: ignore[type-arg]
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        number = seed * 1000 + k
        out.append(render_scene(SceneSpec(cards=deal_rows(rng, touching=k % 2 == 1), seed=number,
                                          deck=f"holdout-{number}")))  # fmt: skip
    return out


def test_black_ink_is_never_called_red_and_most_red_ink_is() -> None:
    red_said = red_cards = black_said_red = black_cards = 0
    for scene in _scenes(12, 17):
        ups = [t for t in scene.truth if t.face_up]
        said = red_inks(index_crops(scene.image, [order_corners(t.corners) for t in ups], pyramid=Pyramid(scene.image)))
        for truth, red in zip(ups, said, strict=True):
            if truth.card[1] in "dh":
                red_cards += 1
                red_said += bool(red)
            else:
                black_cards += 1
                black_said_red += bool(red)
    assert black_cards >= 40 and black_said_red == 0
    assert red_cards >= 40 and red_said >= 0.4 * red_cards


def test_a_blank_or_grey_corner_says_nothing() -> None:
    paper = np.full((2, 64, 32, 3), 235, np.uint8)
    grey = paper.copy()
    grey[:, 10:30, 5:15] = 40  # black ink
    assert not red_inks(paper).any() and not red_inks(grey).any()
    red = paper.copy()
    red[:, 10:30, 5:15] = (40, 30, 200)  # BGR red ink
    assert red_inks(red).tolist() == [True]


def test_red_weighs_down_only_spades_and_clubs() -> None:
    likelihood = red_likelihood(np.array([True, False]), 0.01)
    assert likelihood.tolist() == [[0.01, 1, 1, 0.01], [1, 1, 1, 1]]


def test_the_ink_stage_makes_a_heart_read_as_a_spade_unsure() -> None:
    reader = CardReader(MODELS_DIR)
    for scene in _scenes(6, 19):
        hearts = [i for i, t in enumerate(scene.truth) if t.face_up and t.card[1] == "h"]
        if not hearts:
            continue
        corners = np.stack([order_corners(t.corners) for t in scene.truth])
        n = len(corners)
        ev = Evidence(scene.image, Pyramid(scene.image), reader.settings.threshold, corners, np.zeros(n, bool),
                      np.ones(n), reader.embedding_size, reader.card_embedding_size)  # fmt: skip
        Corners(None, ink_look=True).run(ev, reader, Sources(None, None))
        target = next((i for i in hearts if ev.red_ink[i] == 1), None)
        if target is None:
            continue
        heart = Card.parse(scene.truth[target].card)
        spade = heart.id + 1  # the same rank in spades (ids: rank * 4 + c, d, h, s)
        wrong = np.full(52, 0.01 / 51)
        wrong[spade] = 0.99  # the corners surely read the spade
        ev.posteriors[target] = wrong
        ev.set_posteriors(ev.posteriors)
        assert ev.decide().cards[target] == str(Card.from_id(spade))
        Ink().run(ev, reader, Sources(None, None))
        assert ev.asked["ink"][target]
        assert ev.decide().cards[target] is None  # red ink: no spade, and not sure enough of anything else
        return
    raise AssertionError("no heart measured red in six hold-out scenes")
