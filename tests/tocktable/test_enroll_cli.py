"""``tocktable enroll``: a folder of photos enrolled, the profile's default home in the data
directory, errors as one line and exit status 2, the help."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import pytest

from tocktable.enroll_cli import main
from vision.deck_profile import PROFILE_NAME, DeckProfile
from vision.reader import CardReader
from vision.render.scene import PlacedCard, SceneSpec, render_scene


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader.default()


def alone(card: str, seed: int) -> Any:
    """One card face up in the middle of a green table, as the guide asks for it."""
    spec = SceneSpec(cards=(PlacedCard(card, True, (0.5, 0.5), angle=float(seed % 9 - 4), height=0.4),), seed=seed,
                     deck="holdout-4242", table="green-felt")  # fmt: skip
    return render_scene(spec).image


def test_the_command_line_enrolls_a_folder_of_photos(reader: CardReader, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    photos = tmp_path / "deck"
    photos.mkdir()
    for k, card in enumerate(("Ah", "Kd", "7c")):
        cv2.imwrite(str(photos / f"{card}.png"), alone(card, 300 + k))
    cv2.imwrite(str(photos / "holiday.png"), alone("2s", 1))
    out = tmp_path / "profile.npz"
    assert main(["--photos", str(photos), "--out", str(out)], prog="tocktable enroll") == 0
    printed = capsys.readouterr().out
    assert "Enrolled 3 cards from 3 photos" in printed and "holiday.png: the name does not name a card" in printed
    assert DeckProfile.load(out, model_hash=reader.model_hash).cards == ("7c", "Ah", "Kd")
    assert main(["--photos", str(tmp_path / "nowhere")], prog="tocktable enroll") == 2
    assert main(["--photos", str(photos), "--out", str(out / "x.npz")], prog="tocktable enroll") == 2
    assert "cannot write deck profile" in capsys.readouterr().err  # no traceback for an unwritable --out
    with pytest.raises(SystemExit) as stop:
        main(["--help"], prog="tocktable enroll")
    assert stop.value.code == 0 and "usage: tocktable enroll" in capsys.readouterr().out


def test_the_data_directory_is_the_default_home_of_the_profile(reader: CardReader, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    photos = tmp_path / "deck"
    photos.mkdir()
    cv2.imwrite(str(photos / "Qs.png"), alone("Qs", 77))
    monkeypatch.setenv("TOCKTABLE_DATA", str(tmp_path / "data"))
    assert main(["--photos", str(photos)]) == 0
    assert (tmp_path / "data" / PROFILE_NAME).is_file()
