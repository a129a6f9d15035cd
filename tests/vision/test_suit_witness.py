"""The card's body as a witness of its suit: rendered cards (training-pool decks) lying on a table,
their symbols found and read by the shipped suit model; silence where the body shows no symbol;
typed errors for bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from table.cards import Card
from table.errors import TocktableError
from vision.errors import FrameError, ModelError
from vision.rectify import Pyramid
from vision.render.faces import deck_style, render_face
from vision.suit_symbols import SYMBOL, crop_symbol
from vision.suit_witness import MODELS_DIR, SuitWitness, apply_evidence, suit_evidence, symbol_boxes

SUITS = "cdhs"


@pytest.fixture(scope="module")
def witness() -> SuitWitness:
    return SuitWitness.load()


def _table_with(face: np.ndarray, *, scale: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """A dark table with a card lying straight in it (``scale`` of the drawn size), and its corners
    in the reader's order."""
    import cv2

    h, w = face.shape[:2]
    small = cv2.resize(face, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    frame = np.full((small.shape[0] + 80, small.shape[1] + 80, 3), (40, 90, 30), np.uint8)
    frame[40 : 40 + small.shape[0], 40 : 40 + small.shape[1]] = small
    sh, sw = small.shape[:2]
    corners = np.array([[40, 40], [40 + sw, 40], [40 + sw, 40 + sh], [40, 40 + sh]], np.float64) - 0.5
    return frame, corners


def _face(card: str, seed: int) -> np.ndarray:
    return np.ascontiguousarray(render_face(deck_style(seed, "train"), Card.parse(card))[..., :3])


def _doubtful(card: str, other: str) -> np.ndarray:
    """A posterior that hesitates between two suits of one rank, leaning to the wrong one."""
    posterior = np.full(52, 1e-4)
    posterior[Card.parse(other).id] = 0.6
    posterior[Card.parse(card).id] = 0.4
    return posterior / posterior.sum()


@pytest.mark.parametrize(
    ("card", "other", "seed"), [("7c", "7s", 0), ("4c", "4s", 3), ("9h", "9d", 1), ("Ad", "Ah", 2)]
)
def test_a_number_card_or_ace_says_its_suit(witness: SuitWitness, card: str, other: str, seed: int) -> None:
    frame, corners = _table_with(_face(card, seed))
    posterior = _doubtful(card, other)[None]
    likelihood = witness.evidence(frame, corners[None], posterior, pyramid=Pyramid(frame))
    assert likelihood.shape == (1, 4)
    assert int(np.argmax(likelihood[0])) == SUITS.index(card[1])
    assert likelihood[0, SUITS.index(other[1])] < 0.2  # the body speaks against the corners' choice
    after = apply_evidence(posterior, likelihood)
    assert Card.from_id(int(after.argmax())) == Card.parse(card)


def test_a_card_with_no_symbols_in_its_body_is_silent(witness: SuitWitness) -> None:
    face = _face("5c", 0).copy()
    h, w = face.shape[:2]
    face[int(0.12 * h) : int(0.88 * h), int(0.2 * w) : int(0.8 * w)] = face[h // 2, 4]  # paper over the pips
    frame, corners = _table_with(face)
    likelihood = witness.evidence(frame, corners[None], _doubtful("5c", "5s")[None], pyramid=Pyramid(frame))
    assert np.array_equal(likelihood, np.ones((1, 4)))


def test_cards_not_in_doubt_are_not_looked_at(witness: SuitWitness) -> None:
    frame, corners = _table_with(_face("7c", 0))
    sure = np.full((1, 52), 1e-6)
    sure[0, Card.parse("7s").id] = 1.0  # wrong, but sure: the witness is not asked
    assert not witness.asked(sure)[0]
    assert np.array_equal(witness.evidence(frame, corners[None], sure, pyramid=Pyramid(frame)), np.ones((1, 4)))
    asked = witness.evidence(frame, corners[None], sure, pyramid=Pyramid(frame), asked=np.array([True]))
    assert int(np.argmax(asked[0])) == SUITS.index("c")


def test_with_a_threshold_only_cards_the_body_could_settle_are_asked(witness: SuitWitness) -> None:
    settled = np.full((1, 52), 1e-6)
    settled[0, Card.parse("7c").id], settled[0, Card.parse("7s").id] = 0.55, 0.45  # the suit alone in doubt
    ranks = np.full((1, 52), 1e-6)
    for k, card in enumerate(["Jc", "Js", "Qc", "Qs", "Kc", "Ks"]):  # the rank in doubt as well
        ranks[0, Card.parse(card).id] = 0.2 - 0.01 * k
    for posterior in (settled, ranks):
        posterior /= posterior.sum()
        assert witness.asked(posterior)[0]  # in doubt about the suit, both
    threshold = 0.784
    assert witness.asked(settled, threshold=threshold)[0]
    assert not witness.asked(ranks, threshold=threshold)[0]
    # and the bound is right: the likeliest answer of the body leaves that card below the threshold
    best = np.full(4, witness.settings.court_floor)
    best[0] = 1.0
    assert apply_evidence(ranks, best[None]).max() < threshold


def test_a_card_short_of_the_posterior_its_height_asks_is_asked_however_little_the_other_suits_hold(
        witness: SuitWitness) -> None:  # fmt: skip
    """Below the caution height a reading must reach a surer posterior; one that passes the reader's
    threshold and falls short of that is asked though its other suits hold less than the doubt."""
    posterior = np.full((2, 52), 1e-7)
    posterior[:, Card.parse("8c").id], posterior[:, Card.parse("8s").id] = 0.9993, 0.0006  # spade 0.0006 < doubt
    posterior[1, Card.parse("8c").id], posterior[1, Card.parse("6c").id] = 0.9, 0.0999  # the rank in doubt too
    posterior /= posterior.sum(axis=1, keepdims=True)
    assert witness.settings.doubt > 0.0006
    required = np.array([0.9999, 0.9999])
    assert not witness.asked(posterior, threshold=required).any()  # the suit alone is not in doubt
    asked = witness.asked(posterior, threshold=required, least=0.784)
    assert asked[0]  # the body's clubs can lift it to 0.9999
    assert not asked[1]  # no suit the body names lifts an 8 that may be a 6
    # a tall card, asked the reader's threshold only, is not looked at again
    assert not witness.asked(posterior[:1], threshold=np.array([0.784]), least=0.784)[0]
    lifted = np.full(4, witness.settings.floor)
    lifted[SUITS.index("c")] = 1.0
    assert apply_evidence(posterior[:1], lifted[None]).max() >= 0.9999


def test_symbols_that_disagree_give_no_answer(witness: SuitWitness) -> None:
    club, spade = [0.9, 0.0, 0.0, 0.05, 0.05], [0.05, 0.0, 0.0, 0.9, 0.05]
    assert witness.pool(np.array([club, spade])) is None
    assert witness.pool(np.array([[0.0, 0.0, 0.0, 0.0, 1.0]])) is None  # no symbol at all
    one = witness.pool(np.array([club, club, club]))
    assert one is not None and int(np.argmax(one)) == 0
    # three alike symbols are one witness: no surer than one
    assert np.allclose(one, witness.pool(np.array([club])))


def test_the_index_corners_are_not_read_as_body_symbols() -> None:
    face = _face("Qh", 4).copy()
    boxes = symbol_boxes(np.ascontiguousarray(face[::2, ::2]))
    h, w = face.shape[0] // 2, face.shape[1] // 2
    for x0, y0, x1, y1 in boxes:
        cx, cy = (x0 + x1) / 2 / w, (y0 + y1) / 2 / h
        assert not ((cx < 0.19 or cx > 0.81) and (cy < 0.45 or cy > 0.55))


def test_crop_symbol_gives_the_model_size() -> None:
    image = np.full((100, 80, 3), 230, np.uint8)
    image[30:50, 20:36] = 20
    crop = crop_symbol(image, (20.0, 30.0, 36.0, 50.0))
    assert crop.shape == (SYMBOL, SYMBOL, 3)
    assert crop[SYMBOL // 2, SYMBOL // 2].max() < 60 and crop[0, 0].min() > 200


@pytest.mark.parametrize(
    ("frame", "corners", "posterior"),
    [
        (np.zeros((50, 50), np.uint8), np.zeros((1, 4, 2)), np.ones((1, 52))),
        (np.zeros((50, 50, 3), np.float32), np.zeros((1, 4, 2)), np.ones((1, 52))),
        ("frame", np.zeros((1, 4, 2)), np.ones((1, 52))),
        (np.zeros((50, 50, 3), np.uint8), np.zeros((1, 3, 2)), np.ones((1, 52))),
        (np.zeros((50, 50, 3), np.uint8), np.full((1, 4, 2), np.nan), np.ones((1, 52))),
        (np.zeros((50, 50, 3), np.uint8), np.zeros((1, 4, 2)), np.ones((2, 52))),
        (np.zeros((50, 50, 3), np.uint8), np.zeros((1, 4, 2)), -np.ones((1, 52))),
    ],
)
def test_bad_input_is_a_typed_error(frame: object, corners: np.ndarray, posterior: np.ndarray) -> None:
    pyramid = Pyramid(np.zeros((50, 50, 3), np.uint8))
    with pytest.raises(FrameError) as error:
        suit_evidence(frame, corners, posterior, pyramid=pyramid)  # type: ignore[arg-type]
    assert isinstance(error.value, TocktableError) and isinstance(error.value, ValueError)


def test_no_cards_no_rows() -> None:
    frame = np.zeros((50, 50, 3), np.uint8)
    out = suit_evidence(frame, np.zeros((0, 4, 2)), np.zeros((0, 52)), pyramid=Pyramid(frame))
    assert out.shape == (0, 4)


def test_the_caller_may_say_which_cards_to_look_at() -> None:
    frame, corners = _table_with(_face("7c", 0))
    doubtful = _doubtful("7c", "7s")[None]
    skipped = suit_evidence(frame, corners[None], doubtful, pyramid=Pyramid(frame), asked=np.array([False]))
    assert np.array_equal(skipped, np.ones((1, 4)))
    read = suit_evidence(frame, corners[None], doubtful, pyramid=Pyramid(frame))
    assert int(np.argmax(read[0])) == SUITS.index("c")


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_a_court_card_names_its_own_suit_or_nothing_and_softly(witness: SuitWitness, seed: int) -> None:
    card = "QJKQJK"[seed] + SUITS[seed % 4]
    other = card[0] + SUITS[(seed + 3) % 4]
    frame, corners = _table_with(_face(card, seed))
    likelihood = witness.evidence(frame, corners[None], _doubtful(card, other)[None], pyramid=Pyramid(frame))[0]
    if not np.array_equal(likelihood, np.ones(4)):
        assert int(np.argmax(likelihood)) == SUITS.index(card[1])
        assert likelihood.min() >= witness.settings.court_floor  # a court card's body is a softer witness


def _models_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "models"
    folder.mkdir()
    for name in ("suits.onnx", "suits.json"):
        shutil.copy(MODELS_DIR / name, folder / name)
    return folder


_LIST_OF_SETTINGS = {"classes": ["c", "d", "h", "s", "none"], "symbol": SYMBOL, "witness": [0.5]}


@pytest.mark.parametrize("settings", [[1, 2], _LIST_OF_SETTINGS])
def test_a_suits_json_that_is_not_an_object_is_refused(tmp_path: Path, settings: object) -> None:
    folder = _models_copy(tmp_path)
    (folder / "suits.json").write_text(json.dumps(settings))
    with pytest.raises(ModelError, match="JSON object"):
        SuitWitness.load(folder)


@pytest.mark.parametrize(("name", "value"), [("floor", float("nan")), ("power", -1.0), ("agree", 1.5)])
def test_witness_settings_out_of_range_are_refused(tmp_path: Path, name: str, value: float) -> None:
    folder = _models_copy(tmp_path)
    data = json.loads((folder / "suits.json").read_text())
    data.setdefault("witness", {})[name] = value
    (folder / "suits.json").write_text(json.dumps(data))
    with pytest.raises(ModelError, match=name):
        SuitWitness.load(folder)


def test_another_model_in_place_of_the_suit_model_is_refused_at_load(tmp_path: Path) -> None:
    folder = _models_copy(tmp_path)
    shutil.copy(MODELS_DIR / "card.onnx", folder / "suits.onnx")  # the face-up/down model: other input
    with pytest.raises(ModelError, match="not a suit model"):
        SuitWitness.load(folder)
