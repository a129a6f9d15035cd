"""The faces of a poker die, their names, and every spelling of them a user may type.

A poker die shows, from low to high: a black nine ("Noir", ``N``), a red ten ("Rouge", ``R``),
a Valet (``V``), a Dame (``D``), a Roi (``K``) and an As (``A``).

>>> Face.parse("Dame") is Face.parse("q") is Face.DAME
True
>>> Face.ROI.au, Face.AS.de
('au Roi', "d'As")
"""

from __future__ import annotations

import unicodedata
from enum import IntEnum

from table.dice.errors import RollError
from table.phrases import N_, Verbatim, given

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
            raise RollError(
                N_("unknown die face {text}: expected one of {faces_allowed}"),
                text=given(text),
                faces_allowed=Verbatim(FACES_ALLOWED),
            )
        return face


# Every spelling of a face a user may type, in normalized form (see normalize_word).
FACE_WORDS: dict[str, Face] = {}
for _face in Face:
    for _word in (_face.letter, _face.french, _face.french_plural, _face.english, _face.english_plural):
        FACE_WORDS[normalize_word(_word)] = _face
FACE_WORDS.update({"9": Face.NOIR, "neuf": Face.NOIR, "10": Face.ROUGE, "dix": Face.ROUGE})
FACE_WORDS.update({"j": Face.VALET, "q": Face.DAME})  # English letters: a jack is a Valet
FACE_WORDS.update({"reine": Face.DAME, "reines": Face.DAME})

# The faces as an error message lists what is allowed.
FACES_ALLOWED = "N (Noir, 9), R (Rouge, 10), V (Valet), D (Dame), K (Roi), A (As)"
