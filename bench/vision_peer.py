"""A peer for the card-reading benchmark: the classical OpenCV template reader, measured beside ours.

    python -m bench.vision_peer               # tocktable and the peer, same scenes, photos and frames
    python -m bench.vision_peer --scenes 10   # fewer synthetic scenes
    python -m bench.vision                    # runs this too, unless --skip-peers

What the peer is. Of the public card readers a home game would otherwise use, the one
that runs without a trained model is the well-known OpenCV template reader (a Raspberry Pi camera
over a dark table). This module re-implements its approach in our own code, step by step:

1. grey → 5×5 Gaussian blur → ONE fixed threshold: the brightness of a background sample (a pixel
   near the top centre of the frame) plus 60 grey levels; the card is whatever is brighter.
2. external contours whose area is that of a card → ``approxPolyDP`` (1 % of the perimeter) → keep
   the 4-corner ones (see below for the convex hull).
3. perspective flatten to a 200×300 card, its long side upright (an upright or a 180° card both
   show an index top left: the faces are point-symmetric).
4. cut the top-left corner, zoom it 4×, threshold it (inverse) at a fixed 30 levels below a white
   sample taken above the index.
5. split the rank blob from the suit blob and crop each to its bounding box, scaled to 70×125
   (rank) and 70×100 (suit) pixels.
6. match each against the 13 rank and 4 suit templates by the sum of absolute differences; the
   smallest wins, and a rank differing by 2000 pixels or more, or a suit by 700 or more, makes the
   card "unknown" (the original's limits; on training-style scenes other limits gained no more
   right readings than they added wrong ones).

Templates: one per rank and one per suit, made by this same pipeline from flat faces drawn by our
renderer in TRAINING deck styles (``deck_style(n, "train")``, n = 0..TEMPLATE_STYLES-1; never the
hold-out font pool the benchmark measures on): each template is the pixel-wise majority of that
rank's (suit's) crops over those styles, the typical glyph of the fonts the peer saw, as the
original's templates are the glyphs of the one deck its author photographed.

Where it departs from the original, each time so as not to fail on our renderer for reasons that
have nothing to do with the method (all set once, on training-style scenes: ``train-*`` decks,
scene seeds 100..; never on the hold-out):
- the card's area is a share of the frame (0.4 %..25 %), not a pixel count for one camera;
- the 4 corners are fitted to the contour's convex hull: an index printed against the card's edge
  would otherwise bite into the outline;
- the corner box is 24 % × 43 % of the card (the original's is about 16 % × 28 %): our deck styles
  print indices bigger and lower than one Bicycle deck;
- the flattened card's outer 3 pixels count as paper (an index printed near the edge would join
  the card's edge line);
- rank and suit are told apart by blobs (the topmost ink and every blob level with it, as the two
  digits of a "10"; then the biggest blob below), not by a fixed row, and a rank printed touching
  its suit is cut at the blob's narrowest row: our styles place the suit at many heights.
The background offset (60), the corner's offset (30), the 4× zoom, the crop sizes and the limits
are the original's.

What it is not: it has no notion of a face-down card (a back is read like a face and is usually
"unknown", sometimes a card, which counts as wrong); it reads only the top-left index (no vote of
two corners); it has no calibrated confidence (``confidence`` here is :attr:`IndexReading.score`,
not a probability); cards that touch merge into one contour and are not found; and where a card
is not 60 levels brighter than the background sample all over (a light table, or light falling
unevenly across the card, as on the Bicycle webcam photos) its outline breaks up and it finds
nothing. Those are its known failure modes, kept, not fixed.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import cv2
import numpy as np

from bench.vision_sets import bicycle, speed, synthetic
from table.cards import Card, Rank, Suit
from vision.reader import MODELS_DIR, CardReader, Observations, check_frame
from vision.render.faces import FACE_H, FACE_W, deck_style, render_face

BKG_OFFSET = 60
"""A card is brighter than the background sample by this many grey levels (the original's value)."""
CARD_AREA = (0.004, 0.25)
"""Smallest and largest card contour, as shares of the frame's area (tuned on training scenes)."""
CARD_W, CARD_H = 200, 300
"""The flattened card, in pixels (the original's size)."""
CORNER = (0.24, 0.43)
"""The corner cut, as (width, height) shares of the flattened card (tuned on training faces)."""
ZOOM = 4
CORNER_OFFSET = 30
"""Ink is darker than the corner's white sample by this many grey levels (the original's value)."""
RANK_SIZE, SUIT_SIZE = (70, 125), (70, 100)
"""(width, height) a rank and a suit blob are scaled to before matching (the original's sizes)."""
RANK_LIMIT, SUIT_LIMIT = 2000.0, 700.0
"""Above these differences (in whole pixels of disagreement) a rank or suit is "unknown"."""
TEMPLATE_STYLES = 24
"""Training deck styles each template is the majority of."""
MARGIN = 3
"""Pixels of the flattened card's top and left edges taken as paper (the card's edge line)."""
MIN_BLOB = 0.004
"""Ink blobs smaller than this share of the zoomed corner are specks, not glyphs."""


@dataclass(frozen=True)
class IndexReading:
    """What the peer matched in one corner: the closest rank and suit and their differences."""

    rank: Rank
    suit: Suit
    rank_diff: float
    suit_diff: float

    @property
    def card(self) -> Card | None:
        """The card, or None ("unknown") when the rank or the suit differs by more than its limit."""
        return Card(self.rank, self.suit) if self.rank_diff < RANK_LIMIT and self.suit_diff < SUIT_LIMIT else None

    @property
    def score(self) -> float:
        """1 minus the larger difference over its limit, floored at 0 (a score, not a probability)."""
        return max(1 - max(self.rank_diff / RANK_LIMIT, self.suit_diff / SUIT_LIMIT), 0.0)


def find_cards(frame: np.ndarray) -> list[np.ndarray]:
    """Steps 1-2: the 4×2 corner polygons of every card-sized bright blob (float64 pixels)."""
    grey = cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    h, w = grey.shape
    level = int(grey[h // 100, w // 2]) + BKG_OFFSET
    if level >= 255:  # the table is as light as a card could be: nothing stands out
        return []
    _, binary = cv2.threshold(grey, level, 255, cv2.THRESH_BINARY)
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    low, high = CARD_AREA[0] * h * w, CARD_AREA[1] * h * w
    quads = []
    for contour in contours:
        if not low < cv2.contourArea(contour) < high:
            continue
        hull = cv2.convexHull(contour)  # an index printed against the card's edge bites into its outline
        approx = cv2.approxPolyDP(hull, 0.01 * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            quads.append(approx.reshape(4, 2).astype(np.float64))
    return quads


def flatten(grey: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Step 3: the card inside ``quad`` as a CARD_H×CARD_W grey image, its long side upright."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    ordered = quad[np.argsort(angles)]  # clockwise on screen (y points down)
    if np.linalg.norm(ordered[1] - ordered[0]) > np.linalg.norm(ordered[2] - ordered[1]):
        ordered = np.roll(ordered, -1, axis=0)  # make the first side a short one: the card's top
    target = np.array([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]], np.float32)
    matrix = cv2.getPerspectiveTransform(ordered.astype(np.float32), target)
    flat: np.ndarray = cv2.warpPerspective(grey, matrix, (CARD_W, CARD_H))
    return flat


def index_blobs(flat: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Steps 4-5: the rank and suit blobs of a flattened card's top-left corner (0/255), or None."""
    cw, ch = round(CORNER[0] * CARD_W), round(CORNER[1] * CARD_H)
    corner = cv2.resize(flat[:ch, :cw], (cw * ZOOM, ch * ZOOM), interpolation=cv2.INTER_CUBIC)
    corner = cv2.GaussianBlur(corner, (5, 5), 0)
    white = int(corner[4 * ZOOM, cw * ZOOM // 2])  # above the index, as the original samples
    # The card's edge line (and the table past its rounded corner) would join an index printed
    # close to the edge: a thin margin is taken as paper.
    margin = MARGIN * ZOOM
    corner[:margin], corner[:, :margin] = white, white
    level = max(white - CORNER_OFFSET, 1)
    _, ink = cv2.threshold(corner, level, 255, cv2.THRESH_BINARY_INV)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    height, width = ink.shape
    blobs = []
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        touches = x + w >= width or y + h >= height  # a pip (or court frame) cut by the corner box
        if area >= MIN_BLOB * height * width and not touches:
            blobs.append((y, y + h, label))
    if not blobs:
        return None
    blobs.sort()
    top, top_end, _ = blobs[0]
    middle = (top + top_end) / 2
    # The rank: every blob level with the topmost one (both digits of a "10"); the suit: the
    # biggest blob below it.
    rank = [b for b in blobs if b[0] < middle < b[1]]
    bottom = max(b[1] for b in rank)
    below = [b for b in blobs if b[0] >= bottom - 0.15 * (top_end - top) and b not in rank]
    rank_mask = np.isin(labels, [b[2] for b in rank])
    if below:
        suit = max(below, key=lambda b: int(stats[b[2], cv2.CC_STAT_AREA]))
        suit_mask = labels == suit[2]
    else:
        # Rank and suit printed touching: cut the one blob at its narrowest row between them.
        split = _waist(rank_mask)
        if split is None:
            return None
        suit_mask = rank_mask.copy()
        rank_mask[split:], suit_mask[:split] = False, False
    rank_crop, suit_crop = _tight(rank_mask, RANK_SIZE), _tight(suit_mask, SUIT_SIZE)
    return None if rank_crop is None or suit_crop is None else (rank_crop, suit_crop)


def _waist(mask: np.ndarray) -> int | None:
    """The row of least ink in the middle of a blob standing for rank-above-suit, if it is thin."""
    rows = np.flatnonzero(mask.any(axis=1))
    if len(rows) < 8:
        return None
    y0, y1 = int(rows[0]), int(rows[-1]) + 1
    profile = mask[y0:y1].sum(axis=1)
    lo, hi = round(0.48 * (y1 - y0)), round(0.8 * (y1 - y0))
    row = lo + int(np.argmin(profile[lo:hi]))
    return y0 + row if profile[row] <= 0.3 * profile.max() else None


def _tight(mask: np.ndarray, size: tuple[int, int]) -> np.ndarray | None:
    """The ink of ``mask`` cropped to its bounding box and scaled to ``size`` (0/255 uint8)."""
    ys, xs = np.nonzero(mask)
    if len(ys) < 4:
        return None
    crop = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.uint8) * 255
    scaled: np.ndarray = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
    return scaled


@dataclass(frozen=True)
class Templates:
    """The 13 rank templates (70×125) and 4 suit templates (70×100), 0/255 uint8, in id order."""

    ranks: np.ndarray
    suits: np.ndarray

    @staticmethod
    @functools.cache
    def from_training_styles(styles: int = TEMPLATE_STYLES) -> Templates:
        """Majority templates over ``styles`` training deck styles (see the module docstring)."""
        ranks: list[list[np.ndarray]] = [[] for _ in Rank]
        suits: list[list[np.ndarray]] = [[] for _ in Suit]
        square = np.array([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]], np.float64)
        for n in range(styles):
            style = deck_style(n, "train")
            for cid in range(52):
                card = Card.from_id(cid)
                face = render_face(style, card)
                on_black = (face[:, :, :3].astype(np.float32) * (face[:, :, 3:] / 255.0)).astype(np.uint8)
                blobs = index_blobs(flatten(cv2.cvtColor(on_black, cv2.COLOR_BGR2GRAY), square))
                if blobs is not None:
                    ranks[int(card.rank)].append(blobs[0])
                    suits[int(card.suit)].append(blobs[1])
        missing = [str(r) for r, crops in zip(Rank, ranks, strict=True) if not crops]
        if missing or not all(suits):
            raise RuntimeError(f"peer templates: no clean index for {missing or 'a suit'} in {styles} styles")

        def majority(crops: list[np.ndarray]) -> np.ndarray:
            return np.where(np.mean(crops, axis=0) >= 127.5, 255, 0).astype(np.uint8)

        return Templates(np.stack([majority(c) for c in ranks]), np.stack([majority(c) for c in suits]))

    def match(self, rank: np.ndarray, suit: np.ndarray) -> IndexReading:
        """Step 6: the templates with the least absolute difference, or None above the limits."""
        rank_diffs = np.abs(self.ranks.astype(np.int32) - rank.astype(np.int32)).sum(axis=(1, 2)) / 255
        suit_diffs = np.abs(self.suits.astype(np.int32) - suit.astype(np.int32)).sum(axis=(1, 2)) / 255
        r, s = int(np.argmin(rank_diffs)), int(np.argmin(suit_diffs))
        return IndexReading(Rank(r), Suit(s), float(rank_diffs[r]), float(suit_diffs[s]))


class TemplateReader:
    """The peer: ``read(frame)`` gives :class:`vision.reader.Observations`, as our reader does.

    A card is named when both its rank and suit match a template within the limits; otherwise it
    is found but unknown (``card`` None). ``face_up`` is True exactly when a card is named (the
    peer cannot tell a back from an unreadable face).
    """

    def __init__(self, templates: Templates | None = None) -> None:
        self.templates = templates if templates is not None else Templates.from_training_styles()

    def detect(self, frame: Any) -> list[np.ndarray]:
        """The corner polygons of the cards the fixed threshold finds (FrameError on a bad frame)."""
        return find_cards(check_frame(frame))

    def read_quad(self, grey: np.ndarray, quad: np.ndarray) -> IndexReading | None:
        """The index of the card inside ``quad`` of a grey frame (None: no rank and suit blobs)."""
        blobs = index_blobs(flatten(grey, quad))
        return None if blobs is None else self.templates.match(*blobs)

    def read(self, frame: Any) -> Observations:
        """Every card the peer finds in a BGR frame, named or unknown."""
        image = check_frame(frame)
        quads = find_cards(image)
        if not quads:
            return Observations.empty()
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        ids, scores = [], []
        for quad in quads:
            reading = self.read_quad(grey, quad)
            card = None if reading is None else reading.card
            ids.append(-1 if card is None else card.id)
            scores.append(0.0 if reading is None else reading.score)
        card_ids = np.array(ids, np.int64)
        n = len(quads)
        return Observations(np.stack(quads), card_ids, card_ids >= 0, np.array(scores), np.zeros(n, bool),
                            np.zeros((n, 0), np.float32), np.zeros((n, 0), np.float32))  # fmt: skip


# --- the benchmark ---------------------------------------------------------------------------------

SETS = ("synthetic_spread", "synthetic_touching", "bicycle_webcam")


def measure(reader: CardReader | TemplateReader, *, scenes: int, frames: int,
            only: str | None = None) -> dict[str, Any]:  # fmt: skip
    """Speed, the synthetic hold-out and the Bicycle photos, measured as for tocktable (:mod:`bench.vision_sets`)."""
    # The shared measurements only call read() and detect(), which the peer has too.
    as_reader = cast(CardReader, reader)
    figures: dict[str, Any] = {}
    if only in (None, "speed"):
        figures["speed"] = speed(as_reader, frames, MODELS_DIR)
    if only in (None, "synthetic"):
        for touching in (False, True):
            figures[SETS[touching]] = synthetic(as_reader, scenes, touching=touching, seed=7 if touching else 3)
    if only in (None, "real"):
        real = bicycle(as_reader)
        if real is not None:
            figures["bicycle_webcam"] = real
    return figures


def _counts(figures: dict[str, Any], name: str) -> tuple[int, int, int, int, int, int] | None:
    """(cards or photos, face up, found, right, unsure, wrong) of one set."""
    r = figures.get(name)
    if r is None:
        return None
    if name == "bicycle_webcam":
        return r["photos"], r["photos"], r["photos"] - r["no_card"], r["right"], r["unsure"], r["wrong"]
    return r["cards"], r["face_up"], r["found"], r["right"], r["unsure"], r["wrong"]


def _ratio(top: float, bottom: float) -> str:
    return f"{top / bottom:.2f}x" if bottom else "- (the peer has none)"


def report(ours: dict[str, Any], peer: dict[str, Any], only: str | None = None) -> dict[str, Any]:
    """Print tocktable beside the peer, per set measured (``only``: as :func:`measure`), with the ratios."""
    ratios: dict[str, Any] = {}
    print("peer: classical OpenCV template reader (fixed threshold, contours, templates; bench/vision_peer.py)")
    header = ("cards", "face up", "found", "right", "unsure", "wrong")
    print(f"  {'set':<20} {'reader':<10} " + " ".join(f"{h:>7}" for h in header))
    for name in SETS:
        a, b = _counts(ours, name), _counts(peer, name)
        if a is None or b is None:
            if name == "bicycle_webcam" and only in (None, "real"):
                print(f"  {name:<20} skipped (../shared/vision-real absent)")
            continue
        for who, c in (("tocktable", a), ("peer", b)):
            print(f"  {name:<20} {who:<10} " + " ".join(f"{v:>7}" for v in c))
        ratios[name] = {"right": _ratio(a[3], b[3])}
        print(f"  {'':<20} tocktable right / peer right = {ratios[name]['right']}")
    if "speed" in ours and "speed" in peer:
        ms_ours, ms_peer = ours["speed"]["median_ms"], peer["speed"]["median_ms"]
        ratios["speed"] = {"peer_ms_over_tocktable_ms": _ratio(ms_peer, ms_ours)}
        print(f"  speed (1280x720, 12 cards): tocktable median {ms_ours:.1f} ms (p95 {ours['speed']['p95_ms']:.1f}), "
              f"peer median {ms_peer:.1f} ms (p95 {peer['speed']['p95_ms']:.1f}); "
              f"peer ms / tocktable ms = {ratios['speed']['peer_ms_over_tocktable_ms']}")  # fmt: skip
    return ratios


def beside(ours: dict[str, Any], *, scenes: int, frames: int, only: str | None = None) -> dict[str, Any]:
    """Measure the peer on what ``ours`` was measured on (same run), print both; for bench.vision's main."""
    sys.stderr.write("peer: making templates from training deck styles\n")
    peer = measure(TemplateReader(), scenes=scenes, frames=frames, only=only)
    peer.get("speed", {}).pop("model_bytes", None)  # the peer has no models
    return {"figures": peer, "ratios": report(ours, peer, only)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.vision_peer", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=40, help="synthetic scenes per layout (default 40)")
    parser.add_argument("--frames", type=int, default=60, help="frames timed for speed (default 60)")
    parser.add_argument("--only", choices=["speed", "synthetic", "real"], help="measure only this group")
    parser.add_argument("--json", type=Path, help="also write both readers' figures here")
    args = parser.parse_args(argv)
    ours = measure(CardReader(MODELS_DIR), scenes=args.scenes, frames=args.frames, only=args.only)
    out = {"tocktable": ours, "peer": beside(ours, scenes=args.scenes, frames=args.frames, only=args.only)}
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
