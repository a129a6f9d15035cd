"""What the dashboard draws: the service's snapshot plus what it takes to draw it.

The service publishes one JSON snapshot per change. The page needs a little more, derived
only from that snapshot (never from the engine): each pot and bet broken into chips of the
chip set in use, each shown hand's name and five cards, the chip set's colours. A
:class:`Presenter` adds those once per published snapshot and shares the text between every
phone (SSE and ``/api/state`` alike), so 50 phones cost one conversion, not 50.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from table.chips import CHIP_SETS, ChipSet
from table.draw import evaluate_draw, evaluate_low
from table.errors import TocktableError
from table.evaluate import evaluate
from web.protocols import Published
from web.words import SOURCE_LANGUAGE, Words, words_for
from web.words.hands import draw_hand_name, hand_name
from web.words.notices import draw_game_words, say_warning

DEFAULT_CHIP_SET = "tock"

HOST_NOTICES = frozenset({"rejected", "store", "error"})
"""Warnings for the host's eyes only: a command the game refused (a mistyped card, a button
pressed when nobody is to act), a failed write, an internal error. The host's page shows them;
the players' phones never do (a typo is not the table's business). Warnings about the table
itself (a card face up in a seat, a board card turned early) stay on every phone."""


def chip_set_named(name: str) -> ChipSet:
    """The seed's chip set called ``name`` (the configuration's ``table.chip_set``)."""
    try:
        return CHIP_SETS[name]
    except KeyError:
        raise ChipSetError(f"no chip set {name!r}: choose one of {', '.join(CHIP_SETS)}") from None


class ChipSetError(TocktableError, ValueError):
    """An unknown chip set name."""


def chips_for(chip_set: ChipSet, amount: int) -> list[list[int]]:
    """``amount`` as the fewest chips: ``[[value, count], ...]`` largest first (empty for 0)."""
    if not isinstance(amount, int) or amount <= 0:
        return []
    try:
        return [[value, count] for value, count in chip_set.break_amount(amount).items()]
    except TocktableError:  # an amount the set cannot make (no 1 chip): show the number only
        return []


def describe_shown(cards: list[str], board: list[str], words: Words | None = None) -> dict[str, Any]:
    """The name (in ``words``' language, English by default) and best five cards of a shown hand
    on ``board`` (nothing before 3 board cards)."""
    if len(board) < 3 or len(cards) != 2:
        return {}
    try:
        value = evaluate([*cards, *board])
    except TocktableError:
        return {}
    name = hand_name(words or words_for(SOURCE_LANGUAGE), value.key)
    return {"hand": name, "best_five": [str(c) for c in value.best_five]}


def describe_draw(cards: list[str], rules: dict[str, Any], words: Words | None = None) -> dict[str, Any]:
    """Five-card draw: the name of a shown hand under the game's rules (jokers, wild rank, lowball)."""
    if len(cards) != 5:
        return {}
    try:
        if rules.get("lowball"):
            value = evaluate_low(cards, wild_rank=rules.get("wild_rank"), rule=rules["lowball"])
        else:
            value = evaluate_draw(cards, wild_rank=rules.get("wild_rank"), ties=rules.get("ties", "natural"))
    except TocktableError:
        return {}
    return {"hand": draw_hand_name(words or words_for(SOURCE_LANGUAGE), value), "best_five": list(cards)}


def present(
    state: dict[str, Any], chip_set: ChipSet, *, host: bool = False, words: Words | None = None
) -> dict[str, Any]:
    """The snapshot with the drawing aids added (a new dict; ``state`` is not changed), its hands
    named in ``words``' language (English by default). For the players (``host=False``) the
    host's own warnings (:data:`HOST_NOTICES`) are left out."""
    words = words or words_for(SOURCE_LANGUAGE)
    out = dict(state)
    warnings = state.get("warnings", [])
    if not host:
        warnings = [w for w in warnings if w.get("kind") not in HOST_NOTICES]
    out["warnings"] = [say_warning(words, w) for w in warnings]
    if state.get("draw_game"):
        out["draw_game"] = draw_game_words(words, state["draw_game"])
    draw_rules = (state.get("draw_game") or {}).get("rules")
    out["chip_set"] = chip_set.to_dict()
    out["pots"] = [{**pot, "chips": chips_for(chip_set, pot.get("amount", 0))} for pot in state.get("pots", [])]
    out["pot_chips"] = chips_for(chip_set, state.get("pot_total", 0))
    seats = []
    board = list(state.get("board", []))
    for seat in state.get("seats", []):
        entry = {**seat, "bet_chips": chips_for(chip_set, seat.get("bet", 0))}
        if seat.get("hole"):
            if draw_rules:
                entry.update(describe_draw(list(seat["hole"]), draw_rules, words))
            else:
                entry.update(describe_shown(list(seat["hole"]), board, words))
        seats.append(entry)
    out["seats"] = seats
    if state.get("last_hand"):
        out["last_hand"] = present_hand(state["last_hand"], words, draw_rules=draw_rules)
    return out


def present_hand(
    record: dict[str, Any], words: Words | None = None, *, draw_rules: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A finished hand (``HandRecord.to_dict()``) with every shown hand's name (in ``words``'
    language, English by default) and five cards. A draw hand is named again under ``draw_rules``
    when given (else the record's own English name stays)."""
    words = words or words_for(SOURCE_LANGUAGE)
    board = list(record.get("board", []))
    shown = {}
    out_shown = []
    draw = "draws" in record  # five-card draw: the record names each shown hand; its five cards are the hand
    for entry in record.get("shown", []):
        cards = list(entry.get("cards", []))
        if draw:
            described = {"best_five": cards, **(describe_draw(cards, draw_rules, words) if draw_rules else {})}
        else:
            described = describe_shown(cards, board, words)
        shown[entry.get("seat")] = described
        out_shown.append({**entry, **described})
    pots = []
    for pot in record.get("pots", []):
        winners = [
            {**w, **{k: v for k, v in shown.get(w.get("seat"), {}).items() if k in ("hand", "best_five")}}
            for w in pot.get("winners", [])
        ]
        winners = [{"best_five": [], **w} for w in winners]
        pots.append({**pot, "winners": winners})
    return {**record, "shown": out_shown, "pots": pots, "winners": hand_winners(pots, record.get("payoffs", []))}


def hand_winners(pots: list[dict[str, Any]], payoffs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per seat that won any pot, in the order of the pots: ``won`` is what it took
    from the pots, ``net`` what it ended up with against what it put in (the ledger's view of
    the hand), ``hand`` its best hand's name. A seat that wins the main pot and a side pot is
    one entry, not two."""
    net = {p.get("seat"): p.get("net", 0) for p in payoffs}
    out: dict[int, dict[str, Any]] = {}
    for pot in pots:
        for w in pot.get("winners", []):
            seat = w.get("seat")
            if seat in out:
                out[seat]["won"] += w.get("amount", 0)
                continue
            out[seat] = {"seat": seat, "name": w.get("name"), "won": w.get("amount", 0), "net": net.get(seat, 0),
                         "hand": w.get("hand", ""), "best_five": w.get("best_five", [])}  # fmt: skip
    return list(out.values())


class Presenter:
    """Presents each published snapshot once per audience (the players, the host); every reader
    of the same snapshot gets the same text."""

    def __init__(self, chip_set: ChipSet) -> None:
        self._chip_set = chip_set
        self._lock = threading.Lock()
        self._cache: OrderedDict[tuple[int, bool, str], tuple[Published, str]] = OrderedDict()

    @property
    def chip_set(self) -> ChipSet:
        return self._chip_set

    @chip_set.setter
    def chip_set(self, chip_set: ChipSet) -> None:
        with self._lock:
            self._chip_set = chip_set
            self._cache.clear()

    def text(self, snapshot: Published, *, host: bool = False, words: Words | None = None) -> str:
        """The presented JSON text of a published snapshot: the players' view,
        or with ``host=True`` the host's (the same, plus the host's own warnings), in the
        language of ``words`` (English by default)."""
        words = words or words_for(SOURCE_LANGUAGE)
        key = (id(snapshot), host, words.language)
        with self._lock:
            # Keyed by identity: the service shares one Snapshot object with every reader, and
            # the cache holds it, so its id cannot be reused while cached.
            cached = self._cache.get(key)
            if cached is not None and cached[0] is snapshot:
                return cached[1]
            state = json.loads(snapshot.json)
            text = json.dumps(present(state, self._chip_set, host=host, words=words), separators=(",", ":"))
            self._cache[key] = (snapshot, text)
            while len(self._cache) > 32:
                self._cache.popitem(last=False)
            return text

    def state(self, snapshot: Published, *, host: bool = False, words: Words | None = None) -> dict[str, Any]:
        """The presented snapshot as plain data."""
        data: dict[str, Any] = json.loads(self.text(snapshot, host=host, words=words))
        return data
