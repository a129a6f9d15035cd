"""The annotated camera frame: zones, card outlines by state, conflicts, privacy of seat cards."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from table.errors import TocktableError
from vision.annotate import PENDING, SHOWN, WITHHELD, annotate
from vision.errors import FrameError
from vision.track import Sighting, TableTracker, TrackStatus

SIZE = (640, 360)
ZONES = {
    "board": [(0.25, 0.3), (0.75, 0.3), (0.75, 0.7), (0.25, 0.7)],
    "seat:0": [(0.3, 0.74), (0.7, 0.74), (0.7, 1.0), (0.3, 1.0)],
}
GREY = 100


def card(text: str | None, x: float, y: float, *, face_up: bool = True, mark: str | None = None) -> Sighting:
    h = 0.2 * SIZE[1]
    w = h * 63 / 88
    cx, cy = x * SIZE[0], y * SIZE[1]
    corners = np.array([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2], [cx + w / 2, cy + h / 2],
                        [cx - w / 2, cy + h / 2]])  # fmt: skip
    return Sighting(text, face_up, mark, 0.9, corners)


def blank() -> np.ndarray:
    return np.full((SIZE[1], SIZE[0], 3), GREY, np.uint8)


def edge_pixel(image: np.ndarray, x: float, y: float) -> np.ndarray:
    """A pixel on the left edge of a card centred at (x, y), above its label."""
    h = 0.2 * SIZE[1]
    pixel: np.ndarray = image[round(y * SIZE[1] - 0.35 * h), round(x * SIZE[0] - h * 63 / 88 / 2)]
    return pixel


def near(pixel: np.ndarray, color: tuple[int, int, int], tolerance: int = 40) -> bool:
    return bool(np.abs(pixel.astype(int) - np.array(color)).max() <= tolerance)


def tracked(frames: list[list[Sighting]]) -> TableTracker:
    tracker = TableTracker(ZONES, size=SIZE)
    for k, observations in enumerate(frames):
        tracker.update(observations, frame_index=k, timestamp=k / 10)
    return tracker


def test_the_input_is_left_alone_and_the_copy_has_its_shape() -> None:
    frame = blank()
    out = annotate(frame, zones=ZONES)
    assert out.shape == frame.shape and out.dtype == np.uint8
    assert (frame == GREY).all() and out is not frame


def test_zones_are_outlined_in_their_colour_and_named() -> None:
    out = annotate(blank(), zones=ZONES)
    left_edge = out[round(0.5 * SIZE[1]), round(0.25 * SIZE[0]) - 1: round(0.25 * SIZE[0]) + 2]
    assert any(not near(p, (GREY, GREY, GREY), 20) for p in left_edge)
    inside = out[round(0.5 * SIZE[1]), round(0.5 * SIZE[0])]
    assert not (inside == GREY).all()  # tinted
    assert (out[5, 5] == GREY).all()  # outside every zone: untouched
    label_rows = out[round(0.3 * SIZE[1]) : round(0.3 * SIZE[1]) + 25, round(0.25 * SIZE[0]) : round(0.75 * SIZE[0])]
    assert (label_rows.max(axis=2) > 180).sum() > 20  # the name, in light text on a dark box


def test_cards_are_outlined_by_their_state() -> None:
    ace, king, queen = card("Ah", 0.35, 0.5), card("Kd", 0.5, 0.5), card("Qs", 0.65, 0.5)
    tracker = tracked([[ace, king]] * 3 + [[ace, king, queen]] * 2)
    statuses = {t.latest.card: t.status for t in tracker.tracks()}
    assert statuses == {"Ah": TrackStatus.SHOWN, "Kd": TrackStatus.SHOWN, "Qs": TrackStatus.PENDING}
    out = annotate(blank(), tracker.last_view, tracks=tracker.tracks())
    assert near(edge_pixel(out, 0.35, 0.5), SHOWN)
    assert near(edge_pixel(out, 0.65, 0.5), PENDING)


def test_a_conflict_is_red_and_its_message_is_in_a_banner() -> None:
    ace, other = card("Ah", 0.35, 0.5), card("Ah", 0.65, 0.5)
    tracker = tracked([[ace]] * 3 + [[ace, other]] * 3)
    view = tracker.last_view
    assert view is not None and [c.kind for c in view.conflicts] == ["duplicate"]
    out = annotate(blank(), view, tracks=tracker.tracks())
    assert near(edge_pixel(out, 0.65, 0.5), WITHHELD)
    assert near(edge_pixel(out, 0.35, 0.5), SHOWN)
    banner = out[:12]
    assert banner[..., 2].mean() > banner[..., 1].mean() + 5  # tinted red
    assert (out[:30].max(axis=2) > 200).sum() > 50  # the message in white
    plain = annotate(blank(), view)  # without tracks: the view's cards and its conflicts
    assert near(edge_pixel(plain, 0.65, 0.5), WITHHELD) and near(edge_pixel(plain, 0.35, 0.5), SHOWN)


def test_a_card_the_last_frame_missed_is_dashed() -> None:
    ace = card("Ah", 0.5, 0.5)
    tracker = tracked([[ace]] * 3 + [[]])
    [track] = tracker.tracks()
    assert not track.seen and track.status == TrackStatus.SHOWN
    out = annotate(blank(), tracker.last_view, tracks=tracker.tracks())
    w = 0.2 * SIZE[1] * 63 / 88
    column = out[round(0.4 * SIZE[1]) : round(0.6 * SIZE[1]), round(0.5 * SIZE[0] - w / 2)]
    painted = [near(p, SHOWN) for p in column]
    assert any(painted) and not all(painted)


def test_face_up_cards_in_a_seat_are_blacked_out_unless_asked() -> None:
    frame = blank()
    frame[round(0.8 * SIZE[1]) : round(0.95 * SIZE[1]), round(0.4 * SIZE[0]) : round(0.6 * SIZE[0])] = 250
    peek = card("Ah", 0.5, 0.87)
    pending = tracked([[peek]])  # not confirmed yet: hidden all the same
    confirmed = tracked([[peek]] * 3)
    for tracker in (pending, confirmed):
        out = annotate(frame, tracker.last_view, zones=ZONES, tracks=tracker.tracks())
        face = out[round(0.83 * SIZE[1]), round(0.47 * SIZE[0]) : round(0.53 * SIZE[0])]
        assert face.mean() < 60
    shown = annotate(frame, confirmed.last_view, zones=ZONES, tracks=confirmed.tracks(), hide_seat_faces=False)
    assert shown[round(0.83 * SIZE[1]), round(0.47 * SIZE[0])].mean() > 200
    view_only = annotate(frame, confirmed.last_view)
    assert view_only[round(0.83 * SIZE[1]), round(0.47 * SIZE[0])].mean() < 60


def test_face_down_cards_in_a_seat_stay_visible() -> None:
    frame = blank()
    frame[round(0.8 * SIZE[1]) : round(0.95 * SIZE[1]), round(0.4 * SIZE[0]) : round(0.6 * SIZE[0])] = 250
    tracker = tracked([[card(None, 0.5, 0.87, face_up=False, mark="s:ace")]] * 3)
    out = annotate(frame, tracker.last_view, zones=ZONES, tracks=tracker.tracks())
    assert out[round(0.83 * SIZE[1]), round(0.47 * SIZE[0])].mean() > 200


def test_grey_and_bgra_frames_are_accepted() -> None:
    assert annotate(np.zeros((50, 80), np.uint8)).shape == (50, 80, 3)
    assert annotate(np.zeros((50, 80, 4), np.uint8)).shape == (50, 80, 3)


@pytest.mark.parametrize(
    ("image", "words"),
    [
        (np.zeros((50, 80, 3), np.float32), "uint8"),
        (np.zeros((50, 80, 2), np.uint8), "shape"),
        (np.zeros((4, 4, 3), np.uint8), "too small"),
        ([[0, 0], [0, 0]], "numpy array"),
    ],
)
def test_what_is_not_a_frame_is_refused(image: object, words: str) -> None:
    with pytest.raises(FrameError, match=words) as caught:
        annotate(image)  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, TocktableError)


def test_the_example_frame_of_a_tock_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.annotate import main

    assert main(["--example", str(tmp_path / "example.png"), "--perfect"]) == 0
    assert "a perfect reader" in capsys.readouterr().out
    image = cv2.imread(str(tmp_path / "example.png"))
    assert image is not None and image.shape == (720, 1280, 3)
    banner = image[:12].reshape(-1, 3).mean(axis=0)
    assert banner[2] > banner[1] + 5  # the duplicate Qh's conflict, in red across the top
    assert main(["--example", str(tmp_path / "missing" / "example.png"), "--perfect"]) == 2


def test_the_module_example_runs() -> None:
    import doctest

    import vision.annotate

    result = doctest.testmod(vision.annotate)
    assert result.attempted > 0 and result.failed == 0
