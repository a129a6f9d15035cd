"""Where the renderer's fonts come from: package fonts always, system fonts when present, the split."""

from __future__ import annotations

import hashlib
import os
import tomllib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import vision.render.fonts as fonts
from table.errors import TocktableError
from vision.errors import FontsMissingError, FontSourceError
from vision.render.faces import _text_bitmap, deck_style
from vision.render.fonts import FONT_PACKAGES, family_pool, index_fonts, load_font, package_font_files, suit_glyph_fonts

ROOT = Path(__file__).resolve().parents[2]

# The fingerprint (family, style and file name of every face) of the system pool that the Debian
# packages of docs/system-fonts.txt give, with chromium installed beside them.
DEBIAN_SYSTEM_FONTS = "1fbc3cd5745ed634"


def _fingerprint(faces: tuple[fonts.FontFace, ...]) -> str:
    lines = "\n".join(f"{face.family}|{face.style}|{os.path.basename(face.path)}" for face in faces)
    return hashlib.sha256(lines.encode()).hexdigest()[:16]


def require_debian_system_fonts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Limit the renderer to the system fonts; skip unless they are those of docs/system-fonts.txt."""
    monkeypatch.setenv("TOCKTABLE_FONTS", "system")
    if _fingerprint(index_fonts()) != DEBIAN_SYSTEM_FONTS:
        pytest.skip("the system fonts are not those of docs/system-fonts.txt (they are optional)")


@pytest.fixture
def fresh_font_caches() -> Iterator[None]:
    """Forget the fonts found so far, before and after a test that changes where they are looked for."""
    caches = (fonts._index_fonts, fonts._system_faces, fonts._package_faces, fonts._suit_glyph_fonts)
    for cache in caches:
        cache.cache_clear()
    yield
    for cache in caches:
        cache.cache_clear()


def _families(pool: fonts.Pool) -> set[str]:
    return {face.family for face in index_fonts(pool)}


@pytest.mark.parametrize("source", ["all", "packages"])
def test_fonts_are_split_by_family_between_training_and_hold_out(source: str, monkeypatch) -> None:
    monkeypatch.setenv("TOCKTABLE_FONTS", source)
    assert not _families("train") & _families("holdout")
    assert {face.pool for face in index_fonts("train")} == {"train"}
    assert {face.pool for face in index_fonts("holdout")} == {"holdout"}
    assert len(index_fonts("train")) + len(index_fonts("holdout")) == len(index_fonts("all"))


def test_the_package_fonts_alone_give_both_pools_several_families(monkeypatch) -> None:
    monkeypatch.setenv("TOCKTABLE_FONTS", "packages")
    assert len(_families("train")) >= 10 and len(_families("holdout")) >= 5
    package_files = {str(file) for package in FONT_PACKAGES for file in package_font_files(package)}
    for face in index_fonts():
        assert face.path.partition("#")[0] in package_files
        assert not any(face.path.startswith(str(folder)) for folder in fonts.FONT_DIRS)


def test_the_split_follows_the_hash_of_the_family_name() -> None:
    # The rule the shipped models were trained under: changing it would put fonts they trained on
    # into the hold-out pool. Noto Serif, Comfortaa and Dosis are hold-out as Debian and as PyPI fonts.
    for family in ("Noto Serif", "Comfortaa", "Dosis", "Jost", "Source Serif 4", "Teko"):
        assert family_pool(family) == "holdout"
    for family in ("Roboto", "Open Sans", "Liberation Sans", "DejaVu Sans", "Oswald", "Arimo"):
        assert family_pool(family) == "train"


def test_system_fonts_are_added_to_the_package_fonts_and_win_a_tie(monkeypatch) -> None:
    monkeypatch.setenv("TOCKTABLE_FONTS", "packages")
    packaged = index_fonts()
    monkeypatch.setenv("TOCKTABLE_FONTS", "system")
    system = index_fonts()
    monkeypatch.setenv("TOCKTABLE_FONTS", "all")
    both = index_fonts()
    assert both[: len(system)] == system  # the system pool, unchanged, then the package faces
    taken = {(face.family, face.style) for face in system}
    assert both[len(system) :] == tuple(face for face in packaged if (face.family, face.style) not in taken)


def test_every_font_package_is_a_pinned_dependency_and_installed() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pinned = {dep.partition("==")[0]: dep.partition("==")[2] for dep in project["dependencies"] if "fontpkg" in dep}
    assert set(pinned) == set(FONT_PACKAGES)
    assert all(pinned.values()), "font packages are pinned to one version: the rendered pixels depend on them"
    assert fonts.missing_font_packages() == ()
    for package in FONT_PACKAGES:
        licence = next(package_font_files(package)[0].parent.parent.glob("LICENSE*"))
        assert "SIL OPEN FONT LICENSE" in licence.read_text().upper() or "APACHE LICENSE" in licence.read_text().upper()


def test_a_named_instance_of_a_variable_font_draws_its_own_weight(monkeypatch) -> None:
    monkeypatch.setenv("TOCKTABLE_FONTS", "packages")
    oswald = {face.style: face.path for face in index_fonts() if face.family == "Oswald"}
    assert {"Regular", "Bold"} <= set(oswald) and "ExtraLight" not in oswald  # hairlines are left out
    assert load_font(oswald["Bold"], 40).getname() == ("Oswald", "Bold")
    regular, bold = _text_bitmap(oswald["Regular"], "8", 0), _text_bitmap(oswald["Bold"], "8", 0)
    assert bold.mean() > regular.mean() * 1.2  # more ink for the same glyph


def test_suit_glyphs_come_only_from_system_fonts(monkeypatch) -> None:
    monkeypatch.setenv("TOCKTABLE_FONTS", "system")
    system = suit_glyph_fonts()
    assert all(fonts._draws_suits(path) for path in system)
    monkeypatch.setenv("TOCKTABLE_FONTS", "all")
    assert suit_glyph_fonts() == system
    monkeypatch.setenv("TOCKTABLE_FONTS", "packages")
    assert suit_glyph_fonts() == ()
    assert {deck_style(seed).suits.glyph_font for seed in range(40)} == {None}  # every deck draws its own suits


def test_an_unknown_font_source_is_refused_with_the_choices(monkeypatch) -> None:
    monkeypatch.setenv("TOCKTABLE_FONTS", "debian")
    with pytest.raises(FontSourceError, match=r"'debian'.*all, packages, system") as error:
        deck_style(3)
    assert isinstance(error.value, TocktableError) and isinstance(error.value, ValueError)


@pytest.mark.usefixtures("fresh_font_caches")
def test_without_the_font_packages_the_renderer_says_how_to_install_them(monkeypatch) -> None:
    monkeypatch.setenv("TOCKTABLE_FONTS", "packages")
    monkeypatch.setattr(fonts, "FONT_PACKAGES", ("fontpkg-roboto", "fontpkg-not-installed"))
    assert _families("all") == {"Roboto"}
    with pytest.raises(FontsMissingError, match=r"1 of tocktable's 2 font packages.*pip install -e \.") as error:
        deck_style(3, "holdout")  # Roboto is a training font: the hold-out pool is empty
    assert "no hold-out fonts" in str(error.value) and "fontpkg-not-installed" in str(error.value)
    assert isinstance(error.value, TocktableError) and isinstance(error.value, RuntimeError)


@pytest.mark.usefixtures("fresh_font_caches")
def test_without_system_fonts_the_system_source_says_what_to_install(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("TOCKTABLE_FONTS", "system")
    monkeypatch.setattr(fonts, "FONT_DIRS", (tmp_path,))
    with pytest.raises(FontsMissingError, match=r"docs/system-fonts\.txt.*unset TOCKTABLE_FONTS"):
        deck_style(3)
    monkeypatch.setenv("TOCKTABLE_FONTS", "all")  # the package fonts are enough
    assert deck_style(3).index.font.partition("#")[0] in {
        str(file) for package in FONT_PACKAGES for file in package_font_files(package)
    }


def test_a_deck_style_is_the_same_in_every_run(monkeypatch) -> None:
    monkeypatch.setenv("TOCKTABLE_FONTS", "packages")
    first = deck_style(41, "holdout")
    assert first == deck_style(41, "holdout") and first.index.font in {face.path for face in index_fonts("holdout")}
    drawn = {deck_style(seed, "holdout").index.font for seed in range(60)}
    assert len(drawn) >= 20  # decks draw from the whole pool, not from a few faces
    assert np.isfinite(_text_bitmap(first.index.font, "10", 1)).all()


@pytest.mark.parametrize("source", ["all", "packages", "system"])
@pytest.mark.usefixtures("fresh_font_caches")
def test_labels_are_written_in_the_package_label_font_on_any_machine(source: str, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("TOCKTABLE_FONTS", source)
    monkeypatch.setattr(fonts, "FONT_DIRS", (tmp_path,))  # a machine without system fonts
    fonts.label_font.cache_clear()
    regular, bold = fonts.label_font(40), fonts.label_font(40, bold=True)
    assert (regular.getname(), bold.getname()) == (("Arimo", "Regular"), ("Arimo", "Bold"))
    assert Path(regular.path) in package_font_files(fonts.LABEL_FONT_PACKAGE)

    def ink(font: object) -> float:
        from PIL import Image, ImageDraw

        image = Image.new("L", (200, 60), 0)
        ImageDraw.Draw(image).text((5, 5), "Kc 10", font=font, fill=255)
        return float(np.asarray(image).mean())

    assert ink(bold) > ink(regular) * 1.2


def test_without_the_label_font_package_labels_say_how_to_install_it(monkeypatch) -> None:
    monkeypatch.setattr(fonts, "LABEL_FONT_PACKAGE", "fontpkg-not-installed")
    fonts.label_font.cache_clear()
    try:
        with pytest.raises(FontsMissingError, match=r"fontpkg-not-installed is not installed.*pip install -e \."):
            fonts.label_font(20)
    finally:
        fonts.label_font.cache_clear()


def test_the_bench_chart_writes_its_words_in_the_label_font(monkeypatch, tmp_path, capsys) -> None:
    from bench import lens_chart

    monkeypatch.setenv("TOCKTABLE_FONTS", "packages")
    assert lens_chart._font(14).getname() == ("Arimo", "Regular")
    assert lens_chart.main(["-o", str(tmp_path / "chart.png"), "--seats", "3", "--variant", "holdem"]) == 0
    from PIL import Image

    with Image.open(tmp_path / "chart.png") as chart:
        title = np.asarray(chart.convert("L"))[5:40, 60:500]
    assert (title < 100).mean() > 0.01  # the title is written
