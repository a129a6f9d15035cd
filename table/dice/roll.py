"""A roll of five poker dice: reading one, every possible one, and what it is worth.

The roll sits above both :class:`~table.dice.faces.Face` and
:class:`~table.dice.combination.Combination`: a combination is named by faces and never needs a
roll, so the arrows between the three modules all point one way.

>>> roll = Roll.parse("N N D D A")
>>> str(roll), roll.faces[-1].french
('N N D D A', 'As')
>>> Roll.parse("AKDVR") == Roll.parse("r v d k a")
True
>>> Roll.parse("N N D D A").combination()
Combination('Double Paire de Dames et de Noirs')
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from table.dice.combination import Combination
from table.dice.errors import RollError
from table.dice.faces import DICE_PER_ROLL, FACE_LETTERS, FACES_ALLOWED, Face
from table.phrases import N_, Counted, Number, Verbatim, given

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
            raise RollError(
                N_("a roll is {dice_per_roll} dice, got {n_faces}: {faces}"),
                dice_per_roll=Number(DICE_PER_ROLL),
                n_faces=Number(len(faces)),
                faces=given(faces),
            )
        try:
            ordered = tuple(sorted(Face(f) for f in faces))
        except (ValueError, TypeError) as exc:
            raise RollError(
                N_("not poker die faces: {faces}; expected {faces_allowed}"),
                faces=given(faces),
                faces_allowed=Verbatim(FACES_ALLOWED),
            ) from exc
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
        parts = [w for w in re.split(r"[\s,;]+", stripped) if w]
        if len(parts) != DICE_PER_ROLL:
            raise RollError(
                N_(
                    "cannot read {text} as a roll: expected {dice_per_roll} faces among {faces_allowed}, e.g. 'N N D "
                    "D A' or 'NNDDA'; got {word_count}"
                ),
                text=given(text),
                dice_per_roll=Number(DICE_PER_ROLL),
                faces_allowed=Verbatim(FACES_ALLOWED),
                word_count=Counted(len(parts), "{n} word", "{n} words"),
            )
        return cls.of(parts)

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
        return Combination.of_faces(self.faces)

    def __str__(self) -> str:
        return " ".join(face.letter for face in self.faces)

    def __repr__(self) -> str:
        return f"Roll.parse({str(self)!r})"
