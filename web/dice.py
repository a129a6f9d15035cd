"""The poker dice referee page (in progress)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

dice = Blueprint("dice", __name__)

DICE_PATHS: dict[str, Any] = {}
DICE_SCHEMAS: dict[str, Any] = {}


class DiceTable:
    """Holds the page's referee."""

    def __init__(self) -> None:
        self.referee: Any = None


@dice.get("/dice")
def page() -> str:
    return "The poker dice page is being built."
