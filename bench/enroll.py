"""Deck enrollment benchmark: the figures of teaching the reader a deck, in one run.

    python -m bench.enroll                  # all figures (a minute or two)
    python -m bench.enroll --models DIR     # the card reader's models from DIR (default models/)
    python -m bench.enroll --json out.json  # also write the figures as JSON

Figures:
- real photos (../shared/vision-real/bicycle-webcam, measured only, skipped when absent):
  enrolled from the ``_1`` photo of each card, the other photos read with the profile, against
  the same photos read without it (the shipped models alone), in the same run.
- synthetic decks: hold-out deck styles; each card enrolled from one rendered photo of it
  alone, then 12-card tables of that deck (other seeds, any rotation) read with and without.
- the same with decks printing German (K D B) and Dutch (H V B) index letters: German ones the
  models read with no setting, Dutch ones they misread (V is a queen there, a jack in French).
- another mark design: a deck's backs enrolled from one card per mark (our stickers standing
  in for a design the mark reader does not know), then face-down tables of that deck.
- cost: enrollment time per photo, profile file size, the profile stage's time a table with the
  index pixels and without them (German and Dutch decks).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from table.cards import Card
from table.tock import ALL_MARKS, mark_of
from vision.deck_profile import read_backs
from vision.detect import quad_iou
from vision.enroll import DECK_ORDER, card_from_filename, enroll, enroll_folder
from vision.mark_reader import MarkReader
from vision.reader import MODELS_DIR, CardReader
from vision.rectify import Pyramid
from vision.render.scene import PlacedCard, SceneSpec, deal_rows, render_scene

REAL = Path(__file__).resolve().parents[1] / ".." / "shared" / "vision-real"


def _tally(counts: Counter[str], truth: str, read: str | None, confidence: float) -> None:
    counts["cards"] += 1
    if read == truth:
        counts["right"] += 1
    elif read is None:
        counts["unsure"] += 1
    else:
        counts["wrong"] += 1
        counts["wrong_confident"] += confidence >= 0.9


def _rates(counts: Counter[str]) -> dict[str, Any]:
    n = max(counts["cards"], 1)
    keys = ("cards", "right", "unsure", "wrong", "wrong_confident")
    return {**{k: counts[k] for k in keys}, "right_rate": counts["right"] / n, "unsure_rate": counts["unsure"] / n,
            "wrong_rate": counts["wrong"] / n, "wrong_confident_rate": counts["wrong_confident"] / n}  # fmt: skip


def _largest_face_up(observations: Any) -> tuple[str | None, float]:
    best, best_area = None, -1.0
    for obs in observations:
        area = float(cv2.contourArea(obs.corners.astype(np.float32)))
        if obs.face_up and area > best_area:
            best, best_area = obs, area
    return (best.card, best.confidence) if best is not None else (None, 0.0)


def real(reader: CardReader) -> dict[str, Any] | None:
    folder = REAL / "bicycle-webcam"
    if not folder.is_dir():
        return None
    start = time.perf_counter()
    profile, report = enroll_folder(reader, folder, pattern="*_1.jpg")
    enroll_seconds = time.perf_counter() - start
    tests = sorted(p for p in folder.glob("*.jpg") if not p.stem.endswith("_1"))
    with_profile: Counter[str] = Counter()
    without: Counter[str] = Counter()
    misses = []
    for path in tests:
        truth = card_from_filename(path.name)
        assert truth is not None
        image = cv2.imread(str(path))
        reader.use_profile(None)
        _tally(without, truth, *_largest_face_up(reader.read(image)))
        reader.use_profile(profile)
        card, confidence = _largest_face_up(reader.read(image))
        _tally(with_profile, truth, card, confidence)
        if card != truth:
            misses.append(f"{path.name}: {card}")
    reader.use_profile(None)
    with tempfile.TemporaryDirectory() as tmp:
        size = profile.save(Path(tmp) / "p.npz").stat().st_size
    return {"enrolled": len(report.enrolled), "skipped": report.skipped, "tested": len(tests),
            "with_profile": _rates(with_profile), "without_profile": _rates(without), "misses": misses,
            "enroll_ms_per_photo": 1000 * enroll_seconds / max(sum(report.enrolled.values()), 1),
            "profile_bytes": size}  # fmt: skip


def _alone(card: str, deck: str, seed: int, *, face_up: bool = True, back: str = "plain",
           table: str | None = None) -> np.ndarray:  # fmt: skip
    """One card alone in the middle of a 1280×720 table, as the guide asks for it."""
    spec = SceneSpec(cards=(PlacedCard(card, face_up, (0.5, 0.5), angle=float(seed % 7 - 3), height=0.4,
                                       back=back),), seed=seed, deck=deck, table=table)  # fmt: skip
    return render_scene(spec).image


def _retaken(reader: CardReader, card: str, deck: str, seed: int, *, face_up: bool = False) -> np.ndarray:
    """A card alone, taken again (another light, then another table cloth) until the reader
    finds it on the right side, as a user retakes a photo the guide could not use."""
    for attempt, table in enumerate((None, None, "green-felt", "grey-felt", "black-cloth")):
        image = _alone(card, deck, seed + 1000 * attempt, face_up=face_up, back="plain" if face_up else "tock",
                       table=table)  # fmt: skip
        if any(obs.face_up == face_up for obs in reader.read(image)):
            return image
    return image


def synthetic(reader: CardReader, decks: int, scenes: int, *, seed: int, letters: str = "en") -> dict[str, Any]:
    """Hold-out decks printing the index letters ``letters`` (:data:`vision.render.faces.INDEX_SETS`)
    enrolled from one photo per card, then 12-card tables read with and without the profile."""
    with_profile: Counter[str] = Counter()
    without: Counter[str] = Counter()
    stage_ms: dict[str, list[float]] = {"pixels": [], "embeddings": []}
    rng = np.random.default_rng(seed)
    pool = "holdout" if letters == "en" else f"holdout-{letters}"
    for d in range(decks):
        deck = f"{pool}-{seed * 100 + d}"
        photos = {card: _retaken(reader, card, deck, seed * 10_000 + d * 100 + k, face_up=True)
                  for k, card in enumerate(DECK_ORDER)}  # fmt: skip
        profile = enroll(reader, photos)
        bare = replace(profile, face_crops=profile.face_crops[:0])  # the same profile without the index pixels
        for s in range(scenes):
            cards = tuple(PlacedCard(c.card, True, c.center, angle=c.angle, height=c.height) for c in deal_rows(rng))
            scene = render_scene(SceneSpec(cards=cards, seed=seed * 10_000 + 5000 + d * 100 + s, deck=deck))
            reader.use_profile(bare)
            stage_ms["embeddings"].append(_timed_read(reader, scene.image)[1])
            for counts, use in ((without, None), (with_profile, profile)):
                reader.use_profile(use)
                seen, ms = _timed_read(reader, scene.image)
                if use is not None:
                    stage_ms["pixels"].append(ms)
                for truth in scene.truth:
                    ious = [quad_iou(truth.corners, c) for c in seen.corners]
                    if not ious or max(ious) < 0.5:
                        continue
                    obs = seen[int(np.argmax(ious))]
                    _tally(counts, truth.card, obs.card, obs.confidence)
        sys.stderr.write(f"\r  synthetic {letters} deck {d + 1}/{decks}")
    sys.stderr.write("\n")
    reader.use_profile(None)
    return {"decks": decks, "scenes_per_deck": scenes, "with_profile": _rates(with_profile),
            "without_profile": _rates(without),
            "profile_stage_ms": {k: float(np.median(v)) for k, v in stage_ms.items()}}  # fmt: skip


def _timed_read(reader: CardReader, image: np.ndarray) -> tuple[Any, float]:
    """One read of ``image``, and the milliseconds its profile stage took."""
    before = reader.timings.get("profile", 0.0)
    seen = reader.read(image)
    return seen, reader.timings.get("profile", 0.0) - before


def backs(reader: CardReader, decks: int, scenes: int, *, seed: int) -> dict[str, Any]:
    enrolled: Counter[str] = Counter()
    cost: dict[str, list[float]] = {"profile": [], "marks": []}
    marks = MarkReader()
    rng = np.random.default_rng(seed)
    for d in range(decks):
        deck = f"holdout-{seed * 100 + d}"
        examples = {str(m): next(c for c in DECK_ORDER if mark_of(Card.parse(c)) == m) for m in ALL_MARKS}
        photos = {c: _retaken(reader, c, deck, seed * 10_000 + d * 100 + k, face_up=True)
                  for k, c in enumerate(DECK_ORDER[:1])}  # fmt: skip
        back_photos = {m: _retaken(reader, c, deck, seed * 10_000 + d * 100 + 60 + k)
                       for k, (m, c) in enumerate(examples.items())}  # fmt: skip
        profile = enroll(reader, photos, backs=back_photos)
        reader.use_profile(profile)
        for s in range(scenes):
            cards = tuple(PlacedCard(c.card, False, c.center, angle=c.angle, height=c.height, back="tock")
                          for c in deal_rows(rng))  # fmt: skip
            scene = render_scene(SceneSpec(cards=cards, seed=seed * 10_000 + 7000 + d * 100 + s, deck=deck))
            seen = reader.read(scene.image)
            for truth in scene.truth:
                ious = [quad_iou(truth.corners, c) for c in seen.corners]
                if not ious or max(ious) < 0.5 or seen[int(np.argmax(ious))].face_up:
                    continue
                obs = seen[int(np.argmax(ious))]
                _tally(enrolled, str(truth.mark), obs.mark, obs.confidence)
            # The cost of the backs' reading alone, against our own mark reader on the same cards.
            down = [seen.corners[i] for i in range(len(seen)) if not seen.face_up[i]]
            pyramid = Pyramid(scene.image)
            for name, use, with_marks in (("profile", profile, None), ("marks", None, marks)):
                start = time.perf_counter()
                read_backs(scene.image, down, pyramid=pyramid, profile=use, marks=with_marks)
                cost[name].append(1000 * (time.perf_counter() - start) / max(len(down), 1))
    reader.use_profile(None)
    return {"decks": decks, "scenes_per_deck": scenes, "enrolled_backs": _rates(enrolled),
            "ms_per_back": {k: float(np.median(v)) for k, v in cost.items()}}  # fmt: skip


def _line(name: str, f: dict[str, Any]) -> str:
    return (f"{name}: {f['cards']} cards, right {100 * f['right_rate']:.2f} %, unsure {100 * f['unsure_rate']:.2f} %, "
            f"wrong {100 * f['wrong_rate']:.2f} % ({f['wrong']}), confidently wrong "
            f"{100 * f['wrong_confident_rate']:.2f} %")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.enroll", description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="card reader models (default: models/)")
    parser.add_argument("--decks", type=int, default=3, help="synthetic decks enrolled (default 3)")
    parser.add_argument("--scenes", type=int, default=8, help="tables read per deck (default 8)")
    parser.add_argument("--seed", type=int, default=93, help="first seed (default 93)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    reader = CardReader(args.models)
    figures: dict[str, Any] = {}
    figures["real"] = real(reader)
    if figures["real"] is None:
        print("real photos: ../shared/vision-real/bicycle-webcam not found, skipped")
    else:
        r = figures["real"]
        print(f"real photos (bicycle-webcam): enrolled {r['enrolled']} cards from their _1 photo, "
              f"{r['enroll_ms_per_photo']:.0f} ms per photo, profile {r['profile_bytes'] / 1024:.0f} KB")  # fmt: skip
        print("  " + _line("with the profile", r["with_profile"]))
        print("  " + _line("without (models alone)", r["without_profile"]))
        if r["misses"]:
            print("  misses with the profile: " + ", ".join(r["misses"]))
    figures["synthetic"] = synthetic(reader, args.decks, args.scenes, seed=args.seed)
    print("synthetic hold-out decks, one rendered photo per card:")
    print("  " + _line("with the profile", figures["synthetic"]["with_profile"]))
    print("  " + _line("without (models alone)", figures["synthetic"]["without_profile"]))
    for letters, what in (("de", "German (K D B)"), ("nl", "Dutch (H V B: not read without enrolling)")):
        figures[f"synthetic_{letters}"] = f = synthetic(reader, args.decks, args.scenes, seed=args.seed + 2,
                                                        letters=letters)  # fmt: skip
        print(f"hold-out decks with {what} index letters, one rendered photo per card:")
        print("  " + _line("with the profile", f["with_profile"]))
        print("  " + _line("without (models alone)", f["without_profile"]))
        cost = f["profile_stage_ms"]
        print(f"  the profile stage: {cost['pixels']:.2f} ms a table (median; the same profile without its index "
              f"pixels {cost['embeddings']:.2f} ms)")  # fmt: skip
    figures["backs"] = backs(reader, args.decks, args.scenes, seed=args.seed + 1)
    print("  " + _line("backs enrolled as another mark design (one per mark)", figures["backs"]["enrolled_backs"]))
    cost = figures["backs"]["ms_per_back"]
    print(f"  reading a back with the profile: {cost['profile']:.3f} ms median (our own mark reader, same cards: "
          f"{cost['marks']:.3f} ms)")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
