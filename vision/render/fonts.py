"""The fonts the renderer draws card indices with, split into training and hold-out pools.

Real decks print their indices in many typefaces (condensed, bold, serif, geometric). The
renderer draws from two sources:

- **package fonts**: the Google Fonts families of the ``fontpkg-*`` packages listed in
  :data:`FONT_PACKAGES` (runtime dependencies in ``pyproject.toml``, so ``pip install`` brings
  them: the demo and the tests need nothing from the system). Most are variable fonts; each of
  their named instances (Regular, Bold, Condensed Bold, ...) counts as one face.
- **system fonts**: every upright Latin font found under the usual font folders, when there are
  any. They are optional. The shipped models were trained and measured with the Debian packages
  listed in ``docs/system-fonts.txt``.

``TOCKTABLE_FONTS`` chooses the sources: ``all`` (the default) takes both, ``packages`` only the
package fonts (what a machine without system fonts has, and what the test suite draws with
unless told otherwise: tests/conftest.py), ``system`` only the system fonts (exactly the pool
the shipped models were trained with, face for face, in the same order).

Faces are split *by family*, by a hash of the family's name, so that a model trained on the
``"train"`` pool is measured on typefaces it has never seen (``"holdout"``). The hash does not
depend on which other fonts are installed, and a family lands in the same pool whether it comes
from a package or from the system (Noto Serif, Comfortaa and Dosis are hold-out either way).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from PIL import ImageFont

from vision.errors import FontsMissingError, FontSourceError

FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path.home() / ".fonts")

FONT_PACKAGES = (
    # Training pool by the family hash (the first eleven are families the shipped models saw as
    # Debian packages; Oswald is new).
    "fontpkg-arimo", "fontpkg-bebas-neue", "fontpkg-eb-garamond", "fontpkg-league-spartan",
    "fontpkg-open-sans", "fontpkg-pt-sans", "fontpkg-pt-sans-narrow", "fontpkg-pt-serif",
    "fontpkg-roboto", "fontpkg-roboto-slab", "fontpkg-yanone-kaffeesatz", "fontpkg-oswald",
    # Hold-out pool by the family hash: serifs, a slab, geometric and rounded sans, a condensed display face.
    "fontpkg-arvo", "fontpkg-chivo", "fontpkg-comfortaa", "fontpkg-domine", "fontpkg-dosis",
    "fontpkg-jost", "fontpkg-noto-serif", "fontpkg-source-serif-4", "fontpkg-teko",
)  # fmt: skip
"""The font packages the renderer draws from (each pinned in ``pyproject.toml``'s dependencies)."""

ENV_VAR = "TOCKTABLE_FONTS"
Source = Literal["all", "packages", "system"]
SOURCES: tuple[Source, ...] = ("all", "packages", "system")
Pool = Literal["train", "holdout", "all"]

# Families that are not text faces for Latin digits and capitals (symbols, initials, scripts).
_EXCLUDED_FAMILY_WORDS = (
    "Math", "Symbol", "Initials", "Keyboard", "D050000L", "Z003", "Music", "Emoji", "Chorus",
)  # fmt: skip
# Indices are upright and of a readable weight: no italics, no hairlines.
_EXCLUDED_STYLE_WORDS = ("Italic", "Oblique", "Thin", "Hairline", "ExtraLight", "Extralight")
_LATIN_NOTO = {"Noto Sans", "Noto Serif", "Noto Sans Display", "Noto Serif Display", "Noto Sans Mono"}
# One family in this many goes to the hold-out pool (decided by a hash of its name, so the
# split does not depend on which other fonts happen to be installed).
_HOLDOUT_ONE_IN = 5
# Separates a variable font's file from the named instance in FontFace.path.
_INSTANCE_MARK = "#"
# System font files that draw the four suit symbols (♠♥♦♣); SuitShape may use them instead of its
# own shapes. No package font is among them: of the package fonts only Arimo has the symbols, and
# its club's foot comes apart from the stem at pip sizes (a design no deck of the shipped models'
# training had), so without system fonts every deck draws its suits with SuitShape's shapes.
_SUIT_GLYPH_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "FreeSerif.ttf", "FreeSans.ttf",
                     "StandardSymbolsPS.otf", "StandardSymbolsPS.ttf", "NotoSansSymbols2-Regular.ttf")  # fmt: skip


@dataclass(frozen=True)
class FontFace:
    """One face usable for indices.

    ``path`` is what the renderer stores in a deck style and hands to :func:`load_font`: the font
    file, followed by ``#`` and the instance name for a named instance of a variable font
    (``.../Oswald[wght].ttf#Bold``).
    """

    path: str
    family: str
    style: str

    @property
    def pool(self) -> Literal["train", "holdout"]:
        """Which pool the family belongs to."""
        return family_pool(self.family)


def family_pool(family: str) -> Literal["train", "holdout"]:
    """The pool of a family: hold-out for one family name in five, by a hash of the name."""
    digest = hashlib.sha256(family.encode()).digest()
    return "holdout" if digest[0] % _HOLDOUT_ONE_IN == 0 else "train"


def font_source() -> Source:
    """The sources ``TOCKTABLE_FONTS`` asks for (``all`` when it is unset or empty)."""
    value = os.environ.get(ENV_VAR, "").strip().lower() or "all"
    for source in SOURCES:
        if value == source:
            return source
    raise FontSourceError(f"{ENV_VAR}={value!r} is not a font source: expected one of {', '.join(SOURCES)}")


def load_font(path: str, size: int) -> ImageFont.FreeTypeFont:
    """The font of a :attr:`FontFace.path` (a file, or a file and a named instance) at ``size`` pixels."""
    file, mark, instance = path.rpartition(_INSTANCE_MARK)
    if not mark or Path(path).is_file():
        return ImageFont.truetype(path, size)
    font = ImageFont.truetype(file, size)
    font.set_variation_by_name(instance)
    return font


def _usable(family: str, style: str) -> bool:
    if family.startswith("Noto") and family not in _LATIN_NOTO:
        return False
    if any(word in family for word in _EXCLUDED_FAMILY_WORDS):
        return False
    return not any(word in style for word in _EXCLUDED_STYLE_WORDS)


def index_fonts(pool: Pool = "all") -> tuple[FontFace, ...]:
    """Every usable index face of ``pool`` from the sources ``TOCKTABLE_FONTS`` names.

    System faces come first, sorted by path; package faces follow in the order of
    :data:`FONT_PACKAGES`, then file name, then instance (so their order does not depend on
    where the environment is installed). A family and style found in both is taken once, from
    the system.
    """
    if pool not in ("train", "holdout", "all"):
        raise ValueError(f"unknown font pool {pool!r}: expected 'train', 'holdout' or 'all'")
    return _index_fonts(pool, font_source())


@functools.cache
def _index_fonts(pool: Pool, source: Source) -> tuple[FontFace, ...]:
    faces = list(_system_faces()) if source in ("all", "system") else []
    if source in ("all", "packages"):
        seen = {(face.family, face.style) for face in faces}
        faces += [face for face in _package_faces() if (face.family, face.style) not in seen]
    return tuple(face for face in faces if pool == "all" or face.pool == pool)


@functools.cache
def _system_faces() -> tuple[FontFace, ...]:
    faces: list[FontFace] = []
    seen: set[tuple[str, str]] = set()
    for folder in FONT_DIRS:
        if not folder.is_dir():
            continue
        for path in sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".ttf", ".otf")):
            try:
                family, style = ImageFont.truetype(str(path), 16).getname()
            except OSError:
                continue
            family, style = family or path.stem, style or "Regular"
            if (family, style) in seen or not _usable(family, style):
                continue
            seen.add((family, style))
            faces.append(FontFace(str(path), family, style))
    faces.sort(key=lambda face: face.path)
    return tuple(faces)


def package_font_files(package: str) -> tuple[Path, ...]:
    """The font files a font package installed (none when it is not installed)."""
    spec = importlib.util.find_spec(package.replace("-", "_"))
    if spec is None or not spec.submodule_search_locations:
        return ()
    folder = Path(next(iter(spec.submodule_search_locations))) / "files"
    return tuple(sorted(p for p in folder.glob("*") if p.suffix.lower() in (".ttf", ".otf")))


def missing_font_packages() -> tuple[str, ...]:
    """The packages of :data:`FONT_PACKAGES` that are not installed."""
    return tuple(package for package in FONT_PACKAGES if not package_font_files(package))


@functools.cache
def _package_faces() -> tuple[FontFace, ...]:
    faces: list[FontFace] = []
    seen: set[tuple[str, str]] = set()
    for package in FONT_PACKAGES:
        for file in package_font_files(package):
            try:
                font = ImageFont.truetype(str(file), 16)
            except OSError:
                continue
            try:
                instances = [n.decode() if isinstance(n, bytes) else str(n) for n in font.get_variation_names()]
            except OSError:  # a static font
                instances = []
            family = font.getname()[0] or file.stem
            named = [(f"{file}{_INSTANCE_MARK}{name}", name) for name in instances]
            for path, style in named or [(str(file), font.getname()[1] or "Regular")]:
                if (family, style) in seen or not _usable(family, style):
                    continue
                seen.add((family, style))
                faces.append(FontFace(path, family, style))
    return tuple(faces)


def suit_glyph_fonts() -> tuple[str, ...]:
    """System font files that draw the four suit symbols (♠♥♦♣) as filled glyphs (none with
    ``TOCKTABLE_FONTS=packages``)."""
    return _suit_glyph_fonts() if font_source() in ("all", "system") else ()


@functools.cache
def _suit_glyph_fonts() -> tuple[str, ...]:
    found: dict[str, str] = {}
    for folder in FONT_DIRS:
        if folder.is_dir():
            for path in folder.rglob("*"):
                if path.name in _SUIT_GLYPH_FILES and path.name not in found and _draws_suits(str(path)):
                    found[path.name] = str(path)
    return tuple(sorted(found.values()))


def _draws_suits(path: str) -> bool:
    """Whether a font has four distinct suit glyphs (not one "missing glyph" box for all four)."""
    from PIL import Image, ImageDraw

    try:
        font = ImageFont.truetype(path, 48)
    except OSError:
        return False
    shapes = []
    for glyph in "♣♦♥♠":
        image = Image.new("L", (80, 80), 0)
        ImageDraw.Draw(image).text((10, 5), glyph, font=font, fill=255)
        box = image.getbbox()
        if box is None:
            return False
        ink = image.crop(box)
        filled = float((np.asarray(ink) > 127).mean())
        if filled > 0.9:  # a solid box
            return False
        shapes.append(ink.resize((16, 16)).tobytes())
    return len(set(shapes)) == 4


LABEL_FONT_PACKAGE = "fontpkg-arimo"
"""The font package whose sans-serif writes the words on the pictures tocktable makes (the Tock
sticker sheets, the bench charts): installed with tocktable, so they look the same on every machine."""


@functools.cache
def label_font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The font for labels, titles and legends at ``size`` pixels (Arimo, Regular or Bold).

    From :data:`LABEL_FONT_PACKAGE` whatever ``TOCKTABLE_FONTS`` says: labels are not card
    indices (no training or hold-out pool to keep apart), and a sticker sheet printed on a bare
    machine must read as one printed anywhere else. Raises :class:`FontsMissingError` when the
    package is not installed."""
    files = [file for file in package_font_files(LABEL_FONT_PACKAGE) if "Italic" not in file.name]
    if not files:
        raise FontsMissingError(
            f"no font to write labels with: the font package {LABEL_FONT_PACKAGE} is not installed; install "
            f"tocktable again in this environment (pip install -e . in the project folder, or pip install "
            f"{LABEL_FONT_PACKAGE})"
        )
    return load_font(f"{files[0]}{_INSTANCE_MARK}{'Bold' if bold else 'Regular'}", size)


def fonts_missing_message(pool: Pool) -> str:
    """What is wrong when ``pool`` has no fonts, and what to do about it."""
    source = font_source()
    what = {"all": "no fonts", "train": "no training fonts", "holdout": "no hold-out fonts"}[pool]
    if source == "system":
        return (
            f"{what} to draw cards with among the system fonts ({ENV_VAR}=system): install the Debian "
            "packages of docs/system-fonts.txt (sudo apt-get install $(grep -v '^#' docs/system-fonts.txt)), "
            f"or unset {ENV_VAR} to use the font packages tocktable installs"
        )
    missing = missing_font_packages()
    if missing:
        return (
            f"{what} to draw cards with: {len(missing)} of tocktable's {len(FONT_PACKAGES)} font packages are "
            f"not installed ({', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''}); install tocktable "
            "again in this environment (pip install -e . in the project folder, or pip install "
            f"{' '.join(missing)})"
        )
    return (
        f"{what} to draw cards with although every font package is installed: the font files could not be "
        f"read by Pillow; reinstall them (pip install --force-reinstall {' '.join(FONT_PACKAGES[:2])} ...)"
    )
