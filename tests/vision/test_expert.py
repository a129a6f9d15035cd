"""The expert's second look (vision.expert): loading, gating, mixing, and the reader's hook."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from table.cards import Card
from vision.classify import posteriors
from vision.errors import ModelError
from vision.expert import SETTINGS_FILE, Expert, ExpertSettings, hesitated
from vision.reader import MODELS_DIR, CardReader
from vision.rectify import CROP_H, CROP_W, Pyramid, index_crops, order_corners
from vision.render.scene import SceneSpec, deal_rows, render_scene

TEMPERATURE = 0.5


class _Answers:
    """An onnxruntime session's stand-in: logits giving one card (or "no index") to every crop."""

    def __init__(self, card: int, *, no_index: bool = False) -> None:
        self.card, self.no_index, self.calls = card, no_index, 0

    def run(self, _: object, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        self.calls += 1
        n = len(feed["crops"])
        rank, suit = np.full((n, 14), -8.0, np.float32), np.full((n, 4), -8.0, np.float32)
        rank[:, 13 if self.no_index else self.card // 4] = 8.0
        suit[:, self.card % 4] = 8.0
        return [rank, suit]


def _expert(session: object, *, gate: float = 0.99, weight: float = 0.5, max_cards: int = 4) -> Expert:
    return Expert(session, ExpertSettings("expert.onnx", gate, weight, max_cards=max_cards))


def _readings(best: list[int], sureness: list[float], none: float = 0.05) -> tuple[np.ndarray, ...]:
    """Corner readings of len(best) cards: each corner gives its card ``sureness`` of the mass and
    the next card id nearly all the rest (a runner-up), so that low sureness means an unsure vote."""
    n = len(best)
    cards = np.full((n, 2, 52), 0.0)
    for i, (card, p) in enumerate(zip(best, sureness, strict=True)):
        cards[i] = 0.05 * (1.0 - p) / 50
        cards[i, :, card] = p
        cards[i, :, (card + 1) % 52] = 0.95 * (1.0 - p)
    nones = np.full((n, 2), none)
    crops = np.zeros((2 * n, CROP_H, CROP_W, 3), np.uint8)
    return crops, cards, nones, posteriors(cards, nones, TEMPERATURE)


def test_the_gate_picks_only_the_unsure_cards_with_an_index_in_view() -> None:
    _, _, none, posterior = _readings([0, 5, 9, 20], [0.99, 0.5, 0.6, 0.5])
    none[3] = 0.95  # both corners of card 3 show no index: a back, never looked at
    expert = _expert(_Answers(7), gate=0.99)
    asked = expert.gate(posterior, none)
    assert posterior[1].max() < 0.99 and posterior[0].max() >= 0.99
    assert asked.tolist() == [False, True, True, False]


def test_a_corner_that_hesitated_opens_the_gate_however_sure_the_vote() -> None:
    # Two corners read a king as a jack at 0.56 and 0.62, the king at 0.13 and 0.12: the vote of
    # two corners printed alike names the jack at 0.99 (above the gate), yet each corner hesitated.
    jack, king = Card.parse("Jd").id, Card.parse("Kd").id
    cards = np.full((2, 2, 52), 1e-4)
    cards[:, :, jack] = [[0.56, 0.62], [0.97, 0.96]]
    cards[0, :, king] = [0.13, 0.12]
    cards[:, :, Card.parse("Qd").id] = [[0.22, 0.17], [0.01, 0.01]]
    cards /= cards.sum(axis=2, keepdims=True)
    none = np.full((2, 2), 0.01)
    posterior = posteriors(cards, none, 0.468)
    assert posterior[0].max() > 0.98  # the gate alone (0.98) would not ask
    expert = _expert(_Answers(7), gate=0.98)
    assert expert.gate(posterior, none).tolist() == [False, False]
    assert expert.gate(posterior, none, cards).tolist() == [True, False]  # the second card's corners are sure
    assert hesitated(cards, np.array([[0.01, 0.9], [0.01, 0.01]]), posterior.argmax(axis=1)).tolist() == [True, False]
    assert not hesitated(cards, np.array([[0.9, 0.9], [0.01, 0.01]]), posterior.argmax(axis=1))[0]  # no index seen


def test_at_most_max_cards_are_looked_at_the_least_sure_first() -> None:
    _, _, none, posterior = _readings([0, 5, 9, 20, 30], [0.53, 0.5, 0.54, 0.55, 0.51])
    asked = _expert(_Answers(7), max_cards=2).gate(posterior, none)
    assert asked.tolist() == [False, True, False, False, True]


def test_with_the_gate_closed_the_reading_is_the_ensembles() -> None:
    crops, cards, none, posterior = _readings([0, 5, 9], [0.5, 0.52, 0.54])
    session = _Answers(7)
    looked = _expert(session, gate=0.0).second_look(crops, cards, none, posterior, temperature=TEMPERATURE)
    assert session.calls == 0 and not looked.asked.any()
    for got, want in ((looked.cards, cards), (looked.none, none), (looked.posteriors, posterior)):
        np.testing.assert_array_equal(got, want)


def test_the_expert_moves_only_the_cards_it_read_and_toward_its_answer() -> None:
    crops, cards, none, posterior = _readings([0, 5, 9], [0.999, 0.5, 0.999])
    session = _Answers(7)
    looked = _expert(session, weight=0.5).second_look(crops, cards, none, posterior, temperature=TEMPERATURE)
    assert looked.asked.tolist() == [False, True, False] and session.calls == 1
    np.testing.assert_array_equal(looked.posteriors[[0, 2]], posterior[[0, 2]])
    assert looked.posteriors[1].argmax() == 7 and posterior[1].argmax() == 5
    np.testing.assert_allclose(looked.cards.sum(axis=2), 1.0)


def test_weight_zero_keeps_and_weight_one_takes_the_experts_reading() -> None:
    crops, cards, none, posterior = _readings([4], [0.5])
    kept = _expert(_Answers(7), weight=0.0).second_look(crops, cards, none, posterior, temperature=TEMPERATURE)
    np.testing.assert_allclose(kept.posteriors, posterior)
    taken = _expert(_Answers(7), weight=1.0).second_look(crops, cards, none, posterior, temperature=TEMPERATURE)
    assert taken.posteriors[0, 7] > 0.999
    covered = _expert(_Answers(7, no_index=True), weight=1.0)
    assert covered.second_look(crops, cards, none, posterior, temperature=TEMPERATURE).none[0].min() > 0.99


def test_no_cards_and_no_crops_give_empty_readings() -> None:
    crops, cards, none, posterior = _readings([], [])
    session = _Answers(7)
    looked = _expert(session).second_look(crops, cards.reshape(0, 2, 52), none.reshape(0, 2),
                                          posterior.reshape(0, 52), temperature=TEMPERATURE)  # fmt: skip
    assert looked.asked.shape == (0,) and looked.posteriors.shape == (0, 52) and session.calls == 0
    p_cards, p_none = _expert(session).probabilities(np.zeros((0, CROP_H, CROP_W, 3), np.uint8))
    assert p_cards.shape == (0, 52) and p_none.shape == (0,)


def test_crops_and_readings_that_disagree_are_refused() -> None:
    crops, cards, none, posterior = _readings([1, 2], [0.5, 0.5])
    with pytest.raises(ValueError, match="2 crops per card"):
        _expert(_Answers(7)).second_look(crops[:3], cards, none, posterior, temperature=TEMPERATURE)


# --- the shipped files ------------------------------------------------------------------------


def _models_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "models"
    shutil.copytree(MODELS_DIR, folder, ignore=shutil.ignore_patterns("*.fp32.onnx", "*.pt"))
    return folder


def test_the_shipped_expert_loads_and_reads_a_rendered_card() -> None:
    expert = Expert.load(MODELS_DIR)
    assert expert is not None and 0.0 < expert.settings.gate <= 1.0 and 0.0 < expert.settings.weight <= 1.0
    spec = SceneSpec(cards=deal_rows(np.random.default_rng(5), touching=False), seed=5005, deck="holdout-5005")
    scene = render_scene(spec)
    ups = [t for t in scene.truth if t.face_up]
    crops = index_crops(scene.image, [order_corners(t.corners) for t in ups], pyramid=Pyramid(scene.image))
    cards, none = expert.probabilities(crops)
    right = cards.reshape(-1, 2, 52).sum(axis=1).argmax(axis=1) == [Card.parse(t.card).id for t in ups]
    assert len(ups) >= 6 and right.mean() >= 0.8 and none.mean() < 0.3


def test_a_reader_json_without_the_expert_reads_as_the_expert_closed(tmp_path: Path) -> None:
    folder = _models_copy(tmp_path)
    data = json.loads((folder / "reader.json").read_text())
    (folder / "reader.json").write_text(json.dumps({**data, "expert": False}))
    bare, full = CardReader(folder), CardReader(MODELS_DIR)
    assert bare.expert is None and full.expert is not None
    spec = SceneSpec(cards=deal_rows(np.random.default_rng(3), touching=True), seed=3003, deck="holdout-3003")
    scene = render_scene(spec)
    crops = index_crops(scene.image, [order_corners(t.corners) for t in scene.truth])
    without = bare.classify_indices(crops)
    assert not without["expert"].any()
    full.expert = _expert(_Answers(7), gate=0.0)  # closed: the very same readings
    closed = full.classify_indices(crops)
    for key in ("best", "posterior", "posteriors", "cards", "none", "embedding"):
        np.testing.assert_array_equal(closed[key], without[key])


def test_an_expert_asked_for_but_missing_is_an_error_not_a_silent_change(tmp_path: Path) -> None:
    folder = _models_copy(tmp_path)
    (folder / SETTINGS_FILE).unlink()
    assert Expert.load(folder) is None
    with pytest.raises(ModelError, match=r"expert\.json"):
        CardReader(folder)


def _write(folder: Path, **use: object) -> None:
    data = json.loads((folder / SETTINGS_FILE).read_text())
    data["use"].update(use)
    (folder / SETTINGS_FILE).write_text(json.dumps(data))


@pytest.mark.parametrize("breakage", ["json", "no use", "gate", "weight", "checksum", "model bytes", "missing"])
def test_a_bad_expert_file_is_a_model_error(tmp_path: Path, breakage: str) -> None:
    folder = _models_copy(tmp_path)
    settings, model = folder / SETTINGS_FILE, folder / "expert.onnx"
    if breakage == "json":
        settings.write_text("{not json")
    elif breakage == "no use":
        settings.write_text(json.dumps({"model": "expert.onnx"}))
    elif breakage == "gate":
        _write(folder, gate=1.5)
    elif breakage == "weight":
        _write(folder, weight=-0.1)
    elif breakage == "checksum":
        model.write_bytes(model.read_bytes() + b"\0")
    elif breakage == "model bytes":
        model.write_bytes(b"not an onnx model")
        data = json.loads(settings.read_text())
        data["sha256"] = hashlib.sha256(model.read_bytes()).hexdigest()[:16]
        settings.write_text(json.dumps(data))
    else:
        model.unlink()
    with pytest.raises(ModelError):
        Expert.load(folder)
    with pytest.raises(ModelError):
        CardReader(folder)
