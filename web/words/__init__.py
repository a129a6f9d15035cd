"""Words per language: the gettext catalogs of ``web/translations``, read once per language.

English is the language of the code (every message id is the English text); each other language
is a catalog ``web/translations/<language>/LC_MESSAGES/messages.po``, so adding one is a catalog
and no code (README: "Adding a language"). The catalogs are read from their ``.po`` text when first
used and compiled in memory: a clone, an editable install and a wheel all run from the same file,
with no compiled ``.mo`` to forget or to fall out of date.

:class:`Words` is one language: its messages (``words("Pot")``, ``words.plural(...)``), its
numbers (``words.number(12345)`` is ``"12 345"`` in French, with a narrow no-break space, and
``"12,345"`` in English) and what the page's scripts need of it (:meth:`Words.for_scripts`).
The rules of the game never speak: ``table`` returns categories, ranks and lessons, and the
sentences are made here, at the edge, per phone.

>>> english, french = words_for("en"), words_for("fr")
>>> english("Pot"), french("Pot"), french.number(12345), english.number(12345)
('Pot', 'Pot', '12\\u202f345', '12,345')
>>> french.ngettext("{n} side pot", "{n} side pots", 2)
'2 pots annexes'
>>> pick_language("de-CH, fr;q=0.8, en;q=0.5", default="en"), pick_language(None, default="fr")
('fr', 'fr')
"""

from __future__ import annotations

import io
import threading
from collections.abc import Mapping
from decimal import Decimal, localcontext
from functools import cache
from gettext import NullTranslations
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, get_decimal_symbol, get_group_symbol
from babel.support import Translations

from table.errors import TocktableError

__all__ = [
    "KEYWORDS",
    "NP_",
    "N_",
    "SOURCE_LANGUAGE",
    "TRANSLATIONS",
    "LanguageError",
    "Words",
    "catalog_path",
    "check_language",
    "counted",
    "languages",
    "pick_language",
    "words_for",
]

TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
"""One folder per language: ``<language>/LC_MESSAGES/messages.po`` (``messages.pot`` is the template)."""
SOURCE_LANGUAGE = "en"
"""The language of the message ids: it needs no catalog."""
_PLURAL_TABLE = 200
"""The page's scripts get each count's plural form for 0..199 (n >= 200: as 100 + n % 100)."""


KEYWORDS = {"words": None, "counted": (1, 2), "N_": None, "NP_": ((1, "c"), 2), "Counted": (2, 3)}
"""The calls whose arguments are messages, in Python (``babel.messages.extract``'s form):
``words("Pot")``, ``counted("one side pot", "{n} side pots", n, words)`` for a count;
``N_("...")`` and ``NP_(context, "...")`` mark a message kept for later (a table of names)
without translating it (it is translated where used, with ``words(...)`` or ``words.pgettext``).
``table`` marks its refusals the same way (:mod:`table.phrases`: ``N_``, ``NP_`` and a count's
forms, ``Counted(n, "{n} card", "{n} cards")``). The command line says the same:
``-k words -k counted:1,2 -k N_ -k NP_:1c,2 -k Counted:2,3``."""


def counted(singular: str, plural: str, n: int, words: Words, /, **values: Any) -> str:
    """``words.ngettext(singular, plural, n, **values)``, in the form the message extractor reads:
    the messages first (Babel loses a call's messages after a keyword's own name, ``words``, and
    misreads a method of it, ``words.ngettext(...)``)."""
    return words.ngettext(singular, plural, n, **values)


def N_(message: str) -> str:
    """``message`` itself: marks it for the catalog where it is kept to be translated later."""
    return message


def NP_(context: str, message: str) -> str:
    """``message`` itself, marked with its ``context`` for the catalog."""
    return message


class LanguageError(TocktableError, ValueError):
    """A language with no catalog."""


def catalog_path(language: str) -> Path:
    """Where the catalog of ``language`` lives."""
    return TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"


@cache
def languages() -> tuple[str, ...]:
    """Every language the pages speak: English, then each language with a catalog, by code."""
    found = (
        sorted(p.name for p in TRANSLATIONS.iterdir() if catalog_path(p.name).is_file())
        if TRANSLATIONS.is_dir()
        else []
    )
    return (SOURCE_LANGUAGE, *(code for code in found if code != SOURCE_LANGUAGE))


def check_language(language: str) -> str:
    """``language`` when the pages speak it, else :class:`LanguageError` listing those they do."""
    if language not in languages():
        raise LanguageError(f"no language {language!r}: choose one of {', '.join(languages())}")
    return language


def pick_language(accept: str | None, *, default: str, chosen: str | None = None) -> str:
    """The language for one phone: ``chosen`` (its switch, a cookie) when spoken, else the best of
    its ``Accept-Language`` header that the pages speak (``fr-CA`` counts as ``fr``), else ``default``."""
    spoken = languages()
    if chosen in spoken:
        return str(chosen)
    wanted: list[tuple[float, int, str]] = []
    for order, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        code = tag.strip().lower().replace("_", "-").split("-")[0]
        if code in spoken and quality > 0:
            wanted.append((-quality, order, code))
    return min(wanted)[2] if wanted else default


class Words:
    """The words of one language."""

    def __init__(self, language: str, translations: NullTranslations, script_messages: Mapping[str, Any]) -> None:
        self.language = language
        self._translations = translations
        self._script_messages = dict(script_messages)
        self._locale = Locale.parse(language)

    def __call__(self, message: str, /, **values: Any) -> str:
        """``message`` in this language, with ``{name}`` fields filled from ``values``."""
        text = self._translations.gettext(message)
        return text.format(**values) if values else text

    def pgettext(self, context: str, message: str, /, **values: Any) -> str:
        """``message`` in this language where the same English says different things (``context``)."""
        text = self._translations.pgettext(context, message)
        return text.format(**values) if values else text

    def ngettext(self, singular: str, plural: str, n: int, /, **values: Any) -> str:
        """The form for ``n`` (``{n}`` is filled with ``n`` written in this language, unless ``values``
        gives it, e.g. as a word)."""
        text = self._translations.ngettext(singular, plural, n)
        return text.format(**{"n": self.number(n), **values})

    def number(self, value: float) -> str:
        """``12345`` as this language writes it: ``"12 345"`` (narrow no-break space) or ``"12,345"``.
        Any number is written whole, however large (a refusal may quote a number a script sent):
        the decimal precision is raised to the number's digits for the formatting."""
        exact = Decimal(value) if isinstance(value, int) else Decimal(str(value))
        with localcontext() as context:
            if exact.is_finite():
                context.prec = max(context.prec, exact.adjusted() + 8)
            return format_decimal(exact, locale=self._locale)

    def percent(self, fraction: float) -> str:
        """``0.41`` as ``"41 %"`` or ``"41%"``, rounded to a whole number."""
        return self("{number}%", number=self.number(round(100 * fraction)))

    def _plural_form(self, n: int) -> int:
        plural = getattr(self._translations, "plural", None)
        return int(plural(n)) if plural is not None else int(n != 1)

    def for_scripts(self) -> dict[str, Any]:
        """What ``draw.js`` needs to speak this language: the messages the scripts use, each
        count's plural form and the number symbols."""
        return {
            "language": self.language,
            "messages": self._script_messages,
            "plurals": [self._plural_form(n) for n in range(_PLURAL_TABLE)],
            "group": get_group_symbol(locale=self._locale),
            "decimal": get_decimal_symbol(locale=self._locale),
        }


_lock = threading.Lock()
_loaded: dict[str, Words] = {}


def words_for(language: str) -> Words:
    """The :class:`Words` of ``language`` (read from its catalog once, then shared)."""
    with _lock:
        found = _loaded.get(language)
        if found is None:
            found = _loaded[language] = _load(check_language(language))
        return found


def read_catalog(language: str) -> Catalog:
    """The catalog of ``language`` as Babel reads it."""
    with catalog_path(language).open("rb") as file:
        return read_po(file, locale=language)


def _load(language: str) -> Words:
    if language == SOURCE_LANGUAGE:
        return Words(language, NullTranslations(), {})
    catalog = read_catalog(language)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out: an unchecked guess is not shown
    compiled.seek(0)
    translations = Translations(compiled)
    scripts: dict[str, Any] = {}
    for message in catalog:
        if not message.id or message.fuzzy or not any(path.endswith(".js") for path, _ in message.locations):
            continue
        if isinstance(message.id, tuple):
            forms = [str(s) for s in message.string] if isinstance(message.string, tuple) else []
            if all(forms):
                scripts[message.id[0]] = forms
        elif message.string:
            scripts[str(message.id)] = str(message.string)
    return Words(language, translations, scripts)
