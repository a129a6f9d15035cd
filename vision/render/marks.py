"""Printable Tock mark stickers: turn any deck into a Tock-Poker deck.

The design (DESIGN.md §4, drawn by :func:`vision.render.faces.draw_tock_mark`, the same drawing the
card reader learns from) is a white disc in the middle of the card's back holding the suit pip
at one of three heights, 12 % of the card's height for small cards (2-5), 20 % for medium (6-9)
and 30 % for large (10-K); the ace's pip is 20 % high inside a black ring. On a 63 × 88 mm card
the discs are about 18, 25 and 34 mm across.

:func:`write_sheet` lays out one sticker per card (52, or the ones asked for) on A4 or US Letter
pages at true size, each inside a cut circle and labelled with the card it goes on, and writes a
PDF (one page per sheet) or PNG pages. From the command line::

    python -m vision.render.marks -o tock-stickers.pdf              # A4, 300 dpi
    python -m vision.render.marks -o stickers.png --paper letter    # stickers-1.png, stickers-2.png
    python -m vision.render.marks -o spare.pdf --cards "As 7h Td"   # reprint a few
    python -m vision.render.marks --figure docs/tock-marks.png      # the design, for the docs

Print at 100 % ("actual size", never "fit to page"): the scale bar on each page must measure
50 mm. Stick each disc in the middle of the back of its card.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from table.cards import Card, Rank, Suit
from table.errors import CardParseError
from table.tock import Mark, SizeClass, mark_of
from vision.errors import VisionError
from vision.render.faces import FACE_H, FACE_W, deck_style, draw_tock_mark, render_back
from vision.render.fonts import label_font
from vision.render.suits import SuitShape, suit_mask

CARD_MM = (63.0, 88.0)
"""Width and height of a poker-size card, millimetres."""

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Paper sizes (width, height) in millimetres."""

MARGIN_MM = 10.0
GAP_MM = 4.0  # between cut circles
LABEL_MM = 5.0  # the card name under each sticker
HEADER_MM = 24.0
CUT_OUTSIDE_MM = 0.4  # the cut line runs this far outside the disc, so no white is lost
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
RANK_ORDER = (Rank.ACE, *(r for r in Rank if r != Rank.ACE))
_INK = {Suit.SPADES: (25, 25, 25), Suit.CLUBS: (25, 25, 25), Suit.HEARTS: (200, 35, 40), Suit.DIAMONDS: (200, 35, 40)}


class MarksError(VisionError, ValueError):
    """A sticker sheet that cannot be made: unknown paper, bad resolution, card or file name."""


# ---------------------------------------------------------------------------------- one sticker
@functools.lru_cache(maxsize=64)
def _mark_native(mark: str) -> tuple[np.ndarray, np.ndarray]:
    """The mark as drawn on a card back at the renderer's scale: (RGB float 0..255, alpha 0..1),
    cropped to the disc. The alpha comes from drawing it on black and on white."""
    on_black = np.zeros((FACE_H, FACE_W, 3), np.float32)
    on_white = np.full((FACE_H, FACE_W, 3), 255.0, np.float32)
    draw_tock_mark(on_black, mark)
    draw_tock_mark(on_white, mark)
    alpha = 1.0 - (on_white - on_black).mean(axis=2) / 255.0
    ys, xs = np.nonzero(alpha > 0.02)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    color = np.where(alpha[..., None] > 1e-3, on_black / np.maximum(alpha[..., None], 1e-3), 255.0)
    return color[y0:y1, x0:x1, ::-1].copy(), alpha[y0:y1, x0:x1].copy()


def disc_diameter_mm(mark: str | Mark, *, card_height_mm: float = CARD_MM[1]) -> float:
    """How wide a mark's disc is on a card ``card_height_mm`` tall."""
    _, alpha = _mark_native(str(mark))
    return float(max(alpha.shape) * card_height_mm / FACE_H)


def sticker(mark: str | Mark, *, dpi: int = 300, card_height_mm: float = CARD_MM[1]) -> tuple[np.ndarray, np.ndarray]:
    """One mark at true size for ``dpi``: (RGB uint8, alpha float 0..1), square, disc centred."""
    color, alpha = _mark_native(str(Mark.parse(str(mark))))
    scale = card_height_mm / FACE_H * dpi / 25.4
    size = max(round(max(alpha.shape) * scale), 4)
    # The drawing is made for a camera (about 4.8 px/mm); enlarged for print its edges would be
    # soft steps. Smooth the enlargement, then pull every pixel towards the nearest of the
    # drawing's own inks (disc, ring, pip): a level set of a smooth image is round and sharp.
    sigma = 0.8 * max(scale, 1.0)
    big = cv2.GaussianBlur(cv2.resize(color, (size, size), interpolation=cv2.INTER_CUBIC), (0, 0), sigma)
    cover = cv2.GaussianBlur(cv2.resize(alpha, (size, size), interpolation=cv2.INTER_CUBIC), (0, 0), sigma)
    inks = _inks(color, alpha)
    best = np.full(big.shape[:2], np.inf, np.float32)
    rgb = big.copy()
    for i in range(len(inks)):  # each pixel lies between two inks: the pair it is closest to
        for j in range(i + 1, len(inks)):
            a, b = inks[i], inks[j]
            t = np.clip(((big - a) @ (b - a)) / max(float((b - a) @ (b - a)), 1e-6), 0.0, 1.0)
            residual = np.linalg.norm(big - (a + t[..., None] * (b - a)), axis=2)
            closer = residual < best
            best[closer] = residual[closer]
            rgb[closer] = (a + _steep(t)[..., None] * (b - a))[closer]
    return np.clip(rgb, 0, 255).astype(np.uint8), _steep(cover)


def _steep(values: np.ndarray) -> np.ndarray:
    """A smooth step from 0 to 1 over 0.33..0.67 (sharp edges, still anti-aliased)."""
    t = np.clip((values - 0.5) / 0.35 + 0.5, 0.0, 1.0)
    out: np.ndarray = t * t * (3 - 2 * t)
    return out


def _inks(color: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """The flat colours a mark is drawn in (K×3): those covering at least 1 % of its disc."""
    solid = np.round(color[alpha > 0.99]).astype(np.int32)
    found, counts = np.unique(solid, axis=0, return_counts=True)
    inks: np.ndarray = found[counts >= 0.01 * len(solid)].astype(np.float32)
    return inks


# ---------------------------------------------------------------------------------- the layout
@dataclass(frozen=True)
class Placement:
    """Where one sticker lies: page (from 0), centre and disc radius in millimetres from the
    page's top-left corner."""

    card: str
    mark: str
    page: int
    centre: tuple[float, float]
    radius: float

    @property
    def cut_radius(self) -> float:
        return self.radius + CUT_OUTSIDE_MM


def _check_paper(paper: str) -> tuple[float, float]:
    if not isinstance(paper, str) or paper.lower() not in PAPERS:
        raise MarksError(f"unknown paper {paper!r}: use one of {', '.join(PAPERS)}")
    return PAPERS[paper.lower()]


def _check_card_height(card_height_mm: float) -> float:
    if isinstance(card_height_mm, bool) or not isinstance(card_height_mm, int | float) or not (
        50 <= card_height_mm <= 120
    ):
        raise MarksError(f"card height must be 50..120 mm (a poker or bridge card is 88 mm), got {card_height_mm!r}")
    return float(card_height_mm)


def parse_card_list(cards: str | Iterable[str] | None) -> tuple[Card, ...]:
    """The cards to print, in sheet order (by suit, ace first); None: the whole deck."""
    if cards is None:
        return tuple(Card(rank, suit) for suit in SUIT_ORDER for rank in RANK_ORDER)
    texts = cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)
    if not texts:
        raise MarksError("no cards to print: give cards like 'As Kh 7d', or none for the whole deck")
    parsed = []
    for text in texts:
        try:
            parsed.append(Card.parse(text))
        except CardParseError as exc:
            raise MarksError(f"cannot print a sticker for {text!r}: {exc}") from None
    unique = sorted(set(parsed), key=lambda c: (SUIT_ORDER.index(c.suit), RANK_ORDER.index(c.rank)))
    return tuple(unique)


def sheet_layout(
    paper: str = "a4", *, cards: str | Iterable[str] | None = None, card_height_mm: float = CARD_MM[1]
) -> tuple[Placement, ...]:
    """Lay the stickers out suit by suit, one row per size (the ace with the small cards, then
    the medium, then the large), wrapping a row that is too wide; a suit that does not fit on the
    page starts the next one."""
    width, height = _check_paper(paper)
    card_height_mm = _check_card_height(card_height_mm)
    chosen = parse_card_list(cards)
    usable_w = width - 2 * MARGIN_MM
    top, bottom = MARGIN_MM + HEADER_MM, height - MARGIN_MM
    blocks: list[list[list[tuple[Card, float]]]] = []  # suits → rows → (card, cut diameter)
    for suit in SUIT_ORDER:
        rows: list[list[tuple[Card, float]]] = []
        for sizes in ((SizeClass.ACE, SizeClass.SMALL), (SizeClass.MEDIUM,), (SizeClass.LARGE,)):
            row: list[tuple[Card, float]] = []
            used = 0.0
            for card in (c for c in chosen if c.suit == suit and SizeClass.of(c.rank) in sizes):
                d = disc_diameter_mm(mark_of(card), card_height_mm=card_height_mm) + 2 * CUT_OUTSIDE_MM
                if row and used + d > usable_w:
                    rows.append(row)
                    row, used = [], 0.0
                row.append((card, d))
                used += d + GAP_MM
            if row:
                rows.append(row)
        if rows:
            blocks.append(rows)
    placements: list[Placement] = []
    page, y = 0, top
    for rows in blocks:
        block_h = sum(max(d for _, d in row) + LABEL_MM + GAP_MM for row in rows)
        if y + block_h - GAP_MM > bottom and y > top:
            page, y = page + 1, top
        for row in rows:
            tallest = max(d for _, d in row)
            if y + tallest + LABEL_MM > bottom and y > top:
                page, y = page + 1, top
            x = MARGIN_MM
            for card, d in row:
                radius = d / 2 - CUT_OUTSIDE_MM
                placements.append(Placement(str(card), str(mark_of(card)), page, (x + d / 2, y + tallest / 2), radius))
                x += d + GAP_MM
            y += tallest + LABEL_MM + GAP_MM
    return tuple(placements)


# ---------------------------------------------------------------------------------- drawing
def _font(size_px: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The sheet's words: the label font of a font package (the same sheet on every machine)."""
    return label_font(size_px, bold=bold)


def _mm(value: float, dpi: int) -> int:
    return round(value * dpi / 25.4)


def _paste_suit(page: Image.Image, suit: Suit, x: int, y: int, height: int) -> None:
    """The suit symbol (the marks' own shape), ``height`` pixels tall, top-left at (x, y)."""
    mask = suit_mask(SuitShape(), suit, height)
    ink = Image.new("RGB", (mask.shape[1], mask.shape[0]), _INK[suit])
    page.paste(ink, (x, y), Image.fromarray((mask * 255).astype(np.uint8), "L"))


def _label(page: Image.Image, draw: ImageDraw.ImageDraw, card: Card, cx: int, top: int, dpi: int) -> None:
    """The card's rank and suit symbol, centred under its sticker."""
    font = _font(_mm(3.6, dpi), bold=True)
    text = "10" if card.rank == Rank.TEN else card.rank.char
    left, upper, right, lower = (round(v) for v in draw.textbbox((0, 0), text, font=font))
    suit_h = _mm(3.0, dpi)
    gap = _mm(0.6, dpi)
    total = (right - left) + gap + suit_h
    x = cx - total // 2
    draw.text((x - left, top - upper), text, font=font, fill=_INK[card.suit])
    _paste_suit(page, card.suit, x + (right - left) + gap, top + (lower - upper - suit_h) // 2, suit_h)


def _header(page: Image.Image, draw: ImageDraw.ImageDraw, *, number: int, pages: int, paper: str, dpi: int,
            card_height_mm: float) -> None:  # fmt: skip
    x, y = _mm(MARGIN_MM, dpi), _mm(MARGIN_MM, dpi)
    title = _font(_mm(5.0, dpi), bold=True)
    small = _font(_mm(2.8, dpi))
    draw.text((x, y), f"Tock-Poker marks  ·  sheet {number} of {pages}", font=title, fill=(20, 20, 20))
    lines = (
        f"Print at 100 % (actual size, not 'fit to page') on {paper.upper()} sticker paper; the bar must measure "
        "50 mm.",
        f"Cut on the grey circles; stick each disc in the middle of the back of the card named under it "
        f"(cards {card_height_mm:g} mm tall).",
    )
    for k, line in enumerate(lines):
        draw.text((x, y + _mm(7.5 + 3.8 * k, dpi)), line, font=small, fill=(60, 60, 60))
    bar_y = y + _mm(17.5, dpi)
    draw.rectangle((x, bar_y, x + _mm(50, dpi), bar_y + _mm(1.2, dpi)), fill=(20, 20, 20))
    for k in range(6):
        tick = x + _mm(10 * k, dpi)
        draw.rectangle((tick, bar_y - _mm(1.2, dpi), tick + max(_mm(0.25, dpi), 1), bar_y), fill=(20, 20, 20))
    draw.text((x + _mm(52, dpi), bar_y - _mm(1.5, dpi)), "50 mm", font=small, fill=(60, 60, 60))


def render_sheets(
    paper: str = "a4", *, dpi: int = 300, cards: str | Iterable[str] | None = None,
    card_height_mm: float = CARD_MM[1],
) -> list[Image.Image]:  # fmt: skip
    """The sticker pages as RGB images at ``dpi`` (one per page)."""
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 72 <= dpi <= 1200:
        raise MarksError(f"resolution must be a whole number of dots per inch in 72..1200, got {dpi!r}")
    width_mm, height_mm = _check_paper(paper)
    layout = sheet_layout(paper, cards=cards, card_height_mm=card_height_mm)
    count = max(p.page for p in layout) + 1
    pages = [Image.new("RGB", (_mm(width_mm, dpi), _mm(height_mm, dpi)), (255, 255, 255)) for _ in range(count)]
    draws = [ImageDraw.Draw(page) for page in pages]
    for number, (page, draw) in enumerate(zip(pages, draws, strict=True), start=1):
        _header(page, draw, number=number, pages=count, paper=paper, dpi=dpi, card_height_mm=card_height_mm)
    for place in layout:
        page, draw = pages[place.page], draws[place.page]
        rgb, alpha = sticker(place.mark, dpi=dpi, card_height_mm=card_height_mm)
        cx, cy = _mm(place.centre[0], dpi), _mm(place.centre[1], dpi)
        x0, y0 = cx - rgb.shape[1] // 2, cy - rgb.shape[0] // 2
        page.paste(Image.fromarray(rgb, "RGB"), (x0, y0), Image.fromarray((alpha * 255).astype(np.uint8), "L"))
        r = _mm(place.cut_radius, dpi)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=(150, 150, 150), width=max(_mm(0.2, dpi), 1))
        _label(page, draw, Card.parse(place.card), cx, cy + r + _mm(1.0, dpi), dpi)
    return pages


def write_sheet(
    path: str | Path, *, paper: str = "a4", dpi: int = 300, cards: str | Iterable[str] | None = None,
    card_height_mm: float = CARD_MM[1],
) -> list[Path]:  # fmt: skip
    """Write the sheet to ``path``: a ``.pdf`` (every page in one file) or ``.png`` (one file per
    page, ``name-1.png``, ``name-2.png``... when there are several). Returns the files written."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise MarksError(f"cannot write {path.name!r}: the file name must end in .pdf or .png")
    if not path.parent.is_dir():
        raise MarksError(f"cannot write {str(path)!r}: the folder {str(path.parent)!r} does not exist")
    pages = render_sheets(paper, dpi=dpi, cards=cards, card_height_mm=card_height_mm)
    if suffix == ".pdf":
        pages[0].save(path, "PDF", resolution=float(dpi), save_all=True, append_images=pages[1:])
        return [path]
    if len(pages) == 1:
        pages[0].save(path, dpi=(dpi, dpi))
        return [path]
    written = []
    for number, page in enumerate(pages, start=1):
        target = path.with_name(f"{path.stem}-{number}{path.suffix}")
        page.save(target, dpi=(dpi, dpi))
        written.append(target)
    return written


# ---------------------------------------------------------------------------------- the design figure
def design_figure(*, deck: int = 3) -> np.ndarray:
    """The 16 marks on card backs (rows: suits; columns: ace, small, medium, large), as the
    camera sees them, with a legend: BGR uint8, for ``docs/tock-marks.md``."""
    style = deck_style(deck)
    card_w, card_h = FACE_W // 2, FACE_H // 2
    cell_w, cell_h = card_w + 70, card_h + 44
    left, top = 120, 74
    sizes = (SizeClass.ACE, SizeClass.SMALL, SizeClass.MEDIUM, SizeClass.LARGE)
    canvas = Image.new("RGB", (left + cell_w * 4, top + cell_h * 4 + 6), (246, 244, 238))
    draw = ImageDraw.Draw(canvas)
    big, small = _font(22, bold=True), _font(15)
    for col, size in enumerate(sizes):
        ranks = "A" if size == SizeClass.ACE else f"{size.ranks[0].char}-{size.ranks[-1].char}".replace("T", "10")
        height = {SizeClass.ACE: "pip 20 %, in a ring", SizeClass.SMALL: "pip 12 % of height",
                  SizeClass.MEDIUM: "pip 20 % of height", SizeClass.LARGE: "pip 30 % of height"}[size]  # fmt: skip
        x = left + col * cell_w
        draw.text((x, 12), f"{size.value} ({ranks})", font=big, fill=(30, 30, 30))
        draw.text((x, 42), height, font=small, fill=(80, 80, 80))
    for row, suit in enumerate(SUIT_ORDER):
        y = top + row * cell_h
        _paste_suit(canvas, suit, 24, int(y + cell_h // 2 - 40), 44)
        draw.text((20, y + cell_h // 2 + 12), suit.name.lower(), font=small, fill=(60, 60, 60))
        for col, size in enumerate(sizes):
            mark = Mark(suit, size)
            back = render_back(style, str(mark))
            rgb = cv2.cvtColor(np.ascontiguousarray(back[:, :, :3]), cv2.COLOR_BGR2RGB)
            thumb = cv2.resize(rgb, (card_w, card_h), interpolation=cv2.INTER_AREA)
            alpha = cv2.resize(back[:, :, 3], (card_w, card_h), interpolation=cv2.INTER_AREA)
            x = left + col * cell_w
            canvas.paste(Image.fromarray(thumb, "RGB"), (x, y), Image.fromarray(alpha, "L"))
            draw.text((x, y + card_h + 6), f'"{mark}", {disc_diameter_mm(mark):.0f} mm disc', font=small,
                      fill=(50, 50, 50))  # fmt: skip
    return cv2.cvtColor(np.asarray(canvas), cv2.COLOR_RGB2BGR)


# ---------------------------------------------------------------------------------- command line
def main(argv: Sequence[str] | None = None, *, prog: str = "python -m vision.render.marks") -> int:
    """``python -m vision.render.marks -o FILE [--paper a4|letter] [--dpi N] [--cards "As Kh"]``.

    ``prog`` is the name shown in help and errors (``tocktable marks`` when run from the CLI).
    """
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Write printable Tock mark stickers (one per card, true size) as PDF or PNG.",
    )
    parser.add_argument("-o", "--output", type=Path, help="file to write: .pdf (all pages) or .png (one per page)")
    parser.add_argument("--paper", default="a4", choices=sorted(PAPERS), help="paper size (default a4)")
    parser.add_argument("--dpi", type=int, default=300, help="resolution, dots per inch (default 300)")
    parser.add_argument("--cards", default=None, help="only these cards, e.g. \"As 7h Td\" (default: all 52)")
    parser.add_argument("--card-height", type=float, default=CARD_MM[1],
                        help="height of your cards in mm (default 88: poker and bridge size)")  # fmt: skip
    parser.add_argument("--figure", type=Path, default=None, help="also write the design figure (PNG) here")
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv[1:] if argv[:1] == ["--"] else argv)  # "tocktable marks -- -o FILE"
    if args.output is None and args.figure is None:
        parser.error("say where to write: -o FILE (.pdf or .png), and/or --figure FILE.png")
    try:
        if args.figure is not None:
            if args.figure.suffix.lower() != ".png" or not args.figure.parent.is_dir():
                raise MarksError(f"cannot write the figure to {str(args.figure)!r}: give a .png in an existing folder")
            cv2.imwrite(str(args.figure), design_figure())
            print(f"design figure: {args.figure}")
        if args.output is not None:
            count = len(parse_card_list(args.cards))
            print(f"drawing {count} sticker(s) on {args.paper.upper()} at {args.dpi} dpi ...", flush=True)
            written = write_sheet(args.output, paper=args.paper, dpi=args.dpi, cards=args.cards,
                                  card_height_mm=args.card_height)  # fmt: skip
            for path in written:
                print(f"wrote {path}")
            print("Print at 100 % (actual size): the bar at the top of each page must measure 50 mm.")
    except MarksError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
