"""The session so far: ``GET /api/history`` (finished hands, stacks over time, ledger) and the
exports ``GET /api/export/phh``, ``/api/export/ledger.json``, ``/api/export/ledger.csv``.

Everything is rebuilt from the store, so it can hold no more than the game knew: hole cards
only where they were shown at a showdown. A session the store cannot give back (a stored step
changed, a read the disk failed) is answered ``503 {"ok": false, "error": "the history cannot be
read: ..."}``.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from web.context import context
from web.errors import json_error
from web.history import HistoryUnavailable
from web.language import words

records = Blueprint("records", __name__, url_prefix="/api")


@records.errorhandler(HistoryUnavailable)
def _unavailable(error: HistoryUnavailable) -> Response:
    response = json_error(503, str(error))
    response.headers["Cache-Control"] = "no-store"
    return response


MAX_LIMIT = 500


def _limit() -> int | Response:
    text = request.args.get("limit", "20")
    if not text.isdigit() or not 0 <= int(text) <= MAX_LIMIT:
        response = jsonify(ok=False, error=f"limit must be a whole number from 0 to {MAX_LIMIT}, got {text!r}")
        response.status_code = 400
        return response
    return int(text)


def _download(text: str, mimetype: str, name: str) -> Response:
    response = Response(text, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-store"
    return response


@records.get("/history")
def history() -> Response:
    """The last ``limit`` finished hands (newest first), stacks after every hand, the ledger."""
    limit = _limit()
    if isinstance(limit, Response):
        return limit
    response = jsonify(context().history.hands(limit=limit, words=words()))
    response.headers["Cache-Control"] = "no-store"
    return response


@records.get("/export/phh")
def export_phh() -> Response:
    """Every finished hand of the session in the Poker Hand History format (a .phhs file)."""
    ctx = context()
    return _download(ctx.history.phh(), "application/toml", f"session-{ctx.history.session_id}.phhs")


@records.get("/export/ledger.json")
def export_ledger_json() -> Response:
    """The ledger: bought in, cashed out, net, the payments that settle it, every hand's results."""
    response = jsonify(context().history.ledger())
    response.headers["Cache-Control"] = "no-store"
    return response


@records.get("/export/ledger.csv")
def export_ledger_csv() -> Response:
    """The ledger as CSV (name, bought_in, cashed_out, net)."""
    ctx = context()
    return _download(ctx.history.ledger_csv(), "text/csv", f"session-{ctx.history.session_id}-ledger.csv")
