"""The measurements the card reader's benchmark and its peer share, so both are read alike.

Each takes a reader (anything with ``read`` and ``detect``: :class:`vision.CardReader` or
:class:`bench.vision_peer.TemplateReader`) and returns its figures as a JSON-ready dict:

- :func:`speed`: the whole read of 1280×720 frames with 12 cards, median and p95, and the detector's;
- :func:`synthetic`: the synthetic hold-out (hold-out deck styles and scene seeds, cards apart or
  touching), cards found and face-up cards read right, unsure or wrong;
- :func:`bicycle`: the Bicycle webcam photos of ``../shared/vision-real`` (None when absent).

``python -m bench.vision`` prints them with its other figures, ``python -m bench.vision_peer``
beside the peer's.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detect import Outline, quad_iou
from vision.reader import CardReader, Observations
from vision.rectify import order_corners
from vision.render.scene import CardTruth, PlacedCard, SceneSpec, deal_rows, render_scene

REAL = Path(__file__).resolve().parents[1] / ".." / "shared" / "vision-real"
_RANKS = {"Ace": "A", "King": "K", "Queen": "Q", "Jack": "J", "10": "T"}
_SUITS = {"club": "c", "diamond": "d", "heart": "h", "spade": "s"}


def read_at_true_outlines(reader: CardReader, image: np.ndarray, truth: tuple[CardTruth, ...]) -> Observations:
    """``reader.read`` with its detector replaced by the scene's true outlines (the classifier alone)."""
    outlines = [Outline(order_corners(t.corners), partial=False, fit=1.0) for t in truth]
    detect = reader.detect
    reader.detect = lambda frame, **_: outlines  # type: ignore[method-assign]
    try:
        return reader.read(image)
    finally:
        reader.detect = detect  # type: ignore[method-assign]


def with_jokers(cards: tuple[PlacedCard, ...], k: int) -> tuple[PlacedCard, ...]:
    """The cards of scene ``k`` with the deck's two jokers, face up, in the places of two of them
    (one in each row, moving along the rows from scene to scene)."""
    places = {k % len(cards): "Jk", (k + len(cards) // 2 + 1) % len(cards): "Jk2"}
    return tuple(replace(c, card=places[i], face_up=True, back="plain") if i in places else c
                 for i, c in enumerate(cards))  # fmt: skip


def synthetic(reader: CardReader, scenes: int, *, touching: bool, seed: int, true_outlines: bool = False,
              letters: str = "en", jokers: bool = False, scale: float = 1.0) -> dict[str, Any]:  # fmt: skip
    """Hold-out scenes (``letters``: the index set of their decks, :data:`vision.render.faces.INDEX_SETS`;
    ``jokers``: the deck's two jokers face up in each scene, :func:`with_jokers`; ``scale``: the
    frame that much of 1280 × 720, the cards with it)."""
    rng = np.random.default_rng(seed)
    pool = "holdout" if letters == "en" else f"holdout-{letters}"
    counts = {"cards": 0, "found": 0, "face_up": 0, "found_up": 0, "right": 0, "unsure": 0, "wrong": 0,
              "side_right": 0, "jokers": 0, "jokers_right": 0, "jokers_unsure": 0, "jokers_wrong": 0,
              "called_joker": 0}  # fmt: skip
    confusions: list[str] = []
    for k in range(scenes):
        number = seed * 1000 + k
        dealt = deal_rows(rng, touching=touching)
        spec = SceneSpec(cards=with_jokers(dealt, k) if jokers else dealt, seed=number, deck=f"{pool}-{number}",
                         size=(round(1280 * scale), round(720 * scale)))  # fmt: skip
        scene = render_scene(spec)
        seen = read_at_true_outlines(reader, scene.image, scene.truth) if true_outlines else reader.read(scene.image)
        for truth in scene.truth:
            counts["cards"] += 1
            counts["face_up"] += truth.face_up
            ious = [quad_iou(truth.corners, c) for c in seen.corners]
            joker = truth.card == "Jk" and truth.face_up
            counts["jokers"] += joker
            if not ious or max(ious) < 0.5:
                continue
            obs = seen[int(np.argmax(ious))]
            if joker:
                counts["jokers_right"] += obs.card == "Jk"
                counts["jokers_unsure"] += obs.card is None
                counts["jokers_wrong"] += obs.card not in (None, "Jk")
            else:
                counts["called_joker"] += obs.card == "Jk"
            counts["found"] += 1
            counts["side_right"] += obs.face_up == truth.face_up
            if truth.face_up:
                counts["found_up"] += 1
                if obs.card == truth.card:
                    counts["right"] += 1
                elif obs.card is None:
                    counts["unsure"] += 1
                    confusions.append(f"{truth.card}→?({obs.confidence:.2f})")
                else:
                    counts["wrong"] += 1
                    confusions.append(f"{truth.card}→{obs.card}({obs.confidence:.2f})")
            elif obs.card is not None:
                counts["wrong"] += 1
                confusions.append(f"back→{obs.card}({obs.confidence:.2f})")
        sys.stderr.write(f"\r  synthetic {letters} {'touching' if touching else 'spread'} scene {k + 1}/{scenes}")
    sys.stderr.write("\n")
    up = max(counts["face_up"], 1)
    found = max(counts["found"], 1)
    return {
        **counts,
        "detected": counts["found"] / max(counts["cards"], 1),
        "read_right_of_face_up": counts["right"] / up,
        "read_right_of_detected_face_up": counts["right"] / max(counts["found_up"], 1),
        "wrong_rate": counts["wrong"] / max(counts["cards"], 1),
        "face_up_right_of_detected": counts["side_right"] / found,
        "confusions": confusions,
    }


def label_of(path: Path) -> str:
    rank, suit, _ = path.stem.split("_")
    return _RANKS.get(rank, rank) + _SUITS[suit]


def bicycle(reader: CardReader) -> dict[str, Any] | None:
    folder = REAL / "bicycle-webcam"
    if not folder.is_dir():
        return None
    files = sorted(folder.glob("*.jpg"))
    right = unsure = wrong = missed = extra = 0
    times, misses = [], []
    for path in files:
        image = cv2.imread(str(path))
        start = time.perf_counter()
        seen = reader.read(image)
        times.append(time.perf_counter() - start)
        truth = label_of(path)
        if not len(seen):
            missed += 1
            misses.append(f"{path.name}: no card")
            continue
        extra += len(seen) - 1
        areas = [cv2.contourArea(c.astype(np.float32)) for c in seen.corners]
        card = seen[int(np.argmax(areas))].card
        if card == truth:
            right += 1
        elif card is None:
            unsure += 1
            misses.append(f"{path.name}: unsure")
        else:
            wrong += 1
            misses.append(f"{path.name}: read {card}")
    n = len(files)
    return {"photos": n, "right": right, "unsure": unsure, "wrong": wrong, "no_card": missed, "extra_outlines": extra,
            "right_rate": right / n, "wrong_rate": wrong / n, "ms_per_photo_median": 1000 * float(np.median(times)),
            "misses": misses}  # fmt: skip


def speed(reader: CardReader, frames: int, models: Path) -> dict[str, Any]:
    rng = np.random.default_rng(99)
    images = [render_scene(SceneSpec(cards=deal_rows(rng, touching=False), seed=5000 + k)).image for k in range(8)]
    reader.read(images[0])
    total, detect, cpu = [], [], []
    for k in range(frames):
        image = images[k % len(images)]
        start, start_cpu = time.perf_counter(), time.process_time()
        reader.read(image)
        total.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        start = time.perf_counter()
        reader.detect(image)
        detect.append(time.perf_counter() - start)
    sizes = {p.name: p.stat().st_size for p in sorted(models.glob("*.onnx"))}
    return {"frames": frames, "median_ms": 1000 * float(np.median(total)),
            "p95_ms": 1000 * float(np.percentile(total, 95)), "detect_median_ms": 1000 * float(np.median(detect)),
            "cpu_median_ms": 1000 * float(np.median(cpu)),
            "model_bytes": sizes}  # fmt: skip
