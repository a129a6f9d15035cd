"""The lens's lessons in a phone's language (``table.lessons`` makes them as values).

:func:`lens_words` takes the lens document the service's worker publishes (plain JSON) and returns
it with every lesson, the board, the summary, the best hands and the note put into words.

>>> from table.lens import showdown
>>> from web.words import words_for
>>> view = showdown(["Ah Ad", "Kh Qh"], "As 9h Th 2d 3h").to_json()
>>> seat_sentences(words_for("en"), view, 0)[0]
'Seat 1 shows the ace of hearts and the ace of diamonds: three of a kind, aces.'
>>> seat_sentences(words_for("fr"), view, 0)[0].replace("\\xa0", " ")
'Siège 1 montre l’as de cœur et l’as de carreau : un brelan d’as.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from table.cards import SUIT_CHARS, Card
from table.evaluate import Category
from table.tock_marks import Mark, SizeClass
from web.words import N_, NP_, Words, counted
from web.words.hands import (
    card_words,
    category_name,
    hand_name,
    mark_words,
    marks_words,
    rank_word,
    suit_plural,
    suit_singular,
    target_name,
)

__all__ = ["item_words", "lens_words", "pair_words", "percent", "seat_sentences"]

_LABELS = {c.label: c for c in Category}
_STAGES = {"preflop": N_("before the flop"), "flop": N_("on the flop"), "turn": N_("on the turn")}


def item_words(words: Words, code: str | None) -> str:
    """One position: a card (``"the king of hearts"``), a mark (``"a large heart"``) or unseen."""
    if code is None:
        return words("an unseen card")
    if ":" in code:
        return mark_words(words, Mark.parse(code))
    return card_words(words, Card.parse(code))


def pair_words(words: Words, first: str | None, second: str | None) -> str:
    """Two positions, grouped when alike: ``"two large hearts"``."""
    if first is not None and first == second and ":" in first:
        mark = Mark.parse(first)
        if mark.size != SizeClass.ACE:
            return marks_words(words, mark)
    if first is None and second is None:
        return words("two unseen cards")
    return words("{first} and {second}", first=item_words(words, first), second=item_words(words, second))


def listed(words: Words, items: Sequence[str]) -> str:
    """``"a, b and c"`` in this language."""
    if len(items) <= 1:
        return "".join(items)
    return words("{items} and {last}", items=words(", ").join(items[:-1]), last=items[-1])


def percent(words: Words, chance: float, *, exact: bool) -> str:
    """A chance as a beginner reads it: ``"41%"``, ``"about 41%"`` when sampled."""
    if chance <= 0:
        return words.percent(0) if exact else words("almost {percent}", percent=words.percent(0))
    if chance < 0.005:
        return words("less than {percent}", percent=words.percent(0.01))
    if chance >= 1:
        return words.percent(1)
    if chance > 0.995:
        return words("more than {percent}", percent=words.percent(0.99))
    shown = words.percent(chance)
    return shown if exact else words("about {percent}", percent=shown)


def _hand(words: Words, key: Sequence[int]) -> str:
    """A hand inside a sentence: ``"a flush, king high"``, ``"king high"``, ``"two pair, ..."``."""
    category, *ranks = key
    name = hand_name(words, key)
    lower = name[0].lower() + name[1:]
    if category == Category.HIGH_CARD:
        return words("{rank} high", rank=rank_word(words, ranks[0]))
    return words.pgettext(*_WITH_ARTICLE[category], hand=lower)


# A hand inside a sentence, with the article its category takes ("a flush", "two pair"; French
# "une couleur", "un brelan"): one message per category, told apart by its context.
_WITH_ARTICLE = (
    ("high card", NP_("high card", "a {hand}")), ("pair", NP_("pair", "a {hand}")),
    ("two pair", NP_("two pair", "{hand}")), ("three of a kind", NP_("three of a kind", "{hand}")),
    ("straight", NP_("straight", "a {hand}")), ("flush", NP_("flush", "a {hand}")),
    ("full house", NP_("full house", "a {hand}")), ("four of a kind", NP_("four of a kind", "{hand}")),
    ("straight flush", NP_("straight flush", "a {hand}")), ("five of a kind", NP_("five of a kind", "a {hand}")),
)  # fmt: skip

_NUMBERS = {
    "cards": (NP_("cards", "no"), NP_("cards", "one"), NP_("cards", "two"), NP_("cards", "three"),
              NP_("cards", "four"), NP_("cards", "five"), NP_("cards", "six"), NP_("cards", "seven")),
    "suits": (NP_("suits", "no"), NP_("suits", "one"), NP_("suits", "two"), NP_("suits", "three"),
              NP_("suits", "four"), NP_("suits", "five"), NP_("suits", "six"), NP_("suits", "seven")),
}  # fmt: skip


def count_word(words: Words, n: int, of: str) -> str:
    """A small count as a word, agreeing with what it counts (``of``: ``"cards"`` or ``"suits"``)."""
    return words.pgettext(of, _NUMBERS[of][n]) if 0 <= n < len(_NUMBERS[of]) else words.number(n)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _article(words: Words, category: int) -> str:
    name = category_name(words, category)
    return words.pgettext(*_WITH_ARTICLE[category], hand=name[0].lower() + name[1:])


_BASES = {
    "public": N_("From what the table can see"),
    "face_up": N_("With the hands face up"),
    "own": N_("Knowing your cards"),
}


def _basis(words: Words, basis: str) -> str:
    return words(_BASES.get(basis, _BASES["public"]))


def seat_name(words: Words, name: str) -> str:
    """A seat's name as the lens gives it; an unnamed seat (``"Seat 3"``) in this language."""
    if name.startswith("Seat ") and name[5:].isdigit():
        return words("Seat {n}", n=name[5:])
    return name


def _sentence(words: Words, lesson: dict[str, Any], name: str) -> str:
    kind, you = lesson.get("kind"), bool(lesson.get("you"))
    shows = lesson.get("shows") or [None, None]

    def said(for_you: str, for_seat: str, **values: Any) -> str:
        return words(for_you, **values) if you else words(for_seat, name=name, **values)

    if kind == "folded":
        return said(N_("You folded: your cards are out of play."), N_("{name} folded: its cards are out of play."))
    if kind == "alone":
        return said(N_("Everyone else folded: you win the pot."), N_("Everyone else folded: {name} wins the pot."))
    pair = pair_words(words, shows[0], shows[1])
    if kind == "shows_hand":
        return said(N_("You hold {cards}: {hand}."), N_("{name} shows {cards}: {hand}."), cards=pair,
                    hand=_hand(words, lesson["hand"]))  # fmt: skip
    if kind == "shows_flush_draw":
        suit = SUIT_CHARS.index(lesson["suit"])
        count = int(lesson["board_count"])
        suits = suit_plural(words, suit) if count != 1 else suit_singular(words, suit)
        board = words("{n} {suits}", n=count_word(words, count, "suits"), suits=suits)
        if lesson.get("unseen"):
            unseen = int(lesson["unseen"])
            board = counted(
                "{board} and one unseen",
                "{board} and {n} unseen",
                unseen,
                words,
                n=count_word(words, unseen, "cards"),
                board=board,
            )
        return said(N_("You hold {cards} and the board has {board}: {possible} is possible."),
                    N_("{name} shows {cards} and the board has {board}: {possible} is possible."),
                    cards=pair, board=board, possible=_article(words, int(lesson["category"])))  # fmt: skip
    if kind == "shows":
        return said(N_("You hold {cards}."), N_("{name} shows {cards}."), cards=pair)
    if kind == "has_now":
        return said(N_("You have {hand} now."), N_("It has {hand} now."), hand=_hand(words, lesson["hand"]))
    if kind == "at_best":
        if lesson.get("hand"):
            best = _hand(words, lesson["hand"])
        else:
            best = target_name(words, Category(int(lesson["category"])), lesson["example"])
        return said(N_("At best you can make {best}."), N_("At best it can make {best}."), best=best)
    if kind == "is_nuts":
        return words("Nothing can beat that: it is the nuts.")
    if kind == "not_nuts":
        return words("Other cards could make a better hand on this board: it is not the nuts.")
    if kind == "could_hold_nuts":
        return said(N_("You could hold the nuts, the best hand this board allows."),
                    N_("{name} could hold the nuts, the best hand this board allows."))  # fmt: skip
    if kind == "cannot_hold_nuts":
        return said(N_("You cannot hold the nuts: whatever the cards are, a better hand is possible."),
                    N_("{name} cannot hold the nuts: whatever the cards are, a better hand is possible."))  # fmt: skip
    if kind == "chances":
        return _chances(words, lesson, name, you)
    if kind == "outs":
        cards = " ".join(lesson["cards"])
        count = len(lesson["cards"])
        if you:
            return counted(
                "You need one card on the river to win or split: {cards}.",
                "You need one of {n} cards on the river to win or split: {cards}.",
                count,
                words,
                cards=cards,
            )
        return counted(
            "{name} needs one card on the river to win or split: {cards}.",
            "{name} needs one of {n} cards on the river to win or split: {cards}.",
            count,
            words,
            name=name,
            cards=cards,
        )
    if kind == "drawing_dead":
        return said(N_("No river card can save you: you are drawing dead."),
                    N_("No river card can save it: it is drawing dead."))  # fmt: skip
    return ""


def _chances(words: Words, lesson: dict[str, Any], name: str, you: bool) -> str:
    exact = bool(lesson.get("exact"))
    win, tie = float(lesson.get("win", 0)), float(lesson.get("tie", 0))
    basis = _basis(words, str(lesson.get("basis")))
    split = percent(words, tie, exact=exact)
    values = {"basis": basis, "name": name, "win": percent(words, win, exact=exact), "split": split}
    if win > 0:
        if tie >= 0.005:
            if you:
                return words("{basis}, you win {win} of the time and split the pot {split}.", **values)
            return words("{basis}, {name} wins {win} of the time and splits the pot {split}.", **values)
        if you:
            return words("{basis}, you win {win} of the time.", **values)
        return words("{basis}, {name} wins {win} of the time.", **values)
    if tie >= 0.005:
        if exact:
            if you:
                return words("{basis}, you cannot win outright, but split the pot {split}.", **values)
            return words("{basis}, {name} cannot win outright, but splits the pot {split}.", **values)
        if you:
            return words("{basis}, you almost never win outright, but split the pot {split}.", **values)
        return words("{basis}, {name} almost never wins outright, but splits the pot {split}.", **values)
    if exact:
        return words("{basis}, you cannot win.", **values) if you else words("{basis}, {name} cannot win.", **values)
    if you:
        return words("{basis}, you almost never win.", **values)
    return words("{basis}, {name} almost never wins.", **values)


def _names(words: Words, view: dict[str, Any]) -> dict[int, str]:
    """Each lens index's name (the worker numbers seats by the table and keeps the lens's in ``index``)."""
    return {int(s.get("index", s["seat"])): seat_name(words, str(s["name"])) for s in view.get("seats", [])}


def seat_sentences(words: Words, view: dict[str, Any], index: int) -> list[str]:
    """The sentences about the seat of lens index ``index`` of a lens view (``Lens.to_json()``)."""
    names = _names(words, view)
    seat = next(s for s in view["seats"] if int(s.get("index", s["seat"])) == index)
    return [_sentence(words, lesson, names.get(index, "")) for lesson in seat.get("explanation", [])]


def board_sentence(words: Words, lesson: dict[str, Any]) -> str:
    """The board in one sentence, with the suit that could make a flush."""
    parts = []
    up = list(lesson.get("up", []))
    down = list(lesson.get("down", []))
    unseen = int(lesson.get("unseen", 0))
    if up:
        parts.append(words("{cards} face up", cards=listed(words, [item_words(words, c) for c in up])))
    if down:
        marks = listed(words, [item_words(words, m) for m in down])
        parts.append(
            counted(
                "one face down: {marks}",
                "{n} face down: {marks}",
                len(down),
                words,
                n=count_word(words, len(down), "cards"),
                marks=marks,
            )
        )
    if unseen:
        parts.append(
            counted("one not seen yet", "{n} not seen yet", unseen, words, n=count_word(words, unseen, "cards"))
        )
    text = words("The board: {parts}.", parts=words("; ").join(parts))
    if lesson.get("flush_suit"):
        most = int(lesson["flush_count"])
        need = max(5 - most, 0)
        suits = suit_plural(words, SUIT_CHARS.index(lesson["flush_suit"]))
        count = count_word(words, most, "cards")
        if need == 0:
            flush = words("{count} are {suits}: a flush is possible for every seat.", count=count, suits=suits)
        else:
            flush = counted(
                "{count} are {suits}: a flush is possible for anyone holding one more.",
                "{count} are {suits}: a flush is possible for anyone holding {n} more.",
                need,
                words,
                n=count_word(words, need, "cards"),
                count=count,
                suits=suits,
            )
        text += " " + _capital(flush)
    return text


def summary_sentence(words: Words, lesson: dict[str, Any], names: dict[int, str]) -> str:
    """Who leads, in one sentence."""
    kind = lesson.get("kind")
    viewer = lesson.get("viewer")
    exact = bool(lesson.get("exact"))
    basis = _basis(words, str(lesson.get("basis")))

    def who(seat: int) -> str:
        return words("you") if seat == viewer else names.get(seat, "")

    if kind == "alone":
        if lesson.get("you"):
            return words("You win: everyone else folded.")
        return words("{name} wins: everyone else folded.", name=names.get(int(lesson["seat"]), ""))
    if kind == "sure":
        seat = int(lesson["seat"])
        if exact:
            if seat == viewer:
                return words("{basis}, you cannot lose.", basis=basis)
            return words("{basis}, {name} cannot lose.", basis=basis, name=who(seat))
        if seat == viewer:
            return words("{basis}, you win every time.", basis=basis)
        return words("{basis}, {name} wins every time.", basis=basis, name=who(seat))
    if kind == "level":
        level = listed(words, [who(s) for s in lesson["seats"]])
        return words("{basis}, {names} are level at {percent} each.", basis=basis, names=level,
                     percent=percent(words, float(lesson["equity"]), exact=exact))  # fmt: skip
    if kind == "leads":
        lead, second = (int(s) for s in lesson["seats"])
        first_pct, second_pct = (percent(words, float(e), exact=exact) for e in lesson["equities"])
        if lead == viewer:
            return words("{basis}, you lead with {percent}, then {second} with {second_percent}.", basis=basis,
                         percent=first_pct, second=who(second), second_percent=second_pct)  # fmt: skip
        return words("{basis}, {name} leads with {percent}, then {second} with {second_percent}.", basis=basis,
                     name=who(lead), percent=first_pct, second=who(second), second_percent=second_pct)  # fmt: skip
    return ""


def view_words(words: Words, view: dict[str, Any]) -> dict[str, Any]:
    """A lens view (``Lens.to_json()``) with its lessons, board, summary and hands in words."""
    names = _names(words, view)
    out = dict(view)
    seats = []
    for seat in view.get("seats", []):
        index = int(seat.get("index", seat["seat"]))
        entry = dict(seat)
        entry["name"] = names[index]
        entry["explanation"] = [_sentence(words, lesson, names[index]) for lesson in seat.get("explanation", [])]
        if seat.get("best") in _LABELS:
            entry["best"] = category_name(words, _LABELS[seat["best"]])
            if seat.get("example"):
                entry["best_example"] = target_name(words, _LABELS[seat["best"]], seat["example"])
        if seat.get("best_hand") and seat.get("best_key"):
            entry["best_hand"] = hand_name(words, seat["best_key"])
        entry["hands"] = {category_name(words, _LABELS[k]) if k in _LABELS else k: v
                          for k, v in (seat.get("hands") or {}).items()}  # fmt: skip
        seats.append(entry)
    out["seats"] = seats
    if isinstance(view.get("board_words"), dict):
        out["board_words"] = board_sentence(words, view["board_words"])
    if isinstance(view.get("summary"), dict):
        out["summary"] = summary_sentence(words, view["summary"], names)
    return out


def _history_words(words: Words, history: dict[str, Any] | None) -> dict[str, Any] | None:
    if not history:
        return history
    return {
        **history,
        "seats": [{**s, "name": seat_name(words, str(s.get("name", "")))} for s in history.get("seats", [])],
    }


def note_words(words: Words, doc: dict[str, Any]) -> str:
    """The lens document's note, said again from its fields in this language."""
    note = str(doc.get("note") or "")
    if not note:
        return ""
    if note.startswith("In Hold'em"):
        return words("In Hold'em the chances appear when the hands are turned face up after an all-in.")
    if note.startswith("All in: "):
        return words("All in: each hand's chances appear when the hands are turned face up.")
    if note.startswith("All in "):
        when = words(_STAGES.get(str(doc.get("allin_stage")), "before the flop"))
        if doc.get("stage") == "river":
            return words("All in {when}: the hands face up, the chances as the board ran out.", when=when)
        return words("All in {when}: the hands face up, the chances as the board runs out.", when=when)
    if note.startswith("The lens is off"):
        return words("The lens is off on this server.")
    prefix = "The lens cannot work this table out: "
    if note.startswith(prefix):
        return words("The lens cannot work this table out: {reason}", reason=note.removeprefix(prefix))
    return note


def lens_words(words: Words, doc: dict[str, Any]) -> dict[str, Any]:
    """The worker's lens document in ``words``' language (a new dict)."""
    out = dict(doc)
    out["note"] = note_words(words, doc)
    if isinstance(doc.get("lens"), dict):
        out["lens"] = view_words(words, doc["lens"])
    out["history"] = _history_words(words, doc.get("history"))
    if isinstance(doc.get("last"), dict):
        out["last"] = {**doc["last"], "history": _history_words(words, doc["last"].get("history"))}
    return out
