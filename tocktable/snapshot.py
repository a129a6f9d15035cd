"""The table as every phone sees it: an immutable JSON snapshot of the game.

The game part is :meth:`table.session.Session.snapshot` (hole cards only once shown at the
showdown) plus the service's ``phase``; the service adds live fields (:data:`LIVE_KEYS`: the
version, warnings, camera health, the pending bet or draw count, the confirm countdown, the storage
fault) that describe the running service rather than the game. A game rebuilt from the store gives the same
:func:`game_state` as the live one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

LIVE_KEYS = frozenset(
    {"version", "warnings", "camera", "pending_bet", "pending_draw", "confirm_in", "last_seq", "session",
     "storage_fault"}
)
"""Keys of the snapshot that describe the running service, not the game."""


@dataclass(frozen=True)
class Snapshot:
    """One published state: a version number and its JSON text (shared by every subscriber)."""

    version: int
    json: str

    def to_dict(self) -> dict[str, Any]:
        """A fresh copy as plain data."""
        data: dict[str, Any] = json.loads(self.json)
        return data


def game_state(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The snapshot without its live keys and without the level clock's countdown (what a
    replay of the store must reproduce exactly)."""
    state = {k: v for k, v in snapshot.items() if k not in LIVE_KEYS}
    if isinstance(state.get("blinds"), dict):
        state["blinds"] = {k: v for k, v in state["blinds"].items() if k != "seconds_left"}
    return state
