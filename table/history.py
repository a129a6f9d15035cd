"""Hand histories in the Poker Hand History format (PHH, a TOML file), so other tools can read
our hands, and PHH hands replayed on our engine.

Its errors stay English: they report a hand history file to the export and import commands, not a
move at the table.

PHH numbers the players from the first seat left of the button (``p1``, the small blind;
heads-up, the big blind) round to the button, last; ``seats`` keeps our seat numbers (from 1)
and ``seat_count`` the table size, so a hand read back sits at the same seats. Hole cards are
written where they are dealt (``????`` when never seen), shows where they happened (at the
showdown, or at an all-in before the board runs out) and mucks at the showdown. Tock
hands are written as Hold'em (PHH has no Tock variant) with ``_tocktable_variant = "tock"``.

>>> from table.cards import parse_cards
>>> from table.engine import Hand, Rules
>>> hand = Hand(Rules(small_blind=1, big_blind=2), stacks=[100, 100, 0], button=0)
>>> hand.act(0, "raise", 6); hand.act(1, "fold")
>>> text = to_phh(hand, names={0: "Ann", 1: "Bob"})
>>> print(text.split("actions = ")[1].splitlines()[0])
["d dh p1 ????", "d dh p2 ????", "p2 cbr 6", "p1 f"]
>>> again, meta = from_phh(text)
>>> again.payoffs == hand.payoffs, meta.players
(True, ('Bob', 'Ann'))
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from table.cards import Card, parse_cards
from table.engine import (
    ActionKind,
    ActionTaken,
    BlindPosted,
    BoardDealt,
    Hand,
    HandMucked,
    HoleDealt,
    Rules,
    Street,
)
from table.errors import TocktableError
from table.wording import seats as seats_words


class HistoryError(TocktableError, ValueError):
    """A hand history that cannot be read or replayed."""


@dataclass(frozen=True)
class PhhMeta:
    """The optional PHH fields we read back."""

    players: tuple[str, ...] = ()
    """Names in PHH player order (p1 first)."""
    hand: int | None = None
    event: str | None = None


def phh_order(hand: Hand) -> list[int]:
    """Our seats dealt in, in PHH player order: left of the button first, the button last
    (``p1`` is the first)."""
    seats = [(hand.button + 1 + i) % hand.seats for i in range(hand.seats)]
    return [s for s in seats if s in hand.in_hand]


def phh_action(who: str, action: ActionTaken, *, top: int) -> str:
    """A betting action as PHH: ``f`` (fold), ``cbr`` to the street total when it goes above
    ``top`` (the highest street total so far), else ``cc`` (check or call)."""
    if action.action == ActionKind.FOLD:
        return f"{who} f"
    if action.to > top:
        return f"{who} cbr {action.to}"
    return f"{who} cc"


def phh_closing_fields(
    hand: Hand,
    order: list[int],
    *,
    names: Mapping[int, str] | None,
    number: int | None,
    event: str | None,
) -> dict[str, Any]:
    """The PHH fields that follow the actions, as any variant writes them: our seats and the
    table size, then the players' names, the hand number, the event and the finishing stacks
    (each only when known). ``order`` is :func:`phh_order`."""
    fields: dict[str, Any] = {"seats": [s + 1 for s in order], "seat_count": hand.seats}
    if names is not None:
        missing = [s for s in order if s not in names]
        if missing:
            raise HistoryError(f"no name for {seats_words(missing)}: give a name for every seat dealt in")
        fields["players"] = [names[s] for s in order]
    if number is not None:
        fields["hand"] = number
    if event is not None:
        fields["event"] = event
    if hand.is_complete:
        fields["finishing_stacks"] = [hand.stacks[s] for s in order]
    return fields


def phh_text(fields: Mapping[str, Any]) -> str:
    """PHH fields (numbers, texts, booleans and lists of them) as TOML text, one per line."""
    return "".join(f"{key} = {_toml(value)}\n" for key, value in fields.items())


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise HistoryError(f"cannot write {value!r} to a hand history")


def _cards(cards: Iterable[Card]) -> str:
    return "".join(map(str, cards))


def _actions(hand: Hand, player: Mapping[int, str]) -> list[str]:
    order = list(player)
    actions = [f"d dh {player[s]} {_cards(hand.hole.get(s, ())) or '????'}" for s in order]
    bets: dict[int, int] = {}
    board = 0
    shown: set[int] = set()
    winners = {s for result in hand.showdown or [] for s in result.winners}
    for event in hand.events:
        if isinstance(event, BlindPosted) and event.kind != "ante":
            bets[event.seat] = event.amount
        elif isinstance(event, ActionTaken):
            actions.append(phh_action(player[event.seat], event, top=max(bets.values(), default=0)))
            bets[event.seat] = event.to
        elif isinstance(event, BoardDealt):
            cards = list(event.cards)
            while cards:  # several streets at once (an all-in run-out): PHH deals them one by one
                size = 3 if board == 0 else 1
                actions.append(f"d db {_cards(cards[:size])}")
                cards, board = cards[size:], board + size
            bets = {}
        elif isinstance(event, HoleDealt) and not hand.folded[event.seat] and event.seat not in shown:
            # Shown where it happened: at the showdown, or tabled at an all-in before the board
            # runs out (the engine takes a live hand at no other time), as pokerkit plays it.
            actions.append(f"{player[event.seat]} sm {_cards(event.cards)}")
            shown.add(event.seat)
        elif isinstance(event, HandMucked) and event.seat not in winners:
            # A seat that mucked but still won a pot (every other hand in it was mucked
            # before) is left unshown: PHH readers give it the pot it is alone in.
            actions.append(f"{player[event.seat]} sm")
    return actions


def to_phh(
    hand: Hand,
    *,
    names: Mapping[int, str] | None = None,
    number: int | None = None,
    event: str | None = None,
) -> str:
    """The hand (finished or not) as PHH text. ``names`` maps our seats to player names."""
    order = phh_order(hand)
    player = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
    rules = hand.rules
    blinds = [0] * len(order)
    blinds[0], blinds[1] = rules.small_blind, rules.big_blind
    fields: dict[str, Any] = {
        "variant": "FT" if rules.fixed_limit else "NT",
        "ante_trimming_status": True,
        "antes": [rules.ante] * len(order),
        "blinds_or_straddles": blinds,
    }
    if rules.fixed_limit:
        fields["small_bet"] = rules.bet_size(Street.PREFLOP)
        fields["big_bet"] = rules.bet_size(Street.TURN)
    else:
        fields["min_bet"] = rules.big_blind
    fields["starting_stacks"] = [hand.starting_stacks[s] for s in order]
    fields["actions"] = _actions(hand, player)
    fields.update(phh_closing_fields(hand, order, names=names, number=number, event=event))
    if rules.variant != "holdem":
        fields["_tocktable_variant"] = rules.variant
    if rules.fixed_limit and rules.raise_cap != 3:
        fields["_tocktable_raise_cap"] = -1 if rules.raise_cap is None else rules.raise_cap
    return phh_text(fields)


def to_phhs(hands: Iterable[str]) -> str:
    """Several PHH texts as one PHHS file (numbered TOML tables, as pokerkit reads them)."""
    return "\n".join(f"[{i}]\n{text}" for i, text in enumerate(hands, start=1))


def from_phhs(text: str) -> list[tuple[Hand, PhhMeta]]:
    """Every hand of a PHHS file, in order."""
    data = _load(text)
    hands = []
    for key, table in data.items():
        if not isinstance(table, dict):
            raise HistoryError(f"a PHHS file holds numbered tables ([1], [2]...), not {key!r}")
        hands.append(_replay(table))
    return hands


def from_phh(text: str) -> tuple[Hand, PhhMeta]:
    """Replay a PHH hand (NT or FT hold'em) on our engine."""
    return _replay(_load(text))


def _load(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise HistoryError(f"not a PHH file (invalid TOML): {exc}") from None


def _ints(data: Mapping[str, Any], key: str, count: int | None = None) -> list[int]:
    value = data.get(key)
    if isinstance(value, int) and not isinstance(value, bool) and count is not None:
        value = [value] * count
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise HistoryError(f"PHH field {key!r} must be a list of whole numbers, got {value!r}")
    if count is not None and len(value) != count:
        raise HistoryError(f"PHH field {key!r} has {len(value)} entries for {count} players")
    return value


def _table(data: Mapping[str, Any], players: int) -> tuple[list[int], int]:
    """Our seat for each PHH player, and the table size."""
    if "seats" not in data:
        return list(range(players)), players
    seats = _ints(data, "seats", players)
    size = data.get("seat_count", max(seats))
    if not isinstance(size, int) or len(set(seats)) != players or not all(1 <= s <= size for s in seats):
        raise HistoryError(f"PHH seats {seats} are not distinct seat numbers 1..{size}")
    if seats != sorted(seats, key=lambda s: (s - seats[-1] - 1) % size):
        raise HistoryError(f"PHH seats {seats} are not in order round the table from the button ({seats[-1]})")
    return [s - 1 for s in seats], size


def _rules(data: Mapping[str, Any], players: int) -> Rules:
    variant = data.get("variant")
    if variant not in ("NT", "FT"):
        raise HistoryError(f"variant {variant!r} is not supported: tocktable reads NT and FT (hold'em)")
    blinds = _ints(data, "blinds_or_straddles", players)
    antes = _ints(data, "antes", players)
    if any(blinds[2:]) or not 0 < blinds[0] <= blinds[1] or len(set(antes)) != 1:
        raise HistoryError(
            f"blinds {blinds} and antes {antes}: tocktable plays a small and a big blind and one ante for all"
        )
    kwargs: dict[str, Any] = {"small_blind": blinds[0], "big_blind": blinds[1], "ante": antes[0]}
    kwargs["variant"] = data.get("_tocktable_variant", "holdem")
    if variant == "FT":
        cap = data.get("_tocktable_raise_cap", 3)
        kwargs.update(betting="fixed-limit", small_bet=data.get("small_bet"), big_bet=data.get("big_bet"))
        kwargs["raise_cap"] = None if cap == -1 else cap
    try:
        return Rules(**kwargs)
    except TocktableError as exc:
        raise HistoryError(f"the hand's rules cannot be played here: {exc}") from None


def _replay(data: Mapping[str, Any]) -> tuple[Hand, PhhMeta]:
    stacks = _ints(data, "starting_stacks")
    rules = _rules(data, len(stacks))
    seat_of, size = _table(data, len(stacks))
    table_stacks = [0] * size
    for i, at in enumerate(seat_of):
        table_stacks[at] = stacks[i]
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise HistoryError("PHH field 'actions' must be a list of texts")
    try:
        hand = Hand(rules, table_stacks, button=seat_of[-1])
    except TocktableError as exc:
        raise HistoryError(f"the hand cannot be set up: {exc}") from None
    known: dict[int, list[Card]] = {}

    def seat(label: str) -> int:
        if not label.startswith("p") or not label[1:].isdigit() or not 1 <= int(label[1:]) <= len(seat_of):
            raise HistoryError(f"unknown player {label!r}: players are p1..p{len(seat_of)}")
        return seat_of[int(label[1:]) - 1]

    for action in actions:
        words = action.split("#")[0].split()
        try:
            match words:
                case ["d", "dh", who, cards]:
                    if "?" not in cards:
                        known[seat(who)] = parse_cards(cards)
                case ["d", "db", cards]:
                    hand.deal_board(parse_cards(cards))
                case [who, "f"]:
                    hand.act(seat(who), "fold")
                    if seat(who) in known:
                        hand.deal_hole(seat(who), known.pop(seat(who)))
                case [who, "cc"]:
                    s = seat(who)
                    hand.act(s, "check" if hand.can_act(s, "check") else "call")
                case [who, "cbr", amount] if amount.isdigit():
                    s, to = seat(who), int(amount)
                    if to == hand.stacks[s] + hand.bets[s]:
                        hand.act(s, "all_in")
                    else:
                        hand.act(s, "bet" if hand.can_act(s, "bet", to) else "raise", to)
                case [who, "sm"]:
                    hand.muck(seat(who))
                case [who, "sm", cards]:
                    s = seat(who)
                    shown = known.pop(s, None) if cards == "-" else parse_cards(cards)
                    if shown is None:
                        raise HistoryError(f"{who} shows the cards dealt, but they were never given")
                    if s not in hand.hole:
                        hand.deal_hole(s, shown)
                case _:
                    raise HistoryError(f"cannot replay PHH action {action!r}: tocktable reads hold'em actions")
        except HistoryError:
            raise
        except TocktableError as exc:
            raise HistoryError(f"the hand history does not replay at {action!r}: {exc}") from None
    if hand.street == Street.SHOWDOWN and not hand.is_complete:
        try:
            for s, cards in known.items():
                if not hand.folded[s] and s not in hand.hole and s not in hand.mucked:
                    hand.deal_hole(s, cards)
            if not hand.is_complete:
                hand.settle()
        except TocktableError as exc:
            raise HistoryError(f"the hand's showdown cannot be settled: {exc}") from None
    players = data.get("players", ())
    meta = PhhMeta(
        tuple(str(p) for p in players) if isinstance(players, list) else (),
        data.get("hand") if isinstance(data.get("hand"), int) else None,
        data.get("event") if isinstance(data.get("event"), str) else None,
    )
    return hand, meta


__all__ = [
    "HistoryError",
    "PhhMeta",
    "from_phh",
    "from_phhs",
    "phh_action",
    "phh_closing_fields",
    "phh_order",
    "phh_text",
    "to_phh",
    "to_phhs",
]
