"""The set-up page's words made from the values the table sends: the aim advice
(:func:`hardware.aim.aim_advice`, each item's ``phrase``), whether the zones match the picture
(:func:`tocktable.zone_check.zones_match`) and the cards named while the deck is taught
(:class:`tocktable.deck_teacher.DeckTeacher`), in a phone's language.

The deck teacher's ``note`` (a profile that cannot be read, with the error's detail) stays English:
it reports a file on the Pi, not a move at the table.
"""

from __future__ import annotations

from functools import reduce
from typing import Any

from table.cards import Card
from table.errors import TocktableError
from table.phrases import phrase_from_data
from web.words import N_, Words, counted
from web.words.hands import card_words, hand_name
from web.words.phrases import say

__all__ = ["advice_words", "deck_words", "dry_run_words", "zone_match_words"]


def advice_words(words: Words, advice: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The aim advice with each item's ``text`` said from its ``phrase`` in ``words``' language
    (new dicts, without the phrase's data)."""
    said = []
    for item in advice:
        data = item.get("phrase")
        out = {k: v for k, v in item.items() if k != "phrase"}
        if isinstance(data, dict):
            out["text"] = say(words, phrase_from_data(data))
        said.append(out)
    return said


def _zone(words: Words, name: str) -> str:
    """``"board"`` → ``"the board's zone"``, ``"seat:2"`` → ``"seat 3's zone"``, in ``words``' language."""
    if name == "board":
        return words("the board's zone")
    return words("seat {n}'s zone", n=int(name.split(":")[1]) + 1)


def zone_match_words(words: Words, match: dict[str, Any]) -> dict[str, Any]:
    """``match`` with its ``text`` in ``words``' language (a new dict)."""
    kind, cards, outside = match.get("kind"), int(match.get("cards", 0)), int(match.get("outside", 0))
    if kind == "no-cards":
        text = words("No card on the table: lay a few cards in their zones to check that they match.")
    elif kind == "outside":
        text = words(
            "The zones no longer match the picture: {outside} of the {cards} cards seen lie outside every zone. "
            "Was the camera moved or tilted since the zones were drawn? Calibrate them again (one card face up "
            "in front of each seat and one in the middle), or drag them.",
            outside=outside, cards=cards,
        )  # fmt: skip
    elif kind == "one-per-zone":
        parts = []
        if match.get("empty"):
            parts.append(words("no card in {zones}", zones=", ".join(_zone(words, n) for n in match["empty"])))
        parts += [words("{n} cards in {zone}", n=n, zone=_zone(words, name))
                  for name, n in dict(match.get("crowded") or {}).items()]  # fmt: skip
        joined = reduce(lambda before, after: words("{before}; {after}", before=before, after=after), parts)
        text = words(
            "The zones no longer match the cards laid out one per zone: {parts}. Was the camera moved or tilted "
            "since the zones were drawn? Calibrate them again, or drag them.",
            parts=joined,
        )
    elif kind == "match":
        text = counted(
            "The zones match the picture: {inside} of the {n} card seen lies in a zone.",
            "The zones match the picture: {inside} of the {n} cards seen lie in a zone.",
            cards, words, inside=cards - outside,
        )  # fmt: skip
        if outside:
            text += " " + counted("({n} outside every zone)", "({n} outside every zone)", outside, words)
    else:
        return match
    return {**match, "text": text}


_NOT_READ = N_("not read")


def _card(words: Words, code: Any) -> str | None:
    try:
        return card_words(words, Card.parse(str(code)))
    except (TocktableError, ValueError):
        return None


def deck_words(words: Words, result: dict[str, Any]) -> dict[str, Any]:
    """The deck teacher's ``result`` (its status, or a check) with each card's ``name`` in ``words``'
    language, with its article (``"the queen of hearts"``, ``"la dame de cœur"``): a new dict."""
    out = dict(result)
    for key in ("next", "pending"):
        if isinstance(out.get(key), dict):
            part = dict(out[key])
            part["name"] = _card(words, part.get("card")) or part.get("name")
            if part.get("read"):
                part["read_name"] = _card(words, part["read"]) or part.get("read_name")
            out[key] = part
    if isinstance(out.get("check"), dict):
        out["check"] = deck_words(words, out["check"])
    if isinstance(out.get("cards"), list):
        out["cards"] = [{**c, "name": (_card(words, c.get("card")) if c.get("card") else None) or words(_NOT_READ)}
                        if isinstance(c, dict) else c for c in out["cards"]]  # fmt: skip
    return out


def dry_run_words(words: Words, report: dict[str, Any]) -> dict[str, Any]:
    """The dry run's ``report`` with each winning hand named in ``words``' language (from its
    ``hand_key``): a new dict. The rest of the game's lines are put into words by the page's script."""
    streets = []
    for street in report.get("streets", []):
        game = street.get("game") if isinstance(street, dict) else None
        if isinstance(game, dict) and game.get("winners"):
            winners = [{**w, "hand": hand_name(words, w["hand_key"])} if w.get("hand_key") else w
                       for w in game["winners"]]  # fmt: skip
            street = {**street, "game": {**game, "winners": winners}}
        streets.append(street)
    return {**report, "streets": streets}
