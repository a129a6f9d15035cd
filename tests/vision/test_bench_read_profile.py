"""bench.read_profile: the speed bench's frames, and a profile naming every stage of the reader."""

from __future__ import annotations

import numpy as np
import pytest

from bench.read_profile import frames_of, main, profile
from vision.reader import CardReader


def test_the_profile_names_every_stage_and_the_reading_thread_s_share_of_the_cpu() -> None:
    reader = CardReader.default()
    images = frames_of((1280, 720))
    assert len(images) == 8 and images[0].shape == (720, 1280, 3)
    assert not np.array_equal(images[0], images[1])  # eight tables, not one
    figures = profile(reader, images[:2], 2)
    assert {name[6:] for name in figures if name.startswith("stage ")} == set(reader.pipeline.names)
    assert 0 < figures["reading_thread"] <= figures["cpu"] + 1e-6  # the reading thread is one of the threads
    assert all(value >= 0 for value in figures.values())


def test_sizes_other_than_the_readme_s_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--sizes", "640x480"])
    assert "sizes must be among 1280x720, 2304x1296, 4608x2592" in capsys.readouterr().err
