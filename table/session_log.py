"""A session's commands as plain data: the names and arguments of each, and running one.

Its errors stay English: they report a log entry that cannot be replayed, read by the command line
and the logs.

Every accepted command of a :class:`table.session.Session` is logged as ``{"op": name, ...}``;
:func:`apply_command` runs such a mapping again on a session, which is how
:meth:`table.session.Session.replay` rebuilds one from its log.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from table.session_errors import SessionError

__all__ = ["OPS", "Command", "apply_command"]

Command = dict[str, Any]
"""One logged command: ``{"op": name, ...arguments as plain data}``."""

OPS: dict[str, tuple[str, ...]] = {
    "seat_player": ("seat", "name", "chips"),
    "leave": ("seat",),
    "sit_out": ("seat",),
    "sit_in": ("seat",),
    "rebuy": ("seat", "chips"),
    "draw_for_button": ("draws",),
    "set_button": ("seat",),
    "croupier_button": (),
    "start_clock": ("now",),
    "pause_clock": ("now",),
    "resume_clock": ("now",),
    "set_level": ("index", "now"),
    "start_hand": ("now",),
    "act": ("seat", "action", "amount"),
    "deal_board": ("cards",),
    "deal_hole": ("seat", "cards"),
    "draw": ("seat", "count"),
    "mark": ("seat", "index", "mark"),
    "muck": ("seat",),
    "settle": (),
    "undo": (),
}
"""Each command's name and its arguments, in the order the session's method takes them."""

_KEYWORD = frozenset({"now"})
_METHODS = {"draw": "draw_cards"}
"""Logged names whose method is called otherwise (``draw`` is the draw for the button)."""


def apply_command(session: object, command: Mapping[str, Any]) -> Any:
    """Run one command given as plain data on ``session`` (calling the method it names);
    returns what the method returns."""
    if not isinstance(command, Mapping) or not isinstance(command.get("op"), str):
        raise SessionError(f"a command is a mapping with an 'op' name, got {command!r}")
    op = command["op"]
    names = OPS.get(op)
    if names is None:
        raise SessionError(f"unknown command {op!r}: allowed are {', '.join(OPS)}")
    extra = sorted(set(command) - {"op", *names})
    if extra:
        raise SessionError(f"command {op!r} takes {list(names)}, not {extra}")
    args = {name: command[name] for name in names if name in command}
    if op == "draw_for_button" and isinstance(args.get("draws"), Mapping):
        try:
            args["draws"] = {int(s): c for s, c in args["draws"].items()}
        except (TypeError, ValueError):
            raise SessionError(f"draws are {{seat: card}}, got {args['draws']!r}") from None
    positional = [args.pop(n) for n in names if n in args and n not in _KEYWORD]
    try:
        return getattr(session, _METHODS.get(op) or op)(*positional, **args)
    except TypeError as exc:
        raise SessionError(f"command {op!r} needs {list(names)}: {exc}") from None
