"""Deck enrollment: file names, profiles (files, versions, models), enrolling rendered and real
photos (the enrollment figures), the guided camera enrollment with a synthetic camera and scripted
answers, and the reader and service hooks (the command line: tests/tocktable/test_enroll_cli.py)."""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.frames import FrameSource
from table.errors import TocktableError
from vision.deck_profile import PROFILE_NAME, PROFILE_VERSION, DeckProfile, ProfileError
from vision.detect import quad_iou
from vision.enroll import DECK_ORDER, EnrollError, Guide, card_from_filename, card_name, enroll, enroll_folder
from vision.reader import CardReader
from vision.render.scene import PlacedCard, SceneSpec, deal_rows, render_scene

REAL = Path(__file__).resolve().parents[2] / ".." / "shared" / "vision-real" / "bicycle-webcam"
DECK = "holdout-4242"


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader.default()  # the models ship in models/: missing ones fail, not skip


def alone(card: str, seed: int, *, deck: str = DECK, table: str | None = "green-felt") -> np.ndarray:
    """One card face up in the middle of the table, as the guide asks for it."""
    spec = SceneSpec(cards=(PlacedCard(card, True, (0.5, 0.5), angle=float(seed % 9 - 4), height=0.4),), seed=seed,
                     deck=deck, table=table)  # fmt: skip
    return render_scene(spec).image


# ---------------------------------------------------------------------------------- names
@pytest.mark.parametrize(("name", "card"), [
    ("Ah.jpg", "Ah"), ("ah.PNG", "Ah"), ("10h.jpg", "Th"), ("Th-2.png", "Th"), ("QS (3).jpeg", "Qs"),
    ("queen_of_hearts.jpg", "Qh"), ("Ace_heart_1.jpg", "Ah"), ("10_club_3.jpg", "Tc"), ("2_spade_4.jpg", "2s"),
    ("seven of diamonds.png", "7d"), ("jack-clubs.jpg", "Jc"),
])  # fmt: skip
def test_card_names_are_read_from_file_names(name: str, card: str) -> None:
    assert card_from_filename(name) == card


@pytest.mark.parametrize("name", ["IMG_0001.jpg", "joker.png", "back.jpg", "11h.jpg", "Ax.jpg", ".jpg"])
def test_names_that_are_no_card_give_none(name: str) -> None:
    assert card_from_filename(name) is None


def test_card_names_for_people() -> None:
    assert [card_name(c) for c in ("Ah", "7c", "Td", "Ks")] == ["ace of hearts", "7 of clubs", "10 of diamonds",
                                                                 "king of spades"]  # fmt: skip
    assert len(DECK_ORDER) == 52 == len(set(DECK_ORDER)) and DECK_ORDER[:2] == ("As", "2s")


# ---------------------------------------------------------------------------------- profiles
def _profile(model: str = "m1") -> DeckProfile:
    rng = np.random.default_rng(1)
    faces = {c: [rng.normal(size=16)] for c in ("Ah", "Kd", "7c", "2s")}
    return DeckProfile.from_faces(faces, model_hash=model, backs={"h:large": [rng.normal(size=30)]}, name="test")


def test_a_profile_survives_its_file(tmp_path: Path) -> None:
    profile = _profile()
    path = profile.save(tmp_path / "sub" / PROFILE_NAME)
    again = DeckProfile.load(path, model_hash="m1")
    assert again.cards == ("2s", "7c", "Ah", "Kd") and again.marks == ("h:large",) and again.name == "test"
    np.testing.assert_allclose(again.face_prototypes, profile.face_prototypes)
    assert not list(tmp_path.rglob("*.tmp"))
    assert path.stat().st_size < 10_000


def test_a_profile_is_synced_before_it_replaces_the_old_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    import vision.deck_profile as deck_profile

    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(deck_profile.os, "fsync", lambda fd: synced.append(fd) or real_fsync(fd))
    _profile().save(tmp_path / PROFILE_NAME)
    assert len(synced) == 1


def test_an_unwritable_profile_path_is_a_profile_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(ProfileError, match=r"cannot write deck profile .*a-file.*--out"):
        _profile().save(blocker / PROFILE_NAME)
    assert blocker.read_text() == "not a folder"


def test_a_profile_of_other_models_or_version_is_refused(tmp_path: Path) -> None:
    path = _profile().save(tmp_path / PROFILE_NAME)
    with pytest.raises(ProfileError, match=r"other models.*enroll the deck again"):
        DeckProfile.load(path, model_hash="m2")
    import json

    with np.load(path) as data:
        meta, faces, backs = json.loads(str(data["meta"])), data["faces"], data["backs"]
    meta["version"] = PROFILE_VERSION + 1
    np.savez(path, meta=np.array(json.dumps(meta)), faces=faces, backs=backs)
    with pytest.raises(ProfileError, match="format version"):
        DeckProfile.load(path)
    (tmp_path / "junk.npz").write_bytes(b"not a profile")
    with pytest.raises(ProfileError, match="cannot read"):
        DeckProfile.load(tmp_path / "junk.npz")


def test_bad_profiles_raise_typed_errors() -> None:
    with pytest.raises(ProfileError, match="'Zz'"):
        DeckProfile.from_faces({"Zz": [np.ones(4)]}, model_hash="m")
    with pytest.raises(ProfileError, match="same length"):
        DeckProfile.from_faces({"Ah": [np.ones(4)], "Kd": [np.ones(5)]}, model_hash="m")
    with pytest.raises(ProfileError, match="empty or not finite"):
        DeckProfile.from_faces({"Ah": [np.zeros(4)]}, model_hash="m")
    with pytest.raises(ProfileError, match=r"cannot enroll mark .h:huge.*e.g. .h:large"):
        DeckProfile.from_faces({"Ah": [np.ones(4)]}, model_hash="m", backs={"h:huge": [np.ones(3)]})
    with pytest.raises(ProfileError, match="at least one card"):
        DeckProfile.from_faces({}, model_hash="m")
    with pytest.raises(ProfileError, match=r"\(N, 16\)"):
        _profile().match_faces(np.ones((2, 8)))
    assert issubclass(ProfileError, TocktableError) and issubclass(ProfileError, ValueError)
    assert issubclass(EnrollError, TocktableError) and issubclass(EnrollError, ValueError)


def test_matching_is_nearest_prototype_and_unsure_between_two() -> None:
    profile = _profile()
    own = profile.face_prototypes[profile.face_labels.index("Kd")]
    other = profile.face_prototypes[profile.face_labels.index("7c")]
    sure, between = profile.match_faces(np.stack([own * 3, own + other]))
    assert (sure.card, sure.guess) == ("Kd", "Kd") and sure.confidence > 0.99
    assert between.card is None and between.guess in ("Kd", "7c") and between.confidence < 0.5


# ---------------------------------------------------------------------------------- enrolling
def test_enrolling_rendered_photos_reads_that_deck(reader: CardReader) -> None:
    cards = ("As", "Kh", "7d", "Tc", "3s", "Qd", "9h", "2c", "Jc", "5h", "8s", "4d")
    profile = reader.enroll({c: alone(c, 100 + k) for k, c in enumerate(cards)}, name="rendered")
    assert profile.cards == tuple(sorted(cards)) and profile.model_hash == reader.model_hash
    rng = np.random.default_rng(5)
    placed = tuple(PlacedCard(c, True, p.center, angle=p.angle, height=p.height)
                   for c, p in zip(cards, deal_rows(rng), strict=True))  # fmt: skip
    scene = render_scene(SceneSpec(cards=placed, seed=777, deck=DECK))
    reader.use_profile(profile)
    try:
        seen = reader.read(scene.image)
    finally:
        reader.use_profile(None)
    right = 0
    for truth in scene.truth:
        obs = seen[int(np.argmax([quad_iou(truth.corners, c) for c in seen.corners]))]
        assert obs.card in (truth.card, None)
        right += obs.card == truth.card
    assert right >= 11


def test_enrolling_a_photo_without_a_card_names_it(reader: CardReader) -> None:
    table = render_scene(SceneSpec(cards=(), seed=3, table="green-felt")).image
    with pytest.raises(EnrollError, match="photo 1 of Ah: no card found in the picture"):
        enroll(reader, {"Ah": table})
    with pytest.raises(EnrollError, match="'Xy'"):
        enroll(reader, {"Xy": alone("Ah", 1)})


@pytest.mark.real_photos
@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/vision-real/bicycle-webcam is absent")
def test_real_photos_enrolled_from_one_photo_per_card(reader: CardReader) -> None:
    """Enrolled from the _1 photo of each card, the other photos ≥ 99.5 % right and
    confidently wrong ≤ 0.1 % (measured only: the photos never leave ../shared)."""
    profile, report = enroll_folder(reader, REAL, pattern="*_1.jpg")
    assert len(report.enrolled) == 52 and not report.missing
    reader.use_profile(profile)
    right = wrong = total = 0
    try:
        for path in sorted(REAL.glob("*.jpg")):
            if path.stem.endswith("_1"):
                continue
            seen = reader.read(cv2.imread(str(path)))
            face_up = [o for o in seen if o.face_up]
            best = max(face_up, key=lambda o: cv2.contourArea(o.corners.astype(np.float32)))
            total += 1
            right += best.card == card_from_filename(path.name)
            wrong += best.card not in (None, card_from_filename(path.name))
    finally:
        reader.use_profile(None)
    assert total == 156
    assert right / total >= 0.995 and wrong / total <= 0.001


# ---------------------------------------------------------------------------------- the guide
class TableCamera(FrameSource):
    """A synthetic camera looking at whatever card the test lays on the table."""

    name = "test table"

    def __init__(self) -> None:
        super().__init__(fault_after=5.0)
        self.card: str | None = None
        self.lock = threading.Lock()
        self._images: dict[str | None, np.ndarray] = {}

    def lay(self, card: str | None) -> None:
        with self.lock:
            if card not in self._images:
                self._images[card] = (alone(card, 500 + DECK_ORDER.index(card)) if card else
                                      render_scene(SceneSpec(cards=(), seed=2, table="green-felt")).image)  # fmt: skip
            self.card = card

    def _open(self) -> None:
        self.lay(None)

    def _grab(self) -> np.ndarray:
        self._stop.wait(0.02)
        with self.lock:
            return self._images[self.card]


class Script:
    """Scripted answers; lays the card each prompt asks for (unless told to leave the table empty)."""

    def __init__(self, camera: TableCamera, answers: list[str], *, empty: frozenset[int] = frozenset()) -> None:
        self.camera, self.answers, self.empty = camera, list(answers), empty
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        asked = re.search(r"\((\w\w)\) FACE UP", prompt)
        if asked:
            self.camera.lay(None if len(self.prompts) - 1 in self.empty else asked.group(1))
        if not self.answers:
            raise AssertionError(f"the guide asked more than the script answers: {prompt!r}")
        return self.answers.pop(0)


def test_the_guide_enrolls_confirms_retakes_stops_resumes_and_redoes(reader: CardReader, tmp_path: Path) -> None:
    path = tmp_path / PROFILE_NAME
    cards = ["As", "Kh", "7d"]
    camera = TableCamera()
    out = io.StringIO()
    with camera:
        # As: nothing on the table first (told so), then captured, retaken, captured, kept; Kh: stop.
        script = Script(camera, ["", "", "r", "", "", "quit"], empty=frozenset({0}))
        assert Guide(reader, camera, path, cards=cards, ask=script, out=out).run() is None
        assert "[1/3] Show the ace of spades (As) FACE UP" in script.prompts[0]
        assert "no face-up card seen (no card found in the picture" in out.getvalue()
        assert out.getvalue().count("  Seen:") == 2  # captured twice (one retake)
        assert not path.exists() and (tmp_path / (PROFILE_NAME + ".partial.npz")).is_file()
        # Run again: resumes at Kh; a redo of As puts it back in front; skip is not used.
        out = io.StringIO()
        script = Script(camera, ["", "", "redo as", "", "", "", ""])
        profile = Guide(reader, camera, path, cards=cards, ask=script, out=out).run()
    assert "Resuming: 1 of 3" in out.getvalue()
    assert "[2/3] Show the king of hearts (Kh)" in script.prompts[0]
    assert "As will be taken again next" in out.getvalue()
    assert profile is not None and profile.cards == ("7d", "As", "Kh")
    saved = DeckProfile.load(path, model_hash=reader.model_hash)
    assert saved.cards == ("7d", "As", "Kh")
    assert set(saved.crops_by_card()) == {"7d", "As", "Kh"}  # the index corners too, As's from before the stop
    assert not (tmp_path / (PROFILE_NAME + ".partial.npz")).exists()
    # The profile reads those cards.
    reader.use_profile(path)
    try:
        assert [reader.read(alone(c, 900 + k)).cards for k, c in enumerate(cards)] == [[c] for c in cards]
    finally:
        reader.use_profile(None)


def test_the_guide_answers_unknown_commands_and_bad_redo(reader: CardReader, tmp_path: Path) -> None:
    camera = TableCamera()
    out = io.StringIO()
    with camera:
        script = Script(camera, ["hello", "redo Zz", "redo 9c", "skip", "quit"])
        assert Guide(reader, camera, tmp_path / PROFILE_NAME, cards=["As", "Kh"], ask=script, out=out).run() is None
    text = out.getvalue()
    assert "Answer Enter to capture" in text and "Cannot redo 'zz'" in text and "9c is not one of" in text
    with pytest.raises(EnrollError, match="cards asked for"):
        Guide(reader, camera, tmp_path / PROFILE_NAME, cards=["Qq"])


# ---------------------------------------------------------------------------------- hooks
def test_the_reader_refuses_a_profile_of_other_models(reader: CardReader, tmp_path: Path) -> None:
    path = _profile("someone-else").save(tmp_path / PROFILE_NAME)
    with pytest.raises(ProfileError, match="other models"):
        reader.use_profile(path)
    with pytest.raises(ProfileError, match="other models"):
        reader.use_profile(_profile("someone-else"))
    assert reader.profile is None


def test_module_examples() -> None:
    import doctest
    import importlib

    for name in ("vision.deck_profile", "vision.enroll"):
        result = doctest.testmod(importlib.import_module(name))
        assert result.attempted > 0 and result.failed == 0, name
