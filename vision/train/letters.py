"""Fit the letter probe of Dutch court cards (:mod:`vision.letters`) on the corner models' features.

    python -m vision.train.letters                    # 160 training-font decks, into models/
    python -m vision.train.letters --decks 20 --out /tmp/p   # a quick try

Rendered tables of Dutch court cards (H, V, B: king, queen, jack), one table of the twelve per
deck style of the ``train`` fonts (never the hold-out ones), are read by the card reader; each
card's corner embedding (both corners' features) is labelled with its rank. A softmax regression
on those (numpy, a few seconds) gives the probe; its temperature is fitted on a quarter of the
decks kept apart, which also give the figures written beside it. No torch is needed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from table.cards import Card, Suit
from vision.deck_profile import model_hash
from vision.detect import quad_iou
from vision.letters import COURT, PROBE_FILES, LetterProbe
from vision.reader import MODELS_DIR, CardReader
from vision.render.scene import PlacedCard, SceneSpec, deal_rows, render_scene

_COURT_CARDS = tuple(str(Card(rank, suit)) for rank in COURT for suit in Suit)


def court_samples(reader: CardReader, decks: range, *, letters: str = "nl", pool: str = "train",
                  seed: int = 0) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Embeddings (N, D) of the court cards of rendered tables and their class (0 K, 1 Q, 2 J)."""
    rng = np.random.default_rng(seed)
    rows, labels = [], []
    for d in decks:
        places = deal_rows(rng)
        cards = tuple(PlacedCard(card, True, p.center, angle=p.angle, height=p.height)
                      for card, p in zip(rng.permutation(_COURT_CARDS), places, strict=True))  # fmt: skip
        scene = render_scene(SceneSpec(cards=cards, seed=seed * 100_000 + d, deck=f"{pool}-{letters}-{d}"))
        evidence = reader.evidence(scene.image)
        for truth in scene.truth:
            ious = [quad_iou(truth.corners, c) for c in evidence.corners]
            if not ious or max(ious) < 0.5:
                continue
            i = int(np.argmax(ious))
            if not evidence.face_up[i] or evidence.too_small[i]:
                continue
            rows.append(evidence.embedding[i])
            labels.append(COURT.index(Card.parse(str(truth.card)).rank))
        sys.stderr.write(f"\r  rendered {d - decks.start + 1}/{len(decks)} decks")
    sys.stderr.write("\n")
    return np.array(rows, np.float64), np.array(labels, np.int64)


def _unit(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-9)
    return out


def fit_softmax(x: np.ndarray, y: np.ndarray, *, l2: float = 1e-4, steps: int = 10000, lr: float = 1.0) -> np.ndarray:
    """Softmax regression by gradient descent on unit-length rows: (D + 1, classes) weights."""
    x = np.hstack([_unit(x), np.ones((len(x), 1))])
    classes = int(y.max()) + 1
    w = np.zeros((x.shape[1], classes))
    target = np.eye(classes)[y]
    for _ in range(steps):
        logits = x @ w
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        grad = x.T @ (p - target) / len(x) + l2 * np.vstack([w[:-1], np.zeros((1, classes))])
        w -= lr * grad
    return w


def fit_temperature(probe: LetterProbe, x: np.ndarray, y: np.ndarray) -> float:
    """The temperature that minimises the held-out decks' log loss (a grid: robust and quick)."""
    best, best_loss = 1.0, np.inf
    for t in np.exp(np.linspace(np.log(0.01), np.log(5.0), 90)):
        p = LetterProbe(probe.weights, probe.corners_hash, float(t)).probabilities(x)
        loss = -float(np.mean(np.log(p[np.arange(len(y)), y] + 1e-12)))
        if loss < best_loss:
            best, best_loss = float(t), loss
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train.letters", description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="the card reader's models (default models/)")
    parser.add_argument("--out", type=Path, default=None, help="folder to write the probe to (default: --models)")
    parser.add_argument("--decks", type=int, default=160, help="training-font deck styles rendered (default 160)")
    parser.add_argument("--letters", default="nl", choices=sorted(PROBE_FILES), help="the index letters (nl)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=None, help="keep the rendered cards' embeddings in this .npz")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    reader = CardReader(args.models, stages=("find", "corners", "orient", "reframe"))
    apart = max(1, args.decks // 4)
    if args.cache is not None and args.cache.is_file():
        with np.load(args.cache) as cached:
            x, y, x_check, y_check = (cached[k] for k in ("x", "y", "x_check", "y_check"))
    else:
        x, y = court_samples(reader, range(apart, args.decks), letters=args.letters, seed=args.seed)
        x_check, y_check = court_samples(reader, range(apart), letters=args.letters, seed=args.seed + 1)
        if args.cache is not None:
            np.savez(args.cache, x=x, y=y, x_check=x_check, y_check=y_check)
    probe = LetterProbe(fit_softmax(x, y), model_hash(args.models, ("corners.onnx",)))
    probe = LetterProbe(probe.weights, probe.corners_hash, fit_temperature(probe, x_check, y_check))
    p = probe.probabilities(x_check)
    right = float(np.mean(p.argmax(axis=1) == y_check))
    sure = p.max(axis=1) >= 0.9
    figures = {"train_cards": len(y), "check_cards": len(y_check), "check_top1": right,
               "check_sure_0.9": float(np.mean(sure)),
               "check_sure_wrong": int(np.sum(sure & (p.argmax(axis=1) != y_check))),
               "temperature": probe.temperature, "decks": args.decks, "seed": args.seed,
               "command": "python -m vision.train.letters " + " ".join(argv if argv is not None else sys.argv[1:]),
               "minutes": (time.perf_counter() - start) / 60}  # fmt: skip
    out = (args.out or args.models) / PROBE_FILES[args.letters]
    out.parent.mkdir(parents=True, exist_ok=True)
    probe.save(out, figures=figures)
    print(f"letter probe ({args.letters}): {len(y)} training cards, on {len(y_check)} cards of {apart} decks kept "
          f"apart {100 * right:.1f} % right, {100 * float(np.mean(sure)):.1f} % at 0.9 or more "
          f"({figures['check_sure_wrong']} of them wrong); temperature {probe.temperature:.2f}; wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
