"""The table tracker on hand-made observation streams: confirmation, flicker, occlusion, misreads,
duplicates, moves, turns, marks, zones and bad input."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from table.errors import TocktableError
from vision.track import Sighting, TableTracker, TrackerError, TrackStatus
from vision.view import TableView

SIZE = (1280, 720)
CARD_H = 0.2 * SIZE[1]
CARD_W = CARD_H * 63 / 88
ZONES = {
    "board": [(0.25, 0.35), (0.75, 0.35), (0.75, 0.65), (0.25, 0.65)],
    "seat:0": [(0.35, 0.72), (0.65, 0.72), (0.65, 1.0), (0.35, 1.0)],
    "seat:1": [(0.35, 0.0), (0.65, 0.0), (0.65, 0.28), (0.35, 0.28)],
}
BOARD_X = [0.35, 0.425, 0.5, 0.575, 0.65]


def seen(card: str | None, x: float, y: float = 0.5, *, face_up: bool = True, mark: str | None = None,
         confidence: float = 0.95, angle: float = 0.0, jitter: float = 0.0,
         rng: random.Random | None = None) -> Sighting:  # fmt: skip
    """A card observed with its centre at (x, y) (normalised), turned ``angle`` degrees."""
    cx, cy = x * SIZE[0], y * SIZE[1]
    a = math.radians(angle)
    local = np.array([[-CARD_W / 2, -CARD_H / 2], [CARD_W / 2, -CARD_H / 2], [CARD_W / 2, CARD_H / 2],
                      [-CARD_W / 2, CARD_H / 2]])  # fmt: skip
    rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    corners = local @ rot.T + [cx, cy]
    if jitter and rng is not None:
        corners = corners + np.array([[rng.gauss(0, jitter), rng.gauss(0, jitter)] for _ in range(4)])
    return Sighting(card if face_up else None, face_up, None if face_up else mark, confidence, corners)


def down(x: float, y: float = 0.5, mark: str | None = "plain", **kw: object) -> Sighting:
    return seen(None, x, y, face_up=False, mark=mark, **kw)  # type: ignore[arg-type]


class Feed:
    """A tracker and a frame clock at 10 frames per second."""

    def __init__(self, **settings: object) -> None:
        self.tracker = TableTracker(ZONES, size=SIZE, **settings)  # type: ignore[arg-type]
        self.frame = 0
        self.view: TableView | None = None

    def __call__(self, *observations: Sighting, times: int = 1) -> TableView:
        for _ in range(times):
            self.view = self.tracker.update(list(observations), frame_index=self.frame, timestamp=self.frame / 10)
            self.frame += 1
        assert self.view is not None
        return self.view


def board(view: TableView) -> list[str | None]:
    return [c.card if c.face_up else f"down:{c.mark}" for c in view.board]


def all_faces(view: TableView) -> list[str]:
    cards = [*view.board, *(c for s in view.seats.values() for c in s), *view.loose]
    return [c.card for c in cards if c.card is not None]


# ---------------------------------------------------------------------------- confirmation
@pytest.mark.parametrize("need", [1, 3, 5])
def test_a_card_is_reported_on_the_nth_frame_it_reads_the_same(need: int) -> None:
    feed = Feed(confirm_frames=need)
    views = [feed(seen("Ah", 0.5)) for _ in range(need + 2)]
    assert [v.face_up_board() for v in views] == [()] * (need - 1) + [("Ah",)] * 3
    assert views[-1].board[0].zone == "board" and views[-1].board[0].first_frame == 0


def test_a_card_read_differently_every_other_frame_is_never_reported() -> None:
    feed = Feed()
    for k in range(12):
        view = feed(seen("Ah" if k % 2 else "Ad", 0.5))
        assert view.board == () and view.conflicts == ()
    assert [t.status for t in feed.tracker.tracks()] == [TrackStatus.PENDING]


def test_unsure_reads_neither_count_nor_break_the_run() -> None:
    feed = Feed()
    assert feed(seen("Ah", 0.5)).board == ()
    assert feed(seen(None, 0.5)).board == ()
    assert feed(seen("Ah", 0.5)).board == ()
    assert feed(seen(None, 0.5)).board == ()
    assert feed(seen("Ah", 0.5)).face_up_board() == ("Ah",)


def test_a_face_up_card_never_read_is_reported_unread_so_the_board_order_holds() -> None:
    feed = Feed()
    view = feed(seen("7c", BOARD_X[0]), seen(None, BOARD_X[1]), seen("9h", BOARD_X[2]), times=3)
    assert board(view) == ["7c", None, "9h"]
    assert view.face_up_board() == ("7c",)
    assert view.board[1].face_up and view.board[1].card is None


def test_confidence_is_that_of_the_reads_that_agree() -> None:
    feed = Feed()
    view = feed(seen("Ah", 0.5, confidence=0.9), times=3)
    view = feed(seen("Ad", 0.5, confidence=0.2))
    assert view.board[0].card == "Ah" and view.board[0].confidence == pytest.approx(0.9)


# ---------------------------------------------------------------------------- misreads and noise
def test_a_misread_in_one_frame_changes_nothing() -> None:
    feed = Feed()
    before = feed(seen("Ah", 0.5), seen("Kd", 0.6), times=3)
    during = feed(seen("Ah", 0.5), seen("Kh", 0.6))
    after = feed(seen("Ah", 0.5), seen("Kd", 0.6))
    assert board(before) == board(during) == board(after) == ["Ah", "Kd"]
    assert during.conflicts == () and after.conflicts == ()


@pytest.mark.parametrize("seed", range(8))
def test_random_misreads_shorter_than_the_run_never_reach_the_view(seed: int) -> None:
    rng = random.Random(seed)
    truth = ["2c", "7d", "Jh", "Qs", "As"]
    feed = Feed()
    run = 0
    for _ in range(200):
        observations = []
        for x, card in zip(BOARD_X, truth, strict=True):
            roll = rng.random()
            if roll < 0.15:
                continue  # not seen this frame
            if roll < 0.3 and run < 2:
                observations.append(seen(rng.choice(["2d", "7h", "Js", "Qc", "Ah", None]), x, jitter=2, rng=rng))
                continue
            observations.append(seen(card, x, jitter=2, rng=rng, confidence=rng.uniform(0.6, 1.0)))
        run = run + 1 if any(o.card not in truth for o in observations) else 0
        view = feed(*observations)
        assert set(all_faces(view)) <= set(truth)
        assert all(c.kind != "changed" for c in view.conflicts)
    assert board(view) == truth


def test_corner_jitter_keeps_one_track_per_card() -> None:
    rng = random.Random(3)
    feed = Feed()
    for _ in range(40):
        view = feed(*(seen(c, x, jitter=4, rng=rng) for c, x in zip(["2c", "3d", "4h"], BOARD_X, strict=False)))
    assert board(view) == ["2c", "3d", "4h"]
    assert len(feed.tracker.tracks()) == 3


def test_two_observations_of_one_card_make_one_card() -> None:
    feed = Feed()
    view = feed(seen("Ah", 0.5, confidence=0.9), seen("Ah", 0.502, confidence=0.6), times=4)
    assert board(view) == ["Ah"] and view.conflicts == ()


# ---------------------------------------------------------------------------- occlusion and grace
def test_a_card_hidden_for_less_than_the_grace_period_stays() -> None:
    feed = Feed(grace_frames=6, grace_seconds=1.5)
    feed(seen("Ah", 0.4), seen("Kd", 0.6), times=3)
    for _ in range(14):  # 1.4 s with Ah under a hand
        assert board(feed(seen("Kd", 0.6))) == ["Ah", "Kd"]
    assert board(feed(seen("Ah", 0.4), seen("Kd", 0.6))) == ["Ah", "Kd"]


def test_a_card_gone_for_longer_than_both_grace_limits_is_removed() -> None:
    feed = Feed(grace_frames=6, grace_seconds=1.5)
    feed(seen("Ah", 0.4), seen("Kd", 0.6), times=3)
    kept = [board(feed(seen("Kd", 0.6))) for _ in range(15)]
    assert kept == [["Ah", "Kd"]] * 14 + [["Kd"]]  # gone once 1.5 s passed (frames passed sooner)


def test_grace_in_frames_applies_when_time_runs_fast() -> None:
    tracker = TableTracker(ZONES, size=SIZE, grace_frames=4, grace_seconds=0.0)
    for i in range(3):
        tracker.update([seen("Ah", 0.5)], frame_index=i, timestamp=i * 5.0)
    boards = [tracker.update([], frame_index=3 + i, timestamp=15.0 + i * 5).face_up_board() for i in range(5)]
    assert boards == [("Ah",)] * 4 + [()]


def test_hands_passing_over_the_table_never_make_cards_flicker() -> None:
    rng = random.Random(11)
    cards = [("Ah", BOARD_X[0], 0.5), ("Kd", BOARD_X[1], 0.5), ("7c", BOARD_X[2], 0.5)]
    downs = [(0.45, 0.86), (0.55, 0.86), (0.45, 0.14), (0.55, 0.14)]
    feed = Feed()
    feed(*(seen(c, x, y) for c, x, y in cards), *(down(x, y) for x, y in downs), times=3)
    steady = feed(*(seen(c, x, y) for c, x, y in cards), *(down(x, y) for x, y in downs))
    signature = (board(steady), {s: len(c) for s, c in steady.seats.items()})
    hidden: set[int] = set()
    left = 0
    for _ in range(300):
        if left == 0:  # a hand reaches in over a few cards for up to 1.2 s, then leaves for a while
            hidden = set(rng.sample(range(7), rng.randint(1, 5))) if not hidden else set()
            left = rng.randint(1, 12)
        left -= 1
        observations = [seen(c, x, y) for k, (c, x, y) in enumerate(cards) if k not in hidden]
        observations += [down(x, y) for k, (x, y) in enumerate(downs) if k + 3 not in hidden]
        view = feed(*observations)
        assert (board(view), {s: len(c) for s, c in view.seats.items()}) == signature
        assert view.conflicts == ()


def test_a_card_seen_only_briefly_is_never_reported() -> None:
    feed = Feed()
    feed(seen("Ah", 0.5), seen("9s", 0.6), times=2)
    view = feed(seen("Ah", 0.5))
    assert board(view) == ["Ah"]
    for _ in range(10):
        view = feed(seen("Ah", 0.5))
    assert board(view) == ["Ah"] and len(feed.tracker.tracks()) == 1


# ---------------------------------------------------------------------------- duplicates and moves
def test_a_card_seen_twice_is_a_conflict_and_the_newcomer_is_not_applied() -> None:
    feed = Feed()
    feed(seen("Ah", 0.4), times=3)
    view = feed(seen("Ah", 0.4), seen("Ah", 0.6), times=3)
    assert board(view) == ["Ah"] and view.board[0].corners[0][0] < 0.4
    [conflict] = view.conflicts
    assert conflict.kind == "duplicate" and conflict.card == "Ah" and conflict.zone == "board"
    assert "Ah" in conflict.message and "2 places" in conflict.message
    assert conflict.corners is not None and conflict.corners[0][0] > 0.5
    statuses = sorted(t.status.value for t in feed.tracker.tracks())
    assert statuses == ["shown", "withheld"]


def test_a_duplicate_seen_at_once_withholds_both() -> None:
    feed = Feed()
    view = feed(seen("Ah", 0.4), seen("Ah", 0.6), seen("2c", 0.5, 0.45), times=3)
    assert all_faces(view) == ["2c"]
    assert [c.kind for c in view.conflicts] == ["duplicate", "duplicate"]


def test_a_duplicate_involving_a_seat_does_not_name_the_card() -> None:
    feed = Feed()
    feed(seen("Qs", 0.5), times=3)
    view = feed(seen("Qs", 0.5), seen("Qs", 0.45, 0.86), times=3)
    [conflict] = view.conflicts
    assert conflict.zone == "seat:0" and conflict.card == "Qs" and "Qs" not in conflict.message
    assert view.seat_cards(0) == () and board(view) == ["Qs"]


def test_the_duplicate_clears_when_the_second_card_goes() -> None:
    feed = Feed(grace_frames=2, grace_seconds=0.0)
    feed(seen("Ah", 0.4), times=3)
    feed(seen("Ah", 0.4), seen("Ah", 0.6), times=3)
    view = feed(seen("Ah", 0.4), times=4)
    assert board(view) == ["Ah"] and view.conflicts == ()


def test_a_card_that_moves_is_reported_at_its_new_place_without_a_conflict() -> None:
    feed = Feed()
    feed(seen("Ah", 0.4), seen("Kd", 0.6), times=3)
    views = [feed(seen("Kd", 0.6), seen("Ah", 0.5, 0.86)) for _ in range(3)]
    assert [v.seat_cards(0) != () for v in views] == [False, False, True]
    assert board(views[-1]) == ["Kd"] and views[-1].seat_cards(0)[0].card == "Ah"
    assert all(v.conflicts == () for v in views)
    assert board(views[0]) == ["Ah", "Kd"]  # until the move is confirmed, the old place stands


def test_a_card_sliding_along_the_table_keeps_its_track() -> None:
    feed = Feed()
    for k in range(30):
        view = feed(seen("Ah", 0.3 + k * 0.01))
    assert board(view) == ["Ah"] and len(feed.tracker.tracks()) == 1


def test_a_card_sliding_into_a_seat_changes_zone_after_the_run() -> None:
    feed = Feed()
    feed(seen("Ah", 0.5, 0.5), times=3)
    path = [0.55, 0.6, 0.66, 0.75, 0.8, 0.85, 0.86, 0.86, 0.86]
    zones = []
    for y in path:
        view = feed(seen("Ah", 0.5, y))
        zones.append("board" if view.board else ("seat:0" if view.seat_cards(0) else "-"))
    # 0.66 lies between the zones (one frame, not enough to leave the board); 0.75 is the first
    # y in seat 0's zone, and the third frame there moves the card
    assert zones == ["board"] * 5 + ["seat:0"] * 4


# ---------------------------------------------------------------------------- identity changes
def test_a_card_that_changes_face_where_it_lies_is_withheld_and_reported() -> None:
    feed = Feed()
    feed(seen("Ah", 0.5), times=3)
    views = [feed(seen("Kd", 0.5)) for _ in range(3)]
    assert board(views[0]) == board(views[1]) == ["Ah"]
    assert views[2].board == ()
    [conflict] = views[2].conflicts
    assert conflict.kind == "changed" and conflict.card == "Kd" and "Ah" in conflict.message
    back = [feed(seen("Ah", 0.5)) for _ in range(3)]
    assert back[2].face_up_board() == ("Ah",) and back[2].conflicts == ()


def test_a_changed_card_stays_withheld_until_it_leaves() -> None:
    feed = Feed(grace_frames=1, grace_seconds=0.0)
    feed(seen("Ah", 0.5), times=3)
    faces = [all_faces(feed(seen("Kd", 0.5))) for _ in range(20)]
    assert faces == [["Ah"]] * 2 + [[]] * 18  # Ah until Kd is confirmed, then neither
    feed(times=3)
    assert feed(seen("Kd", 0.5), times=3).face_up_board() == ("Kd",)


def test_a_changed_card_in_a_seat_is_not_named() -> None:
    feed = Feed()
    feed(seen("Ah", 0.45, 0.86), times=3)
    view = feed(seen("Kd", 0.45, 0.86), times=3)
    [conflict] = view.conflicts
    assert conflict.zone == "seat:0" and "Ah" not in conflict.message and "Kd" not in conflict.message


def test_turning_a_card_face_up_reveals_it_without_a_conflict() -> None:
    feed = Feed()
    feed(down(0.45, 0.86), down(0.55, 0.86), times=3)
    views = [feed(seen("Ah", 0.45, 0.86), seen("Kd", 0.55, 0.86)) for _ in range(3)]
    assert [[c.card for c in v.seat_cards(0)] for v in views] == [[None, None], [None, None], ["Ah", "Kd"]]
    assert views[-1].conflicts == ()


def test_a_turned_card_whose_face_contradicts_its_mark_is_a_conflict() -> None:
    feed = Feed()
    feed(down(0.45, 0.86, mark="h:large"), down(0.55, 0.86, mark="s:ace"), times=3)
    view = feed(seen("Kh", 0.45, 0.86), seen("Ad", 0.55, 0.86), times=3)
    assert [c.card for c in view.seat_cards(0)] == ["Kh"]
    [conflict] = view.conflicts
    assert conflict.kind == "changed" and conflict.card == "Ad"


def test_a_card_turned_back_down_keeps_its_identity() -> None:
    feed = Feed()
    feed(seen("Ah", 0.5), times=3)
    view = feed(down(0.5, mark="h:ace"), times=3)
    assert board(view) == ["down:h:ace"] and view.conflicts == ()
    view = feed(down(0.5, mark="c:small"), times=3)
    assert view.board == () and view.conflicts[0].kind == "changed"


# ---------------------------------------------------------------------------- marks
def test_face_down_cards_carry_their_marks_and_unsure_marks_do_not_break_them() -> None:
    feed = Feed()
    feed(down(0.35, mark="h:large"), down(0.5, mark="c:small"), times=2)
    feed(down(0.35, mark=None), down(0.5, mark="c:small"))
    view = feed(down(0.35, mark="h:large"), down(0.5, mark=None))
    assert board(view) == ["down:h:large", "down:c:small"]


def test_more_backs_of_one_mark_than_the_deck_holds_is_a_conflict() -> None:
    feed = Feed()
    xs = [0.3, 0.4, 0.5, 0.6]
    feed(*(down(x, mark="h:large") for x in xs), times=3)
    view = feed(*(down(x, mark="h:large") for x in xs), down(0.7, mark="h:large"), times=3)
    assert len(view.board) == 4 and [c.kind for c in view.conflicts] == ["duplicate"]
    assert "h:large" in view.conflicts[0].message and view.conflicts[0].card is None
    view = feed(down(0.35, 0.86, mark="s:ace"), down(0.55, 0.86, mark="s:ace"), times=3)
    assert view.seat_cards(0) == () and len(view.conflicts) == 2


def test_a_face_up_ace_and_a_back_marked_with_that_ace_conflict() -> None:
    feed = Feed()
    feed(seen("As", 0.4), times=3)
    view = feed(seen("As", 0.4), down(0.45, 0.86, mark="s:ace"), times=3)
    assert view.face_up_board() == ("As",) and view.seat_cards(0) == ()
    assert [c.kind for c in view.conflicts] == ["duplicate"]


# ---------------------------------------------------------------------------- zones and order
def test_board_cards_are_ordered_left_to_right_whatever_order_they_come_in() -> None:
    feed = Feed()
    view = feed(seen("9h", BOARD_X[4]), seen("2c", BOARD_X[0]), seen("Jd", BOARD_X[2]), seen("5s", BOARD_X[1]),
                seen("Kc", BOARD_X[3]), times=3)  # fmt: skip
    assert board(view) == ["2c", "5s", "Jd", "Kc", "9h"]


def test_a_slanted_board_is_ordered_along_its_long_axis() -> None:
    slanted = {"board": [(0.1, 0.1), (0.2, 0.05), (0.9, 0.85), (0.8, 0.9)]}
    tracker = TableTracker(slanted, size=SIZE)
    cards = [("2c", 0.2, 0.2), ("5s", 0.4, 0.4), ("Jd", 0.6, 0.6), ("Kc", 0.8, 0.8)]
    for i in range(3):
        view = tracker.update([seen(c, x, y) for c, x, y in reversed(cards)], frame_index=i, timestamp=i)
    assert view.face_up_board() == ("2c", "5s", "Jd", "Kc")


def test_seat_cards_run_from_the_players_left_to_right() -> None:
    feed = Feed()
    view = feed(seen("2c", 0.45, 0.86), seen("3c", 0.55, 0.86), seen("4c", 0.45, 0.14), seen("5c", 0.55, 0.14),
                times=3)  # fmt: skip
    assert [c.card for c in view.seat_cards(0)] == ["2c", "3c"]  # seat 0 sits at the bottom, facing up
    assert [c.card for c in view.seat_cards(1)] == ["5c", "4c"]  # seat 1 sits at the top, facing down
    assert all(c.zone == "seat:1" for c in view.seat_cards(1))


def test_a_card_outside_every_zone_is_loose() -> None:
    feed = Feed()
    view = feed(seen("Ah", 0.1, 0.5), times=3)
    assert view.board == () and dict(view.seats) == {} and [c.card for c in view.loose] == ["Ah"]
    assert view.loose[0].zone == ""


def test_corners_are_normalised_and_follow_the_latest_frame() -> None:
    feed = Feed()
    feed(seen("Ah", 0.5), times=3)
    view = feed(seen("Ah", 0.51))
    centre = np.mean(view.board[0].corners, axis=0)
    assert centre == pytest.approx((0.51, 0.5))


def test_the_service_finds_and_builds_the_tracker() -> None:
    from tocktable.camera import _tracker_factory

    factory = _tracker_factory()
    assert factory is TableTracker
    tracker = factory(zones={"board": ((0.3, 0.38), (0.7, 0.38), (0.7, 0.62), (0.3, 0.62))}, size=(640, 360))
    assert tracker.size == (640, 360)


# ---------------------------------------------------------------------------- bad input
def _bad(**change: object) -> Sighting:
    good = seen("Ah", 0.5)
    fields = {"card": good.card, "face_up": good.face_up, "mark": good.mark, "confidence": good.confidence,
              "corners": good.corners, **change}  # fmt: skip
    return Sighting(**fields)


@pytest.mark.parametrize(
    ("observation", "words"),
    [
        (_bad(card="Zz"), "not a card"),
        (_bad(card=12), "not a card"),
        (_bad(face_up=False, card="Ah"), "face down but names a card"),
        (_bad(face_up="yes"), "face_up"),
        (_bad(face_up=False, card=None, mark="h:huge"), "Tock mark"),
        (_bad(confidence=1.5), "confidence"),
        (_bad(confidence=float("nan")), "confidence"),
        (_bad(corners=np.zeros((3, 2))), "4×2"),
        (_bad(corners=np.full((4, 2), np.nan)), "4×2"),
        (_bad(corners=np.zeros((4, 2))), "no area"),
        (_bad(corners="here"), "corners"),
        ("Ah", "lacks"),
    ],
)
def test_a_malformed_observation_is_refused_and_changes_nothing(observation: object, words: str) -> None:
    feed = Feed()
    before = feed(seen("Kd", 0.6), times=2)
    tracks = feed.tracker.tracks()
    with pytest.raises(TrackerError, match=words) as caught:
        feed.tracker.update([seen("Kd", 0.6), observation], frame_index=feed.frame, timestamp=feed.frame / 10)  # type: ignore[list-item]
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, TocktableError)
    assert feed.tracker.tracks() == tracks and feed.tracker.last_view == before
    assert feed(seen("Kd", 0.6)).face_up_board() == ("Kd",)  # the same frame index is still free


def test_frame_indexes_must_increase_and_time_must_not_go_back() -> None:
    feed = Feed()
    feed(seen("Ah", 0.5), times=2)
    with pytest.raises(TrackerError, match="indexes must increase"):
        feed.tracker.update([seen("Ah", 0.5)], frame_index=1, timestamp=5.0)
    with pytest.raises(TrackerError, match="goes back"):
        feed.tracker.update([seen("Ah", 0.5)], frame_index=5, timestamp=0.0)
    with pytest.raises(TrackerError, match="finite"):
        feed.tracker.update([seen("Ah", 0.5)], frame_index=5, timestamp=float("inf"))
    assert feed(seen("Ah", 0.5)).face_up_board() == ("Ah",)
    feed.tracker.reset()
    assert feed.tracker.update([], frame_index=0, timestamp=0.0).board == ()


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"confirm_frames": 0}, "confirm_frames"),
        ({"confirm_frames": 2.5}, "confirm_frames"),
        ({"grace_frames": -1}, "grace_frames"),
        ({"grace_seconds": -0.5}, "grace_seconds"),
        ({"match_distance": 0}, "match_distance"),
        ({"size": (0, 720)}, "frame size"),
    ],
)
def test_bad_settings_are_refused(settings: dict[str, object], words: str) -> None:
    with pytest.raises(TrackerError if "size" not in settings else ValueError, match=words):
        TableTracker(ZONES, **settings)  # type: ignore[arg-type]


@pytest.mark.parametrize("module", ["vision.track", "vision.zones"])
def test_the_module_examples_run(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def test_a_reset_from_another_thread_never_breaks_a_frame_being_taken() -> None:
    """The host's pages reset the tracker while the camera thread feeds it: each frame is taken
    whole, before or after the reset, never with its tracks gone halfway."""
    import threading

    tracker = TableTracker(ZONES, size=SIZE)
    stop = threading.Event()
    resets = 0

    def host() -> None:
        nonlocal resets
        while not stop.is_set():
            tracker.reset()
            resets += 1

    errors: list[BaseException] = []
    other = threading.Thread(target=host)
    other.start()
    try:
        for frame in range(1500):
            sightings = [seen(card, x) for card, x in zip(["Ah", "Kd", "7c", "2s", "Th"], BOARD_X, strict=True)]
            try:
                view = tracker.update(sightings, frame_index=frame, timestamp=frame / 10)
            except Exception as exc:  # any exception is the failure looked for
                errors.append(exc)
            else:
                assert len(all_faces(view)) <= 5
    finally:
        stop.set()
        other.join()
    assert resets > 0
    assert errors == []
