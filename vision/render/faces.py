"""Card faces and backs drawn from a deck style: indices, pips, court cards, back patterns.

A :class:`DeckStyle` is everything that makes one deck look like itself: the index font and
how the index is laid out (size, condensing, weight, the shape of the "10", two or four
corners, the letters of the aces and court cards: :data:`INDEX_SETS`), the suit shapes, the
colours, the pip layout, the court-card art and the back.
:func:`deck_style` makes one from a seed and a font pool; :func:`render_face` and
:func:`render_back` draw a card at the renderer's native size (``FACE_SIZE``) as BGRA, the alpha
channel holding the rounded corners. Both are cached, so a deck costs its drawing once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np
from PIL import Image, ImageDraw

from table.cards import Card, Rank, Suit
from table.tock import Mark
from vision.errors import FontsMissingError, SceneError
from vision.render.fonts import Pool, fonts_missing_message, index_fonts, load_font, suit_glyph_fonts
from vision.render.suits import SuitShape, suit_mask

FACE_W, FACE_H = 300, 419
FACE_SIZE = (FACE_W, FACE_H)
"""(width, height) of a drawn card: 63 × 88 mm at about 4.76 px/mm."""

Color = tuple[int, int, int]
BackPattern = Literal["solid", "lattice", "stripes", "dots", "checker", "rosette", "waves"]
BACK_PATTERNS: tuple[BackPattern, ...] = ("solid", "lattice", "stripes", "dots", "checker", "rosette", "waves")
TEN_STYLES = ("font", "tight", "overlap", "narrow")

INDEX_SETS: dict[str, dict[Rank, str]] = {
    "en": {Rank.ACE: "A", Rank.KING: "K", Rank.QUEEN: "Q", Rank.JACK: "J"},
    "fr": {Rank.ACE: "A", Rank.KING: "R", Rank.QUEEN: "D", Rank.JACK: "V"},  # roi, dame, valet
    "fr1": {Rank.ACE: "1", Rank.KING: "R", Rank.QUEEN: "D", Rank.JACK: "V"},  # French, the ace printed 1
    "de": {Rank.ACE: "A", Rank.KING: "K", Rank.QUEEN: "D", Rank.JACK: "B"},  # König, Dame, Bube
    "nl": {Rank.ACE: "A", Rank.KING: "H", Rank.QUEEN: "V", Rank.JACK: "B"},  # heer, vrouw, boer
}
"""The letters a deck prints on its aces and court cards, by language (number cards print their
number in every one). English, French and German letters never name two ranks between them (D is
the queen in both French and German); Dutch V is the queen where French V is the jack."""


@dataclass(frozen=True)
class IndexStyle:
    """How the corner index (rank above suit) is printed. Lengths are fractions of the card."""

    font: str
    rank_height: float  # of the card height
    condense: float  # width multiplier of the rank glyph
    stroke: int  # extra stroke in pixels at FACE_SIZE (fake bold)
    ten: str  # one of TEN_STYLES: how "10" is set
    center_x: float  # index column centre, of the card width
    top: float  # top of the rank, of the card height
    suit_ratio: float  # suit height / rank height
    gap: float  # gap rank → suit, of the rank height
    left_aligned: bool  # rank and suit share their left edge instead of their centre
    four_corners: bool  # indices in all four corners (as on many poker decks)
    letters: str = "en"  # the index set of the aces and court cards: a key of INDEX_SETS
    shear: float = 0.0  # slant of the index glyphs: x moves by shear × height above the middle
    warp: float = 0.0  # smooth random bend of the index glyphs, of their height (0: as the font draws them)
    warp_seed: int = 0  # which bend (with the glyph's text)


@dataclass(frozen=True)
class DeckStyle:
    """The look of one deck, face and back."""

    name: str
    index: IndexStyle
    suits: SuitShape
    paper: Color
    red: Color
    black: Color
    four_colour: bool  # diamonds blue and clubs green, as on some poker decks
    pip_height: float  # of the card width
    pip_columns: float  # x of the outer pip columns, of the card width
    pip_rows: tuple[float, float]  # y of the top and bottom pip rows, of the card height
    ace_size: float  # of the card width
    court_frame: tuple[float, float]  # x, y inset of the court picture's frame
    court_palette: tuple[Color, ...]
    corner_radius: float  # of the card width
    edge: Color  # colour of the card's thin edge line
    back_pattern: BackPattern
    back_colors: tuple[Color, Color]
    back_border: float  # white border of the back, of the card width
    seed: int
    dense_courts: bool = False
    """Court pictures dense and dark, as printed court cards are, rather than sparse shapes on the
    paper (the card segmenter's training data; see :func:`_draw_court`)."""

    def ink(self, suit: Suit) -> Color:
        """The ink colour of a suit."""
        if self.four_colour and suit == Suit.DIAMONDS:
            return (170, 70, 20)
        if self.four_colour and suit == Suit.CLUBS:
            return (40, 120, 20)
        return self.red if suit in (Suit.HEARTS, Suit.DIAMONDS) else self.black


def _color(rng: np.random.Generator, base: Color, spread: int) -> Color:
    b, g, r = (int(np.clip(c + rng.integers(-spread, spread + 1), 0, 255)) for c in base)
    return (b, g, r)


def deck_style(seed: int, pool: Pool = "all", letters: str = "en") -> DeckStyle:
    """A random but reproducible deck style; its index font comes from ``pool``, the letters of
    its aces and court cards from ``letters`` (a key of :data:`INDEX_SETS`; the rest of the style
    depends on ``seed`` alone)."""
    if letters not in INDEX_SETS:
        raise SceneError(f"unknown index letters {letters!r}: expected one of {', '.join(INDEX_SETS)}")
    rng = np.random.default_rng([seed, 7919])
    fonts = index_fonts(pool)
    if not fonts:
        raise FontsMissingError(fonts_missing_message(pool))
    font = fonts[int(rng.integers(len(fonts)))]
    rank_height = float(rng.uniform(0.075, 0.17))
    top = float(rng.uniform(0.025, 0.11))
    suit_ratio = float(rng.uniform(0.55, 0.95))
    gap = float(rng.uniform(-0.02, 0.3))
    # Keep the whole index within the top 42 % of the card, as on real decks (even jumbo ones).
    bottom = top + rank_height * (1 + gap + suit_ratio)
    if bottom > 0.42:
        rank_height *= (0.42 - top) / (bottom - top)
    suit_ratio = max(suit_ratio, 0.045 / rank_height)  # an index suit is never a speck
    index = IndexStyle(
        font=font.path,
        rank_height=rank_height,
        condense=float(rng.uniform(0.62, 1.12)),
        stroke=int(rng.choice([0, 0, 0, 1, 1, 2])),
        ten=str(rng.choice(TEN_STYLES)),
        center_x=float(rng.uniform(0.07, 0.14)),
        top=top,
        suit_ratio=suit_ratio,
        gap=gap,
        left_aligned=bool(rng.random() < 0.2),
        four_corners=bool(rng.random() < 0.12),
        letters=letters,
    )
    paper_level = int(rng.integers(228, 256))
    paper = _color(rng, (paper_level - 4, paper_level - 2, paper_level), 4) if rng.random() < 0.3 else (
        paper_level, paper_level, paper_level)  # fmt: skip
    palette_base: tuple[Color, ...] = ((40, 200, 240), (40, 40, 200), (160, 80, 30), (30, 30, 30), (60, 140, 60))
    court_palette = tuple(_color(rng, c, 30) for c in palette_base[: int(rng.integers(3, 6))])
    back_base = [(150, 40, 30), (40, 40, 170), (40, 110, 40), (30, 30, 30), (120, 40, 110), (20, 90, 160)]
    primary = _color(rng, back_base[int(rng.integers(len(back_base)))], 30)
    secondary = paper if rng.random() < 0.7 else _color(rng, primary, 60)
    return DeckStyle(
        name=f"{pool}-{seed}" if letters == "en" else f"{pool}-{letters}-{seed}",
        index=index,
        suits=SuitShape.random(rng, suit_glyph_fonts()),
        paper=paper,
        red=_color(rng, (45, 35, 195), 30),
        black=_color(rng, (25, 25, 25), 20),
        four_colour=bool(rng.random() < 0.05),
        pip_height=float(rng.uniform(0.12, 0.17)),
        pip_columns=float(rng.uniform(0.27, 0.33)),
        pip_rows=(float(rng.uniform(0.17, 0.23)), float(rng.uniform(0.77, 0.83))),
        ace_size=float(rng.uniform(0.28, 0.5)),
        court_frame=(float(rng.uniform(0.15, 0.23)), float(rng.uniform(0.1, 0.15))),
        court_palette=court_palette,
        corner_radius=float(rng.uniform(0.04, 0.08)),
        edge=_color(rng, (175, 175, 175), 40),
        back_pattern=BACK_PATTERNS[int(rng.integers(len(BACK_PATTERNS)))],
        back_colors=(primary, secondary),
        back_border=float(rng.choice([0.0, rng.uniform(0.04, 0.09)])),
        seed=seed,
    )


# --- drawing helpers -------------------------------------------------------------------------


def _blend(canvas: np.ndarray, mask: np.ndarray, color: Color, x: int, y: int) -> None:
    """Paint ``color`` through ``mask`` (float 0..1) with its top-left at (x, y), clipped."""
    h, w = mask.shape
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, canvas.shape[1]), min(y + h, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    m = mask[y0 - y : y1 - y, x0 - x : x1 - x, None]
    region = canvas[y0:y1, x0:x1]
    region *= 1.0 - m
    region += m * np.asarray(color, np.float32)


@functools.lru_cache(maxsize=2048)
def _text_bitmap(font_path: str, text: str, stroke: int) -> np.ndarray:
    """The ink of ``text`` cropped to its bounding box (float32 0..1), drawn 120 px high."""
    font = load_font(font_path, 120)
    image = Image.new("L", (420, 240), 0)
    ImageDraw.Draw(image).text((40, 40), text, font=font, fill=255, stroke_width=stroke * 3, stroke_fill=255)
    arr = np.asarray(image, dtype=np.float32) / 255.0
    ys, xs = np.nonzero(arr > 0.05)
    if len(ys) == 0:
        return np.ones((10, 6), np.float32)
    return np.ascontiguousarray(arr[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def _fit(bitmap: np.ndarray, height: int, width: int) -> np.ndarray:
    return cv2.resize(bitmap, (max(width, 2), max(height, 2)), interpolation=cv2.INTER_AREA)


def index_text(letters: str, rank: Rank) -> str:
    """What an index of the index set ``letters`` prints for ``rank`` ("R" for a French king)."""
    return "10" if rank == Rank.TEN else INDEX_SETS[letters].get(rank, rank.char)


def rank_mask(index: IndexStyle, rank: Rank, height: int) -> np.ndarray:
    """The rank glyph(s) of an index, ``height`` pixels tall."""
    if rank != Rank.TEN or index.ten == "font":
        text = index_text(index.letters, rank)
        bitmap = _glyph(index, text)
        width = round(bitmap.shape[1] * height / bitmap.shape[0] * index.condense)
        return _fit(bitmap, height, width)
    one, zero = _glyph(index, "1"), _glyph(index, "0")
    squeeze = {"tight": 1.0, "overlap": 1.0, "narrow": 0.62}[index.ten] * index.condense
    w1 = max(round(one.shape[1] * height / one.shape[0] * squeeze), 2)
    w0 = max(round(zero.shape[1] * height / zero.shape[0] * squeeze), 2)
    spacing = {"tight": 0.06, "overlap": -0.05, "narrow": 0.03}[index.ten] * height
    total = max(int(w1 + w0 + spacing), max(w1, w0))
    out = np.zeros((height, total), np.float32)
    out[:, :w1] = _fit(one, height, w1)
    x0 = total - w0
    out[:, x0:] = np.maximum(out[:, x0:], _fit(zero, height, w0))
    return out


def _glyph(index: IndexStyle, text: str) -> np.ndarray:
    """The ink of ``text`` in the index's font, slanted and bent as the index style asks."""
    if index.shear == 0.0 and index.warp == 0.0:
        return _text_bitmap(index.font, text, index.stroke)
    return reshaped_glyph(index.font, text, index.stroke, index.shear, index.warp, index.warp_seed)


@functools.lru_cache(maxsize=2048)
def reshaped_glyph(font_path: str, text: str, stroke: int, shear: float, warp: float, seed: int) -> np.ndarray:
    """The ink of ``text`` (as :func:`_text_bitmap`) slanted by ``shear`` and bent by a smooth random
    displacement of up to about ``warp`` of its height (the same ``seed`` and text: the same bend),
    cropped to its ink again: letter shapes no font of the pool draws (a wider bowl, a longer leg,
    a bent stem), so that a model trained on them reads the letter and not the font."""
    bitmap = _text_bitmap(font_path, text, stroke)
    h = bitmap.shape[0]
    pad = int(0.25 * h)
    padded = np.pad(bitmap, pad)
    ph, pw = padded.shape
    rng = np.random.default_rng([seed, *text.encode()])
    coarse = rng.normal(0.0, warp * h, (2, 3, 3)).astype(np.float32)
    dx = cv2.resize(coarse[0], (pw, ph), interpolation=cv2.INTER_CUBIC)
    dy = cv2.resize(coarse[1], (pw, ph), interpolation=cv2.INTER_CUBIC)
    ys, xs = np.mgrid[0:ph, 0:pw].astype(np.float32)
    map_x = xs + dx + shear * (ys - ph / 2)
    map_y = ys + dy
    out = cv2.remap(padded, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0.0)
    rows, cols = np.nonzero(out > 0.05)
    if len(rows) == 0:
        return bitmap
    return np.ascontiguousarray(out[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1])


def _index_mask(style: DeckStyle, card: Card) -> tuple[np.ndarray, np.ndarray, int, int]:
    """(rank mask, suit mask, rank x, suit x) of the top-left index, in card pixels (x relative)."""
    idx = style.index
    rank_h = max(round(idx.rank_height * FACE_H), 6)
    rank = rank_mask(idx, card.rank, rank_h)
    suit = suit_mask(style.suits, card.suit, max(round(rank_h * idx.suit_ratio), 4))
    cx = idx.center_x * FACE_W
    if idx.left_aligned:
        left = max(round(cx - max(rank.shape[1], suit.shape[1]) / 2), 2)
        return rank, suit, left, left
    return rank, suit, max(round(cx - rank.shape[1] / 2), 2), max(round(cx - suit.shape[1] / 2), 2)


def _draw_indices(canvas: np.ndarray, style: DeckStyle, card: Card) -> None:
    rank, suit, rank_x, suit_x = _index_mask(style, card)
    top = round(style.index.top * FACE_H)
    suit_y = top + rank.shape[0] + round(style.index.gap * rank.shape[0])
    block_h = suit_y + suit.shape[0]
    block_w = max(rank_x + rank.shape[1], suit_x + suit.shape[1])
    block = np.zeros((block_h, block_w), np.float32)
    block[top : top + rank.shape[0], rank_x : rank_x + rank.shape[1]] = rank
    region = block[suit_y:, suit_x : suit_x + suit.shape[1]]
    np.maximum(region, suit, out=region)
    color = style.ink(card.suit)
    _blend(canvas, block, color, 0, 0)
    rotated = block[::-1, ::-1]
    _blend(canvas, rotated, color, FACE_W - block_w, FACE_H - block_h)
    if style.index.four_corners:
        left = min(rank_x, suit_x)
        _blend(canvas, np.ascontiguousarray(block[:, left:]), color, FACE_W - block_w, 0)
        _blend(canvas, np.ascontiguousarray(rotated[:, : block_w - left]), color, left, FACE_H - block_h)


def _pip_positions(style: DeckStyle, rank: Rank) -> list[tuple[float, float]]:
    """Centres of the pips of a number card, as fractions of the card (x, y)."""
    left, mid, right = style.pip_columns, 0.5, 1.0 - style.pip_columns
    top, bottom = style.pip_rows
    span = bottom - top

    def rows(n: int) -> list[float]:
        return [top + span * i / (n - 1) for i in range(n)]

    count = int(rank) + 2
    if count == 2:
        return [(mid, top), (mid, bottom)]
    if count == 3:
        return [(mid, y) for y in rows(3)]
    side2 = [(x, y) for x in (left, right) for y in (top, bottom)]
    side3 = [(x, y) for x in (left, right) for y in rows(3)]
    side4 = [(x, y) for x in (left, right) for y in rows(4)]
    return {
        4: side2,
        5: [*side2, (mid, 0.5)],
        6: side3,
        7: [*side3, (mid, top + span * 0.25)],
        8: [*side3, (mid, top + span * 0.25), (mid, top + span * 0.75)],
        9: [*side4, (mid, 0.5)],
        10: [*side4, (mid, top + span / 6), (mid, bottom - span / 6)],
    }[count]


def _draw_pips(canvas: np.ndarray, style: DeckStyle, card: Card) -> None:
    color = style.ink(card.suit)
    if card.rank == Rank.ACE:
        size = style.ace_size * (1.25 if card.suit == Suit.SPADES else 1.0)
        mask = suit_mask(style.suits, card.suit, round(size * FACE_W))
        _blend(canvas, mask, color, (FACE_W - mask.shape[1]) // 2, (FACE_H - mask.shape[0]) // 2)
        return
    mask = suit_mask(style.suits, card.suit, round(style.pip_height * FACE_W))
    flipped = mask[::-1, ::-1]
    h, w = mask.shape
    # Pips keep clear of the index column: push the outer columns inward when it is wide.
    index_right = _index_right(style) + 0.03
    shift = max(0.0, index_right + w / 2 / FACE_W - style.pip_columns)
    for x, y in _pip_positions(style, card.rank):
        if abs(x - 0.5) > 1e-6:
            x = min(x + shift, 0.42) if x < 0.5 else max(x - shift, 0.58)
        m = flipped if y > 0.5 + 1e-6 else mask
        _blend(canvas, m, color, round(x * FACE_W - w / 2), round(y * FACE_H - h / 2))


def _index_right(style: DeckStyle) -> float:
    """Right edge of the widest index ("10"), as a fraction of the card width."""
    rank = rank_mask(style.index, Rank.TEN, max(round(style.index.rank_height * FACE_H), 6))
    return float(style.index.center_x + rank.shape[1] / 2 / FACE_W)


def _draw_court(canvas: np.ndarray, style: DeckStyle, card: Card) -> None:
    """A framed, point-symmetric picture standing in for the court figure, clear of the indices."""
    fx, fy = style.court_frame
    fx = min(max(fx, _index_right(style) + 0.015), 0.32)
    x0, y0, x1, y1 = round(fx * FACE_W), round(fy * FACE_H), round((1 - fx) * FACE_W), round((1 - fy) * FACE_H)
    w, h = x1 - x0, y1 - y0
    rng = np.random.default_rng([style.seed, card.id, 31])
    art = np.zeros((h // 2 + 1, w, 3), np.uint8)
    art[:] = style.paper
    palette = style.court_palette
    if style.dense_courts:
        _dense_figure(art, palette, np.random.default_rng([style.seed, card.id, 37]))
    for _ in range(int(rng.integers(6, 14))):
        color = tuple(int(c) for c in palette[int(rng.integers(len(palette)))])
        kind = rng.integers(3)
        cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h // 2))
        if kind == 0:
            axes = (int(rng.integers(4, w // 3)), int(rng.integers(4, h // 6)))
            cv2.ellipse(art, (cx, cy), axes, float(rng.uniform(0, 180)), 0, 360, color, -1, cv2.LINE_AA)
        elif kind == 1:
            pts = rng.integers(0, [w, h // 2], size=(int(rng.integers(3, 6)), 2)).astype(np.int32)
            cv2.fillPoly(art, [pts], color, cv2.LINE_AA)
        else:
            cv2.line(art, (cx, cy), (int(rng.integers(0, w)), int(rng.integers(0, h // 2))), color,
                     int(rng.integers(1, 5)), cv2.LINE_AA)  # fmt: skip
    full = np.concatenate([art, art[::-1, ::-1]], axis=0)[:h]
    canvas[y0:y1, x0:x1] = full.astype(np.float32)
    cv2.rectangle(canvas, (x0, y0), (x1 - 1, y1 - 1), tuple(float(c) for c in style.ink(card.suit)), 2)
    small = suit_mask(style.suits, card.suit, round(0.09 * FACE_W))
    _blend(canvas, small, style.ink(card.suit), x0 + 5, y0 + 5)
    _blend(canvas, small[::-1, ::-1], style.ink(card.suit), x1 - 5 - small.shape[1], y1 - 5 - small.shape[0])


def _dense_figure(art: np.ndarray, palette: tuple[Color, ...], rng: np.random.Generator) -> None:
    """A court figure that fills most of the half picture ``art``, dark and saturated as printed
    court cards are (black and navy line work and hair, red, blue and yellow robes, fine print)."""
    h, w = art.shape[0] * 2, art.shape[1]
    dark = ((30, 30, 30), (90, 40, 30))  # black, navy (BGR)
    inks = [tuple(int(c) for c in colour) for colour in palette] + list(dark)
    body = inks[int(rng.integers(len(inks)))]
    cv2.ellipse(art, (w // 2 + int(rng.integers(-w // 10, w // 10 + 1)), h // 2), (int(w * rng.uniform(0.3, 0.5)),
                int(h * rng.uniform(0.3, 0.45))), 0.0, 180, 360, body, -1, cv2.LINE_AA)  # fmt: skip
    for _ in range(int(rng.integers(10, 22))):  # robes and ornaments, each outlined in black
        colour = inks[int(rng.integers(len(inks)))]
        pts = (rng.uniform(0, 1, (int(rng.integers(3, 7)), 2)) * [w, h // 2]).astype(np.int32)
        cv2.fillPoly(art, [pts], colour, cv2.LINE_AA)
        cv2.polylines(art, [pts], True, dark[0], 1, cv2.LINE_AA)
    for _ in range(int(rng.integers(20, 60))):  # fine print: dots of the pattern
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h // 2))
        cv2.circle(art, (x, y), int(rng.integers(1, 3)), inks[int(rng.integers(len(inks)))], -1, cv2.LINE_AA)


@functools.lru_cache(maxsize=8)
def _corner_alpha(radius: float) -> np.ndarray:
    r = max(round(radius * FACE_W), 1)
    big = np.zeros((FACE_H * 2, FACE_W * 2), np.uint8)
    cv2.rectangle(big, (r * 2, 0), (FACE_W * 2 - 1 - r * 2, FACE_H * 2 - 1), 255, -1)
    cv2.rectangle(big, (0, r * 2), (FACE_W * 2 - 1, FACE_H * 2 - 1 - r * 2), 255, -1)
    for cx, cy in ((r, r), (FACE_W - 1 - r, r), (r, FACE_H - 1 - r), (FACE_W - 1 - r, FACE_H - 1 - r)):
        cv2.circle(big, (cx * 2 + 1, cy * 2 + 1), r * 2, 255, -1, cv2.LINE_AA)
    return cv2.resize(big, FACE_SIZE, interpolation=cv2.INTER_AREA)


def _finish(canvas: np.ndarray, style: DeckStyle) -> np.ndarray:
    alpha = _corner_alpha(style.corner_radius)
    edge = cv2.morphologyEx(alpha, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) > 0
    canvas[edge] = canvas[edge] * 0.4 + np.asarray(style.edge, np.float32) * 0.6
    bgr = np.clip(canvas, 0, 255).astype(np.uint8)
    return np.dstack([bgr, alpha])


@functools.lru_cache(maxsize=160)
def render_face(style: DeckStyle, card: Card) -> np.ndarray:
    """The face of ``card`` in ``style``: FACE_H × FACE_W × 4 BGRA uint8 (read-only, cached)."""
    canvas = np.empty((FACE_H, FACE_W, 3), np.float32)
    canvas[:] = style.paper
    if card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        _draw_court(canvas, style, card)
    else:
        _draw_pips(canvas, style, card)
    _draw_indices(canvas, style, card)
    out = _finish(canvas, style)
    out.flags.writeable = False
    return out


def _back_pattern(style: DeckStyle, w: int, h: int) -> np.ndarray:
    primary, secondary = style.back_colors
    art = np.empty((h, w, 3), np.uint8)
    art[:] = primary
    rng = np.random.default_rng([style.seed, 53])
    step = int(rng.integers(8, 22))
    thick = int(rng.integers(1, 4))
    sec = tuple(int(c) for c in secondary)
    kind = style.back_pattern
    if kind == "lattice":
        for k in range(-h, w + h, step):
            cv2.line(art, (k, 0), (k + h, h), sec, thick, cv2.LINE_AA)
            cv2.line(art, (k, 0), (k - h, h), sec, thick, cv2.LINE_AA)
    elif kind == "stripes":
        for k in range(-h, w + h, step):
            cv2.line(art, (k, 0), (k + h // 2, h), sec, thick + 1, cv2.LINE_AA)
    elif kind == "dots":
        for y in range(step // 2, h, step):
            for x in range(step // 2 + (y // step % 2) * step // 2, w, step):
                cv2.circle(art, (x, y), max(step // 4, 1), sec, -1, cv2.LINE_AA)
    elif kind == "checker":
        yy, xx = np.mgrid[0:h, 0:w]
        art[((yy // step + xx // step) % 2).astype(bool)] = sec
    elif kind == "rosette":
        for y in range(0, h + step, step * 2):
            for x in range(0, w + step, step * 2):
                cv2.circle(art, (x, y), step, sec, thick, cv2.LINE_AA)
                cv2.circle(art, (x, y), step // 2, sec, thick, cv2.LINE_AA)
    elif kind == "waves":
        xs = np.arange(w)
        for y0 in range(0, h + step, step):
            ys = (y0 + np.sin(xs / step * 1.7) * step * 0.4).astype(np.int32)
            cv2.polylines(art, [np.stack([xs, ys], axis=1).astype(np.int32)], False, sec, thick, cv2.LINE_AA)
    return art


@functools.lru_cache(maxsize=64)
def render_back(style: DeckStyle, mark: str | None = None) -> np.ndarray:
    """The back of a card in ``style`` as BGRA; ``mark`` ("h:large", "s:ace") adds a Tock mark."""
    canvas = np.empty((FACE_H, FACE_W, 3), np.float32)
    canvas[:] = style.paper
    border = round(style.back_border * FACE_W)
    inner_w, inner_h = FACE_W - 2 * border, FACE_H - 2 * border
    canvas[border : border + inner_h, border : border + inner_w] = _back_pattern(style, inner_w, inner_h)
    if mark is not None:
        draw_tock_mark(canvas, mark)
    out = _finish(canvas, style)
    out.flags.writeable = False
    return out


TOCK_HEIGHTS = {"small": 0.12, "medium": 0.20, "large": 0.30, "ace": 0.20}
"""Height of the Tock mark's pip as a fraction of the card height (DESIGN.md §4)."""


def draw_tock_mark(canvas: np.ndarray, mark: str) -> None:
    """Draw a Tock mark (the suit pip at its size class; the ace's pip inside a ring) in the centre.

    A first rendering of the printable design of the Tock marks; the mark sits on a white disc so it
    reads on any back pattern.
    """
    parsed = Mark.parse(mark)
    height = round(TOCK_HEIGHTS[parsed.size.value] * FACE_H)
    shape = SuitShape()
    pip = suit_mask(shape, parsed.suit, height)
    cx, cy = FACE_W // 2, FACE_H // 2
    radius = round(max(pip.shape) * 0.5 + FACE_W * 0.06)
    cv2.circle(canvas, (cx, cy), radius, (250.0, 250.0, 250.0), -1, cv2.LINE_AA)
    if parsed.size.value == "ace":
        cv2.circle(canvas, (cx, cy), radius - 4, (30.0, 30.0, 30.0), 5, cv2.LINE_AA)
    color = (40, 35, 200) if parsed.suit in (Suit.HEARTS, Suit.DIAMONDS) else (25, 25, 25)
    _blend(canvas, pip, color, cx - pip.shape[1] // 2, cy - pip.shape[0] // 2)
