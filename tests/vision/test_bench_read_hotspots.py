"""bench.read_hotspots: the reader's work made on one thread, the same readings, and its profile."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import vision.detect
from bench.read_hotspots import InPlace, hotspots, main, one_thread
from bench.read_profile import frames_of
from vision.reader import CardReader


def test_a_job_runs_when_given_on_the_caller_s_thread_and_its_error_waits_for_the_result() -> None:
    ran_on: list[str] = []
    done = InPlace().submit(lambda x: ran_on.append(threading.current_thread().name) or x * 2, 21)
    assert done.done() and done.result() == 42 and ran_on == [threading.current_thread().name]
    failed = InPlace().submit(lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        failed.result()


def test_reads_made_on_one_thread_are_the_same_and_every_thread_is_given_back() -> None:
    reader = CardReader.default()
    image = frames_of((1280, 720))[0]
    before = reader.read(image)
    helper, pool = reader.helper, vision.detect._Ahead.pool
    with one_thread(reader):
        assert isinstance(reader.helper(), InPlace) and isinstance(vision.detect._Ahead.pool(), InPlace)
        inside = reader.read(image)
    assert reader.helper == helper and vision.detect._Ahead.pool == pool
    assert np.array_equal(before.corners, inside.corners) and np.array_equal(before.card_ids, inside.card_ids)
    assert np.array_equal(before.confidence, inside.confidence)


def test_the_profile_has_the_stages_and_the_read_s_own_functions() -> None:
    reader = CardReader.default()
    read_ms, stages, rows = hotspots(reader, frames_of((1280, 720))[:1], 1)
    assert read_ms > 0 and set(stages) == set(reader.pipeline.names)
    names = [row[0] for row in rows]
    assert any("find_cards" in name for name in names) and any("classify_indices" in name for name in names)
    own = [row[2] for row in rows]
    assert own == sorted(own, reverse=True)


def test_sizes_other_than_the_readme_s_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--sizes", "640x480"])
    assert "sizes must be among 1280x720, 2304x1296, 4608x2592" in capsys.readouterr().err
