"""Chip sets from the seed rules, breaking an amount into chips, sharing a set evenly.

>>> DEALER.break_amount(138)
{100: 1, 25: 1, 10: 1, 1: 3}
>>> WHITE_RED_BLUE_GREEN.break_amount(30)  # three blues, not 25 + 2 + 2 + 1
{10: 3}
>>> share = TOCK.split_evenly(4)
>>> share.per_player, share.value_per_player, share.left_over
({5: 5, 20: 5, 50: 5, 100: 5}, 875, {})
>>> TOCK.break_amount(875, available=share.per_player)
{100: 5, 50: 5, 20: 5, 5: 5}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import gcd
from typing import Any

from table.errors import RulesError
from table.phrases import N_, Chips, Number, Phrase, Verbatim, given


def _whole(value: object, what: Phrase, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise RulesError(
            N_("{what} must be a whole number, {minimum} or more, got {value}"),
            what=what,
            minimum=Number(minimum),
            value=given(value),
        )
    return value


@dataclass(frozen=True)
class Chip:
    """One denomination: its value, the colour's name, a colour to draw it with, and how
    many of these the set holds."""

    value: int
    colour: str
    hex: str
    count: int

    def __post_init__(self) -> None:
        _whole(self.value, Phrase(N_("a chip's value")), minimum=1)
        _whole(self.count, Phrase(N_("the number of {value} chips"), value=Chips(self.value)), minimum=0)


@dataclass(frozen=True)
class Share:
    """What each player gets when a set is shared evenly, and what stays in the box."""

    per_player: dict[int, int]
    value_per_player: int
    left_over: dict[int, int]


@dataclass(frozen=True)
class ChipSet:
    """A box of chips: denominations with their counts."""

    name: str
    chips: tuple[Chip, ...]

    def __post_init__(self) -> None:
        values = [c.value for c in self.chips]
        if not values or len(set(values)) != len(values):
            raise RulesError(
                N_("chip set {name} needs distinct denominations, got {values}"),
                name=given(self.name),
                values=given(values),
            )

    @property
    def values(self) -> list[int]:
        """Denominations, largest first."""
        return sorted((c.value for c in self.chips), reverse=True)

    @property
    def total(self) -> int:
        """Value of the whole set."""
        return sum(c.value * c.count for c in self.chips)

    def chip(self, value: int) -> Chip:
        for chip in self.chips:
            if chip.value == value:
                return chip
        raise RulesError(
            N_("the {name} set has no {value} chip: it has {values}"),
            name=Verbatim(self.name),
            value=Chips(value),
            values=given(self.values),
        )

    def break_amount(self, amount: int, *, available: Mapping[int, int] | None = None) -> dict[int, int]:
        """The fewest chips that make ``amount``, as ``{value: count}`` largest first.
        ``available`` limits each denomination (default: as many as needed). Raises
        :class:`RulesError` if the amount cannot be made."""
        _whole(amount, Phrase(N_("an amount of chips")), minimum=0)
        values = self.values
        if available is not None:
            for value, count in available.items():
                self.chip(value)
                _whole(count, Phrase(N_("the number of {value} chips available"), value=Chips(value)), minimum=0)
            limits = {v: available.get(v, 0) for v in values}
            if sum(v * n for v, n in limits.items()) < amount:
                raise RulesError(
                    N_("{amount} is more than the {name} chips available: {limits}"),
                    amount=Chips(amount),
                    name=Verbatim(self.name),
                    limits=given(limits),
                )
            counts = _fewest(amount, limits)
        else:
            # With unlimited chips, fewer than top/gcd(d, top) chips of a smaller value d are ever
            # needed (that many are worth a whole number of top chips, in fewer pieces). So all
            # but a bounded remainder is paid in top chips, and the search covers only the rest.
            top = values[0]
            spare = sum(d * (top // gcd(d, top) - 1) for d in values[1:])
            bulk = max(0, (amount - spare) // top)
            counts = _fewest(amount - bulk * top, {v: amount // v for v in values})
            if counts is not None:
                counts[top] = counts.get(top, 0) + bulk
        if counts is None:
            raise RulesError(
                N_("{amount} cannot be made from the {name} chips ({values})"),
                amount=Chips(amount),
                name=Verbatim(self.name),
                values=given(values),
            )
        return {v: counts[v] for v in values if counts.get(v)}

    def split_evenly(self, players: int) -> Share:
        """Share the whole set between ``players`` (the seed: "le nombre total de jetons peut
        être réparti de façon équitable"): the same chips for each, the rest stays in the box."""
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 10:
            raise RulesError(N_("share a set between 1 and 10 players, not {players}"), players=given(players))
        per = {c.value: c.count // players for c in self.chips}
        left = {c.value: c.count - per[c.value] * players for c in self.chips}
        return Share(per, sum(v * n for v, n in per.items()), {v: n for v, n in left.items() if n})

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the dashboard."""
        return {
            "name": self.name,
            "chips": [{"value": c.value, "colour": c.colour, "hex": c.hex, "count": c.count} for c in self.chips],
            "total": self.total,
        }


def _fewest(amount: int, limits: Mapping[int, int]) -> dict[int, int] | None:
    """Bounded fewest-chips by dynamic programming; each denomination's limit is split into
    bundles of 1, 2, 4... chips so every count up to the limit is a choice of bundles."""
    items: list[tuple[int, int]] = []
    for value, limit in sorted(limits.items(), reverse=True):
        left, bundle = min(limit, amount // value), 1
        while left > 0:
            take = min(bundle, left)
            items.append((value, take))
            left -= take
            bundle *= 2
    unreachable = amount + 1
    fewest = [0] + [unreachable] * amount
    taken: list[bytearray] = []
    for value, count in items:
        weight = value * count
        row = bytearray(amount + 1)
        for total in range(amount, weight - 1, -1):
            if fewest[total - weight] + count < fewest[total]:
                fewest[total] = fewest[total - weight] + count
                row[total] = 1
        taken.append(row)
    if fewest[amount] >= unreachable:
        return None
    counts: dict[int, int] = {}
    total = amount
    for (value, count), row in zip(reversed(items), reversed(taken), strict=True):
        if row[total]:
            counts[value] = counts.get(value, 0) + count
            total -= value * count
    return counts


TOCK = ChipSet(
    "tock",
    (
        Chip(5, "white", "#f4f4f4", 20),
        Chip(20, "red", "#c62828", 20),
        Chip(50, "blue", "#1565c0", 20),
        Chip(100, "black", "#212121", 20),
    ),
)
"""The Tock-Poker box: 80 chips, 20 each of 5, 20, 50 and 100 (the seed gives no colours: ours)."""

WHITE_RED_BLUE_GREEN = ChipSet(
    "white-red-blue-green",
    (
        Chip(1, "white", "#f4f4f4", 50),
        Chip(2, "red", "#c62828", 50),
        Chip(10, "blue", "#1565c0", 50),
        Chip(25, "green", "#2e7d32", 50),
    ),
)
"""Blanc 1, rouge 2, bleu 10, vert 25 (texas-holdem-chips-1-2-10-25.txt; the counts, 50 each, are ours)."""

DEALER = ChipSet(
    "dealer",
    (
        Chip(1, "white", "#f4f4f4", 100),
        Chip(5, "red", "#c62828", 100),
        Chip(10, "blue", "#1565c0", 50),
        Chip(25, "green", "#2e7d32", 50),
        Chip(100, "black", "#212121", 25),
    ),
)
"""White 1, red 5, blue 10, green 25, black 100 (poker-dealer-rules-fr-en.md; the counts are ours)."""

CHIP_SETS: dict[str, ChipSet] = {s.name: s for s in (TOCK, WHITE_RED_BLUE_GREEN, DEALER)}
"""The seed's sets by name (the names the configuration file uses)."""

_PALETTE = ("#f4f4f4", "#c62828", "#1565c0", "#2e7d32", "#212121", "#6a1b9a", "#ef6c00", "#f9a825")


def custom_chip_set(name: str, chips: Mapping[int, int], colours: Mapping[int, str] | None = None) -> ChipSet:
    """A set of your own: ``{value: count}`` with optional colour names (drawn from a fixed
    palette, smallest value first)."""
    if not isinstance(name, str) or not name.strip():
        raise RulesError(N_("a chip set needs a name, got {name}"), name=given(name))
    if not isinstance(chips, Mapping) or not chips:
        raise RulesError(N_("a chip set needs at least one denomination: {value: count}"))
    for value, count in chips.items():
        _whole(value, Phrase(N_("a chip's value")), minimum=1)
        _whole(count, Phrase(N_("the number of {value} chips"), value=Chips(value)), minimum=0)
    unknown = sorted(set(colours or {}) - set(chips))
    if unknown:
        raise RulesError(
            N_("colours given for values {unknown} that the set does not have ({values})"),
            unknown=given(unknown),
            values=given(sorted(chips)),
        )
    ordered = sorted(chips.items())
    return ChipSet(
        name.strip(),
        tuple(
            Chip(value, (colours or {}).get(value, f"chip {value}"), _PALETTE[i % len(_PALETTE)], count)
            for i, (value, count) in enumerate(ordered)
        ),
    )
