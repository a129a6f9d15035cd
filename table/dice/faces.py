"""Poker dice faces and a roll of five dice.

A poker die shows, from low to high: a black nine ("Noir", ``N``), a red ten ("Rouge", ``R``),
a Valet (``V``), a Dame (``D``), a Roi (``K``) and an As (``A``).

>>> roll = Roll.parse("N N D D A")
>>> str(roll), roll.faces[-1].french
('N N D D A', 'As')
>>> Roll.parse("AKDVR") == Roll.parse("r v d k a")
True
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

from table.dice.errors import RollError
from table.wording import counted

if TYPE_CHECKING:  # combination.py imports this module
    from table.dice.combination import Combination

FACE_LETTERS = "NRVDKA"
DICE_PER_ROLL = 5

_FRENCH = ("Noir", "Rouge", "Valet", "Dame", "Roi", "As")
_FRENCH_PLURAL = ("Noirs", "Rouges", "Valets", "Dames", "Rois", "As")
_ENGLISH = ("Nine", "Ten", "Jack", "Queen", "King", "Ace")
_ENGLISH_PLURAL = ("Nines", "Tens", "Jacks", "Queens", "Kings", "Aces")


def normalize_word(word: str) -> str:
    """Lower case without accents: ``"Carré"`` -> ``"carre"``."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


class Face(IntEnum):
    """A face of a poker die, ordered from the black nine (0) to the As (5)."""

    NOIR = 0
    ROUGE = 1
    VALET = 2
    DAME = 3
    ROI = 4
    AS = 5

    @property
    def letter(self) -> str:
        """One-letter symbol: ``N R V D K A``."""
        return FACE_LETTERS[self]

    @property
    def french(self) -> str:
        """French name, e.g. ``"Dame"``."""
        return _FRENCH[self]

    @property
    def french_plural(self) -> str:
        """French plural, e.g. ``"Dames"``."""
        return _FRENCH_PLURAL[self]

    @property
    def english(self) -> str:
        """English name, e.g. ``"Queen"`` (the black nine is ``"Nine"``)."""
        return _ENGLISH[self]

    @property
    def english_plural(self) -> str:
        """English plural, e.g. ``"Queens"``."""
        return _ENGLISH_PLURAL[self]

    @property
    def de(self) -> str:
        """``"de Dames"``, ``"d'As"``: the face as the group of a combination."""
        return "d'As" if self is Face.AS else f"de {self.french_plural}"

    @property
    def au(self) -> str:
        """``"au Roi"``, ``"à la Dame"``, ``"à l'As"``: the face as the deciding die."""
        if self is Face.AS:
            return "à l'As"
        if self is Face.DAME:
            return "à la Dame"
        return f"au {self.french}"

    @property
    def un(self) -> str:
        """``"Un Roi"``, ``"Une Dame"``: the face alone, as a Salade is announced."""
        return f"{'Une' if self is Face.DAME else 'Un'} {self.french}"

    @property
    def a_english(self) -> str:
        """``"a King"``, ``"an Ace"``."""
        return f"{'an' if self is Face.AS else 'a'} {self.english}"

    @classmethod
    def parse(cls, text: str) -> Face:
        """Read a letter (``N R V D K A``, any case), a French or English name, ``9`` or ``10``."""
        face = FACE_WORDS.get(normalize_word(text.strip()))
        if face is None:
            raise RollError(f"unknown die face {text!r}: expected one of {_FACES_ALLOWED}")
        return face


# Every spelling of a face a user may type, in normalized form (see normalize_word).
FACE_WORDS: dict[str, Face] = {}
for _face in Face:
    for _word in (_face.letter, _face.french, _face.french_plural, _face.english, _face.english_plural):
        FACE_WORDS[normalize_word(_word)] = _face
FACE_WORDS.update({"9": Face.NOIR, "neuf": Face.NOIR, "10": Face.ROUGE, "dix": Face.ROUGE})
FACE_WORDS.update({"j": Face.VALET, "q": Face.DAME})  # English letters: a jack is a Valet
FACE_WORDS.update({"reine": Face.DAME, "reines": Face.DAME})

_FACES_ALLOWED = "N (Noir, 9), R (Rouge, 10), V (Valet), D (Dame), K (Roi), A (As)"
_COMPACT = re.compile(rf"[{FACE_LETTERS}{FACE_LETTERS.lower()}]{{{DICE_PER_ROLL}}}")


@dataclass(frozen=True, slots=True)
class Roll:
    """Five poker dice, kept sorted from low to high (the order they were read in does not matter).

    Two rolls are equal when they show the same faces.
    """

    faces: tuple[Face, ...]

    def __post_init__(self) -> None:
        faces = tuple(self.faces)
        if len(faces) != DICE_PER_ROLL:
            raise RollError(f"a roll is {DICE_PER_ROLL} dice, got {len(faces)}: {faces!r}")
        try:
            ordered = tuple(sorted(Face(f) for f in faces))
        except (ValueError, TypeError) as exc:
            raise RollError(f"not poker die faces: {faces!r}; expected {_FACES_ALLOWED}") from exc
        object.__setattr__(self, "faces", ordered)

    @classmethod
    def of(cls, faces: Iterable[Face | str]) -> Roll:
        """A roll from faces or face names: ``Roll.of([Face.DAME, "A", "Noir", "N", "D"])``."""
        return cls(tuple(f if isinstance(f, Face) else Face.parse(f) for f in faces))

    @classmethod
    def parse(cls, text: str) -> Roll:
        """Read five faces separated by spaces or commas (``"N N D D A"``, ``"9 10 Valet Dame As"``)
        or written together (``"NNDDA"``)."""
        stripped = text.strip()
        if _COMPACT.fullmatch(stripped):
            return cls.of(stripped)
        words = [w for w in re.split(r"[\s,;]+", stripped) if w]
        if len(words) != DICE_PER_ROLL:
            raise RollError(
                f"cannot read {text!r} as a roll: expected {DICE_PER_ROLL} faces among {_FACES_ALLOWED}, "
                f"e.g. 'N N D D A' or 'NNDDA'; got {counted(len(words), 'word')}"
            )
        return cls.of(words)

    @classmethod
    def all(cls) -> Iterator[Roll]:
        """Each of the 252 different rolls once, lowest faces first (see :attr:`ways`)."""
        for faces in itertools.combinations_with_replacement(Face, DICE_PER_ROLL):
            yield cls(faces)

    @property
    def ways(self) -> int:
        """How many of the 6**5 = 7776 equally likely throws of five dice show this roll."""
        ways = math.factorial(DICE_PER_ROLL)
        for count in Counter(self.faces).values():
            ways //= math.factorial(count)
        return ways

    def counts(self) -> dict[Face, int]:
        """How many dice show each face present, e.g. ``{Face.NOIR: 2, Face.DAME: 2, Face.AS: 1}``."""
        return dict(Counter(self.faces))

    def combination(self) -> Combination:
        """What the roll is worth: Salade, Paire, ..., Poker, with the faces that decide ties."""
        from table.dice.combination import Combination

        return Combination.of_roll(self)

    def __str__(self) -> str:
        return " ".join(face.letter for face in self.faces)

    def __repr__(self) -> str:
        return f"Roll.parse({str(self)!r})"
