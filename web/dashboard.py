"""``GET /``: the live table for every phone in the room (no login)."""

from __future__ import annotations

from flask import Blueprint, render_template

from web.context import context
from web.language import words

dashboard = Blueprint("dashboard", __name__)


def script_json(text: str) -> str:
    """JSON text safe inside a ``<script>`` element: no ``</script>`` or ``<!--`` can close it."""
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@dashboard.get("/")
def index() -> str:
    """The dashboard page, drawn at once from the current state, then kept live over SSE."""
    ctx = context()
    initial = script_json(ctx.presenter.text(ctx.service.snapshot(), words=words()))
    return render_template("dashboard.html", initial=initial, dice=ctx.dice is not None)
