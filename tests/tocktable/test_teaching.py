"""The host's corrections and entries reaching the camera's reader as lessons (tocktable.teaching):
the service hands them over only for host steps, once the game took them; the watcher finds each
card on its view, learns its crop, forgets it when the host corrects the place again, and keeps
what it learned in the data directory across a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from table.steps import ChooseButton, Correct, DealBoard, Press, Show
from tocktable.teaching import HostCard, find_card, host_cards
from vision.view import TableView

from .helpers import FakeClock, make_service, seen, view


def test_host_steps_name_their_cards_and_places() -> None:
    before = {"session": 4, "hand_number": 12, "board": ["2c", "7d", "9h"],
              "seats": [{"seat": 0, "hole": []}, {"seat": 1, "hole": ["Qs", "3d"]}]}  # fmt: skip
    assert host_cards(Correct(None, 1, "7s"), before) == [HostCard("7s", None, 1, "4/12/board/1", was="7d")]
    assert host_cards(Correct(1, 0, "Js"), before) == [HostCard("Js", 1, 0, "4/12/seat1/0", was="Qs")]
    assert host_cards(DealBoard(("Tc",)), before) == [HostCard("Tc", None, 3, "4/12/board/3")]
    assert host_cards(Show(0, ("Ah", "Kd")), before) == [
        HostCard("Ah", 0, 0, "4/12/seat0/0"), HostCard("Kd", 0, 1, "4/12/seat0/1")]  # fmt: skip
    assert host_cards(ChooseButton(draws={0: "5c", 1: "Qh"}), before)[1] == HostCard("Qh", 1, 0, "4/12/button/1")
    assert host_cards(Press("fold"), before) == []  # type: ignore[arg-type]
    assert all(not card.corrected for card in host_cards(DealBoard(("Tc",)), before))


def test_a_lesson_finds_its_card_only_when_it_can_tell_which() -> None:
    table = view(board=["2c", "7d"], seats={0: ["Ah"]})
    board = find_card(HostCard("7s", None, 1, "k", was="7d"), table)
    assert board is not None and board.card == "7d"
    assert find_card(HostCard("Tc", None, 5, "k"), table) is None  # no fifth card on the board
    unread = TableView(1, 1.0, (), {1: (seen(None, zone="seat:1", x=0.1), seen("Kd", zone="seat:1", x=0.3))})
    one = HostCard("Qs", 1, 0, "k")
    found = find_card(one, unread, [one, HostCard("Kd", 1, 1, "k2")])  # Kd was read: Qs is the unread one
    assert found is not None and found.card is None
    two_unread = TableView(1, 1.0, (), {1: (seen(None, zone="seat:1", x=0.1), seen(None, zone="seat:1", x=0.3))})
    pair = [HostCard("Qs", 1, 0, "k"), HostCard("Kd", 1, 1, "k2")]
    assert find_card(pair[0], two_unread, pair) is None  # which is which is not guessed


class Teacher:
    def __init__(self) -> None:
        self.lessons: list[list[HostCard]] = []

    def __call__(self, lessons: Any) -> None:
        self.lessons.append(list(lessons))


def test_the_service_teaches_after_host_steps_only(tmp_path: Path) -> None:
    service = make_service(tmp_path / "t.sqlite", clock=FakeClock()).start()
    try:
        teacher = Teacher()
        service.teacher = teacher
        service.call(ChooseButton(seat=0))
        while service.snapshot().to_dict()["to_act"] is not None:
            service.call(Press("check_call"))
        service.call(view(board=["2c", "7d", "9h"]))  # the camera's flop: no lesson
        assert teacher.lessons == []
        service.call(Correct(None, 1, "7s"))
        session = service.session_id
        assert teacher.lessons == [[HostCard("7s", None, 1, f"{session}/1/board/1", was="7d")]]
        with pytest.raises(Exception, match="there is no board card 5"):
            service.call(Correct(None, 4, "Ah"))  # refused by the game: nothing taught
        assert len(teacher.lessons) == 1

        def broken(lessons: Any) -> None:
            raise RuntimeError("the camera is gone")

        service.teacher = broken  # a teacher that fails never stops the game
        service.call(Correct(None, 1, "7c"))
        assert service.snapshot().to_dict()["board"] == ["2c", "7c", "9h"]
    finally:
        service.stop()
        service.store.close()


@pytest.fixture(scope="module")
def reader() -> Any:
    from vision.reader import CardReader

    return CardReader.default()


def test_the_watcher_learns_a_corrected_card_forgets_it_when_undone_and_keeps_it(reader: Any, tmp_path: Path) -> None:
    """A Dutch queen (V) on the board, read by the camera as a jack; the host corrects it: the
    reader learns it (the view shows the queen), the file keeps it for the next start; the host
    corrects the place back: the example is gone."""
    from tocktable.camera import VisionWatcher
    from vision.deck_profile import PROFILE_NAME, DeckProfile
    from vision.render.scene import PlacedCard, SceneSpec, render_scene

    zones = {"board": [(0.1, 0.2), (0.9, 0.2), (0.9, 0.8), (0.1, 0.8)]}
    cards = (PlacedCard("7c", True, (0.3, 0.5), angle=5, height=0.35), PlacedCard("Qs", True, (0.6, 0.5), height=0.35))
    frames = [render_scene(SceneSpec(cards=cards, seed=s, deck="holdout-nl-41")).image for s in range(8)]
    reader.use_profile(None)
    watcher = VisionWatcher.default(zones, size=(1280, 720), data_dir=tmp_path)
    watcher.reader = reader
    watcher.learner.reader = reader
    index = 0

    def board() -> tuple[str | None, ...]:
        nonlocal index
        for _ in range(4):
            index += 1
            last = watcher.watch(frames[index % len(frames)], index=index, timestamp=index / 8)
        return tuple(c.card for c in last.board)

    assert board() == ("7c", "Js")  # the models read this deck's queen as a jack
    lesson = HostCard("Qs", None, 1, "1/1/board/1", was="Js")
    watcher.teach([lesson])
    assert board() == ("7c", "Qs")
    assert watcher.taught == 1
    kept = DeckProfile.load(tmp_path / PROFILE_NAME)
    assert [(e.card, e.read, e.key) for e in kept.examples] == [("Qs", "Js", "1/1/board/1")]
    restarted = VisionWatcher.default(zones, size=(1280, 720), data_dir=tmp_path)
    assert "using the deck profile" in restarted.profile_note
    assert len(restarted.reader.profile.examples) == 1
    watcher.teach([HostCard("Js", None, 1, "1/1/board/1", was="Qs")])  # the host undoes the correction
    board()
    assert DeckProfile.load(tmp_path / PROFILE_NAME).examples == ()
    reader.use_profile(None)
