"""bench.speed_pair: a tree's reader answering timing requests, and the arguments it refuses."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest

import bench.read_profile
import bench.vision_peer
from bench.speed_pair import main, serve
from vision.render.scene import PlacedCard, SceneSpec, render_scene


def test_a_tree_answers_each_request_with_the_read_s_wall_and_cpu_time(monkeypatch: pytest.MonkeyPatch) -> None:
    image = render_scene(SceneSpec(cards=(PlacedCard("Ah", True, (0.4, 0.5)),), size=(320, 240), seed=2)).image
    asked: list[tuple[int, int]] = []

    def frames_of(size: tuple[int, int]) -> list[np.ndarray]:
        asked.append(size)
        return [image, image[:, ::-1].copy()]

    class Peer:  # the peer's templates take a minute to draw: a stand-in that reads as slowly as asked
        def read(self, frame: np.ndarray) -> None:
            peer_read.append(frame.shape)

    peer_read: list[tuple[int, ...]] = []
    monkeypatch.setattr(bench.read_profile, "frames_of", frames_of)
    monkeypatch.setattr(bench.vision_peer, "TemplateReader", Peer)
    answers = io.StringIO()
    serve(io.StringIO("1280x720 0\npeer 1\n4608x2592 3\n"), answers)
    lines = [json.loads(line) for line in answers.getvalue().splitlines()]
    assert sorted(asked) == sorted(bench.read_profile.SIZES)
    assert Path(lines[0]["ready"]) == Path(bench.read_profile.__file__).resolve().parents[1]  # read from this tree
    assert len(lines) == 4 and len(peer_read) == 2  # the peer read a frame ahead, and the one asked
    for wall, cpu, every_thread in lines[1:]:
        assert wall > 0 and 0 <= cpu <= every_thread + 1.0  # the process's clock read a moment later


def test_a_folder_without_a_tree_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([str(tmp_path)])
    assert "OTHER a folder holding a tree" in capsys.readouterr().err
