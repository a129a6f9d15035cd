"""Every card of the synthetic hold-out the reader does not read right, with what it was read from.

    python -m bench.vision_misses                      # French and German decks (fr, fr1, de)
    python -m bench.vision_misses --letters en --models /tmp/m --json misses.json
    python -m bench.vision_misses --seeds 11,13       # other scenes than bench.vision's, the same kinds

The scenes are those of ``bench.vision``'s "synthetic" and "decks" groups (the same seeds, decks
and tables: cards apart, seed 3; touching rows, seed 7). For each face-up card read wrongly or
left unsure (or not found) it prints the true card and the reading, the letter the index prints,
the deck's index font and how it is drawn (stroke, condensing), the card's height in pixels, the
layout, whether the expert was asked, each corner's three best cards and P(no index), the
posterior, the pips' verdict and the later stages that looked at the card. Then the misses
counted by layout, by kind (a card whose index is a letter, an ace or a court card, against a
number card) and by outcome: what to fix first; and the face-up cards read right, unsure and
wrong of all. ``--seeds`` draws other scenes of the same kinds (cards apart, touching rows) and
decks: a change chosen by looking at bench.vision's scenes is measured on scenes it never saw.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from table.cards import Card, Rank
from vision.classify import RANKS, SUITS
from vision.detect import quad_iou
from vision.evidence import Evidence
from vision.reader import MODELS_DIR, CardReader
from vision.render.faces import index_text
from vision.render.scene import SceneSpec, _deck, deal_rows, render_scene

LETTERED = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
"""The ranks whose index is a letter (or the French 1): what differs between the languages' decks."""

SEEDS = {False: 3, True: 7}
"""The scene seeds of ``bench.vision`` (cards apart, touching rows)."""


def card_name(card_id: int) -> str:
    return RANKS[card_id // 4] + SUITS[card_id % 4] if 0 <= card_id < 52 else "?"


def top_cards(p: np.ndarray, k: int = 3) -> str:
    """The ``k`` likeliest cards of a distribution over the 52, "Qc:0.41 Jc:0.33 ..."."""
    return " ".join(f"{card_name(int(i))}:{p[i]:.2f}" for i in np.argsort(p)[::-1][:k])


def describe(evidence: Evidence, i: int) -> dict[str, Any]:
    """What the reader gathered about card ``i`` of a frame, for a person to read."""
    return {
        "posterior": top_cards(evidence.posteriors[i]),
        "corners": [f"{top_cards(evidence.cards[i, c])} none={evidence.none[i, c]:.2f}" for c in range(2)],
        "expert": bool(evidence.expert[i]),
        "pips": card_name(int(evidence.pip_named[i])) if evidence.pip_named[i] >= 0 else None,
        "pip_veto": bool(evidence.pip_veto[i]),
        "picture_veto": bool(evidence.picture_veto[i]),
        "body_veto": bool(evidence.body_veto[i]),
        "stages": looked_at(evidence, i),
    }


def looked_at(evidence: Evidence, i: int) -> list[str]:
    """The stages after the corners that looked at card ``i``."""
    return [name for name, rows in evidence.asked.items() if name != "corners" and bool(np.asarray(rows)[i])]


def misses(reader: CardReader, letters: str, *, touching: bool, scenes: int, seed: int | None = None,
           face_up: Counter[str] | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """The face-up cards of one layout's hold-out scenes, in decks printing ``letters``, that the
    reader does not read right. ``seed``: the scenes' (default :data:`SEEDS`, bench.vision's);
    ``face_up``, when given, counts every face-up card under ``letters``."""
    seed = SEEDS[touching] if seed is None else seed
    rng = np.random.default_rng(seed)
    pool = "holdout" if letters == "en" else f"holdout-{letters}"
    out = []
    for k in range(scenes):
        number = seed * 1000 + k
        deck = f"{pool}-{number}"
        scene = render_scene(SceneSpec(cards=deal_rows(rng, touching=touching), seed=number, deck=deck))
        style = _deck(deck)
        evidence = reader.evidence(scene.image)
        seen = evidence.decide()
        for truth in scene.truth:
            if not truth.face_up:
                continue
            if face_up is not None:
                face_up[letters] += 1
            card = Card.parse(truth.card)
            row: dict[str, Any] = {
                "letters": letters, "layout": "touching" if touching else "apart", "scene": number,
                "truth": truth.card, "prints": index_text(letters, card.rank), "lettered": card.rank in LETTERED,
                "font": Path(style.index.font).name, "stroke": style.index.stroke,
                "condense": round(style.index.condense, 2),
            }  # fmt: skip
            ious = [quad_iou(truth.corners, c) for c in seen.corners]
            if not ious or max(ious) < 0.5:
                out.append({**row, "read": "not found", "outcome": "not found"})
                continue
            i = int(np.argmax(ious))
            if seen[i].card == truth.card:
                continue
            sides = np.linalg.norm(np.diff(np.vstack([truth.corners, truth.corners[:1]]), axis=0), axis=1)
            out.append({**row, "read": seen[i].card, "outcome": "unsure" if seen[i].card is None else "wrong",
                        "confidence": round(float(seen[i].confidence), 3), "height": round(float(sides.max())),
                        **describe(evidence, i)})  # fmt: skip
        sys.stderr.write(f"\r  {letters} {row['layout']} scene {k + 1}/{scenes}")
    sys.stderr.write("\n")
    return out


def summary(rows: list[dict[str, Any]]) -> Counter[tuple[str, str, str]]:
    """The misses counted by layout, kind (lettered or number card) and outcome."""
    return Counter((r["layout"], "lettered" if r["lettered"] else "number", r["outcome"]) for r in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.vision_misses", description=__doc__.split("\n\n")[0])
    parser.add_argument("--letters", default="fr,fr1,de", help="index sets, comma-separated (default fr,fr1,de)")
    parser.add_argument("--scenes", type=int, default=40, help="scenes per layout (default 40, as bench.vision)")
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="model folder (default: the shipped models)")
    parser.add_argument("--json", type=Path, help="also write every miss here")
    parser.add_argument("--seeds", default=f"{SEEDS[False]},{SEEDS[True]}",
                        help="the scenes' seeds, cards apart and touching rows (default %(default)s)")  # fmt: skip
    args = parser.parse_args(argv)
    try:
        apart, touching_seed = (int(v) for v in args.seeds.split(","))
    except ValueError:
        parser.error(f"--seeds must be two whole numbers, cards apart and touching rows (e.g. 11,13), "
                     f"got {args.seeds!r}")  # fmt: skip
    reader = CardReader(args.models)
    face_up: Counter[str] = Counter()
    rows = [row for letters in args.letters.split(",") if letters for touching in (False, True)
            for row in misses(reader, letters, touching=touching, scenes=args.scenes,
                              seed=touching_seed if touching else apart, face_up=face_up)]  # fmt: skip
    for r in rows:
        head = f"{r['letters']:<3} {r['layout']:<8} {r['scene']} {r['truth']:>3} ({r['prints']}) → {r['read']}"
        if r["outcome"] == "not found":
            print(f"{head}  [{r['font']}]")
            continue
        print(f"{head} {r['confidence']:.2f}  {r['height']} px  [{r['font']} stroke {r['stroke']} condense "
              f"{r['condense']}]  expert {'asked' if r['expert'] else 'not asked'}\n"
              f"    posterior {r['posterior']} | corner 1 {r['corners'][0]} | corner 2 {r['corners'][1]}"
              f"{' | pips ' + r['pips'] if r['pips'] else ''}{' | pips veto' if r['pip_veto'] else ''}"
              f"{' | picture veto' if r['picture_veto'] else ''}{' | body veto' if r['body_veto'] else ''}"
              f" | stages {','.join(r['stages']) or '-'}")  # fmt: skip
    print("misses by layout, kind and outcome:")
    for (layout, kind, outcome), count in sorted(summary(rows).items()):
        print(f"  {layout:<8} {kind:<8} {outcome:<9} {count}")
    total = sum(face_up.values())
    outcomes = Counter(r["outcome"] for r in rows)
    wrong = outcomes["wrong"]
    print(f"face-up cards {total}: read right {total - len(rows)} ({100 * (total - len(rows)) / max(total, 1):.1f} %), "
          f"unsure {outcomes['unsure']}, not found {outcomes['not found']}, wrong {wrong} "
          f"({100 * wrong / max(total, 1):.2f} %)")  # fmt: skip
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
