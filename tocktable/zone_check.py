"""Whether the zones still match the camera's picture: a camera moved or tilted after the zones
were drawn puts the cards where no zone is. A card belongs to the zone its middle lies in (as the
tracker places it), so the check counts the cards seen whose middle lies in no zone.

The zones no longer match when at least ``MIN_OUTSIDE`` cards, and at least ``SHARE`` of the
cards seen, lie outside every zone: one card pushed aside, or the deck in the dealer's hand, is
not enough. With as many cards as zones (the calibration's layout: one card in front of each
seat and one in the middle), every zone must hold one: a camera raised or moved sideways can put
a seat's card in the board's zone or a neighbour's, where no card lies outside every zone.

The page then says so and offers to calibrate again (one card face up in front of each seat and
one in the middle), which a host wants rather than zones moved behind their back: the cards show
where the seats are now, and the host confirms which is seat 1. (Measuring the camera's move on
the picture itself needs something fixed to match: the demo's felt has no edge or texture in
view, only the cards, which the host moves.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from table.polygons import inside

MIN_OUTSIDE = 2
"""Least cards outside every zone for the zones not to match."""
SHARE = 0.2
"""Least share of the cards seen outside every zone for the zones not to match (a fifth)."""


def zones_match(outlines: Sequence[Any], size: tuple[int, int], zones: Mapping[str, Any]) -> dict[str, Any]:
    """``{"ok", "kind", "cards", "outside", "empty", "crowded", "text"}`` for the card ``outlines``
    (4 x 2 pixel corners) found on a ``size`` (width, height) picture and the ``zones`` (0..1 polygons
    by name). ``kind`` is ``"no-cards"``, ``"outside"``, ``"one-per-zone"`` or ``"match"``; ``empty``
    names the zones left without a card and ``crowded`` the zones holding more than one (with their
    count) when the cards are laid one per zone: the values the web's pages put into words, ``text``
    the same in English (for the logs and the CLI)."""
    w, h = size
    middles = [np.asarray(q, np.float64).reshape(4, 2).mean(axis=0) / (w, h) for q in outlines]
    polygons = {name: [(float(x), float(y)) for x, y in zone] for name, zone in zones.items()}
    held = {name: 0 for name in polygons}
    outside = 0
    for m in middles:
        where = next((name for name, zone in polygons.items() if inside((float(m[0]), float(m[1])), zone)), None)
        if where is None:
            outside += 1
        else:
            held[where] += 1
    cards = len(middles)
    if cards == 0:
        return {"ok": True, "kind": "no-cards", "cards": 0, "outside": 0, "empty": [], "crowded": {},
                "text": "No card on the table: lay a few cards in their zones to check that they match."}  # fmt: skip
    if outside >= MIN_OUTSIDE and outside >= SHARE * cards:
        text = (f"The zones no longer match the picture: {outside} of the {cards} cards seen lie outside every "
                "zone. Was the camera moved or tilted since the zones were drawn? Calibrate them again (one card "
                "face up in front of each seat and one in the middle), or drag them.")
        return {"ok": False, "kind": "outside", "cards": cards, "outside": outside, "empty": [], "crowded": {},
                "text": text}  # fmt: skip
    if cards == len(polygons) and any(n != 1 for n in held.values()):
        empty_zones = [name for name, n in held.items() if n == 0]
        crowded_zones = {name: n for name, n in held.items() if n > 1}
        empty = [_zone_word(name) for name in empty_zones]
        crowded = [f"{n} cards in the zone of {_zone_word(name)}" for name, n in crowded_zones.items()]
        parts = ([f"no card in the zone of {', '.join(empty)}"] if empty else []) + crowded
        text = (f"The zones no longer match the cards laid out one per zone: {'; '.join(parts)}. Was the camera "
                "moved or tilted since the zones were drawn? Calibrate them again, or drag them.")
        return {"ok": False, "kind": "one-per-zone", "cards": cards, "outside": outside, "empty": empty_zones,
                "crowded": crowded_zones, "text": text}  # fmt: skip
    where = f" ({outside} outside every zone)" if outside else ""
    return {"ok": True, "kind": "match", "cards": cards, "outside": outside, "empty": [], "crowded": {},
            "text": f"The zones match the picture: {cards - outside} of the {cards} cards seen lie in a zone"
                    f"{where}."}  # fmt: skip


def _zone_word(name: str) -> str:
    """``"board"`` → ``"the board"``, ``"seat:2"`` → ``"seat 3"``."""
    return "the board" if name == "board" else f"seat {int(name.split(':')[1]) + 1}"
