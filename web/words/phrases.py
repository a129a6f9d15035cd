"""Refusals and other phrases of the game, said in a phone's language.

``table`` raises its refusals with their words as a value (:mod:`table.phrases`): an English
template, which is the catalog's message id, and typed figures. Here each figure is written the
way the phone's language writes it - a seat as people number it, chips and counts with the
language's digits, a small word (an action, a street) from the catalog, a list joined with the
language's "and"/"or" - and the template is translated and filled with them. Nothing English is
pasted into another language, except what every language writes the same (cards, names, the dice
announcements, what someone typed).

>>> from table.engine.rules import ActionKind, action_word
>>> from table.phrases import N_, Chips, Phrase, Seat
>>> from web.words import words_for
>>> phrase = Phrase(N_("seat {seat} cannot {action} to {amount}: {allowed}"), seat=Seat(2),
...                 action=action_word(ActionKind.RAISE), amount=Chips(1500),
...                 allowed=Phrase(N_("{action} to {low}..{high}"), action=action_word(ActionKind.RAISE),
...                                low=Chips(40), high=Chips(1200)))
>>> say(words_for("en"), phrase)
'seat 3 cannot raise to 1,500: raise to 40..1,200'
>>> say(words_for("fr"), phrase)
'le siège 3 ne peut pas relancer à 1\\u202f500\\xa0: relancer de 40 à 1\\u202f200'
"""

from __future__ import annotations

from babel.lists import format_list

from table.errors import phrase_of
from table.phrases import Chips, Counted, Figure, Listed, Number, Phrase, Seat, Seats, Verbatim, Word
from table.wording import listed
from web.words import SOURCE_LANGUAGE, Words, counted

__all__ = ["say", "say_error", "say_figure"]


def say(words: Words, phrase: Phrase) -> str:
    """``phrase`` in ``words``' language, its first letter as the template has it."""
    if not phrase.figures:
        return words(phrase.template)
    return words(phrase.template, **{name: say_figure(words, figure) for name, figure in phrase.figures.items()})


def say_error(words: Words, error: BaseException) -> str:
    """What ``error`` says, in ``words``' language (an error without a phrase: its English text)."""
    return say(words, phrase_of(error))


def say_figure(words: Words, figure: Figure) -> str:
    """One figure as ``words``' language writes it."""
    if isinstance(figure, Seat):
        return words.number(figure.index + 1) if isinstance(figure.index, int) else figure.index
    if isinstance(figure, Seats):
        numbers = [say_figure(words, Seat(index)) for index in figure.indexes]
        return counted("seat {seats}", "seats {seats}", len(numbers), words, seats=_join(words, numbers, "and"))
    if isinstance(figure, Chips):
        return words.number(figure.amount)
    if isinstance(figure, Number):
        return words.number(figure.value)
    if isinstance(figure, Word):
        return words.pgettext(figure.context, figure.message) if figure.context else words(figure.message)
    if isinstance(figure, Verbatim):
        return figure.text
    if isinstance(figure, Counted):
        return words.ngettext(figure.singular, figure.plural, figure.n)
    if isinstance(figure, Listed):
        return _join(words, [say_figure(words, item) for item in figure.items], figure.last)
    return say(words, figure)


def _join(words: Words, items: list[str], last: str) -> str:
    """``"a, b and c"`` in ``words``' language (English as the rest of the project writes it)."""
    if last == ",":
        return ", ".join(items)
    if words.language == SOURCE_LANGUAGE or len(items) <= 1:
        return listed(items, last)
    return format_list(items, style="or" if last == "or" else "standard", locale=words.language)
