"""The benchmark's peer (bench/vision_peer.py, the classical template reader) is a real reader.

Not a test of tocktable's reader: these check that the peer reads what its method can read (clean
cards on a dark table), so its low figures on the hold-out are the method's, not a broken peer's,
and that it says nothing rather than crash where its fixed threshold fails.
"""

from __future__ import annotations

import numpy as np
import pytest

from bench.vision_peer import RANK_LIMIT, SUIT_LIMIT, TemplateReader, Templates, find_cards
from table.cards import Card, Rank, Suit
from table.errors import TocktableError
from vision.detect import quad_iou
from vision.errors import FrameError
from vision.render.faces import deck_style
from vision.render.scene import PlacedCard, SceneSpec, render_scene

CARDS = ("Ah", "7s", "Qd", "Ts", "3h", "9s")


@pytest.fixture(scope="module")
def peer() -> TemplateReader:
    return TemplateReader()


def _table(table: str, *, deck: str = "train-105", face_up: bool = True) -> tuple[SceneSpec, np.ndarray]:
    """Six cards well apart in a training deck style the templates were not made from (they use 0..23)."""
    cards = tuple(PlacedCard(c, face_up, (0.2 + 0.3 * (i % 3), 0.27 + 0.46 * (i // 3)), angle=25.0 * i, height=0.3)
                  for i, c in enumerate(CARDS))  # fmt: skip
    spec = SceneSpec(cards=cards, table=table, seed=1, deck=deck, clean=True)
    return spec, render_scene(spec).image


def test_templates_are_one_per_rank_and_suit_and_match_themselves(peer: TemplateReader) -> None:
    t = peer.templates
    assert t.ranks.shape == (13, 125, 70) and t.suits.shape == (4, 100, 70)
    assert set(np.unique(t.ranks)) <= {0, 255} and set(np.unique(t.suits)) <= {0, 255}
    for rank in Rank:
        for suit in Suit:
            reading = t.match(t.ranks[int(rank)], t.suits[int(suit)])
            assert (reading.rank, reading.suit, reading.rank_diff, reading.suit_diff) == (rank, suit, 0.0, 0.0)
            assert reading.card == Card(rank, suit) and reading.score == 1.0


@pytest.mark.parametrize("table", ["green-felt", "black-cloth"])
def test_reads_clean_cards_on_a_dark_table(peer: TemplateReader, table: str) -> None:
    spec, image = _table(table)
    seen = peer.read(image)
    truth = render_scene(spec).truth
    assert len(seen) == len(truth)
    for t in truth:
        ious = [quad_iou(t.corners, q) for q in seen.corners]
        assert max(ious) > 0.85, f"{t.card} not outlined"
        assert seen[int(np.argmax(ious))].card == t.card
        assert seen[int(np.argmax(ious))].face_up


def test_a_face_it_cannot_match_is_unknown_not_a_guess(peer: TemplateReader) -> None:
    """Rank and suit crops unlike any template: the closest is still reported, the card is not."""
    noise = np.random.default_rng(0)
    rank = np.where(noise.random((125, 70)) < 0.5, 255, 0).astype(np.uint8)
    suit = np.where(noise.random((100, 70)) < 0.5, 255, 0).astype(np.uint8)
    reading = peer.templates.match(rank, suit)
    assert reading.rank_diff >= RANK_LIMIT and reading.suit_diff >= SUIT_LIMIT
    assert reading.card is None and reading.score == 0.0


def test_nothing_on_an_empty_table_or_a_blank_frame(peer: TemplateReader) -> None:
    empty = render_scene(SceneSpec(cards=(), table="green-felt", seed=3)).image
    assert len(peer.read(empty)) == 0
    for level in (0, 255):
        assert len(peer.read(np.full((720, 1280, 3), level, np.uint8))) == 0


def test_a_light_table_defeats_the_fixed_threshold_without_a_crash(peer: TemplateReader) -> None:
    _, image = _table("white-cloth")
    assert find_cards(image) == []  # the background sample + 60 is above any card's white
    seen = peer.read(image)
    assert len(seen) == 0


def test_backs_are_found_but_not_named(peer: TemplateReader) -> None:
    _, image = _table("green-felt", face_up=False)  # this deck's backs have a white border: found
    seen = peer.read(image)
    assert len(seen) == len(CARDS)
    assert seen.cards == [None] * len(CARDS) and not seen.face_up.any()


def test_bad_frames_raise_a_typed_error(peer: TemplateReader) -> None:
    for bad in (np.zeros((0, 0, 3), np.uint8), np.zeros((40, 40, 3), np.float32), "frame"):
        with pytest.raises(FrameError) as caught:
            peer.read(bad)
        assert isinstance(caught.value, TocktableError) and isinstance(caught.value, ValueError)


def test_templates_come_from_training_styles_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hold-out pool is what the benchmark measures on: the templates must not see it."""
    import bench.vision_peer as peer_module

    pools: list[str] = []

    def recording(seed: int, pool: str = "all") -> object:
        pools.append(pool)
        return deck_style(seed, pool)  # type: ignore[arg-type]

    monkeypatch.setattr(peer_module, "deck_style", recording)
    templates = Templates.from_training_styles(2)
    assert pools == ["train", "train"]
    assert templates.ranks.shape == (13, 125, 70)
