"""Simulated players for the demo: each seat has a style and decides from its own cards.

A decision is a list of console buttons to press (the demo presses them on mock GPIO pins,
exactly as a dealer would on the real console): ``[PLUS, PLUS, BET_RAISE]`` raises two steps
above the minimum. Strength is a rough 0..1 score from the hole cards and the board; the style
sets how much strength a seat wants before it calls, raises or goes all in.

Five-card draw players (:func:`draw_strength`, :func:`choose_discards`) keep what makes their
hand (pairs and better, four to a flush, jokers and wild cards; in lowball the small unpaired
cards) and exchange the rest, within the game's draw limit.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hardware.pins import ConsoleButton
from table.cards import Card, Joker
from table.draw import DrawCategory, DrawValue, LowRule, evaluate_draw, evaluate_low, parse_draw_cards
from table.evaluate import Category, evaluate


@dataclass(frozen=True)
class Style:
    """How a simulated player plays."""

    name: str
    call: float
    """Strength needed to call a bet (less when the price is small)."""
    raise_: float
    """Strength needed to bet or raise."""
    aggression: float
    """Chance to bet or raise when strong enough."""
    bluff: float
    """Chance to bet with a weak hand when nobody has bet."""


STYLES = (
    Style("tight", call=0.45, raise_=0.7, aggression=0.6, bluff=0.03),
    Style("loose", call=0.28, raise_=0.6, aggression=0.4, bluff=0.08),
    Style("aggressive", call=0.35, raise_=0.5, aggression=0.8, bluff=0.15),
    Style("calling station", call=0.2, raise_=0.85, aggression=0.2, bluff=0.0),
)


def strength(hole: Sequence[str], board: Sequence[str]) -> float:
    """A rough 0..1 score of a hand: pre-flop from the two cards, later from the made hand."""
    cards = [Card.parse(c) for c in hole]
    if len(cards) != 2:
        return 0.3
    high, low = sorted((int(c.rank) for c in cards), reverse=True)
    if not board:
        if high == low:
            return 0.55 + high / 30
        score = (high + low) / 24 * 0.6
        score += 0.06 if cards[0].suit == cards[1].suit else 0.0
        score += 0.05 if high - low == 1 else 0.0
        return min(score, 0.8)
    value = evaluate([*cards, *(Card.parse(c) for c in board)])
    base = {
        Category.HIGH_CARD: 0.12, Category.PAIR: 0.42, Category.TWO_PAIR: 0.66, Category.THREE_OF_A_KIND: 0.76,
        Category.STRAIGHT: 0.84, Category.FLUSH: 0.88, Category.FULL_HOUSE: 0.94, Category.FOUR_OF_A_KIND: 0.98,
        Category.STRAIGHT_FLUSH: 1.0,
    }[value.category]  # fmt: skip
    board_only = evaluate([Card.parse(c) for c in board]).category if len(board) >= 5 else None
    if board_only is not None and board_only >= value.category:
        base -= 0.25  # the hand is all on the board: everyone has it
    return max(0.0, min(1.0, base + high / 120))


def decide(
    style: Style, hole: Sequence[str], board: Sequence[str], legal: Sequence[Mapping[str, Any]], *,
    bet: int, pot: int, rng: random.Random, score: float | None = None,
) -> list[ConsoleButton]:  # fmt: skip
    """The buttons to press for the seat to act (``score``: the hand's strength when already
    known, as for a draw hand; else from ``hole`` and ``board``)."""
    options = {a["action"]: a for a in legal}
    score = (strength(hole, board) if score is None else score) + rng.uniform(-0.08, 0.08)
    to_call = options["call"]["min_to"] - bet if "call" in options else 0
    price = to_call / (pot + to_call) if to_call else 0.0
    raise_kind = "bet" if "bet" in options else ("raise" if "raise" in options else None)
    if score > 0.93 and "all_in" in options and rng.random() < 0.25:
        return [ConsoleButton.ALL_IN]
    strong = score >= style.raise_ and rng.random() < style.aggression
    bluffing = to_call == 0 and rng.random() < style.bluff
    if raise_kind is not None and (strong or bluffing):
        steps = rng.choice((0, 0, 1, 2, 3)) if strong else 0
        return [ConsoleButton.PLUS] * steps + [ConsoleButton.BET_RAISE]
    if to_call == 0:
        return [ConsoleButton.CHECK_CALL]
    if score >= style.call or price < score * 0.5:
        return [ConsoleButton.CHECK_CALL]
    return [ConsoleButton.FOLD]


# ------------------------------------------------------------------------------ five-card draw
_HIGH_SCORE = {
    DrawCategory.HIGH_CARD: 0.15, DrawCategory.PAIR: 0.4, DrawCategory.TWO_PAIR: 0.62,
    DrawCategory.THREE_OF_A_KIND: 0.74, DrawCategory.STRAIGHT: 0.82, DrawCategory.FLUSH: 0.86,
    DrawCategory.FULL_HOUSE: 0.92, DrawCategory.FOUR_OF_A_KIND: 0.97, DrawCategory.STRAIGHT_FLUSH: 0.99,
    DrawCategory.FIVE_OF_A_KIND: 1.0,
}  # fmt: skip
_LOW_SCORE = {5: 1.0, 6: 0.92, 7: 0.82, 8: 0.68, 9: 0.52, 10: 0.4, 11: 0.3}
"""Strength of an unpaired low hand by its highest card (5: the best a low can be)."""


def draw_value(cards: Sequence[str], rules: Mapping[str, Any]) -> DrawValue:
    """The value of five cards under a draw game's rules (``DrawRules.to_dict()``)."""
    if rules.get("lowball"):
        return evaluate_low(list(cards), wild_rank=rules.get("wild_rank"), rule=rules["lowball"])
    return evaluate_draw(list(cards), wild_rank=rules.get("wild_rank"), ties=rules.get("ties", "natural"))


def draw_strength(cards: Sequence[str], rules: Mapping[str, Any]) -> float:
    """A rough 0..1 score of a five-card hand, high or low."""
    value = draw_value(cards, rules)
    if not value.is_low:
        return min(1.0, _HIGH_SCORE[value.category] + value.key[1] / 150)
    if value.category != DrawCategory.HIGH_CARD:  # a pair, or a straight or flush in deuce-to-seven
        return 0.12 if value.category == DrawCategory.PAIR else 0.05
    ace_to_five = rules["lowball"] == LowRule.ACE_TO_FIVE.value
    top = value.key[1] + (1 if ace_to_five else 2)  # the highest card's face value, ace low in ace-to-five
    return _LOW_SCORE.get(top, 0.2)


def choose_discards(cards: Sequence[str], rules: Mapping[str, Any]) -> list[str]:
    """The cards a sensible player throws (at most ``rules["max_draw"]``), worst first."""
    hand = parse_draw_cards(list(cards))
    wild = rules.get("wild_rank")
    most = int(rules.get("max_draw", 3))

    def is_wild(card: Card | Joker) -> bool:
        return isinstance(card, Joker) or (wild is not None and card.rank.char == wild)

    naturals = [c for c in hand if isinstance(c, Card) and not is_wild(c)]
    if rules.get("lowball"):
        ace_low = rules["lowball"] == LowRule.ACE_TO_FIVE.value

        def height(card: Card) -> int:
            return 1 if ace_low and card.rank.char == "A" else int(card.rank) + 2

        kept: set[Card] = set()
        for card in sorted(naturals, key=height):
            if height(card) <= 8 and all(k.rank != card.rank for k in kept):
                kept.add(card)
        throw = sorted((c for c in naturals if c not in kept), key=height, reverse=True)
        if not throw and naturals and draw_value(cards, rules).category != DrawCategory.HIGH_CARD:
            throw = [max(naturals, key=height)]  # a straight or flush counts against in deuce-to-seven: break it
    else:
        value = draw_value(cards, rules)
        if value.category >= DrawCategory.STRAIGHT:
            return []
        counts = {r: sum(1 for c in naturals if c.rank == r) for r in {c.rank for c in naturals}}
        paired = [c for c in naturals if counts[c.rank] >= 2]
        suits = {s: [c for c in naturals if c.suit == s] for s in {c.suit for c in naturals}}
        flush_draw = next((group for group in suits.values() if len(group) + len(hand) - len(naturals) >= 4), None)
        if paired or value.wilds:
            kept_cards = set(paired)
        elif flush_draw is not None:
            kept_cards = set(flush_draw)
        else:
            kept_cards = {max(naturals, key=lambda c: int(c.rank))}
        throw = sorted((c for c in naturals if c not in kept_cards), key=lambda c: int(c.rank))
    return [str(c) for c in throw[:most]]


# ------------------------------------------------------------------------------ the host
@dataclass(frozen=True)
class HostEntry:
    """A card entry the simulated host makes on the admin page: ``kind`` and its fields are the
    service step (``"show"``: ``seat`` and ``cards``; ``"deal_board"``: ``cards``;
    ``"choose_button"``: ``draws``; ``"correct"``: ``seat``, ``index`` and one card)."""

    kind: str
    key: tuple[Any, ...]
    """What the host is waiting on (the same key while the same cards wait)."""
    cards: tuple[str, ...]
    seat: int | None = None
    index: int = 0
    draws: tuple[tuple[int, str], ...] = ()
    was: str | None = None
    """A correction: the card the game had."""


def cards_to_enter(snap: Mapping[str, Any], state: Any, *, holes: Mapping[int, Sequence[str]],
                   board: Sequence[str]) -> list[HostEntry]:  # fmt: skip
    """Face-up cards on the table that the game has not taken (the host enters them after a
    while, if the camera still has not): the draw for the button, the turned board, shown hands.
    ``state`` is the table (:class:`hardware.table_model.TableState`); ``holes`` and ``board``
    what the dealer dealt this hand (``snap["hand_number"]``)."""
    phase = snap["phase"]
    number = snap["hand_number"]
    if phase == "seating":
        seats = [p["seat"] for p in snap["seats"] if p["name"] and p["stack"] > 0 and not p["sitting_out"]]
        drawn = {s: [c.card for c in state.in_zone(s) if c.face_up] for s in seats}
        if seats and all(len(cards) == 1 for cards in drawn.values()):
            draws = tuple((s, cards[0]) for s, cards in drawn.items())
            return [HostEntry("choose_button", ("draw", number), tuple(c for _, c in draws), draws=draws)]
        return []
    if phase != "playing":
        return []
    out: list[HostEntry] = []
    draw_game = bool(snap.get("draw_game"))
    if snap["hands_may_be_shown"] or (draw_game and snap["street"] == "showdown"):
        for p in snap["seats"]:
            seat = p["seat"]
            lying = state.in_zone(seat)
            if not p["in_hand"] or p["folded"] or p["hole"] or p.get("mucked") or seat not in holes:
                continue
            if lying and all(c.face_up for c in lying):
                out.append(HostEntry("show", (number, "seat", seat), tuple(holes[seat]), seat=seat))
    if not draw_game and snap["to_act"] is None and snap["street"] != "showdown":
        known = len(snap["board"])
        turned = [c.card for c in state.in_zone("board") if c.face_up]
        if len(turned) > known and turned == list(board[: len(turned)]):
            out.append(HostEntry("deal_board", (number, "board", known, len(turned)), tuple(turned[known:])))
    return out


def cards_to_correct(snap: Mapping[str, Any], *, holes: Mapping[int, Sequence[str]],
                     board: Sequence[str]) -> list[HostEntry]:  # fmt: skip
    """Cards the game has that differ from what the dealer dealt (the camera read them wrong):
    one correction per card, board first."""
    number = snap["hand_number"]
    out: list[HostEntry] = []
    for i, card in enumerate(snap["board"]):
        if i < len(board) and card != board[i]:
            out.append(HostEntry("correct", (number, "fix-board", i), (board[i],), index=i, was=card))
    for p in snap["seats"]:
        truth = list(holes.get(p["seat"], []))
        shown = list(p["hole"] or [])
        if not shown or not truth or sorted(shown) == sorted(truth):
            continue
        missing = [c for c in truth if c not in shown]
        for i, card in enumerate(shown):
            if card not in truth and missing:
                out.append(HostEntry("correct", (number, "fix-seat", p["seat"], i), (missing.pop(0),),
                                     seat=p["seat"], index=i, was=card))  # fmt: skip
    return out


class Patience:
    """How long the host lets the camera try before entering a card by hand (in seconds of the
    demo's clock: virtual in the fast demo)."""

    def __init__(self, seconds: float = 2.5) -> None:
        self.seconds = seconds
        self._since: dict[tuple[Any, ...], float] = {}

    def due(self, entries: Sequence[HostEntry], now: float) -> HostEntry | None:
        """The first entry waited on for ``seconds`` (timers start at the first sight of each;
        entries no longer waiting are forgotten)."""
        keys = {e.key for e in entries}
        self._since = {k: t for k, t in self._since.items() if k in keys}
        for entry in entries:
            if now - self._since.setdefault(entry.key, now) >= self.seconds:
                return entry
        return None
