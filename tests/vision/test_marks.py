"""The Tock mark sticker sheet: layout, true size, faithful to the design the reader learns, files."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from table.cards import Card, Suit
from table.errors import TocktableError
from table.tock import mark_of
from vision.render.faces import FACE_H, FACE_W, TOCK_HEIGHTS, draw_tock_mark
from vision.render.marks import (
    LABEL_MM,
    MARGIN_MM,
    PAPERS,
    MarksError,
    design_figure,
    disc_diameter_mm,
    main,
    render_sheets,
    sheet_layout,
    sticker,
    write_sheet,
)


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_every_card_gets_one_sticker_with_its_mark_inside_the_page(paper: str) -> None:
    layout = sheet_layout(paper)
    assert sorted(p.card for p in layout) == sorted(str(Card(r, s)) for s in Suit for r in range(13))  # type: ignore[arg-type]
    assert all(p.mark == str(mark_of(Card.parse(p.card))) for p in layout)
    width, height = PAPERS[paper]
    for p in layout:
        x, y = p.centre
        assert x - p.cut_radius >= MARGIN_MM and x + p.cut_radius <= width - MARGIN_MM, p
        assert y - p.cut_radius >= MARGIN_MM and y + p.cut_radius + LABEL_MM <= height - MARGIN_MM, p
    assert max(p.page for p in layout) == 1  # two sheets


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_stickers_and_their_labels_never_overlap(paper: str) -> None:
    layout = sheet_layout(paper)
    for a, b in itertools.combinations(layout, 2):
        if a.page != b.page:
            continue
        gap = float(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1])) - a.cut_radius - b.cut_radius
        assert gap >= 2.0, (a.card, b.card)
        below_a = abs(a.centre[0] - b.centre[0]) < a.cut_radius and b.centre[1] - a.centre[1] > 0
        if below_a:  # b's disc starts below a's label
            assert b.centre[1] - b.cut_radius >= a.centre[1] + a.cut_radius + LABEL_MM, (a.card, b.card)


def test_suits_read_in_order_and_each_row_holds_one_size() -> None:
    layout = sheet_layout("a4")
    rows: dict[tuple[int, float], list[str]] = {}
    for p in layout:
        rows.setdefault((p.page, round(p.centre[1], 3)), []).append(p.card)
    spades = [["As", "2s", "3s", "4s", "5s"], ["6s", "7s", "8s", "9s"], ["Ts", "Js", "Qs", "Ks"]]
    assert list(rows.values())[:3] == spades
    assert [c[-1] for c in [p.card for p in layout][::13]] == ["s", "h", "d", "c"]


def test_disc_sizes_follow_the_design_and_the_card_height() -> None:
    small, medium, large = (disc_diameter_mm(f"h:{s}") for s in ("small", "medium", "large"))
    assert small < medium < large
    assert disc_diameter_mm("h:ace") == pytest.approx(medium)
    # the pip is 12 / 20 / 30 % of an 88 mm card; the disc adds a fixed rim round it
    pips = [TOCK_HEIGHTS[s] * 88 for s in ("small", "medium", "large")]
    assert (medium - small) == pytest.approx(pips[1] - pips[0], abs=0.6)
    assert (large - medium) == pytest.approx(pips[2] - pips[1], abs=0.6)
    assert 30 < large < 38
    assert disc_diameter_mm("h:large", card_height_mm=44.0) == pytest.approx(large / 2)


@pytest.mark.parametrize("dpi", [150, 300, 600])
def test_a_sticker_is_true_size_at_the_resolution_asked(dpi: int) -> None:
    rgb, alpha = sticker("d:large", dpi=dpi)
    assert rgb.shape[:2] == alpha.shape
    _ys, xs = np.nonzero(alpha > 0.5)
    measured_mm = (xs.max() - xs.min() + 1) * 25.4 / dpi
    assert measured_mm == pytest.approx(disc_diameter_mm("d:large"), abs=0.3)


@pytest.mark.parametrize("mark", ["s:ace", "h:small", "d:medium", "c:large", "h:ace"])
def test_the_printed_sticker_is_the_mark_the_reader_learns(mark: str) -> None:
    """Shrunk back to the renderer's scale, the sticker matches draw_tock_mark's disc."""
    on_white = np.full((FACE_H, FACE_W, 3), 255.0, np.float32)
    draw_tock_mark(on_white, mark)
    drawn = on_white.astype(np.uint8)[..., ::-1]  # RGB
    grey = drawn.min(axis=2) < 252
    ys, xs = np.nonzero(grey)
    crop = drawn[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1].astype(np.float32)
    rgb, alpha = sticker(mark, dpi=600)
    paper = rgb * alpha[..., None] + 255.0 * (1 - alpha[..., None])
    small = cv2.resize(paper, (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_AREA)
    assert np.abs(small - crop).mean() < 6.0
    other = sticker("s:large" if mark != "s:large" else "h:small", dpi=600)
    other_paper = other[0] * other[1][..., None] + 255.0 * (1 - other[1][..., None])
    assert np.abs(cv2.resize(other_paper, (crop.shape[1], crop.shape[0])) - crop).mean() > 10.0


def test_the_page_shows_each_sticker_in_its_suit_colour_with_a_cut_circle() -> None:
    dpi = 100
    [page, _] = render_sheets("a4", dpi=dpi)
    pixels = np.asarray(page).astype(int)
    assert pixels.shape[:2] == (round(297 * dpi / 25.4), round(210 * dpi / 25.4))
    for place in (p for p in sheet_layout("a4") if p.page == 0):
        cx, cy = (round(v * dpi / 25.4) for v in place.centre)
        r = round(place.radius * dpi / 25.4)
        disc = pixels[cy - r // 2: cy + r // 2, cx - r // 2: cx + r // 2].reshape(-1, 3)
        reds = ((disc[:, 0] > 150) & (disc[:, 1] < 90)).mean()
        darks = (disc.max(axis=1) < 70).mean()
        if place.card[-1] in "hd":
            assert reds > 0.15 and darks < 0.05, place.card
        else:
            assert darks > 0.15 and reds < 0.01, place.card
        cut = round(place.cut_radius * dpi / 25.4)
        ring = [pixels[cy, cx - cut + k] for k in (-1, 0, 1)] + [pixels[cy, cx + cut + k] for k in (-1, 0, 1)]
        assert min(int(p.mean()) for p in ring) < 230, f"no cut line round {place.card}"


def test_a_pdf_has_one_page_per_sheet_at_the_paper_size(tmp_path: Path) -> None:
    [path] = write_sheet(tmp_path / "tock.pdf", dpi=100)
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == 2
    boxes = {tuple(float(v) for v in m.split()) for m in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", data)}
    [(x0, y0, x1, y1)] = boxes
    assert (x1 - x0) == pytest.approx(210 / 25.4 * 72, abs=1.0) and (y1 - y0) == pytest.approx(297 / 25.4 * 72, abs=1.0)


def test_png_pages_are_numbered_and_carry_their_resolution(tmp_path: Path) -> None:
    written = write_sheet(tmp_path / "tock.png", paper="letter", dpi=100)
    assert [p.name for p in written] == ["tock-1.png", "tock-2.png"]
    with Image.open(written[0]) as image:
        assert image.size == (round(215.9 / 25.4 * 100), round(279.4 / 25.4 * 100))
        assert image.info["dpi"][0] == pytest.approx(100, abs=0.01)
    [single] = write_sheet(tmp_path / "spare.png", dpi=100, cards="As 7h 7h Td")
    assert single.name == "spare.png"


def test_a_few_cards_can_be_reprinted() -> None:
    layout = sheet_layout("a4", cards="7h, As 10d 7h")
    assert [p.card for p in layout] == ["As", "7h", "Td"]
    assert {p.page for p in layout} == {0}


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: sheet_layout("a5"), "unknown paper"),
        (lambda: sheet_layout("a4", cards="As Zz"), "'Zz'"),
        (lambda: sheet_layout("a4", cards=""), "no cards"),
        (lambda: sheet_layout("a4", card_height_mm=200), "card height"),
        (lambda: render_sheets("a4", dpi=10), "resolution"),
        (lambda: write_sheet("/tmp/tock.jpg"), ".pdf or .png"),
        (lambda: write_sheet("/nonexistent-folder/tock.pdf"), "does not exist"),
    ],
)
def test_bad_requests_are_refused_with_a_reason(call: object, words: str) -> None:
    with pytest.raises(MarksError, match=re.escape(words)) as caught:
        call()  # type: ignore[operator]
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, TocktableError)


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-o", str(tmp_path / "s.pdf"), "--dpi", "100", "--cards", "Kc Qc", "--paper", "letter",
                 "--figure", str(tmp_path / "design.png")]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "wrote" in out and "100 %" in out and (tmp_path / "s.pdf").exists()
    assert cv2.imread(str(tmp_path / "design.png")) is not None
    assert main(["--", "-o", str(tmp_path / "u.pdf"), "--dpi", "72", "--cards", "2d"]) == 0  # as passed on by a CLI
    assert (tmp_path / "u.pdf").exists()
    assert main(["-o", str(tmp_path / "t.pdf"), "--cards", "Xx"]) == 2
    assert "cannot print a sticker for 'Xx'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([])


def test_the_design_figure_shows_sixteen_marked_backs() -> None:
    figure = design_figure()
    assert figure.ndim == 3 and figure.shape[2] == 3 and figure.shape[0] > 800
    # sixteen white discs: count the bright blobs the size of a mark's disc
    white = (figure.min(axis=2) > 235).astype(np.uint8)
    _count, _, stats, _ = cv2.connectedComponentsWithStats(white)
    discs = [s for s in stats[1:] if 35 <= s[cv2.CC_STAT_WIDTH] <= 90 and 35 <= s[cv2.CC_STAT_HEIGHT] <= 90]
    assert len(discs) == 16


def test_a_sheet_needs_no_system_font_and_is_the_same_without_one(tmp_path: Path, monkeypatch) -> None:
    import vision.render.fonts as fonts
    from vision.render.marks import _font

    assert _font(30, bold=True).getname() == ("Arimo", "Bold")  # the label font of a font package
    here = np.asarray(render_sheets(dpi=100, cards="Kc Qh 10d")[0])
    monkeypatch.setenv("TOCKTABLE_FONTS", "packages")
    monkeypatch.setattr(fonts, "FONT_DIRS", (tmp_path,))  # a bare machine: no font folder has a file
    fonts.label_font.cache_clear()
    try:
        bare = np.asarray(render_sheets(dpi=100, cards="Kc Qh 10d")[0])
    finally:
        fonts.label_font.cache_clear()
    header = bare[: bare.shape[0] // 10]
    assert (header.min(axis=2) < 100).mean() > 0.002  # the title and the instructions are written
    assert np.array_equal(bare, here)  # words in the package's font, whatever fonts this machine has
