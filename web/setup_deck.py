"""``/admin/setup/deck``: teaching the card reader the table's deck from the host's phone, behind
the PIN (:class:`web.protocols.DeckTutor`).

- ``GET /admin/setup/deck.json``: the progress, the card asked for next, the card captured and
  waiting to be kept, the last check.
- ``POST /admin/setup/deck/start`` and ``/stop``: teach (the demo's players wait meanwhile), stop
  (the cards kept stay kept); ``/restart``: forget the cards kept so far.
- ``POST /admin/setup/deck/capture``: read the camera's next picture for the card asked for;
  ``/keep`` keeps it, ``/retake`` drops it; ``/redo`` (``{"card": "Ah"}``) asks for a kept card again.
- ``GET /admin/setup/deck/crop.jpg``: the card the camera took, straightened.
- ``POST /admin/setup/deck/check``: read every card on the camera's next picture, with names.
- ``POST /admin/setup/deck/lay`` and ``/lay-check`` (the demo only): lay the card asked for, or
  ten cards for the check, on the synthetic table.

A step that cannot be taken now answers 400 saying what to do instead; 404 when the table has no
camera (nothing to teach with), no picture yet, or (``lay``) no synthetic table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, jsonify

from web.admin import guard
from web.context import context
from web.errors import json_object
from web.language import words
from web.protocols import DeckTutor
from web.words.setup import deck_words

setup_deck = Blueprint("setup_deck", __name__, url_prefix="/admin/setup")
setup_deck.before_request(guard)

NO_CAMERA = "this table has no camera: there is no deck to teach"


def _answer(step: Callable[[DeckTutor], Any]) -> tuple[Response, int]:
    teacher = context().deck
    if teacher is None:
        return jsonify(ok=False, error=NO_CAMERA), 404
    try:
        result = step(teacher)
    except LookupError as exc:
        return jsonify(ok=False, error=str(exc)), 404
    except ValueError as exc:
        return jsonify(ok=False, error=str(exc)), 400
    except OSError as exc:
        return jsonify(ok=False, error=f"the deck's progress could not be written: {exc}"), 500
    if isinstance(result, dict):
        result = deck_words(words(), result)
    response = jsonify(ok=True, **result)
    response.headers["Cache-Control"] = "no-store"
    return response, 200


@setup_deck.get("/deck.json")
def deck_json() -> tuple[Response, int]:
    """Where the teaching stands."""
    return _answer(lambda t: t.status())


@setup_deck.post("/deck/start")
def deck_start() -> tuple[Response, int]:
    """Teach the deck (or go on teaching it)."""
    return _answer(lambda t: t.start())


@setup_deck.post("/deck/stop")
def deck_stop() -> tuple[Response, int]:
    """Stop teaching; the cards kept stay kept."""
    return _answer(lambda t: t.stop())


@setup_deck.post("/deck/restart")
def deck_restart() -> tuple[Response, int]:
    """Forget the cards kept so far."""
    return _answer(lambda t: t.restart())


@setup_deck.post("/deck/capture")
def deck_capture() -> tuple[Response, int]:
    """Read the card asked for on the camera's next picture."""
    return _answer(lambda t: t.capture())


@setup_deck.post("/deck/keep")
def deck_keep() -> tuple[Response, int]:
    """Keep the card captured."""
    return _answer(lambda t: t.keep())


@setup_deck.post("/deck/retake")
def deck_retake() -> tuple[Response, int]:
    """Drop the card captured: it is asked for again."""
    return _answer(lambda t: t.retake())


@setup_deck.post("/deck/redo")
def deck_redo() -> tuple[Response, int]:
    """Ask for a kept card again."""
    card = json_object('send {"card": "Ah"}: the card to take again', lambda d: isinstance(d.get("card"), str))["card"]
    return _answer(lambda t: t.redo(card))


@setup_deck.post("/deck/lay")
def deck_lay() -> tuple[Response, int]:
    """The demo: lay the card asked for on the synthetic table."""
    return _answer(lambda t: t.lay())


@setup_deck.post("/deck/lay-check")
def deck_lay_check() -> tuple[Response, int]:
    """The demo: lay ten cards of the deck, at random, for the check."""
    return _answer(lambda t: {"laid": t.lay_check(10)})


@setup_deck.post("/deck/check")
def deck_check() -> tuple[Response, int]:
    """Read every card on the camera's next picture."""
    return _answer(lambda t: t.check())


@setup_deck.get("/deck/crop.jpg")
def deck_crop() -> Response | tuple[Response, int]:
    """The card the camera took last, straightened."""
    teacher = context().deck
    data = teacher.crop() if teacher is not None else None
    if data is None:
        return jsonify(ok=False, error="no card captured yet"), 404
    response = Response(data, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response
