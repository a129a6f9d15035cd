"""Poker dice combinations, their total order and their names in French and English.

Low to high: Salade, Paire, Double Paire, Brelan, Full, Carré, Poker (no straights, no
colours). Ties are decided exactly as the rules say, and by nothing else:

- Salade: the highest die only (five different faces, so a Roi or an As);
- Paire: the pair only, never the other dice;
- Double Paire: the higher pair, then the other, never the fifth die;
- Brelan: the three, then the highest remaining die;
- Full: the three, then the pair;
- Carré: the four, then the last die;
- Poker: the face of the five.

A combination is named by faces alone; :meth:`table.dice.roll.Roll.combination` reads one from
five dice through :meth:`Combination.of_faces`.

>>> from table.dice import Roll
>>> Roll.parse("K K D D N").combination() < Roll.parse("A A N N R").combination()
True
>>> Roll.parse("D D N R A").combination() == Roll.parse("D D V K A").combination()
True
>>> print(Roll.parse("V V V K N").combination())
Brelan de Valets au Roi
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Protocol

from table.dice.errors import AnnouncementError
from table.dice.faces import DICE_PER_ROLL, Face
from table.phrases import N_, Counted, Number, Phrase, Verbatim, given


class Category(IntEnum):
    """The kind of a combination, from Salade (0) to Poker (6)."""

    SALADE = 0
    PAIRE = 1
    DOUBLE_PAIRE = 2
    BRELAN = 3
    FULL = 4
    CARRE = 5
    POKER = 6

    @property
    def french(self) -> str:
        """French name, e.g. ``"Carré"``."""
        return ("Salade", "Paire", "Double Paire", "Brelan", "Full", "Carré", "Poker")[self]

    @property
    def english(self) -> str:
        """English name, e.g. ``"Four of a kind"``."""
        return (
            "High die", "Pair", "Two pair", "Three of a kind", "Full house", "Four of a kind", "Five of a kind",
        )[self]  # fmt: skip

    @property
    def face_count(self) -> int:
        """How many faces name a combination of this kind (Paire de Dames: 1; Full Rois Valets: 2)."""
        return 1 if self in (Category.SALADE, Category.PAIRE, Category.POKER) else 2

    @property
    def what_faces(self) -> Phrase:
        """What the faces of this kind stand for, in words, for refusals."""
        return Phrase(
            {
                Category.SALADE: N_("its highest die, a Roi or an As (five different faces)"),
                Category.PAIRE: N_("the face of the pair"),
                Category.DOUBLE_PAIRE: N_("the faces of the two pairs, two different faces"),
                Category.BRELAN: N_("the face of the three, then a different face: the highest other die"),
                Category.FULL: N_("the face of the three, then the different face of the pair"),
                Category.CARRE: N_("the face of the four, then the different face of the last die"),
                Category.POKER: N_("the face of the five dice"),
            }[self]
        )


_SALADE_FACES = (Face.ROI, Face.AS)

# Labels by kind; ``a`` is the first deciding face, ``b`` the second (the same face for one-face kinds).
_FRENCH_LABELS = {
    Category.SALADE: "{a.un}",
    Category.PAIRE: "Paire {a.de}",
    Category.DOUBLE_PAIRE: "Double Paire {a.de} et {b.de}",
    Category.BRELAN: "Brelan {a.de} {b.au}",
    Category.FULL: "Full {a.de} par les {b.french_plural}",
    Category.CARRE: "Carré {a.de} {b.au}",
    Category.POKER: "Poker {a.de}",
}
_ENGLISH_LABELS = {
    Category.SALADE: "{a.english} high",
    Category.PAIRE: "Pair of {a.english_plural}",
    Category.DOUBLE_PAIRE: "Two pair, {a.english_plural} and {b.english_plural}",
    Category.BRELAN: "Three {a.english_plural} with {b.a_english}",
    Category.FULL: "{a.english_plural} full of {b.english_plural}",
    Category.CARRE: "Four {a.english_plural} with {b.a_english}",
    Category.POKER: "Five {a.english_plural}",
}


class ShowsFaces(Protocol):
    """Anything showing five faces, such as a :class:`~table.dice.roll.Roll`."""

    @property
    def faces(self) -> tuple[Face, ...]:
        """The faces, in any order."""


@functools.total_ordering
@dataclass(frozen=True, eq=False, repr=False)
class Combination:
    """A combination with the faces that decide ties, in the order they decide them.

    ``faces`` is one face for Salade, Paire and Poker; two for the others: Double Paire (higher
    pair first; given in any order, it is put high first), Brelan (three, kicker), Full (three,
    pair), Carré (four, kicker). Combinations are totally ordered with ``<`` and ``==``; any two
    with the same category and faces are equal, whichever dice made them.
    """

    category: Category
    faces: tuple[Face, ...]

    def __post_init__(self) -> None:
        try:
            category = Category(self.category)
            faces = tuple(Face(f) for f in self.faces)
        except (ValueError, TypeError) as exc:
            raise AnnouncementError(
                N_(
                    "not a combination: category {category} with faces {faces}; expected a Category and faces N R V D "
                    "K A (Face.NOIR .. Face.AS)"
                ),
                category=given(self.category),
                faces=given(self.faces),
            ) from exc
        if len(faces) != category.face_count:
            raise AnnouncementError(
                N_("a {french} is named by {face_count}, {what_faces}; got {n_faces}: {value}"),
                french=Verbatim(category.french),
                face_count=Counted(category.face_count, "{n} face", "{n} faces"),
                what_faces=category.what_faces,
                n_faces=Number(len(faces)),
                value=Verbatim(" ".join(f.letter for f in faces)) if faces else Phrase(N_("none")),
            )
        if len(faces) == 2 and faces[0] == faces[1]:
            raise AnnouncementError(
                N_("impossible {french} with {french_plural} twice: a {french} is named by {what_faces}"),
                suggestions=_nearby_labels(category, faces[0]),
                french=Verbatim(category.french),
                french_plural=Verbatim(faces[0].french_plural),
                what_faces=category.what_faces,
            )
        if category is Category.SALADE and faces[0] not in _SALADE_FACES:
            raise AnnouncementError(
                N_(
                    "impossible Salade {face}: five different faces always include a Roi or an As, so a Salade is 'Un "
                    "Roi' or 'Un As'"
                ),
                suggestions=("Un Roi", "Un As"),
                face=given(faces[0].un),
            )
        if category is Category.DOUBLE_PAIRE and faces[0] < faces[1]:
            faces = (faces[1], faces[0])
        object.__setattr__(self, "category", category)
        object.__setattr__(self, "faces", faces)

    @classmethod
    def of_roll(cls, roll: ShowsFaces) -> Combination:
        """The combination five dice show (same as ``roll.combination()``)."""
        return cls.of_faces(roll.faces)

    @classmethod
    def of_faces(cls, faces: Iterable[Face]) -> Combination:
        """The combination five faces show, in any order (they are checked by :class:`Roll`)."""
        # Faces by multiplicity, then by face, both descending: the first group decides first.
        groups = sorted(Counter(faces).items(), key=lambda item: (item[1], item[0]), reverse=True)
        shape = tuple(count for _, count in groups)
        top = groups[0][0]
        if shape == (5,):
            return cls(Category.POKER, (top,))
        if shape == (4, 1):
            return cls(Category.CARRE, (top, groups[1][0]))
        if shape == (3, 2):
            return cls(Category.FULL, (top, groups[1][0]))
        if shape == (3, 1, 1):
            return cls(Category.BRELAN, (top, groups[1][0]))
        if shape == (2, 2, 1):
            return cls(Category.DOUBLE_PAIRE, (top, groups[1][0]))
        if shape == (2, 1, 1, 1):
            return cls(Category.PAIRE, (top,))
        return cls(Category.SALADE, (top,))

    @property
    def key(self) -> tuple[int, ...]:
        """The sort key: category, then the deciding faces."""
        return (int(self.category), *(int(f) for f in self.faces))

    @property
    def attainable(self) -> bool:
        """Whether some five dice are worth exactly this.

        Every combination is, except the Brelans whose kicker is the lowest other face
        ("Brelan de Valets au Noir": the two other dice would both be Noirs, a Full). The rules
        name those as Min completions, so they are valid announcements; claiming one is the same
        claim as the next Brelan up.
        """
        return self.key in _attainable_keys()

    @property
    def french(self) -> str:
        """The full French announcement, e.g. ``"Full de Rois par les Valets"``."""
        return _FRENCH_LABELS[self.category].format(a=self.faces[0], b=self.faces[-1])

    @property
    def french_short(self) -> str:
        """The short form the rules allow for Double Paire and Full (``"Full Rois Valets"``);
        the full form for the others."""
        if self.category in (Category.DOUBLE_PAIRE, Category.FULL):
            return f"{self.category.french} {self.faces[0].french_plural} {self.faces[1].french_plural}"
        return self.french

    @property
    def english(self) -> str:
        """An English label for display, e.g. ``"Kings full of Jacks"``."""
        return _ENGLISH_LABELS[self.category].format(a=self.faces[0], b=self.faces[-1])

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready description for a page."""
        return {
            "french": self.french,
            "french_short": self.french_short,
            "english": self.english,
            "category": self.category.name.lower(),
            "faces": [f.letter for f in self.faces],
            "attainable": self.attainable,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Combination):
            return NotImplemented
        return self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Combination):
            return NotImplemented
        return self.key < other.key

    def __str__(self) -> str:
        return self.french

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.french!r})"


def all_combinations() -> tuple[Combination, ...]:
    """Every combination that can be announced, lowest first (119 of them)."""
    return _all_combinations()


@functools.cache
def _all_combinations() -> tuple[Combination, ...]:
    return tuple(sorted(_enumerate()))


def _enumerate() -> Iterator[Combination]:
    for category in Category:
        if category is Category.SALADE:
            firsts: tuple[Face, ...] = _SALADE_FACES
        else:
            firsts = tuple(Face)
        for first in firsts:
            if category.face_count == 1:
                yield Combination(category, (first,))
                continue
            for second in Face:
                if second == first or (category is Category.DOUBLE_PAIRE and second > first):
                    continue
                yield Combination(category, (first, second))


@functools.cache
def _attainable_keys() -> frozenset[tuple[int, ...]]:
    every_roll = itertools.combinations_with_replacement(Face, DICE_PER_ROLL)
    return frozenset(Combination.of_faces(faces).key for faces in every_roll)


def _nearby_labels(category: Category, face: Face) -> tuple[str, ...]:
    """Valid combinations of the same kind closest to one naming ``face`` twice (and, for a Full,
    the Poker that five such dice would be)."""
    same = [c for c in _all_combinations() if c.category is category and face in c.faces]
    same.sort(key=lambda c: (c.faces[0] != face, abs(c.faces[-1] - face)))
    labels = [c.french for c in same[:3]]
    if category is Category.FULL:
        labels[2:] = [Combination(Category.POKER, (face,)).french]
    return tuple(labels)
