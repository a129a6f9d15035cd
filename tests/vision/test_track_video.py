"""The tracker over whole synthetic hands (hardware.table_script): cards dealt, turned, moved,
mucked and gathered, hands reaching over the table.

The observations here come from the table model's truth with a reader's faults added (cards
hidden under hands, single-frame misreads, unsure reads), so the tracker's rules are checked
over real choreography without the card reader. The same checks (the helpers below) run on
rendered frames read by ``vision.CardReader`` in ``test_track_reader.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from hardware.table_layout import card_corners
from hardware.table_model import TableModel, TableState
from hardware.table_script import Deal, Gather, Hands, Move, Show, Step, TableScript, Turn
from table.cards import Card
from table.tock import mark_of
from vision.track import Sighting, TableTracker
from vision.view import SeenCard, TableView

FPS = 10
TURN_LATENCY = 5
"""A card turned (or dealt) face up is in the view within this many frames."""


@dataclass(frozen=True)
class Truth:
    card: str
    face_up: bool
    mark: str | None
    centre: tuple[float, float]  # normalised
    zone: str


@dataclass
class Film:
    """Every frame of a script: what lay on the table, and what the tracker reported."""

    truths: list[list[Truth]] = field(default_factory=list)
    views: list[TableView] = field(default_factory=list)
    hands: list[int] = field(default_factory=list)
    visible: list[set[str]] = field(default_factory=list)  # the cards the reader could see
    card_width: float = 0.0  # normalised to the image width
    fps: float = FPS


def truth_of(state: TableState, model: TableModel) -> list[Truth]:
    tock = model.back == "tock"
    return [Truth(c.card, c.face_up, None if c.face_up else (str(mark_of(Card.parse(c.card))) if tock else "plain"),
                  c.center, c.zone or "") for c in state.cards]  # fmt: skip


Camera = Callable[[TableState, float], tuple[list[Truth], Sequence[Any], set[str]]]
"""(table state, seconds) → what lay on the table, what the reader saw, the cards it could see."""


def faulty_reader(model: TableModel, rng: random.Random, *, misread: float, unsure: float,
                  hidden: float) -> Camera:  # fmt: skip
    """Observations from the model's truth with a reader's faults (a misread lasts one frame),
    and the cards not hidden under a hand."""
    size = model.size
    misread_last: set[str] = set()

    def read(state: TableState, t: float) -> tuple[list[Truth], list[Sighting], set[str]]:
        out = []
        visible = set()
        for truth in truth_of(state, model):
            if state.hands and rng.random() < hidden:
                continue
            visible.add(truth.card)
            corners = np.array(card_corners(truth.centre, 0.0, model.card_height, size)) * size
            corners += np.array([[rng.gauss(0, 1.5), rng.gauss(0, 1.5)] for _ in range(4)])
            roll = 1.0 if truth.card in misread_last else rng.random()
            misread_last.discard(truth.card)
            if roll < misread:
                misread_last.add(truth.card)
            if truth.face_up:
                card: str | None = truth.card
                if roll < misread:
                    card = rng.choice([c for c in ("Ah", "Kd", "7c", "2s", "Th") if c != truth.card])
                elif roll < misread + unsure:
                    card = None
                out.append(Sighting(card, True, None, rng.uniform(0.7, 1.0), corners))
            else:
                mark = truth.mark
                if roll < misread and mark != "plain":
                    mark = rng.choice(["h:large", "s:ace", "c:small", "d:medium"])
                elif roll < misread + unsure:
                    mark = None
                out.append(Sighting(None, False, mark, rng.uniform(0.7, 1.0), corners))
        return truth_of(state, model), out, visible

    return read


def film(script: TableScript, camera: Camera, *, fps: float = FPS, tail: float = 3.0) -> Film:
    """Run the script at ``fps`` frames per second (and ``tail`` seconds more) through the
    camera and a tracker for the model's zones."""
    model = script.model
    tracker = TableTracker(model.zones, size=model.size)
    out = Film(card_width=model.card_height * model.size[1] * 63 / 88 / model.size[0], fps=fps)
    for k in range(int((script.duration + tail) * fps)):
        state = script.advance(k / fps)
        truths, observations, visible = camera(state, k / fps)
        out.truths.append(truths)
        out.hands.append(state.hands)
        out.visible.append(visible)
        out.views.append(tracker.update(observations, frame_index=k, timestamp=k / fps))
    return out


def _reported(view: TableView) -> list[SeenCard]:
    return [*view.board, *(c for seat in view.seats.values() for c in seat), *view.loose]


PLAIN = "plain"
"""How the reader names an unmarked back (the renderer's truth has no mark for it)."""


def check_never_wrong(record: Film, *, seconds: float = 2.5) -> None:
    """Every card in a view was, at that place and on that side, on the table in the last
    ``seconds`` (the grace period): never a face, mark or zone the table did not show."""
    window = round(seconds * record.fps)
    for k, view in enumerate(record.views):
        recent = [t for truths in record.truths[max(0, k - window): k + 1] for t in truths]
        for seen in _reported(view):
            centre = np.mean(seen.corners, axis=0)
            near = [t for t in recent if abs(t.centre[0] - centre[0]) < 0.6 * record.card_width
                    and abs(t.centre[1] - centre[1]) < 0.6 * record.card_width * 16 / 9]  # fmt: skip
            match = [t for t in near if t.face_up == seen.face_up and t.zone == seen.zone
                     and (seen.card is None or t.card == seen.card)
                     and (seen.face_up or seen.mark is None or (t.mark or PLAIN) == seen.mark)]  # fmt: skip
            assert match, f"frame {k}: reported {seen.card or seen.mark} face_up={seen.face_up} in " \
                          f"{seen.zone!r}, the table there had {[(t.card, t.face_up, t.zone) for t in near]}"


def check_turned_cards_seen_soon(record: Film) -> list[int]:
    """Each card that comes face up (dealt or turned) is in the view, in its zone, within
    TURN_LATENCY frames in which the reader could see it; returns the latencies."""
    latencies = []
    for k in range(1, len(record.truths)):
        before = {(t.card, t.zone) for t in record.truths[k - 1] if t.face_up}
        for truth in record.truths[k]:
            if not truth.face_up or (truth.card, truth.zone) in before or not truth.zone:
                continue
            frames = []
            for j in range(k, len(record.truths)):
                if not any(t.card == truth.card and t.face_up and t.zone == truth.zone for t in record.truths[j]):
                    break
                if truth.card in record.visible[j]:
                    frames.append(j)
            if len(frames) < TURN_LATENCY:
                continue  # gone again (or hidden) before it could be confirmed
            for count, j in enumerate(frames[:TURN_LATENCY], start=1):
                if any(s.card == truth.card and s.zone == truth.zone for s in _reported(record.views[j])):
                    latencies.append(count)
                    break
            else:
                raise AssertionError(f"{truth.card} came face up in {truth.zone} at frame {k} and was not "
                                     f"reported within {TURN_LATENCY} frames")  # fmt: skip
    return latencies


def check_settles_on_the_truth(record: Film, *, seconds: float = 1.6) -> int:
    """Once the table has been still (and nobody reached in) for ``seconds``, the view is
    exactly the table: board left to right, each seat's cards. Returns how many frames were checked."""
    settle = round(seconds * record.fps)
    checked = 0
    for k in range(settle, len(record.views)):
        window = record.truths[k - settle: k + 1]
        if any(h for h in record.hands[k - settle: k + 1]) or any(w != window[0] for w in window):
            continue
        view = record.views[k]
        truth = record.truths[k]
        board = sorted((t for t in truth if t.zone == "board"), key=lambda t: t.centre[0])
        assert [(s.card, s.face_up) for s in view.board] == [(t.card if t.face_up else None, t.face_up)
                                                             for t in board], f"frame {k}"  # fmt: skip
        for seat in {int(t.zone[5:]) for t in truth if t.zone.startswith("seat:")} | set(view.seats):
            want = sorted((t.card if t.face_up else "", t.face_up) for t in truth if t.zone == f"seat:{seat}")
            got = sorted((s.card or "", s.face_up) for s in view.seat_cards(seat))
            assert got == want, f"frame {k}, seat {seat}"
        assert view.conflicts == ()
        checked += 1
    return checked


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_holdem_hand_with_a_perfect_reader(seed: int) -> None:
    model = TableModel(6, seed=seed)
    script = TableScript.holdem_hand(model, seed=seed, folds=(seed + 1,), pace=2.0)
    record = film(script, faulty_reader(model, random.Random(seed), misread=0, unsure=0, hidden=0))
    check_never_wrong(record)
    assert set(check_turned_cards_seen_soon(record)) == {3}  # the confirmation run, no more
    assert check_settles_on_the_truth(record) > 30
    assert all(v.conflicts == () for v in record.views)
    assert _reported(record.views[-1]) == []  # gathered, and the grace period has passed


@pytest.mark.parametrize("seed", range(4))
def test_a_holdem_hand_with_a_faulty_reader_never_shows_a_wrong_card(seed: int) -> None:
    model = TableModel(8, seed=seed, back="tock")
    script = TableScript.holdem_hand(model, seed=seed, pace=2.0)
    rng = random.Random(seed)
    record = film(script, faulty_reader(model, rng, misread=0.05, unsure=0.08, hidden=0.5))
    check_never_wrong(record)
    assert check_settles_on_the_truth(record) > 20
    assert all(c.kind != "changed" for v in record.views for c in v.conflicts)


def test_cards_moved_turned_and_covered() -> None:
    model = TableModel(4, seed=5, back="tock")
    steps: list[tuple[float, Step]] = [
        (0.0, Deal("Ah", zone=0)), (0.0, Deal("Kd", zone=0)),
        (0.0, Deal("7c", zone="board", face_up=True)), (0.0, Deal("8c", zone="board", face_up=True)),
        (1.0, Hands(2)), (1.6, Hands(0)),
        (2.0, Move("8c", zone="board", slot=3)),  # slid along the board
        (3.0, Turn("Ah")),  # a peek at seat 0
        (4.0, Turn("Ah")),
        (5.0, Move("Kd", zone=2)),  # pushed to another seat
        (6.0, Show(0)), (6.0, Hands(1)), (6.5, Hands(0)),
        (8.0, Gather()),
    ]  # fmt: skip
    script = TableScript(steps, model=model)
    record = film(script, faulty_reader(model, random.Random(5), misread=0.03, unsure=0.05, hidden=0.7))
    check_never_wrong(record)
    check_turned_cards_seen_soon(record)
    assert check_settles_on_the_truth(record, seconds=1.5) > 10
    assert all(v.conflicts == () for v in record.views)
    # Kd (face down) was pushed to seat 2 at 5 s: reported there at once; its old place in seat 0
    # is kept for the grace period (a face-down card is known by its place), then dropped
    assert [s.mark for s in record.views[58].seat_cards(2)] == ["d:large"]
    assert [(s.card, s.mark) for s in record.views[68].seat_cards(0)] == [("Ah", None)]
