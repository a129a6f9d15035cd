"""Messages as values: an English template and its figures, said in any language at the edge.

A refusal the rules make ("Seat 3 cannot check: 40 to call") is read by a person on a phone in
their own language, but ``table`` speaks no language: it has no catalog and no locale. So an
error carries a :class:`Phrase`: the English template, which is also the catalog's message id,
marked with :func:`N_` so the message extractor finds it, and the *figures* that fill it, each a
small typed value that every language writes its own way:

* :class:`Seat` - a seat, kept as its index and written for people (index 2 is "3");
* :class:`Seats` - a few seats with their noun ("seat 3", "seats 2 and 4" / "sièges 2 et 4");
* :class:`Chips` and :class:`Number` - written with the language's digits ("1,000" / "1 000");
* :class:`Word` - a small marked message of its own (an action, a street), translated too;
* :class:`Listed` - figures joined as a list ("check, call or fold" / "... ou se coucher");
* :class:`Counted` - a count with its noun in the language's plural form;
* :class:`Verbatim` - text that is the same in every language: cards as written ("Ah Kd"),
  the game's French dice announcements, a player's name, what someone typed (:func:`given`);
* a nested :class:`Phrase` - a reason inside a refusal.

``str(error)`` stays the English sentence (logs, the command line and tests read it), made by
:meth:`Phrase.english`; ``web.words.phrases`` says the same phrase in another language. A phrase
travels in the table's JSON snapshot as plain data (:meth:`Phrase.to_data`, :func:`phrase_from_data`).

>>> phrase = Phrase(N_("Seat {seat} cannot check: {owed} to call."), seat=Seat(2), owed=Chips(1500))
>>> phrase.english()
'Seat 3 cannot check: 1500 to call.'
>>> phrase_from_data(phrase.to_data()) == phrase
True
>>> Seats([1, 3]).english(), Listed([Word(N_("check")), Word(N_("fold"))], "or").english()
('seats 2 and 4', 'check or fold')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from table.wording import listed

__all__ = [
    "NP_",
    "N_",
    "Chips",
    "Counted",
    "Figure",
    "Listed",
    "Number",
    "Phrase",
    "Seat",
    "Seats",
    "Verbatim",
    "Word",
    "card_text",
    "given",
    "phrase_from_data",
    "pot_name",
    "setting",
]


def N_(message: str) -> str:
    """``message`` itself: marks an English template (or a small word) for the catalogs."""
    return message


@dataclass(frozen=True)
class Seat:
    """One seat: its index from 0 (written from 1 for people), or what was given when it is no index."""

    index: int | str

    def english(self) -> str:
        return str(self.index + 1) if isinstance(self.index, int) else self.index

    @staticmethod
    def of(index: object) -> Seat:
        """The seat of ``index``; a value that is no index is kept as written (``"'x'"``)."""
        return Seat(index if isinstance(index, int) and not isinstance(index, bool) else repr(index))


@dataclass(frozen=True)
class Seats:
    """A few seats, written with their noun: ``"seat 3"`` or ``"seats 1, 3 and 4"``."""

    indexes: tuple[int | str, ...]

    def __init__(self, indexes: Iterable[object]) -> None:
        object.__setattr__(self, "indexes", tuple(i if isinstance(i, str) else Seat.of(i).index for i in indexes))

    def numbers(self) -> list[str]:
        return [Seat(i).english() for i in self.indexes]

    def english(self) -> str:
        return f"{'seat' if len(self.indexes) == 1 else 'seats'} {listed(self.numbers())}"


@dataclass(frozen=True)
class Chips:
    """An amount of chips."""

    amount: int

    def english(self) -> str:
        return str(self.amount)


@dataclass(frozen=True)
class Number:
    """A count or a rule's number (seats, cards, seconds)."""

    value: int | float

    def english(self) -> str:
        return str(self.value)


def NP_(context: str, message: str) -> str:
    """``message`` itself, marked with its ``context`` (the same English said differently)."""
    return message


@dataclass(frozen=True)
class Word:
    """A small message of its own (marked with :func:`N_`, or :func:`NP_` with its ``context``),
    translated where the phrase is said."""

    message: str
    context: str | None = None

    def english(self) -> str:
        return self.message


@dataclass(frozen=True)
class Verbatim:
    """Text every language writes the same: cards, names, the dice announcements, given input."""

    text: str

    def english(self) -> str:
        return self.text


def given(value: object) -> Verbatim:
    """What someone gave, quoted as written (``'Zh'``), for a refusal to show it back."""
    return Verbatim(repr(value))


@dataclass(frozen=True)
class Counted:
    """``n`` with its noun: ``singular`` for one, else ``plural``; both are marked messages with ``{n}``."""

    n: int
    singular: str
    plural: str

    def english(self) -> str:
        return (self.singular if self.n == 1 else self.plural).format(n=self.n)


@dataclass(frozen=True)
class Listed:
    """Figures as a list: ``"a, b and c"`` (``last="or"``: ``"a, b or c"``; ``last=","``: ``"a, b, c"``,
    a plain enumeration, the same in every language)."""

    items: tuple[Figure, ...]
    last: Literal["and", "or", ","] = "and"

    def __init__(self, items: Iterable[Figure], last: Literal["and", "or", ","] = "and") -> None:
        object.__setattr__(self, "items", tuple(items))
        object.__setattr__(self, "last", last)

    def english(self) -> str:
        said = [item.english() for item in self.items]
        return ", ".join(said) if self.last == "," else listed(said, self.last)


@dataclass(frozen=True)
class Phrase:
    """An English template (the catalog's message id) and the figures that fill its ``{names}``."""

    template: str
    figures: Mapping[str, Figure] = field(default_factory=dict)

    def __init__(self, template: str, figures: Mapping[str, Figure] | None = None, /, **more: Figure) -> None:
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "figures", {**(figures or {}), **more})

    def __hash__(self) -> int:
        return hash((self.template, tuple(sorted(self.figures))))

    def english(self) -> str:
        """The English sentence (a template without figures is taken as written)."""
        if not self.figures:
            return self.template
        return self.template.format(**{name: figure.english() for name, figure in self.figures.items()})

    def to_data(self) -> dict[str, Any]:
        """The phrase as JSON-able data: ``{"template": ..., "figures": {name: [type, ...]}}``."""
        return {"template": self.template, "figures": {k: _figure_data(v) for k, v in self.figures.items()}}


Figure = Seat | Seats | Chips | Number | Word | Verbatim | Counted | Listed | Phrase
"""Every kind of value a phrase is filled with."""


def _figure_data(figure: Figure) -> list[Any]:
    if isinstance(figure, Seat):
        return ["seat", figure.index]
    if isinstance(figure, Seats):
        return ["seats", list(figure.indexes)]
    if isinstance(figure, Chips):
        return ["chips", figure.amount]
    if isinstance(figure, Number):
        return ["number", figure.value]
    if isinstance(figure, Word):
        return ["word", figure.message, figure.context]
    if isinstance(figure, Verbatim):
        return ["verbatim", figure.text]
    if isinstance(figure, Counted):
        return ["counted", figure.n, figure.singular, figure.plural]
    if isinstance(figure, Listed):
        return ["listed", [_figure_data(item) for item in figure.items], figure.last]
    return ["phrase", figure.to_data()]


def _figure_from(data: list[Any]) -> Figure:
    kind, *rest = data
    if kind == "seat":
        return Seat(rest[0])
    if kind == "seats":
        return Seats(rest[0])
    if kind == "chips":
        return Chips(rest[0])
    if kind == "number":
        return Number(rest[0])
    if kind == "word":
        return Word(rest[0], rest[1] if len(rest) > 1 else None)
    if kind == "verbatim":
        return Verbatim(rest[0])
    if kind == "counted":
        return Counted(rest[0], rest[1], rest[2])
    if kind == "listed":
        return Listed([_figure_from(item) for item in rest[0]], rest[1])
    if kind == "phrase":
        return phrase_from_data(rest[0])
    raise ValueError(f"no figure of kind {kind!r}")


def phrase_from_data(data: Mapping[str, Any]) -> Phrase:
    """The :class:`Phrase` of :meth:`Phrase.to_data`'s data."""
    return Phrase(str(data["template"]), {k: _figure_from(v) for k, v in dict(data.get("figures") or {}).items()})


_SETTINGS = {
    "small_blind": NP_("setting", "small_blind"),
    "big_blind": NP_("setting", "big_blind"),
    "ante": NP_("setting", "ante"),
    "opening_bet": NP_("setting", "opening_bet"),
    "small_bet": NP_("setting", "small_bet"),
    "big_bet": NP_("setting", "big_bet"),
    "raise_cap": NP_("setting", "raise_cap"),
    "two_players": NP_("setting", "two_players"),
    "jokers": NP_("setting", "jokers"),
    "max_draw": NP_("setting", "max_draw"),
    "seats": NP_("setting", "seats"),
    "players": NP_("setting", "players"),
    "buy_in": NP_("setting", "buy_in"),
    "blinds": NP_("setting", "blinds"),
    "level_minutes": NP_("setting", "level_minutes"),
    "chip_set": NP_("setting", "chip_set"),
    "rebuys": NP_("setting", "rebuys"),
    "first_dealer": NP_("setting", "first_dealer"),
    "variant": NP_("setting", "variant"),
    "betting": NP_("setting", "betting"),
    "wild_rank": NP_("setting", "wild_rank"),
    "low_rule": NP_("setting", "low_rule"),
}


def setting(name: str) -> Word | Verbatim:
    """A setting's name: in English as the configuration writes it (``small_blind``), in another
    language in its words ("petite blinde"); an unknown name as written."""
    found = _SETTINGS.get(name)
    return Word(found, "setting") if found is not None else Verbatim(name)


def card_text(items: Iterable[object]) -> Verbatim:
    """Cards as written, space-separated (``"Ah Kd"``): the same in every language."""
    return Verbatim(" ".join(map(str, items)))


def pot_name(index: int) -> Phrase:
    """``"the main pot"`` for index 0, else ``"side pot 1"``, ``"side pot 2"``..."""
    if index == 0:
        return Phrase(N_("the main pot"))
    return Phrase(N_("side pot {number}"), number=Number(index))
