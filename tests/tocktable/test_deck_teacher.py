"""The set-up page's deck teaching, on rendered tables of a deck the models were not trained on
(hold-out fonts, German index letters K D B), read by the real card reader."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hardware.table_model import TableModel
from tocktable.deck_teacher import PROFILE_NAME, PROGRESS_NAME, DeckTeacher, TeachError
from vision.deck_profile import DeckProfile
from vision.enroll import DECK_ORDER, Guide
from vision.reader import CardReader

DECK = "holdout-de-3"


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader.default()


class Hands:
    """The demo's hands on a table model: lays cards in a row in the middle."""

    def __init__(self, model: TableModel) -> None:
        self.model = model
        self.lent = 0
        self.given_back = 0

    def lend(self) -> None:
        self.lent += 1

    def give_back(self) -> None:
        self.given_back += 1

    def lay(self, cards: Sequence[str], *, face_up: bool = True) -> None:
        self.model.gather()
        for k, card in enumerate(cards):
            x = 0.5 + (k % 5 - 2) * 0.13
            y = 0.5 if len(cards) == 1 else (0.33 if k < 5 else 0.67)
            self.model.deal(card, at=(x, y), face_up=face_up)


class Camera:
    """A camera on the model: every look is a new frame."""

    def __init__(self, model: TableModel) -> None:
        self.model, self.index = model, 0

    def __call__(self) -> tuple[int, np.ndarray]:
        self.index += 1
        return self.index, self.model.frame()


def make(tmp_path: Path, reader: Any, model: TableModel | None = None) -> tuple[DeckTeacher, Hands]:
    model = model or TableModel(6, seed=11, deck=DECK, clean=True)
    hands = Hands(model)
    teacher = DeckTeacher(Camera(model), tmp_path, reader=lambda: reader, hands=hands, wait=0.0)
    return teacher, hands


def teach(teacher: DeckTeacher, hands: Hands, count: int) -> None:
    for _ in range(count):
        asked = teacher.status()["next"]["card"]
        hands.lay([asked])
        pending = teacher.capture()["pending"]
        assert pending["card"] == asked and teacher.crop()
        teacher.keep()


def test_the_whole_deck_is_taught_saved_and_read_at_once_by_every_reader(tmp_path: Path, reader: CardReader) -> None:
    other = CardReader.default()  # the table's camera reads with another reader
    reader.use_profile(None)
    teacher, hands = make(tmp_path, reader)
    teacher.share(other)
    status = teacher.start()
    assert hands.lent == 1 and status["state"] == "teaching"
    assert status["next"] == {"card": "As", "name": "ace of spades"} and status["done"] == 0
    teach(teacher, hands, len(DECK_ORDER))
    status = teacher.status()
    assert status["complete"] and status["done"] == 52 and status["next"] is None and status["saved"] == 52
    assert status["enrolled"] == list(DECK_ORDER)
    assert (tmp_path / PROFILE_NAME).is_file() and not (tmp_path / PROGRESS_NAME).is_file()
    for used in (reader, other):
        assert used.profile is not None and used.profile.cards == tuple(sorted(DECK_ORDER))
        assert set(used.profile.crops_by_card()) == set(DECK_ORDER)  # each card's index corners kept
    assert status["in_use"]

    laid = ["Kh", "Qs", "Jd", "Ac", "Th", "7s", "2d", "Kc", "Qd", "5h"]
    hands.lay(laid)
    check = teacher.check()
    assert check["seen"] == 10 and check["profile"] == 52 and check["face_down"] == 0
    assert sorted(c["card"] for c in check["cards"]) == sorted(laid)
    names = {c["card"]: c["name"] for c in check["cards"]}
    assert names["Kh"] == "king of hearts" and names["Th"] == "10 of hearts"
    assert teacher.status()["check"]["read"] == 10

    assert teacher.stop()["state"] == "idle" and hands.given_back == 1
    with pytest.raises(TeachError, match="every card is taught"):
        teacher.start() and teacher.capture()
    reader.use_profile(None)


def test_progress_is_kept_in_the_data_directory_and_picked_up_by_a_restarted_table_and_the_terminal_guide(
        tmp_path: Path, reader: CardReader) -> None:  # fmt: skip
    teacher, hands = make(tmp_path, reader)
    teacher.start()
    teach(teacher, hands, 3)
    assert (tmp_path / PROGRESS_NAME).is_file() and not (tmp_path / PROFILE_NAME).is_file()

    again, _ = make(tmp_path, reader)  # the table restarted
    status = again.status()
    assert status["state"] == "idle" and status["done"] == 3 and status["next"]["card"] == "4s"
    assert status["enrolled"] == ["As", "2s", "3s"] and not status["complete"]

    out = io.StringIO()
    guide = Guide(reader, None, tmp_path / PROFILE_NAME, ask=lambda _: "quit", out=out)
    assert sorted(guide.faces) == ["2s", "3s", "As"] and "Resuming: 3 of 52" in out.getvalue()
    assert sorted(guide.crops) == ["2s", "3s", "As"] and sorted(again.corners) == ["2s", "3s", "As"]

    assert again.restart()["done"] == 0 and not (tmp_path / PROGRESS_NAME).is_file()


def test_retake_redo_and_what_cannot_be_done_now(tmp_path: Path, reader: CardReader) -> None:
    teacher, hands = make(tmp_path, reader)
    with pytest.raises(TeachError, match="Teach the deck first"):
        teacher.capture()
    with pytest.raises(TeachError, match="nothing captured to keep"):
        teacher.keep()
    teacher.start()
    teach(teacher, hands, 2)  # As 2s

    hands.lay(["Kd"])  # the wrong card: the reader alone says what it reads
    pending = teacher.capture()["pending"]
    assert pending["card"] == "3s" and pending["read"] == "Kd" and not pending["agrees"]
    assert pending["read_name"] == "king of diamonds"
    status = teacher.retake()
    assert status["pending"] is None and status["next"]["card"] == "3s" and status["done"] == 2

    status = teacher.redo("As")
    assert status["next"]["card"] == "As" and status["enrolled"] == ["2s"]
    saved = DeckProfile.load(tmp_path / PROGRESS_NAME)
    assert saved.cards == ("2s",)
    teach(teacher, hands, 1)
    assert teacher.status()["next"]["card"] == "3s" and teacher.status()["enrolled"] == ["As", "2s"]

    before = teacher.status()
    for bad, message in (("Zz", "name a card"), ("9h", "not taught yet"), (7, "name a card")):
        with pytest.raises(TeachError, match=message):
            teacher.redo(bad)
    assert teacher.status() == before

    hands.lay(["3s"], face_up=False)  # a back is not taken for the face asked for
    with pytest.raises(TeachError, match="back, not a face"):
        teacher.capture()
    hands.model.gather()
    with pytest.raises(TeachError, match="no card found"):
        teacher.capture()
    assert teacher.status() == before


def test_no_picture_yet_and_progress_made_with_other_models(tmp_path: Path, reader: CardReader) -> None:
    teacher = DeckTeacher(lambda: None, tmp_path, reader=lambda: reader, wait=0.0)
    teacher.start()
    with pytest.raises(LookupError, match="no picture yet"):
        teacher.capture()
    with pytest.raises(LookupError, match="demo's synthetic table"):
        teacher.lay()

    vectors = np.eye(4, dtype=np.float32)
    DeckProfile.from_faces({"As": [vectors[0]], "2s": [vectors[1]]}, model_hash="other").save(tmp_path / PROGRESS_NAME)
    stale = DeckTeacher(lambda: None, tmp_path, reader=lambda: reader, wait=0.0)
    assert stale.status()["done"] == 2  # the models are not loaded to show the progress
    stale.reader()
    status = stale.status()
    assert status["done"] == 0 and "other models" in status["note"]
