"""One rule for every name a request brings (a player sitting down, the new-game form, the
poker dice players): 1 to :data:`MAX_NAME` printable characters once the spaces around it are
trimmed and runs of spaces inside made one. Letters of any script, digits, spaces, punctuation
and emoji are printable; control characters (NUL, ESC, tab, line breaks...) and invisible format
characters are not: they break exports (a NUL ends a PHH string) and terminals.

>>> check_name("  Ann  Lee ")
'Ann Lee'
>>> try:
...     check_name("Ann\\x1b[31m")
... except PlayerNameError as exc:
...     print(str(exc).split(": ")[-1])
'Ann\\x1b[31m' has U+001B at position 4
"""

from __future__ import annotations

import dataclasses
from typing import Any

from table.errors import TocktableError
from table.phrases import N_, Number, Phrase, Verbatim, Word

MAX_NAME = 24
RULE_PHRASE = Phrase(
    N_("1 to {most} printable characters (letters, digits, spaces, punctuation)"), most=Number(MAX_NAME)
)
"""The rule in words, as a refusal says it in the phone's language."""
RULE = RULE_PHRASE.english()
A_PLAYERS_NAME = Word(N_("a player's name"))


NAME_SCHEMA: dict[str, Any] = {
    "type": "string", "format": "player-name", "minLength": 1, "maxLength": MAX_NAME,
    "description": f"{RULE}; no spaces around it, no control or invisible characters"}  # fmt: skip
"""A name in the OpenAPI document (``player-name``: the rule above)."""
NAMES_SCHEMA: dict[str, Any] = {
    "type": "string", "format": "player-names",
    "description": f"names separated by commas or lines, each {RULE}"}  # fmt: skip
"""Several names in one text field, in the OpenAPI document."""


class PlayerNameError(TocktableError, ValueError):
    """A name that is empty, too long, or holds a control or invisible character."""


def _shown(text: str) -> Verbatim:
    """``text`` for an error message, as typed in every language: its start only when long."""
    return Verbatim(repr(text) if len(text) <= 40 else repr(text[:24]) + "...")


def check_name(value: Any, what: Word = A_PLAYERS_NAME) -> str:
    """``value`` trimmed (one space between words), if it is a name by the rule above; else a
    :class:`PlayerNameError` that says what was wrong and what is allowed, ``what`` naming the field."""
    if not isinstance(value, str):
        raise PlayerNameError(
            N_("{what} must be text: {rule}; got {kind}"),
            what=what,
            rule=RULE_PHRASE,
            kind=Verbatim(type(value).__name__),
        )
    name = value.strip()
    if not name:
        raise PlayerNameError(N_("{what} must not be empty: {rule}"), what=what, rule=RULE_PHRASE)
    for position, char in enumerate(name if not name.isprintable() else "", start=1):
        if not char.isprintable():
            raise PlayerNameError(
                N_("{what} must be {rule}: {name} has {code} at position {position}"),
                what=what,
                rule=RULE_PHRASE,
                name=_shown(name),
                code=Verbatim(f"U+{ord(char):04X}"),
                position=Number(position),
            )
    name = " ".join(part for part in name.split(" ") if part)  # one space between words
    if len(name) > MAX_NAME:
        raise PlayerNameError(
            N_("{what} must be {rule}: {name} is {length} characters long"),
            what=what,
            rule=RULE_PHRASE,
            name=_shown(name),
            length=Number(len(name)),
        )
    return name


def check_step_names(step: Any) -> Any:
    """``step`` with its ``name`` field (a player sitting down) checked and trimmed; other steps as they are."""
    named = dataclasses.is_dataclass(step) and not isinstance(step, type)
    if named and "name" in {f.name for f in dataclasses.fields(step)}:
        return dataclasses.replace(step, name=check_name(getattr(step, "name", None)))
    return step
