"""Announcements: reading what a player says, in the French forms of the rules.

Absolute forms, with or without articles, accents or capitals: ``"Un As"``, ``"Paire de Dames"``,
``"Double Paire Valets Rouges"``, ``"Double Paire d'As et de Dames"``, ``"Brelan de Noirs à la
Dame"``, ``"Full de Rois par les Valets"``, ``"Full Rois Valets"``, ``"Carré de Dames à l'As"``,
``"Poker de Dames"``; faces may also be the letters ``N R V D K A`` (capitals only, so that the
French "a"/"à" stays a word) or ``9``/``10``. Completions: ``"Paire Min"``, ``"Brelan de Valets
Max"``, ``"Full de Dames Minimum"``... Relative forms need context, given as keyword arguments:
``"Supérieur"`` (``previous=``), ``"Petit Full"`` / ``"Grand Full"`` (``visible=``, the dice
showing on the table, exactly two different faces).

>>> Announcement.parse("Full Rois Valets")
Announcement('Full de Rois par les Valets')
>>> Announcement.parse("Brelan de Valets au Roi") < Announcement.parse("brelan de valets a l'as")
True
>>> Announcement.parse("Supérieur", previous=Announcement.parse("Paire d'As"))
Announcement('Double Paire de Rouges et de Noirs')
>>> Announcement.parse("Grand Full", visible="D D A")
Announcement("Full d'As par les Dames")
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from table.dice.combination import Category, Combination, all_combinations
from table.dice.errors import AnnouncementError, DiceError
from table.dice.faces import DICE_PER_ROLL, FACE_LETTERS, FACE_WORDS, Face, normalize_word
from table.dice.roll import Roll
from table.phrases import N_, Counted, Number, Phrase, Verbatim, given

Visible = Roll | Iterable[Face | str] | str


class Announcement(Combination):
    """A combination a player claims. Compares with other announcements and with the
    combinations of rolls (``roll.combination() < announcement`` means the claim was a lie)."""

    @classmethod
    def parse(
        cls, text: str, *, previous: Combination | str | None = None, visible: Visible | None = None
    ) -> Announcement:
        """Read an announcement; ``previous`` is the one received (for ``"Supérieur"``),
        ``visible`` the dice showing on the table (for ``"Petit Full"`` / ``"Grand Full"``).

        Raises :class:`~table.dice.errors.AnnouncementError` (a ``ValueError``) for anything
        that is not a valid announcement, with the closest valid ones in ``suggestions``.
        """
        before = _as_combination(previous)
        return _build(_read_words(text, previous=before, visible=visible), text, previous=before, visible=visible)

    @classmethod
    def of(cls, combination: Combination) -> Announcement:
        """The announcement naming exactly ``combination`` (e.g. a roll's)."""
        return cls(combination.category, combination.faces)


class Relative(Enum):
    """The announcements whose meaning depends on the game."""

    SUPERIEUR = "Supérieur"
    PETIT_FULL = "Petit Full"
    GRAND_FULL = "Grand Full"


class Completion(Enum):
    """Min / Max: the lowest or highest announcement a partial one can mean."""

    MIN = "Min"
    MAX = "Max"


def all_announcements() -> tuple[Announcement, ...]:
    """Every valid announcement, lowest first: 2 Salades, 6 Paires, 15 Double Paires, 30 Brelans,
    30 Fulls, 30 Carrés, 6 Pokers."""
    return _all_announcements()


def lowest() -> Announcement:
    """The lowest announcement, ``Un Roi``."""
    return _all_announcements()[0]


def highest() -> Announcement:
    """The highest announcement, ``Poker d'As``."""
    return _all_announcements()[-1]


def next_above(previous: Combination) -> Announcement | None:
    """What ``"Supérieur"`` means after ``previous``: the lowest announcement above it
    (``None`` above a Poker d'As)."""
    for announcement in _all_announcements():
        if announcement > previous:
            return announcement
    return None


def complete(category: Category, faces: Iterable[Face] = (), *, completion: Completion) -> Announcement:
    """The Min or Max completion of a partial announcement: ``complete(Category.BRELAN,
    [Face.VALET], completion=Completion.MAX)`` is the Brelan de Valets à l'As."""
    wanted = tuple(faces)
    candidates = _candidates(category, wanted)
    if not candidates:
        partial = " ".join([category.french, *(f.french_plural for f in wanted)])
        raise AnnouncementError(
            N_("no {french} matches {partial}: a {french} is named by {what_faces}"),
            suggestions=tuple(c.french for c in _with_faces(wanted, near=category)),
            french=Verbatim(category.french),
            partial=given(partial),
            what_faces=category.what_faces,
        )
    return candidates[0] if completion is Completion.MIN else candidates[-1]


@functools.cache
def _all_announcements() -> tuple[Announcement, ...]:
    return tuple(Announcement.of(c) for c in all_combinations())


def _as_combination(value: Combination | str | None) -> Combination | None:
    if isinstance(value, str):
        return Announcement.parse(value)
    return value


def _visible_faces(visible: Visible) -> tuple[Face, ...]:
    if isinstance(visible, Roll):
        return visible.faces
    if isinstance(visible, str):
        stripped = visible.strip()
        words = list(stripped) if re.fullmatch(rf"[{FACE_LETTERS}]*", stripped) else stripped.replace(",", " ").split()
        visible = words
    faces = tuple(f if isinstance(f, Face) else Face.parse(f) for f in visible)
    if len(faces) > DICE_PER_ROLL:
        raise AnnouncementError(
            N_("at most {dice_per_roll} dice can show on the table, got {n_faces}"),
            dice_per_roll=Number(DICE_PER_ROLL),
            n_faces=Number(len(faces)),
        )
    return faces


# --- reading words -------------------------------------------------------------------------

_CATEGORY_WORDS = {
    "salade": Category.SALADE,
    "paire": Category.PAIRE,
    "paires": Category.PAIRE,
    "brelan": Category.BRELAN,
    "full": Category.FULL,
    "carre": Category.CARRE,
    "poker": Category.POKER,
}
_DOUBLE_WORDS = {"double", "deux"}
_SIZE_WORDS = {"petit": Relative.PETIT_FULL, "grand": Relative.GRAND_FULL}
_ARTICLES = {"un", "une"}
_SUPERIEUR = {"superieur", "superieure", "sup"}
_COMPLETIONS = {
    **dict.fromkeys(("min", "mini", "minimum", "minimal", "minimale"), Completion.MIN),
    **dict.fromkeys(("max", "maxi", "maximum", "maximal", "maximale"), Completion.MAX),
}
_FILLERS = {"de", "des", "du", "la", "le", "les", "au", "aux", "et", "par", "avec"}
_VOCABULARY = sorted(
    {
        *_CATEGORY_WORDS, *_DOUBLE_WORDS, *_SIZE_WORDS, *_ARTICLES, *_SUPERIEUR, *_COMPLETIONS, *_FILLERS,
        *(w for w in FACE_WORDS if len(w) > 1),
    }
)  # fmt: skip
_ELISION = re.compile(r"\b[dDlL]\s*['’ʼ‘`´]\s*")
_TOKEN = re.compile(r"[^\W_]+")


@dataclass
class _Words:
    """What the words of an announcement said, before any rule is checked."""

    category: Category | None = None
    faces: list[Face] = field(default_factory=list)
    completion: Completion | None = None
    relative: Relative | None = None
    article: bool = False
    categories_named: int = 0


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(_ELISION.sub(" ", text))


def _read_words(text: str, *, previous: Combination | None, visible: Visible | None) -> _Words:
    words = _Words()
    unknown: list[str] = []
    tokens = _tokens(text)
    pending: str | None = None  # "double" / "petit" waiting for the word that completes it
    for raw in tokens:
        word = normalize_word(raw)
        if pending is not None:
            _complete_pair(words, pending, word, text)
            pending = None
            continue
        if len(raw) == 1 and not raw.isdigit():
            # Capital letters are faces; small ones ("a", "à", a stray "d") are French particles.
            if raw in FACE_LETTERS:
                words.faces.append(FACE_WORDS[word])
            continue
        if word in _CATEGORY_WORDS:
            words.category = _CATEGORY_WORDS[word]
            words.categories_named += 1
        elif word in _DOUBLE_WORDS or word in _SIZE_WORDS:
            pending = word
        elif word in FACE_WORDS:
            words.faces.append(FACE_WORDS[word])
        elif word in _COMPLETIONS:
            if words.completion is not None:
                raise AnnouncementError(N_("{text} says Min or Max twice: say it once, at the end"), text=given(text))
            words.completion = _COMPLETIONS[word]
        elif word in _SUPERIEUR:
            words.relative = Relative.SUPERIEUR
        elif word in _ARTICLES:
            words.article = True
        elif word not in _FILLERS:
            unknown.append(raw)
    if pending is not None:
        _complete_pair(words, pending, "", text)
    if unknown:
        raise AnnouncementError(
            N_(
                "cannot read {text}: {what}; an announcement is a combination (Salade/Un, Paire, Double "
                "Paire, Brelan, Full, Carré, Poker) with faces (Noir, Rouge, Valet, Dame, Roi, As), Min/Max, or "
                "Supérieur, Petit Full, Grand Full"
            ),
            suggestions=_typo_suggestions(tokens, previous=previous, visible=visible) or _closest_labels(text),
            text=given(text),
            what=Phrase(
                N_("unknown word {unknown}") if len(unknown) == 1 else N_("unknown words {unknown}"),
                unknown=Verbatim(", ".join(repr(u) for u in unknown)),
            ),
        )
    if not tokens:
        raise AnnouncementError(
            N_("empty announcement: say a combination, e.g. 'Paire de Dames'"), suggestions=("Un Roi", "Supérieur")
        )
    return words


def _complete_pair(words: _Words, first: str, second: str, text: str) -> None:
    if first in _DOUBLE_WORDS and second in ("paire", "paires"):
        words.category = Category.DOUBLE_PAIRE
        words.categories_named += 1
    elif first in _SIZE_WORDS and second == "full":
        words.relative = _SIZE_WORDS[first]
    else:
        expected = "Paire" if first in _DOUBLE_WORDS else "Full"
        raise AnnouncementError(
            N_("cannot read {text}: {first} must be followed by {expected}"),
            suggestions=("Double Paire Min",) if expected == "Paire" else ("Petit Full", "Grand Full"),
            text=given(text),
            first=given(first),
            expected=given(expected),
        )


def _typo_suggestions(tokens: list[str], *, previous: Combination | None, visible: Visible | None) -> tuple[str, ...]:
    """Fix each unknown word to the closest known one and read the result, if that works."""
    fixed: list[str] = []
    for raw in tokens:
        word = normalize_word(raw)
        known = len(raw) == 1 or word in _VOCABULARY
        if known:
            fixed.append(raw)
            continue
        # A word like nothing we know (English "of") is left out rather than guessed.
        fixed.extend(difflib.get_close_matches(word, _VOCABULARY, n=1, cutoff=0.6))
    corrected = " ".join(fixed)
    try:
        return (Announcement.parse(corrected, previous=previous, visible=visible).french,)
    except DiceError:
        pass
    try:
        relative = _read_words(corrected, previous=previous, visible=visible).relative
    except DiceError:
        return ()
    return () if relative is None else (relative.value,)


def _comparable(text: str) -> str:
    return " ".join(normalize_word(t) for t in _tokens(text))


@functools.cache
def _label_index() -> dict[str, str]:
    labels = [a.french for a in _all_announcements()]
    labels += [a.french_short for a in _all_announcements()]
    labels += [r.value for r in Relative]
    return {_comparable(label): label for label in labels}


def _closest_labels(text: str) -> tuple[str, ...]:
    index = _label_index()
    matches = difflib.get_close_matches(_comparable(text), list(index), n=3, cutoff=0.4)
    return tuple(dict.fromkeys(_canonical(index[m]) for m in matches))


def _canonical(label: str) -> str:
    try:
        return Announcement.parse(label).french
    except DiceError:
        return label  # a relative form: it stays as it is said


# --- building the announcement -------------------------------------------------------------


def _build(words: _Words, text: str, *, previous: Combination | None, visible: Visible | None) -> Announcement:
    if words.relative is not None:
        if words.faces or words.category is not None or words.completion is not None:
            raise AnnouncementError(
                N_("{text}: {value} is said alone, without faces, combination or Min/Max"),
                suggestions=(words.relative.value,),
                text=given(text),
                value=given(words.relative.value),
            )
        if words.relative is Relative.SUPERIEUR:
            return _superieur(previous)
        return _sized_full(words.relative, visible)
    if words.categories_named > 1:
        raise AnnouncementError(
            N_(
                "{text} names more than one combination: an announcement is one of Salade, Paire, Double Paire, "
                "Brelan, Full, Carré, Poker"
            ),
            suggestions=_closest_labels(text),
            text=given(text),
        )
    category = words.category
    faces = tuple(words.faces)
    if category is None:
        if words.article and len(faces) == 1:
            category = Category.SALADE
        else:
            raise AnnouncementError(
                N_(
                    "{text} names no combination: say Un/Une (a Salade), Paire, Double Paire, Brelan, Full, Carré or "
                    "Poker"
                ),
                suggestions=tuple(c.french for c in _with_faces(faces, near=None)) or _closest_labels(text),
                text=given(text),
            )
    if words.completion is not None:
        if len(faces) > category.face_count:
            raise AnnouncementError(
                N_(
                    "{text}: a {french} is named by {what_faces}; with Min or Max, give at most {face_count}, got "
                    "{n_faces}"
                ),
                suggestions=(f"{category.french} {words.completion.value}",),
                text=given(text),
                french=Verbatim(category.french),
                what_faces=category.what_faces,
                face_count=Counted(category.face_count, "{n} face", "{n} faces"),
                n_faces=Number(len(faces)),
            )
        return complete(category, faces, completion=words.completion)
    if len(faces) < category.face_count:
        lowest_, highest_ = (
            complete(category, faces, completion=Completion.MIN),
            complete(category, faces, completion=Completion.MAX),
        )
        partial = " ".join([category.french, *(f.french_plural for f in faces)])
        raise AnnouncementError(
            N_(
                "{text} is incomplete: a {french} is named by {what_faces}; or complete it with Min ({partial} Min = "
                "{with_min}) or Max ({with_max})"
            ),
            suggestions=(lowest_.french, highest_.french),
            text=given(text),
            french=Verbatim(category.french),
            what_faces=category.what_faces,
            partial=Verbatim(partial),
            with_min=Verbatim(lowest_.french),
            with_max=Verbatim(highest_.french),
        )
    if len(faces) > category.face_count:
        raise AnnouncementError(
            N_("{text} has too many faces: a {french} is named by {what_faces}"),
            suggestions=tuple(c.french for c in _with_faces(faces, near=category)) or _closest_labels(text),
            text=given(text),
            french=Verbatim(category.french),
            what_faces=category.what_faces,
        )
    return Announcement(category, faces)


def _superieur(previous: Combination | None) -> Announcement:
    if previous is None:
        raise AnnouncementError(
            N_(
                "'Supérieur' needs the announcement received (previous=...); the first announcement of a game is "
                "absolute, the lowest being 'Un Roi'"
            ),
            suggestions=(lowest().french,),
        )
    above = next_above(previous)
    if above is None:
        raise AnnouncementError(
            N_(
                "nothing is above {french}: after a Poker d'As the only moves are to not believe it or to re-announce "
                "it after a Tour de Poker"
            ),
            suggestions=(highest().french,),
            french=given(previous.french),
        )
    return above


def _sized_full(relative: Relative, visible: Visible | None) -> Announcement:
    if visible is None:
        raise AnnouncementError(
            N_(
                "{value} needs the dice showing on the table (visible=...): it is the Full made of the two faces on "
                "the table, the Petit Full with three of the lower one"
            ),
            value=given(relative.value),
        )
    shown = sorted(set(_visible_faces(visible)))
    if len(shown) != 2:
        listed = Verbatim(", ".join(f.french_plural for f in shown)) if shown else Phrase(N_("no dice"))
        raise AnnouncementError(
            N_("{value} can be said only when exactly two faces show on the table; it shows {faces}"),
            value=given(relative.value),
            faces=listed,
        )
    low, high = shown
    if relative is Relative.PETIT_FULL:
        return Announcement(Category.FULL, (low, high))
    return Announcement(Category.FULL, (high, low))


def _candidates(category: Category, faces: tuple[Face, ...]) -> list[Announcement]:
    """The announcements of ``category`` a partial one with ``faces`` can mean, lowest first."""
    if category is Category.DOUBLE_PAIRE:
        return [a for a in _all_announcements() if a.category is category and set(faces) <= set(a.faces)]
    return [a for a in _all_announcements() if a.category is category and a.faces[: len(faces)] == faces]


def _with_faces(faces: tuple[Face, ...], *, near: Category | None) -> list[Announcement]:
    """Announcements named by exactly these faces: the kinds closest to ``near`` first, then the
    ones keeping the faces in the order given."""
    same = [a for a in _all_announcements() if sorted(a.faces) == sorted(faces)]
    same.sort(key=lambda a: (0 if near is None else abs(a.category - near), a.faces != faces, a.category))
    return same[:3]
