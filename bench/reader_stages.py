"""A picture of the card reader's stages on one frame: what each stage looked at and what it changed.

    python -m bench.reader_stages                          # docs/reader-stages.png, a hard synthetic table
    python -m bench.reader_stages --image photo.jpg --out /tmp/stages.png   # any photo of yours

One panel per stage of ``models/reader.json`` (run one after the other on the frame's evidence, as
:meth:`vision.reader.CardReader.read` runs them), then the decision. A card is outlined grey when the
stage did not look at it, yellow when it looked and changed nothing, green when it changed its
outline or reading; its label is what the evidence says after the stage (best card and posterior,
"down" for a back, its mark once read).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from table.cards import Card
from vision.evidence import Evidence
from vision.reader import MODELS_DIR, CardReader
from vision.render.scene import render_scene
from vision.render.scene_layouts import deal_hard
from vision.stages import Sources

_PANEL_W = 560
_GREY, _YELLOW, _GREEN, _WHITE = (150, 150, 150), (0, 215, 255), (60, 200, 60), (255, 255, 255)


def _state(ev: Evidence) -> tuple[np.ndarray, ...]:
    return (ev.corners.copy(), ev.best.copy(), ev.posterior.copy(), ev.face_up.copy(), ev.pip_named.copy(),
            ev.pip_veto.copy(), np.array([m or "" for m in ev.marks]), ev.profile_card.copy(),
            ev.small_best.copy(), ev.small_posterior.copy())  # fmt: skip


def _changed(before: tuple[np.ndarray, ...], after: tuple[np.ndarray, ...]) -> np.ndarray:
    out = np.zeros(len(after[0]), bool)
    for a, b in zip(before, after, strict=True):
        differs = a != b if a.dtype.kind in "US" else ~np.isclose(a, b)
        out |= differs.reshape(len(out), -1).any(axis=1)
    return out


def _label(ev: Evidence, i: int) -> str:
    if not ev.face_up[i]:
        return "down " + (ev.marks[i] or "") if ev.backs_read[i] else "down"
    if ev.small[i]:  # read whole by the small-card reader: its reading, not the corners'
        best = int(ev.small_best[i])
        return f"{Card.from_id(best) if best < 52 else 'nothing'} {ev.small_posterior[i]:.2f}"
    return f"{Card.from_id(int(ev.best[i]))} {ev.posterior[i]:.2f}"


def _panel(frame: np.ndarray, title: str, quads: np.ndarray, colours: list[tuple[int, int, int]],
           labels: list[str]) -> np.ndarray:  # fmt: skip
    scale = _PANEL_W / frame.shape[1]
    panel = cv2.resize(frame, (_PANEL_W, round(frame.shape[0] * scale)), interpolation=cv2.INTER_AREA)
    panel = cv2.addWeighted(panel, 0.75, np.zeros_like(panel), 0.25, 0)
    for quad, colour, text in zip(quads, colours, labels, strict=True):
        points = np.round(quad * scale).astype(np.int32)
        cv2.polylines(panel, [points], True, colour, 2, cv2.LINE_AA)
        x, y = points.min(axis=0)
        cv2.putText(panel, text, (int(x), max(int(y) - 4, 12)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3,
                    cv2.LINE_AA)  # fmt: skip
        cv2.putText(panel, text, (int(x), max(int(y) - 4, 12)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
    bar = np.full((30, _PANEL_W, 3), 40, np.uint8)
    cv2.putText(bar, title, (8, 21), cv2.FONT_HERSHEY_SIMPLEX, 0.6, _WHITE, 1, cv2.LINE_AA)
    return np.vstack([bar, panel])


def picture(reader: CardReader, frame: np.ndarray) -> np.ndarray:
    """The panels of every stage on ``frame``, two across."""
    sources = Sources(reader.profile, reader.marks, reader.letters)
    sizes = (reader.embedding_size, reader.card_embedding_size)
    start = time.perf_counter()
    ev = reader.pipeline.find.start(frame, reader, threshold=reader.settings.threshold, sizes=sizes,
                                    min_height=reader.settings.min_card_height,
                                    caution=reader.settings.caution)  # fmt: skip
    found = 1000 * (time.perf_counter() - start)
    panels = [_panel(frame, f"1 {reader.pipeline.find.name}: {len(ev)} outlines ({found:.0f} ms)", ev.corners,
                     [_WHITE] * len(ev), [""] * len(ev))]  # fmt: skip
    for k, stage in enumerate(reader.pipeline.stages, start=2):
        before = _state(ev)
        start = time.perf_counter()
        stage.run(ev, reader, sources)
        ms = 1000 * (time.perf_counter() - start)
        changed = _changed(before, _state(ev)) if k > 2 else np.ones(len(ev), bool)
        asked = ev.asked.get(stage.name, np.ones(len(ev), bool))
        colours = [_GREEN if c else _YELLOW if a else _GREY for a, c in zip(asked, changed, strict=True)]
        title = f"{k} {stage.name}: {int(asked.sum())} looked at, {int(changed.sum())} changed ({ms:.0f} ms)"
        panels.append(_panel(frame, title, ev.corners, colours, [_label(ev, i) for i in range(len(ev))]))
    seen = ev.decide()
    decided = zip(seen.cards, seen.face_up, seen.confidence, strict=True)
    labels = [(c or ("?" if up else "down")) + f" {p:.2f}" for c, up, p in decided]
    colours = [_GREEN if c else _YELLOW for c in seen.cards]
    named = sum(c is not None for c in seen.cards)
    panels.append(_panel(frame, f"{len(panels) + 1} decision: {named} named, {len(seen) - named} unsure or down",
                         seen.corners, colours, labels))  # fmt: skip
    if len(panels) % 2:
        panels.append(np.zeros_like(panels[-1]))
    rows = [np.hstack([panels[i], np.full((panels[i].shape[0], 6, 3), 255, np.uint8), panels[i + 1]])
            for i in range(0, len(panels), 2)]  # fmt: skip
    gap = np.full((6, rows[0].shape[1], 3), 255, np.uint8)
    return np.vstack([part for row in rows for part in (row, gap)][:-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.reader_stages", description=__doc__.split("\n\n")[0])
    parser.add_argument("--image", type=Path, help="a photo to read (default: a hard synthetic table)")
    parser.add_argument(
        "--kind", default="textured", help="the synthetic table's kind (vision.render.scene_layouts.KINDS)"
    )
    parser.add_argument("--seed", type=int, default=2, help="the synthetic table's seed")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "docs" / "reader-stages.png")
    args = parser.parse_args(argv)
    if args.image is not None:
        frame = cv2.imread(str(args.image))
        if frame is None:
            parser.error(f"cannot read {args.image} as an image")
    else:
        cards, options = deal_hard(np.random.default_rng(args.seed), kind=args.kind)
        frame = render_scene(options.spec(cards, seed=88000 + args.seed, deck=f"holdout-{88000 + args.seed}")).image
    out = picture(CardReader(MODELS_DIR), frame)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), out)
    print(f"wrote {args.out} ({out.shape[1]}×{out.shape[0]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
