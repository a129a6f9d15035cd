"""bench.vision_misses: the hold-out cards not read right, each with what it was read from."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

from bench.vision_misses import SEEDS, main, misses, summary, top_cards
from vision.reader import CardReader
from vision.render.scene import SceneSpec, deal_rows, render_scene


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader.default()


class Doubting:
    """The shipped reader, but unsure of every card: no corner reading reaches the threshold."""

    def __init__(self, reader: CardReader) -> None:
        self.reader = reader

    def evidence(self, frame: Any) -> Any:
        evidence = self.reader.evidence(frame)
        evidence.threshold = 2.0
        evidence.pip_named[:] = -1
        evidence.small[:] = False
        return evidence


def test_top_cards_names_the_likeliest_first() -> None:
    p = np.zeros(52)
    p[[40, 36, 3]] = [0.2, 0.7, 0.1]  # Qc, Jc, 2s
    assert top_cards(p) == "Jc:0.70 Qc:0.20 2s:0.10"


def test_a_reader_unsure_of_everything_misses_every_face_up_card(reader: CardReader) -> None:
    counted: Counter[str] = Counter()
    rows = misses(Doubting(reader), "de", touching=True, scenes=2, face_up=counted)  # type: ignore[arg-type]
    rng = np.random.default_rng(SEEDS[True])
    face_up = []
    for k in range(2):
        number = SEEDS[True] * 1000 + k
        scene = render_scene(SceneSpec(cards=deal_rows(rng, touching=True), seed=number, deck=f"holdout-de-{number}"))
        face_up += [t.card for t in scene.truth if t.face_up]
    assert sorted(r["truth"] for r in rows) == sorted(face_up)
    assert counted == {"de": len(face_up)}
    assert {r["outcome"] for r in rows} <= {"unsure", "not found"}
    prints = {r["truth"][:-1]: r["prints"] for r in rows}
    assert prints.get("J", "B") == "B" and prints.get("Q", "D") == "D" and prints.get("K", "K") == "K"
    found = [r for r in rows if r["outcome"] == "unsure"]
    assert found and all(len(r["corners"]) == 2 and r["height"] > 50 for r in found)
    counts = summary(rows)
    assert sum(counts.values()) == len(rows)
    assert counts[("touching", "lettered", "unsure")] == sum(r["lettered"] for r in found)


def test_the_shipped_reader_misses_few_and_never_a_card_it_reads_right(reader: CardReader) -> None:
    rows = misses(reader, "fr", touching=False, scenes=2)
    assert all(r["read"] != r["truth"] for r in rows)
    assert len(rows) <= 3  # of 24 cards, about 18 face up


def test_other_seeds_draw_other_scenes_of_the_same_kind(reader: CardReader) -> None:
    doubting = Doubting(reader)
    usual = misses(doubting, "en", touching=False, scenes=1)  # type: ignore[arg-type]
    other = misses(doubting, "en", touching=False, scenes=1, seed=11)  # type: ignore[arg-type]
    assert {r["scene"] for r in usual} == {SEEDS[False] * 1000} and {r["scene"] for r in other} == {11000}
    assert sorted(r["truth"] for r in usual) != sorted(r["truth"] for r in other)


def test_seeds_that_are_not_two_numbers_are_refused_saying_what_is_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--seeds", "11"])
    assert "two whole numbers" in capsys.readouterr().err
