"""bench.vision_breakdown: each hard card binned by size, tilt, surface, grid and clutter, and counted."""

from __future__ import annotations

import numpy as np
import pytest

from bench.vision_breakdown import DIMENSIONS, Breakdown, card_bins, size_bin, tilt_bin
from vision.render.scene_camera import View
from vision.render.scene_layouts import SceneOptions


def _card(height: float, at: tuple[float, float] = (500.0, 400.0), turn: float = 30.0) -> np.ndarray:
    """Corners of a card ``height`` pixels tall turned by ``turn`` degrees about ``at``."""
    a = np.radians(turn)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    half = np.array([[-0.357, -0.5], [0.357, -0.5], [0.357, 0.5], [-0.357, 0.5]]) * height
    return half @ rot.T + at


@pytest.mark.parametrize(("share", "name"), [(0.03, "<5%"), (0.05, "5-10%"), (0.15, "10-20%"), (0.39, "20-40%"),
                                             (0.7, ">=40%")])  # fmt: skip
def test_sizes_fall_in_their_bins(share: float, name: str) -> None:
    assert size_bin(share) == name


@pytest.mark.parametrize(("tilt", "name"), [(0.0, "none"), (5.0, "<15°"), (15.0, "15-30°"), (44.0, "30-45°")])
def test_tilts_fall_in_their_bins(tilt: float, name: str) -> None:
    assert tilt_bin(tilt) == name


def test_a_turned_card_is_binned_by_its_own_height_and_its_table() -> None:
    options = SceneOptions(size=(1920, 1080), table="checked-cloth", camera=View(tilt=35), clutter=("paper",))
    bins = card_bins(_card(0.3 * 1080), options, "textured")
    assert bins == {"size": "20-40%", "tilt": "30-45°", "surface": "checked-cloth", "grid": "not grid",
                    "clutter": "clutter"}  # fmt: skip
    plain = card_bins(_card(0.04 * 1080, turn=80), SceneOptions(size=(1920, 1080), table="green-felt"), "grid")
    assert plain == {"size": "<5%", "tilt": "none", "surface": "plain", "grid": "grid", "clutter": "none"}


def test_the_breakdown_counts_found_and_read_cards_per_bin() -> None:
    counts = Breakdown()
    small = {"size": "<5%", "tilt": "none", "surface": "plain", "grid": "grid", "clutter": "none"}
    large = {**small, "size": ">=40%", "grid": "not grid"}
    counts.add(small, found=False, face_up=True, right=False)
    counts.add(small, found=True, face_up=True, right=True)
    counts.add(large, found=True, face_up=False, right=False)
    assert counts.counts["size"]["<5%"] == {"cards": 2, "found": 1, "face_up": 2, "right": 1}
    assert counts.counts["size"][">=40%"] == {"cards": 1, "found": 1, "face_up": 0, "right": 0}
    assert counts.counts["tilt"]["none"] == {"cards": 3, "found": 2, "face_up": 2, "right": 1}
    lines = counts.lines()
    assert [line.split()[0] for line in lines] == list(DIMENSIONS)
    assert lines[0].index("<5% 1/2 found (50%), 1/2 read") < lines[0].index(">=40% 1/1 found")
