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

MAX_NAME = 24
RULE = f"1 to {MAX_NAME} printable characters (letters, digits, spaces, punctuation)"


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


def _shown(text: str) -> str:
    """``text`` for an error message: its start only when long."""
    return repr(text) if len(text) <= 40 else repr(text[:24]) + "..."


def check_name(value: Any, what: str = "a player's name") -> str:
    """``value`` trimmed (one space between words), if it is a name by the rule above; else a
    :class:`PlayerNameError` that says what was wrong and what is allowed."""
    if not isinstance(value, str):
        raise PlayerNameError(f"{what} must be text: {RULE}; got {type(value).__name__}")
    name = value.strip()
    if not name:
        raise PlayerNameError(f"{what} must not be empty: {RULE}")
    for position, char in enumerate(name if not name.isprintable() else "", start=1):
        if not char.isprintable():
            raise PlayerNameError(f"{what} must be {RULE}: {_shown(name)} has U+{ord(char):04X} at position {position}")
    name = " ".join(part for part in name.split(" ") if part)  # one space between words
    if len(name) > MAX_NAME:
        raise PlayerNameError(f"{what} must be {RULE}: {_shown(name)} is {len(name)} characters long")
    return name


def check_step_names(step: Any) -> Any:
    """``step`` with its ``name`` field (a player sitting down) checked and trimmed; other steps as they are."""
    named = dataclasses.is_dataclass(step) and not isinstance(step, type)
    if named and "name" in {f.name for f in dataclasses.fields(step)}:
        return dataclasses.replace(step, name=check_name(getattr(step, "name", None)))
    return step
