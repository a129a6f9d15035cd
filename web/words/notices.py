"""What the table warns about, and the five-card draw game's own words, in a phone's language.

The service's warnings (``{"kind", "message", "seat"}``) carry an English message made where the
fault was found. English phones read it as it is; a phone in another language reads the warning
of its kind in its own words, with the seat it concerns. A refusal (a command the game refused, a
camera view that cannot be applied) carries its words as a value, ``phrase``
(:meth:`table.phrases.Phrase.to_data`), and is said whole in each language, figures included.
Only an internal error keeps its English detail after the translated words.

>>> from web.words import words_for
>>> say_warning(words_for("fr"), {"kind": "peek", "message": "seat 3: a card lies face up", "seat": 2})["message"]
'Siège 3\\xa0: une carte est face visible\\u202f; retournez-la (elle reste privée jusqu’à l’abattage).'
"""

from __future__ import annotations

from typing import Any

from table.cards import RANK_CHARS
from table.phrases import phrase_from_data
from web.words import N_, SOURCE_LANGUAGE, Words, counted
from web.words.hands import rank_plural
from web.words.phrases import say

__all__ = ["draw_game_words", "say_warning"]

_BY_KIND = {
    "peek": N_("Seat {seat}: a card lies face up; turn it down (it stays private until the showdown)."),
    "conflict": N_("The camera is unsure about a card; nothing was applied."),
    "board-mismatch": N_(
        "A board card does not read as the game has it: correct it on the host page if the game is wrong."
    ),
    "stale-board": N_("The last hand's board is still face up: gather it."),
    "board-extra": N_("More board cards are face up than a hand has."),
    "board-early": N_("A board card was turned before its street: it counts when its betting round comes."),
    "mark-mismatch": N_("A Tock mark reads differently than before: not applied."),
    "show": N_("Seat {seat}: the cards shown cannot all be read; enter the hand on the host page."),
    "draw": N_("Draw for the first dealer: not every seat has turned a card yet."),
}
_WITH_DETAIL = {
    "rejected": N_("Refused: {detail}"),
    "error": N_("Internal error: {detail}"),
    "camera": N_("What the camera sees cannot be applied: {detail}"),
}


def say_warning(words: Words, warning: dict[str, Any]) -> dict[str, Any]:
    """``warning`` with its message in ``words``' language (a new dict; English without a phrase:
    unchanged). A refusal's ``phrase`` (:mod:`table.phrases`) is said whole, its figures written as
    the language writes them; the phrase's data is not passed on."""
    kind, seat = warning.get("kind"), warning.get("seat")
    data = warning.get("phrase")
    if isinstance(data, dict):
        warning = {k: v for k, v in warning.items() if k != "phrase"}
        detail = say(words, phrase_from_data(data))
        if kind == "rejected" and words.language == SOURCE_LANGUAGE:
            return {**warning, "message": detail}  # English: the refusal is the whole message
        return {**warning, "message": words(_WITH_DETAIL.get(str(kind), "{detail}"), detail=detail)}
    if words.language == SOURCE_LANGUAGE:
        return warning
    said = _BY_KIND.get(str(kind))
    if said is not None and ("{seat}" not in said or isinstance(seat, int)):
        return {**warning, "message": words(said, seat=seat + 1 if isinstance(seat, int) else "")}
    detailed = _WITH_DETAIL.get(str(kind))
    if detailed is not None:
        return {**warning, "message": words(detailed, detail=warning.get("message", ""))}
    return warning


_VARIANTS = {"holdem": N_("Texas Hold'em"), "tock": N_("Tock-Poker"), "draw": N_("Five-card draw"),
             "lowball": N_("Petite Misère (lowball)")}  # fmt: skip
_PHASES = {"first betting": N_("first betting round"), "draw": N_("the draw"),
           "second betting": N_("second betting round"), "showdown": N_("showdown"),
           "complete": N_("hand over")}  # fmt: skip
_LOW_RULES = {"ace-to-five": N_("ace-to-five"), "deuce-to-seven": N_("deuce-to-seven")}


def draw_game_words(words: Words, game: dict[str, Any]) -> dict[str, Any]:
    """The snapshot's ``draw_game`` with its name, phase and warning in ``words``' language
    (a new dict; English: unchanged)."""
    if words.language == SOURCE_LANGUAGE:
        return game
    rules = game.get("rules") or {}
    parts = [words(_VARIANTS.get(str(game.get("variant")), str(game.get("variant"))))]
    if rules.get("lowball") in _LOW_RULES:
        parts[0] = f"{parts[0]}, {words(_LOW_RULES[rules['lowball']])}"
    if rules.get("jokers"):
        parts.append(counted("{n} joker", "{n} jokers", int(rules["jokers"]), words))
    wild = rules.get("wild_rank")
    if isinstance(wild, str) and len(wild) == 1 and wild in RANK_CHARS:
        parts.append(words("{ranks} wild", ranks=rank_plural(words, RANK_CHARS.index(wild))))
    if rules.get("max_draw") is not None:
        parts.append(words("draw up to {n}", n=rules["max_draw"]))
    if rules.get("two_players"):
        parts.append(words("two players allowed"))
    out = {**game, "name": ", ".join(parts)}
    if game.get("phase") in _PHASES:
        out["phase"] = words(_PHASES[game["phase"]])
    if game.get("warning"):
        out["warning"] = words("More players than the rules plan for: the stock may run out during the draw, the "
                               "discards are then shuffled in.")  # fmt: skip
    return out
