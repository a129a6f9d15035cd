"""The system fonts the renderer draws card indices with, split into training and hold-out pools.

Real decks print their indices in many typefaces (condensed, bold, serif, geometric). The
renderer takes every upright Latin font it finds under the usual font folders (Debian packages
listed in ``.ci/apt-packages.txt``) and splits them *by family*, so that a model trained on the
``"train"`` pool is measured on typefaces it has never seen (``"holdout"``).
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from PIL import ImageFont

FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path.home() / ".fonts")

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


@dataclass(frozen=True)
class FontFace:
    """One font file usable for indices."""

    path: str
    family: str
    style: str

    @property
    def pool(self) -> Literal["train", "holdout"]:
        """Which pool the family belongs to."""
        digest = hashlib.sha256(self.family.encode()).digest()
        return "holdout" if digest[0] % _HOLDOUT_ONE_IN == 0 else "train"


def _usable(family: str, style: str) -> bool:
    if family.startswith("Noto") and family not in _LATIN_NOTO:
        return False
    if any(word in family for word in _EXCLUDED_FAMILY_WORDS):
        return False
    return not any(word in style for word in _EXCLUDED_STYLE_WORDS)


@functools.cache
def index_fonts(pool: Pool = "all") -> tuple[FontFace, ...]:
    """Every usable index font of ``pool``, sorted by path (stable across runs)."""
    if pool not in ("train", "holdout", "all"):
        raise ValueError(f"unknown font pool {pool!r}: expected 'train', 'holdout' or 'all'")
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
    return tuple(face for face in faces if pool == "all" or face.pool == pool)


@functools.cache
def suit_glyph_fonts() -> tuple[str, ...]:
    """Font files that draw the four suit symbols (♠♥♦♣) as filled glyphs."""
    wanted = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "FreeSerif.ttf", "FreeSans.ttf",
              "StandardSymbolsPS.otf", "StandardSymbolsPS.ttf", "NotoSansSymbols2-Regular.ttf")  # fmt: skip
    found: dict[str, str] = {}
    for folder in FONT_DIRS:
        if folder.is_dir():
            for path in folder.rglob("*"):
                if path.name in wanted and path.name not in found and _draws_suits(str(path)):
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
