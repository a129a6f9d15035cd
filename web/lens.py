"""``GET /api/lens``: the learning lens the dashboard draws, from the service's lens worker.

The lens is worked out on the worker's own thread (never the service's, never a request's): this
endpoint and the ``lens`` server-sent event on ``/api/events`` only hand out the latest result,
one JSON text per language shared by every phone (the worker's lessons are values; they are put
into each phone's language here, once per published lens and language). It holds public
information only: the Tock marks, the face-up cards and the hands shown at the showdown; a
player's own view is never served here.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Literal

from flask import Blueprint, Response, current_app

from web.context import context
from web.language import words
from web.protocols import LensFeed, TableService
from web.words.lens import lens_words

LENS_EXTENSION = "tocktable.lens"

lens_api = Blueprint("lens", __name__, url_prefix="/api")

OFF = {"version": 0, "worker": 0, "mode": None, "variant": None, "session": None, "hand_number": None, "stage": None,
       "complete": False, "pending": False, "state_version": None, "millis": None, "allin_stage": None,
       "note": "The lens is off on this server.", "lens": None, "history": None, "last": None}  # fmt: skip


def start_lens(
    service: TableService, lens: LensFeed | Literal[False] | None, *, closing: threading.Event
) -> LensFeed | None:
    """The lens worker for the app: ``lens`` itself when given (started here), none when ``False``,
    else the service's own (:meth:`web.protocols.TableService.lens_feed`)."""
    if lens is False:
        return None
    if lens is None:
        lens = service.lens_feed(stop_when=closing)
    return lens.start()


def lens_worker() -> LensFeed | None:
    """The current app's lens worker (None when the lens is off)."""
    worker: LensFeed | None = current_app.extensions.get(LENS_EXTENSION)
    return worker


@lens_api.get("/lens")
def lens_json() -> Response:
    """The latest lens, as JSON, in the phone's language."""
    worker = lens_worker()
    if worker is None:
        text = json.dumps(lens_words(words(), OFF))
    else:
        text = context().lens_texts.text(worker.latest(), words())
    response = Response(text, mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


# ---------------------------------------------------------------------- OpenAPI
_INT, _STR, _BOOL, _NUM = {"type": "integer"}, {"type": "string"}, {"type": "boolean"}, {"type": "number"}
_ITEM = {"type": "string", "nullable": True, "description": "a card (Ah), a Tock mark (h:large) or null when unseen"}
_STAGE = {"type": "string", "enum": ["preflop", "flop", "turn", "river", "showdown"]}


def _obj(required: list[str], properties: dict[str, Any], description: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "required": required, "properties": properties}
    return {**schema, "description": description} if description else schema


def _null(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "nullable": True}


LENS_SEAT = _obj(
    ["seat", "index", "name", "shows", "folded", "win", "tie", "equity", "best", "nuts", "explanation"],
    {
        "seat": {**_INT, "description": "the table seat (as in /api/state)"},
        "index": {**_INT, "description": "the seat's place among the seats dealt in"},
        "name": _STR,
        "shows": {"type": "array", "items": _ITEM, "minItems": 2, "maxItems": 2},
        "folded": _BOOL,
        "win": _NUM, "tie": _NUM, "equity": {**_NUM, "description": "win + its share of ties, 0..1"},
        "stderr": _NUM,
        "hands": {"type": "object", "additionalProperties": _NUM, "description": "chance of each final hand"},
        "best": _null({**_STR, "description": "the best hand category it can still make"}),
        "best_example": _null(_STR),
        "best_hand": _null(_STR),
        "best_key": _null({"type": "array", "items": _INT,
                           "description": "best_hand as the evaluator's key: the category, then the ranks (0 = two)"}),
        "example": _null(_obj(["ranks", "suit"], {"ranks": {"type": "array", "items": _INT}, "suit": _STR},
                              "what names best_example: its cards' ranks and the suit of the first")),
        "nuts": _null({**_BOOL, "description": "whether it can hold the nuts (null: too many boards to tell)"}),
        "outs": _null({"type": "array", "items": _STR, "description": "with one card to come: the cards that "
                       "win or split for it"}),
        "explanation": {"type": "array", "items": _STR, "description": "plain words for a beginner"},
    },
    "one seat as the lens sees it",
)  # fmt: skip

LENS_VIEW = _obj(
    ["street", "board", "exact", "half_width", "summary", "seats"],
    {
        "street": _STR, "view": {"type": "string", "enum": ["public"]}, "viewer": _null(_INT),
        "board": {"type": "array", "items": _ITEM, "maxItems": 5}, "board_words": _STR, "exact": _BOOL,
        "deals": _INT, "half_width": _NUM, "summary": _STR, "seats": {"type": "array", "items": LENS_SEAT},
    },
)  # fmt: skip

LENS_HISTORY = _obj(
    ["stages", "boards", "seats"],
    {
        "stages": {"type": "array", "items": _STAGE},
        "boards": {"type": "array", "items": {"type": "array", "items": _ITEM}},
        "seats": {"type": "array", "items": _obj(["seat", "name", "equity", "win", "folded", "outs"], {
            "seat": _INT, "name": _STR, "equity": {"type": "array", "items": _NUM},
            "win": {"type": "array", "items": _NUM}, "tie": {"type": "array", "items": _NUM},
            "folded": {"type": "array", "items": _BOOL},
            "outs": {"type": "array", "items": _null({"type": "array", "items": _STR})}})},
    },
    "how each seat's chances moved, one value per stage",
)  # fmt: skip

LENS = _obj(
    ["version", "mode", "hand_number", "stage", "complete", "pending", "note", "lens", "history", "last"],
    {
        "version": _INT,
        "worker": {**_INT, "description": "which worker published it: versions count from 0 again after a restart"},
        "mode": _null({"type": "string", "enum": ["tock", "allin"],
                       "description": "tock: the public Tock lens; allin: Hold'em hands face up after an all-in; "
                       "null: nothing to show"}),
        "variant": _null(_STR),
        "session": _null(_INT),
        "hand_number": _null(_INT),
        "stage": _null(_STAGE),
        "complete": _BOOL,
        "pending": {**_BOOL, "description": "the table has changed and a new lens is being worked out: the figures "
                    "are those of hand_number at stage"},
        "state_version": _null({**_INT, "description": "the /api/state version the lens was worked out from"}),
        "millis": _null(_NUM),
        "allin_stage": _null(_STAGE),
        "note": _STR,
        "lens": _null(LENS_VIEW),
        "history": _null(LENS_HISTORY),
        "last": _null(_obj(["hand_number", "mode", "history"], {
            "hand_number": _INT, "mode": _STR, "history": LENS_HISTORY}, "the previous hand's chart")),
    },
    "the learning lens: every seat's chances from what the whole table can see",
)  # fmt: skip

LENS_PATHS: dict[str, Any] = {
    "/api/lens": {"get": {
        "summary": "The learning lens: each seat's chances from public information", "operationId": "getLens",
        "description": "Tock-Poker: from every mark and face-up card, per seat its chance to win, the best hand it "
        "can still make, whether it can hold the nuts, and why in plain words; a chart per stage. Hold'em: each "
        "hand's chances once the hands are face up after an all-in. Also pushed as the `lens` event on "
        "/api/events whenever it changes.",
        "responses": {"200": {"description": "the latest lens",
                              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Lens"}}}}},
    }},
}  # fmt: skip
LENS_SCHEMAS = {"Lens": LENS}
