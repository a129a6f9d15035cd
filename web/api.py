"""The JSON API: the table state for every phone, and commands for the host.

- ``GET /api/state``: the latest snapshot (``hand_number``, ``street``, ``seats``, ``board``,
  ``pots``, ``to_act``, ``blinds``, ``phase``, ``warnings``...) as the dashboard draws it (see
  :mod:`web.present`: chips per pot and bet, shown hands named). Hole cards appear only once
  shown: at the showdown, or tabled at an all-in once betting is closed.
- ``POST /api/command`` with the admin PIN in the ``X-Admin-Pin`` header and a JSON body such
  as ``{"kind": "act", "seat": 2, "action": "call"}`` or ``{"kind": "press", "button": "fold"}``
  (see :mod:`table.steps`). Answers ``200 {"ok": true, "seq": ..., "version": ...}`` once the
  command is written to disk, ``400`` for a malformed command (a player's name by
  :mod:`web.names`), ``403`` for a wrong PIN (or none: a missing header spends no try), ``409``
  for a command the game does not allow now (nothing written), ``429`` after too many wrong
  PINs (the same :class:`web.security.PinGuard` as the admin login), ``503`` when the service is busy.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from table.errors import TocktableError
from table.steps import step_from_json
from web.context import context
from web.language import words
from web.names import check_step_names
from web.protocols import ServiceUnavailable, TableService
from web.security import LoginLocked
from web.words.phrases import say_error

api = Blueprint("api", __name__, url_prefix="/api")


def read_command(body: Any) -> Any:
    """The step or input a JSON command asks for, names checked (:func:`web.names.check_name`);
    a ``ValueError`` (``CommandError``, ``PlayerNameError``) saying what is wrong and what is allowed."""
    return check_step_names(step_from_json(body))


def _service() -> TableService:
    service: TableService = current_app.extensions["tocktable.service"]
    return service


@api.get("/state")
def state() -> Response:
    """The table now, as JSON."""
    ctx = context()
    response = Response(ctx.presenter.text(ctx.service.snapshot(), words=words()), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


@api.post("/command")
def command() -> tuple[Response, int]:
    """Run one host command (admin PIN required)."""
    given = request.headers.get("X-Admin-Pin", "")
    if not given:  # not a guess: it spends none of the tries
        return jsonify(ok=False, error="missing admin PIN: send it in the X-Admin-Pin header"), 403
    try:
        ok = context().guard.check(given, request.remote_addr or "?")
    except LoginLocked as exc:
        response = jsonify(ok=False, error=say_error(words(), exc))
        response.headers["Retry-After"] = str(int(exc.retry_after) + 1)
        return response, 429
    if not ok:
        return jsonify(ok=False, error="wrong or missing admin PIN (header X-Admin-Pin)"), 403
    body = request.get_json(silent=True)
    if body is None:
        return jsonify(ok=False, error='the body must be a JSON object such as {"kind": "press", ...}'), 400
    try:
        item = read_command(body)
    except ValueError as exc:
        return jsonify(ok=False, error=say_error(words(), exc)), 400
    try:
        ack = _service().call(item, timeout=10.0)
    except ServiceUnavailable as exc:
        return jsonify(ok=False, error=say_error(words(), exc)), 503
    except TocktableError as exc:
        return jsonify(ok=False, error=say_error(words(), exc)), 409
    return jsonify(ok=True, seq=ack.seq, version=ack.version, steps=list(ack.steps)), 200
