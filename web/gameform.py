"""Reading the host's "new game" form: variant, betting, seats, players, buy-in, blinds, chip set,
the first dealer, five-card draw's house options.

>>> game = read_game({"seats": 4, "players": "Ann, Bob\\nCy", "blinds": "5/10, 10/20/2", "level_minutes": 15})
>>> game.settings.seats, [p for p, _ in game.players], game.settings.blinds.levels[1].ante
(4, ['Ann', 'Bob', 'Cy'], 2)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from table.chips import CHIP_SETS
from table.engine import BlindLevel, BlindStructure
from table.errors import TocktableError, phrase_of
from table.phrases import N_, Number, Phrase, Verbatim, given, setting
from table.session import FIRST_DEALERS, DrawOptions, SessionSettings
from web.names import PlayerNameError, check_name

VARIANTS = ("holdem", "tock", "draw", "lowball")
DRAW_VARIANTS = ("draw", "lowball")
DRAW_FIELDS = ("jokers", "wild_rank", "low_rule", "max_draw", "opening_bet", "two_players")
MAX_DRAW_PLAYERS = 8
MIN_DRAW_PLAYERS = 3
BETTING = ("no-limit", "fixed-limit")


class GameFormError(TocktableError, ValueError):
    """A field of the new-game form that is missing or not allowed; the message names it."""


@dataclass(frozen=True)
class NewGame:
    """What the form asks for: the session's settings, the players (name, chips) by seat, the chip set."""

    settings: SessionSettings
    players: tuple[tuple[str, int], ...]
    chip_set: str


def _int(data: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise GameFormError(
            N_("{key} must be a whole number from {low} to {high}, got {value}"),
            key=setting(key),
            low=Number(low),
            high=Number(high),
            value=given(value),
        )
    return value


def _choice(data: Mapping[str, Any], key: str, allowed: tuple[str, ...], default: str) -> str:
    value = data.get(key, default)
    if value not in allowed:
        raise GameFormError(
            N_("{key} must be one of {allowed}, got {value}"),
            key=setting(key),
            allowed=Verbatim(", ".join(allowed)),
            value=given(value),
        )
    return str(value)


def _flag(data: Mapping[str, Any], key: str, default: bool) -> bool:
    """A checkbox: true or false, or the texts a form sends ("on", "1", "true", "yes")."""
    value = data.get(key, default)
    if isinstance(value, str):
        value = value.lower() in ("1", "true", "on", "yes")
    if not isinstance(value, bool):
        raise GameFormError(N_("{key} must be true or false, got {value}"), key=setting(key), value=given(value))
    return value


def _names(value: Any, seats: int) -> list[str]:
    if value is None:
        return []
    items = re.split(r"[,\n;]+", value) if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or not all(isinstance(n, str) for n in items):
        raise GameFormError(N_("players must be names separated by commas or lines, or a list of names"))
    names = [n.strip() for n in items if n.strip()]
    if len(names) > seats:
        raise GameFormError(
            N_("{n_names} players for {seats} seats: add seats or remove players"),
            n_names=Number(len(names)),
            seats=Number(seats),
        )
    try:
        names = [check_name(name) for name in names]
    except PlayerNameError as exc:
        raise GameFormError(N_("players: {error}"), error=phrase_of(exc)) from None
    seen = {n.casefold() for n in names}
    if len(seen) != len(names):
        raise GameFormError(N_("two players have the same name: names must differ (the ledger goes by name)"))
    return names


def read_blinds(value: Any) -> tuple[BlindLevel, ...]:
    """``"5/10, 10/20, 25/50/5"`` (small/big[/ante] per level) or ``[[5, 10], [10, 20, 0]]``."""
    if isinstance(value, str):
        parts = [p.strip() for p in re.split(r"[,\n;]+", value) if p.strip()]
        rows: list[Any] = [p.split("/") for p in parts]
    elif isinstance(value, list | tuple):
        rows, parts = list(value), [str(v) for v in value]
    else:
        raise GameFormError(N_("blinds must be levels like '5/10, 10/20, 25/50/5' (small/big/ante)"))
    if not rows:
        raise GameFormError(N_("blinds need at least one level, e.g. '5/10'"))
    if len(rows) > 60:
        raise GameFormError(N_("at most 60 blind levels, got {n_rows}"), n_rows=Number(len(rows)))
    levels = []
    for i, (row, text) in enumerate(zip(rows, parts, strict=True), start=1):
        where = Phrase(N_("blinds: level {number} {text}"), number=Number(i), text=given(text))
        if not isinstance(row, list | tuple) or not 2 <= len(row) <= 3:
            raise GameFormError(N_("{where}: write small/big or small/big/ante"), where=where)
        numbers = []
        for item in row:
            text_item = str(item).strip()
            if isinstance(item, bool) or not text_item.isdigit() or int(text_item) > 10**9:
                raise GameFormError(N_("{where}: {item} is not a whole number of chips"), where=where, item=given(item))
            numbers.append(int(text_item))
        small, big, ante = (*numbers, 0)[:3]
        try:
            levels.append(BlindLevel(small, big, ante))
        except TocktableError as exc:
            raise GameFormError(N_("{where}: {error}"), where=where, error=phrase_of(exc)) from None
    return tuple(levels)


def read_game(data: Mapping[str, Any]) -> NewGame:
    """The new game described by the form (JSON or form fields); :class:`GameFormError` otherwise."""
    if not isinstance(data, Mapping):
        raise GameFormError(N_("the new game is a JSON object with seats, players, blinds..."))
    known = {"variant", "betting", "seats", "players", "buy_in", "blinds", "level_minutes", "chip_set", "rebuys",
             "first_dealer", *DRAW_FIELDS}  # fmt: skip
    unknown = sorted(set(data) - known - {"csrf_token"})
    if unknown:
        raise GameFormError(
            N_("unknown field {unknown}: the form has {fields}"),
            unknown=given(unknown[0]),
            fields=Verbatim(", ".join(sorted(known))),
        )
    seats = _int(data, "seats", 6, 2, 10)
    names = _names(data.get("players"), seats)
    buy_in = _int(data, "buy_in", 1000, 1, 10**9)
    minutes = data.get("level_minutes", 0)
    if isinstance(minutes, str):
        try:
            minutes = float(minutes.strip() or 0)
        except ValueError:
            raise GameFormError(
                N_("level_minutes must be a number of minutes, got {minutes}"), minutes=given(minutes)
            ) from None
    if isinstance(minutes, bool) or not isinstance(minutes, int | float) or not 0 <= minutes <= 600:
        raise GameFormError(N_("level_minutes must be from 0 (no clock) to 600, got {minutes}"), minutes=given(minutes))
    rebuys = _flag(data, "rebuys", True)
    chip_set = _choice(data, "chip_set", tuple(CHIP_SETS), "tock")
    variant = _choice(data, "variant", VARIANTS, "holdem")
    draw = _draw_options(data, names) if variant in DRAW_VARIANTS else None
    try:
        settings = SessionSettings(
            seats=seats,
            betting=_choice(data, "betting", BETTING, "no-limit"),
            variant=variant,
            draw=draw,
            blinds=BlindStructure(read_blinds(data.get("blinds", "5/10")), level_seconds=float(minutes) * 60),
            rebuys=rebuys,
            first_dealer=_choice(data, "first_dealer", FIRST_DEALERS, "draw"),
        )
    except GameFormError:
        raise
    except TocktableError as exc:
        raise GameFormError(phrase_of(exc)) from None
    return NewGame(settings, tuple((name, buy_in) for name in names), chip_set)


def _draw_options(data: Mapping[str, Any], names: list[str]) -> DrawOptions:
    """Five-card draw's options from the form (the fields are ignored for the other variants)."""
    two_players = _flag(data, "two_players", False)
    low = 2 if two_players else MIN_DRAW_PLAYERS
    if len(names) > MAX_DRAW_PLAYERS:
        raise GameFormError(
            N_("five-card draw deals {low} to {max_draw_players} players, got {n_names} names"),
            low=Number(low),
            max_draw_players=Number(MAX_DRAW_PLAYERS),
            n_names=Number(len(names)),
        )
    if len(names) == 2 and not two_players:
        raise GameFormError(N_(
            "five-card draw is played by 3 to 6 players, got 2 names: add a player, or tick the house option "
            "two_players (hands between two players)"
        ))  # fmt: skip
    opening = _flag(data, "opening_bet", False)
    wild = data.get("wild_rank") or None
    try:
        return DrawOptions(
            jokers=_int(data, "jokers", 0, 0, 2),
            wild_rank=wild.strip() if isinstance(wild, str) else wild,
            low_rule=str(data.get("low_rule", "ace-to-five")),
            max_draw=_int(data, "max_draw", 3, 1, 5),
            opening_bet=opening,
            two_players=two_players,
        )
    except TocktableError as exc:
        raise GameFormError(phrase_of(exc)) from None
