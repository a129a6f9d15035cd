"""The card reader's helper thread: errors, several callers, a forked child, closing."""

from __future__ import annotations

import multiprocessing
import threading
from typing import Any

import numpy as np
import pytest

from vision.errors import ModelError
from vision.reader import CardReader
from vision.render.scene import SceneSpec, deal_rows, render_scene


@pytest.fixture(scope="module")
def frames() -> list[np.ndarray]:
    rng = np.random.default_rng(31)
    return [render_scene(SceneSpec(cards=deal_rows(rng, count=n), seed=310 + n)).image for n in (3, 12)]


def _same(a: Any, b: Any) -> bool:
    return bool(np.array_equal(a.card_ids, b.card_ids) and np.allclose(a.corners, b.corners) and a.marks == b.marks)


def test_an_error_in_the_reading_thread_is_the_one_raised_and_the_next_read_is_whole(
        frames: list[np.ndarray], monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    reader = CardReader.default()
    expected = reader.read(frames[1])

    def broken(thumbs: np.ndarray) -> Any:
        raise ModelError("the card model failed")

    monkeypatch.setattr(reader, "classify_cards", broken)
    with pytest.raises(ModelError, match="card model failed"):
        reader.read(frames[1])
    monkeypatch.undo()
    assert _same(reader.read(frames[1]), expected)


def test_several_threads_reading_with_one_reader_get_what_one_gets(frames: list[np.ndarray]) -> None:
    reader = CardReader.default()
    expected = [reader.read(f) for f in frames]  # 3 cards (no corners on the reading thread) and 12
    results: dict[int, list[Any]] = {}

    def work(k: int) -> None:
        results[k] = [reader.read(frames[(k + j) % 2]) for j in range(4)]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(results) == 3
    for k, seen in results.items():
        assert all(_same(s, expected[(k + j) % 2]) for j, s in enumerate(seen))


def _read_in_child(reader: CardReader, frame: np.ndarray, out: Any) -> None:
    out.put(reader.read(frame).card_ids.tolist())


def test_a_forked_child_reads_with_its_own_helper_thread(frames: list[np.ndarray]) -> None:
    reader = CardReader.default()
    expected = reader.read(frames[1]).card_ids.tolist()  # the parent's helper thread is running
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    child = context.Process(target=_read_in_child, args=(reader, frames[1], out))
    child.start()
    child.join(timeout=120)
    alive = child.is_alive()
    if alive:
        child.kill()
    assert not alive and child.exitcode == 0
    assert out.get(timeout=5) == expected


def test_a_closed_reader_reads_again_and_works_as_a_context(frames: list[np.ndarray]) -> None:
    with CardReader.default() as reader:
        first = reader.read(frames[0])
    reader.close()  # twice is fine
    assert _same(reader.read(frames[0]), first) and len(first) == 3
