"""``GET /api/openapi.json``: an OpenAPI 3.0 document of every JSON endpoint (and, for
completeness, the event stream and the file exports).

The schemas say what the dashboard relies on; objects allow more properties, so the service
can add fields without breaking clients. The test suite runs schemathesis against this
document: every documented answer must match it, and no request may cause a 5xx.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any

from flask import Blueprint, Response, jsonify

from table.steps import INPUT_TYPES, STEP_TYPES, ConsoleButton
from web.dice import DICE_PATHS, DICE_SCHEMAS
from web.lens import LENS_PATHS, LENS_SCHEMAS
from web.names import NAME_SCHEMA as NAME
from web.names import NAMES_SCHEMA as NAMES
from web.protocols import STORAGE_FAULT_KINDS

openapi = Blueprint("openapi", __name__, url_prefix="/api")


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "nullable": True}


INT = {"type": "integer"}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
CARD = {"type": "string", "pattern": "^[2-9TJQKA][cdhs]$", "description": "a card such as Ah or Td"}
HAND_CARD = {"type": "string", "pattern": "^([2-9TJQKA][cdhs]|Jk)$",
             "description": "a card such as Ah, or Jk for a joker (five-card draw)"}  # fmt: skip
MARK = {"type": "string", "description": "a Tock mark such as h:large or s:ace, or plain"}
CHIPS = {
    "type": "array",
    "description": "the amount as the fewest chips of the chip set: [value, count] pairs, largest first",
    "items": {"type": "array", "items": INT, "minItems": 2, "maxItems": 2},
}
LEVEL = {
    "type": "object",
    "required": ["small_blind", "big_blind", "ante"],
    "properties": {"small_blind": INT, "big_blind": INT, "ante": INT},
}


def _object(required: list[str], properties: dict[str, Any], description: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "required": required, "properties": properties}
    if description:
        schema["description"] = description
    return schema


SEAT = _object(
    ["seat", "name", "stack", "bet", "in_hand", "folded", "all_in", "dealer", "hole", "marks", "state"],
    {
        "seat": INT,
        "name": _nullable(STR),
        "stack": INT,
        "bet": INT,
        "bet_chips": CHIPS,
        "in_hand": BOOL,
        "folded": BOOL,
        "all_in": BOOL,
        "sitting_out": BOOL,
        "busted": BOOL,
        "dealer": BOOL,
        "mucked": BOOL,
        "hole": {"type": "array", "items": HAND_CARD, "maxItems": 5,
                 "description": "empty until the seat shows its cards: at the showdown, or tabled at an all-in once "
                 "betting is closed (two; five in five-card draw, at the showdown only)"},
        "drew": _nullable({**INT, "description": "five-card draw: cards this seat exchanged (null: not yet)"}),
        "marks": {"type": "array", "items": _nullable(MARK), "description": "Tock marks of the face-down hole cards"},
        "state": {"type": "string",
                  "enum": ["empty", "busted", "folded", "all_in", "playing", "sitting_out", "waiting"]},
        "hand": {**STR, "description": "the shown hand's name (at the showdown)"},
        "best_five": {"type": "array", "items": HAND_CARD},
    },
    "one seat at the table",
)  # fmt: skip

POT = _object(["amount", "eligible"], {"amount": INT, "eligible": {"type": "array", "items": INT}, "chips": CHIPS})

WINNER = _object(["seat", "name", "amount", "hand"], {
    "seat": INT, "name": STR, "amount": INT, "hand": STR, "best_five": {"type": "array", "items": HAND_CARD},
})  # fmt: skip

HAND = _object(
    ["number", "button", "board", "shown", "pots", "payoffs", "winners"],
    {
        "number": INT,
        "button": INT,
        "level": LEVEL,
        "board": {"type": "array", "items": CARD},
        "shown": {"type": "array", "items": _object(["seat", "name", "cards"], {
            "seat": INT, "name": STR, "cards": {"type": "array", "items": HAND_CARD}, "hand": STR,
            "best_five": {"type": "array", "items": HAND_CARD}})},
        "draws": {"type": "array", "description": "five-card draw: cards exchanged per seat",
                  "items": _object(["seat", "count"], {"seat": INT, "name": STR, "count": INT})},
        "pots": {"type": "array", "items": _object(["index", "amount", "eligible", "winners"], {
            "index": INT, "amount": INT, "eligible": {"type": "array", "items": INT},
            "winners": {"type": "array", "items": WINNER}})},
        "payoffs": {"type": "array", "items": _object(["seat", "name", "net"], {"seat": INT, "name": STR, "net": INT})},
        "winners": {"type": "array", "description": "one entry per seat that won a pot, in pot order: what it took "
                    "from the pots (won) and its net result for the hand (net, as the ledger counts it)",
                    "items": _object(["seat", "name", "won", "net", "hand"], {
                        "seat": INT, "name": STR, "won": INT, "net": INT, "hand": STR,
                        "best_five": {"type": "array", "items": HAND_CARD}})},
    },
    "a finished hand: board, shown hands, each pot's winners with their hand",
)  # fmt: skip

DRAW_GAME = _object(
    ["variant", "name", "rules", "phase", "to_draw", "draws"],
    {
        "variant": {"type": "string", "enum": ["draw", "lowball"]},
        "name": {**STR, "example": "Five-card draw, 1 joker, draw up to 3"},
        "rules": {"type": "object", "description": "table.engine.draw.DrawRules.to_dict(): ante, opening_bet, "
                  "small_bet, big_bet, jokers, wild_rank, lowball, ties, max_draw"},
        "phase": _nullable({"type": "string", "enum": ["first betting", "draw", "second betting", "showdown",
                                                        "complete"]}),
        "to_draw": _nullable(INT),
        "draws": {"type": "array", "items": _object(["seat", "count"], {"seat": INT, "count": INT})},
        "deal_plan": {"type": "array", "items": _object(["seat", "cards", "round"], {
            "seat": INT, "cards": INT, "round": INT, "reshuffle": BOOL})},
        "opening_seat": _nullable(INT),
        "warning": _nullable(STR),
    },
    "the game, the hand's phase, whose draw is next and how many cards each player exchanged",
)  # fmt: skip

LEDGER_LINE = _object(["name", "bought_in", "cashed_out", "net"],
                      {"name": STR, "bought_in": INT, "cashed_out": INT, "net": INT})  # fmt: skip

STATE = _object(
    ["hand_number", "street", "seats", "board", "pots", "to_act", "blinds", "phase", "version", "session",
     "storage_fault"],
    {
        "hand_number": INT,
        "phase": {"type": "string", "enum": ["seating", "playing", "settled", "ready"]},
        "first_dealer": {"type": "string", "enum": ["draw", "croupier"],
                         "description": "how the first dealer is chosen in the seating phase"},
        "status": {"type": "string", "enum": ["waiting", "playing", "complete"]},
        "street": _nullable({"type": "string", "enum": ["preflop", "flop", "turn", "river", "showdown"]}),
        "betting": {"type": "string", "enum": ["no-limit", "fixed-limit"]},
        "variant": {"type": "string", "enum": ["holdem", "tock", "draw", "lowball"]},
        "draw_game": {**DRAW_GAME, "description": "five-card draw and Petite Misère only: " + DRAW_GAME["description"]},
        "pending_draw": _nullable({**INT, "description": "five-card draw: the count set on the console"}),
        "button": _nullable(INT),
        "small_blind_seat": _nullable(INT),
        "big_blind_seat": _nullable(INT),
        "to_act": _nullable(INT),
        "hands_may_be_shown": {**BOOL, "description": "the hands still in may be turned face up now: at the "
                               "showdown, or at an all-in once betting is closed (before the rest of the board)"},
        "board": {"type": "array", "items": CARD, "maxItems": 5},
        "board_marks": {"type": "array", "items": _nullable(MARK)},
        "pots": {"type": "array", "items": _ref("Pot")},
        "pot_total": INT,
        "pot_chips": CHIPS,
        "legal_actions": {"type": "array", "items": _object(["action", "min_to", "max_to"], {
            "action": {"type": "string", "enum": ["fold", "check", "call", "bet", "raise", "all_in"]},
            "min_to": INT, "max_to": INT})},
        "blinds": _object(["small_blind", "big_blind", "ante", "level", "levels", "next", "seconds_left"], {
            "small_blind": INT, "big_blind": INT, "ante": INT, "level": INT, "levels": INT,
            "hand_level": _nullable(LEVEL), "next": _nullable(LEVEL),
            "seconds_left": _nullable({"type": "number"}), "level_seconds": {"type": "number"},
            "clock": {"type": "string", "enum": ["running", "paused", "stopped"]}}),
        "seats": {"type": "array", "items": _ref("Seat")},
        "last_hand": _nullable(_ref("Hand")),
        "draw": {"type": "array", "items": _object(["seat", "card"], {"seat": INT, "card": CARD})},
        "eliminated": {"type": "array", "items": STR},
        "ledger": {"type": "array", "items": _ref("LedgerLine")},
        "version": INT,
        "session": INT,
        "warnings": {"type": "array", "items": _object(["kind", "message"], {
            "kind": STR, "message": STR, "seat": _nullable(INT)})},
        "storage_fault": _nullable(_object(["kind", "message", "refused"], {
            "kind": {"type": "string", "enum": list(STORAGE_FAULT_KINDS)},
            "message": {**STR, "pattern": "^not saving: ", "description": "what is wrong and what to do"},
            "refused": {**INT, "minimum": 0, "description": "commands refused since"}},
            "the service stopped taking steps because the disk could not keep one (null while every step is "
            "saved): every later command answers 503")),
        "camera": _object(["ok"], {"ok": BOOL, "message": _nullable(STR)}),
        "pending_bet": _nullable(INT),
        "confirm_in": _nullable({"type": "number"}),
        "chip_set": _object(["name", "chips"], {"name": STR, "total": INT, "chips": {"type": "array", "items": _object(
            ["value", "colour", "hex", "count"], {"value": INT, "colour": STR, "hex": STR, "count": INT})}}),
    },
    "the table now; hole cards only once shown (at the showdown, or tabled at an all-in)",
)  # fmt: skip

HISTORY = _object(["session", "hands_played", "hands", "stacks", "ledger"], {
    "session": INT,
    "hands_played": INT,
    "hands": {"type": "array", "items": _ref("Hand"), "description": "newest first"},
    "stacks": _object(["hands", "players"], {
        "hands": {"type": "array", "items": INT, "description": "x values: 0 is before the first hand"},
        "players": {"type": "array", "items": _object(["name", "stacks"], {
            "name": STR, "stacks": {"type": "array", "items": _nullable(INT)}})}}),
    "ledger": {"type": "array", "items": _ref("LedgerLine")},
})  # fmt: skip

LEDGER = _object(["session", "hands", "ledger", "payments", "results"], {
    "session": INT,
    "started": STR,
    "hands": INT,
    "ledger": {"type": "array", "items": _ref("LedgerLine")},
    "payments": {"type": "array", "items": _object(["payer", "payee", "amount"], {
        "payer": STR, "payee": STR, "amount": INT})},
    "results": {"type": "array", "items": {"type": "object"}},
})  # fmt: skip

ERROR = _object(["ok", "error"], {"ok": {"type": "boolean", "enum": [False]}, "error": STR, "status": INT},
                "what was wrong and what is allowed")  # fmt: skip
ACK = _object(["ok", "seq", "version", "steps"], {
    "ok": {"type": "boolean", "enum": [True]}, "seq": _nullable(INT), "version": INT,
    "steps": {"type": "array", "items": STR}})  # fmt: skip
def _field_schema(type_text: str) -> dict[str, Any]:
    """The JSON schema of a step field, from its annotation (as text: ``from __future__``)."""
    nullable = "None" in type_text
    base = type_text.split(" |")[0]
    schema: dict[str, Any]
    if base == "int":
        schema = {"type": "integer"}
    elif base == "bool":
        schema = {"type": "boolean"}
    elif base == "str":
        schema = {"type": "string"}
    elif base.startswith("tuple"):
        schema = {"type": "array", "items": HAND_CARD, "maxItems": 5}
    elif base.startswith("Mapping"):
        seats = {str(seat): CARD for seat in range(10)}
        schema = {"type": "object", "properties": seats, "additionalProperties": False, "description": "seat -> card"}
    else:  # pragma: no cover - every field type of table.steps is listed above
        raise TypeError(f"no JSON schema for {type_text}")
    return {**schema, "nullable": True} if nullable else schema


def command_schema() -> dict[str, Any]:
    """One object schema per command kind, from the step and input types of :mod:`table.steps`."""
    variants = []
    for kind, cls in sorted({**STEP_TYPES, **INPUT_TYPES}.items()):
        if kind == "tick":
            continue
        properties: dict[str, Any] = {"kind": {"type": "string", "enum": [kind]}}
        required = ["kind"]
        for spec in fields(cls):
            properties[spec.name] = NAME if spec.name == "name" else _field_schema(str(spec.type))
            if spec.default is MISSING and spec.default_factory is MISSING:
                required.append(spec.name)
        if kind == "press":
            properties["button"] = {"type": "string", "enum": [b.value for b in ConsoleButton]}
        variants.append({"type": "object", "title": kind, "required": required, "properties": properties,
                         "additionalProperties": False})  # fmt: skip
    return {
        "description": "a step or an input of table.steps, by its kind: e.g. {\"kind\": \"press\", "
        "\"button\": \"check_call\"}, {\"kind\": \"act\", \"seat\": 2, \"action\": \"raise\", \"amount\": 40}",
        "oneOf": variants,
    }


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


DRY_RUN = _object(["ok", "state", "streets"], {
    "ok": BOOL, "state": {"type": "string", "enum": ["idle", "waiting", "dealing", "done"]},
    "streets": {"type": "array", "items": {"type": "object", "description": "street, frame, board (cards as read), "
                                           "seats (counts only), conflicts"}}})


DECK = _object(["ok", "state", "total", "done", "enrolled", "next", "pending", "complete", "saved", "in_use", "demo"], {
    "ok": BOOL, "state": {"type": "string", "enum": ["idle", "teaching"]}, "total": INT, "done": INT,
    "enrolled": {"type": "array", "items": STR}, "next": _nullable({"type": "object"}),
    "pending": _nullable({"type": "object", "description": "the card captured, waiting to be kept: card, name, read "
                          "(what the models alone read), read_name, confidence, agrees, frame, crop"}),
    "complete": BOOL, "saved": INT, "in_use": BOOL, "check": _nullable({"type": "object"}), "demo": BOOL,
    "note": _nullable(STR)})
DECK_CHECK = _object(["ok", "frame", "cards", "seen", "read", "face_down", "profile"], {
    "ok": BOOL, "frame": INT, "cards": {"type": "array", "items": {"type": "object", "description": "card (null: not "
                                        "read), name, confidence; left to right, top to bottom"}},
    "seen": INT, "read": INT, "face_down": INT, "profile": INT})


def _deck_step(summary: str, operation: str, *, body: dict[str, Any] | None = None,
               answer: dict[str, Any] = DECK) -> dict[str, Any]:  # fmt: skip
    responses = {"200": _json(answer, "done"), **_errors(400, 401, 403, 404, 500)}
    step: dict[str, Any] = {"summary": summary, "operationId": operation, "security": ADMIN, "responses": responses}
    if body is not None:
        step["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    return {"post": step}


def _errors(*codes: int) -> dict[str, Any]:
    text = {400: "malformed request", 401: "not logged in", 403: "wrong PIN or CSRF token", 404: "nothing there",
            409: "not allowed now (nothing changed)", 413: "body over 64 KiB", 429: "too many wrong PINs",
            500: "done but not saved",
            503: "the service is busy, stopped or not saving, or the stored session cannot be read"}  # fmt: skip
    return {str(c): _json(_ref("Error"), text[c]) for c in codes}


ADMIN: list[dict[str, list[str]]] = [{"adminSession": [], "csrfToken": []}]


def document() -> dict[str, Any]:
    """The OpenAPI document."""
    limit = {"name": "limit", "in": "query", "required": False, "description": "how many hands (newest first)",
             "schema": {"type": "integer", "minimum": 0, "maximum": 500, "default": 20}}  # fmt: skip
    paths: dict[str, Any] = {
        "/api/state": {"get": {"summary": "The table now", "operationId": "getState",
                               "responses": {"200": _json(_ref("State"), "the presented snapshot")}}},
        "/api/events": {"get": {
            "summary": "The table live: server-sent events", "operationId": "events",
            "description": "An endless text/event-stream: one `state` event (data: the State JSON) per change, "
            "one `lens` event (data: the Lens JSON, as /api/lens) each time the lens changes, "
            "comment lines as heartbeats. 503 when every stream slot is taken: poll /api/state.",
            "responses": {"200": {"description": "the stream", "content": {"text/event-stream": {"schema": STR}}},
                          **_errors(503)}}},
        "/api/history": {"get": {"summary": "Finished hands, stacks over the session, ledger", "operationId": "history",
                                 "parameters": [limit],
                                 "responses": {"200": _json(_ref("History"), "the session so far"),
                                               **_errors(400, 503)}}},
        "/api/export/ledger.json": {"get": {"summary": "The ledger and the payments that settle it",
                                            "operationId": "ledgerJson",
                                            "responses": {"200": _json(_ref("Ledger"), "the ledger"), **_errors(503)}}},
        "/api/export/ledger.csv": {"get": {"summary": "The ledger as CSV", "operationId": "ledgerCsv", "responses": {
            "200": {"description": "name,bought_in,cashed_out,net", "content": {"text/csv": {"schema": STR}}},
            **_errors(503)}}},
        "/api/export/phh": {"get": {"summary": "Hand histories (Poker Hand History, TOML)", "operationId": "phh",
                                    "responses": {"200": {"description": "a .phhs file",
                                                          "content": {"application/toml": {"schema": STR}}},
                                                  **_errors(503)}}},
        "/api/command": {"post": {
            "summary": "One host command (scripting)", "operationId": "command",
            "parameters": [{"name": "X-Admin-Pin", "in": "header", "required": True, "schema": STR}],
            "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("Command")}}},
            "responses": {"200": _json(_ref("Ack"), "written to disk"), **_errors(400, 403, 409, 413, 429, 503)}}},
        "/admin/state": {"get": {
            "summary": "The table now, with the host's own warnings", "operationId": "hostState", "security": ADMIN,
            "description": "The same State as /api/state, whose warnings also hold the host's own: a refused "
            "command (kind `rejected`), a failed write (`store`), an internal error (`error`). The players' "
            "/api/state and /api/events never carry these.",
            "responses": {"200": _json(_ref("State"), "the host's view"), **_errors(401)}}},
        "/admin/events": {"get": {
            "summary": "The table live, with the host's own warnings", "operationId": "hostEvents", "security": ADMIN,
            "description": "/api/events for the host's page: each `state` event is the State of /admin/state.",
            "responses": {"200": {"description": "the stream", "content": {"text/event-stream": {"schema": STR}}},
                          **_errors(401, 503)}}},
        "/admin/command": {"post": {
            "summary": "One host command from the admin page", "operationId": "adminCommand", "security": ADMIN,
            "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("Command")}}},
            "responses": {"200": _json(_ref("Ack"), "written to disk"), **_errors(400, 401, 403, 409, 413, 503)}}},
        "/admin/game": {"post": {
            "summary": "A new game (closes the session)", "operationId": "newGame", "security": ADMIN,
            "requestBody": {"required": True, "content": {"application/json": {"schema": _object([], {
                "variant": {"type": "string", "enum": ["holdem", "tock", "draw", "lowball"]},
                "jokers": {"type": "integer", "minimum": 0, "maximum": 2}, "wild_rank": STR,
                "low_rule": {"type": "string", "enum": ["ace-to-five", "deuce-to-seven"]},
                "max_draw": {"type": "integer", "minimum": 1, "maximum": 5}, "opening_bet": BOOL,
                "two_players": BOOL, "first_dealer": {"type": "string", "enum": ["draw", "croupier"]},
                "betting": {"type": "string", "enum": ["no-limit", "fixed-limit"]},
                "seats": {"type": "integer", "minimum": 2, "maximum": 10},
                "players": NAMES,
                "buy_in": INT, "blinds": {"type": "string", "example": "5/10, 10/20, 25/50/5"},
                "level_minutes": {"type": "number"}, "chip_set": STR, "rebuys": BOOL})}}},
            "responses": {"200": _json(_ref("Ack"), "the new session is open"),
                          **_errors(400, 401, 403, 409, 413, 503)}}},
        "/admin/end": {"post": {
            "summary": "End the session (its exports stay)", "operationId": "endSession", "security": ADMIN,
            "responses": {"200": _json(_object(["ok", "ended", "session"], {"ok": BOOL, "ended": INT, "session": INT}),
                                       "ended"), **_errors(401, 403, 503)}}},
        "/admin/chip-set": {"post": {
            "summary": "Draw chips in another set's colours", "operationId": "chipSet", "security": ADMIN,
            "requestBody": {"required": True, "content": {"application/json": {"schema": _object(["name"], {
                "name": STR})}}},
            "responses": {"200": _json(_object(["ok", "chip_set"], {"ok": BOOL, "chip_set": {"type": "object"}}),
                                       "chosen"), **_errors(400, 401, 403, 413, 500)}}},
        "/admin/camera/view.json": {"get": {
            "summary": "What the camera read, and the zones", "operationId": "cameraView", "security": ADMIN,
            "responses": {"200": _json(_object(["zones", "cards", "conflicts"], {
                "camera": BOOL, "frame": _nullable(INT), "size": _nullable({"type": "array", "items": INT}),
                "annotated": BOOL, "zones": {"type": "object"}, "cards": {"type": "array", "items": {"type": "object"}},
                "conflicts": {"type": "array", "items": {"type": "object"}}}), "the camera's view"),
                **_errors(401)}}},
        "/admin/setup/aim.json": {"get": {
            "summary": "Camera aim advice for the latest frame", "operationId": "aimAdvice", "security": ADMIN,
            "responses": {"200": _json(_object(["camera", "frame", "advice", "movable", "position"], {
                "camera": BOOL, "frame": _nullable(INT), "movable": BOOL,
                "advice": {"type": "array", "items": _object(["topic", "ok", "value", "text"], {
                    "topic": STR, "ok": BOOL, "value": _nullable({"type": "number"}), "text": STR})},
                "position": _nullable(_object(["lift", "tilt", "blur"], {
                    "lift": {"type": "number"}, "tilt": {"type": "number"}, "blur": {"type": "number"}}))}),
                "the advice, and where the demo's camera is"), **_errors(401)}}},
        "/admin/setup/camera": {"post": {
            "summary": "Move the demo's synthetic camera", "operationId": "moveCamera", "security": ADMIN,
            "requestBody": {"required": True, "content": {"application/json": {"schema": _object([], {
                "lift": {"type": "number", "minimum": -0.4, "maximum": 0.6},
                "tilt": {"type": "number", "minimum": -20, "maximum": 20},
                "blur": {"type": "number", "minimum": 0, "maximum": 8}})}}},
            "responses": {"200": _json(_object(["ok", "position"], {"ok": BOOL, "position": {"type": "object"}}),
                                       "moved"), **_errors(400, 401, 403, 404, 413)}}},
        "/admin/setup/zones.json": {"get": {
            "summary": "The zones the table uses", "operationId": "zones", "security": ADMIN,
            "responses": {"200": _json(_object(["ok", "zones", "source", "locked", "seats"], {
                "ok": BOOL, "zones": {"type": "object", "additionalProperties": {"type": "array"}},
                "source": {"type": "string", "enum": ["config", "saved", "default"]}, "locked": BOOL, "seats": INT,
                "note": _nullable(STR)}), "the zones, where they come from"), **_errors(401, 404)}}},
        "/admin/setup/zones": {"post": {
            "summary": "Keep and use new zones", "operationId": "saveZones", "security": ADMIN,
            "requestBody": {"required": True, "content": {"application/json": {"schema": _object(["zones"], {
                "zones": {"type": "object", "description": "board and seat:0 .. seat:N-1, each a polygon of 3 to 32 "
                          "points [x, y] from 0 to 1", "additionalProperties": {"type": "array"}}})}}},
            "responses": {"200": _json({"type": "object"}, "saved; as GET /admin/setup/zones.json"),
                          **_errors(400, 401, 403, 404, 409, 413, 500)}}},
        "/admin/setup/zones/calibrate": {"post": {
            "summary": "Zones proposed from one card laid in front of each seat and one in the middle (not saved)",
            "operationId": "calibrateZones", "security": ADMIN,
            "responses": {"200": _json(_object(["ok", "zones", "ring", "board", "cards"], {
                "ok": BOOL, "zones": {"type": "object"}, "ring": {"type": "array", "items": {"type": "array"}},
                "board": {"type": "array"}, "cards": {"type": "array"}}), "the proposal, seat 1 first clockwise "
                "from below the board"), **_errors(400, 401, 403, 404, 409)}}},
        "/admin/setup/zones/check.json": {"get": {
            "summary": "Whether the zones still match the camera's picture", "operationId": "checkZones",
            "security": ADMIN, "responses": {"200": _json(_object(["ok", "match"], {"ok": BOOL, "match": _object(
                ["ok", "cards", "outside", "text"], {"ok": BOOL, "cards": INT, "outside": INT, "text": STR})}),
                "cards seen and how many lie outside every zone"), **_errors(401, 404)}}},
        "/admin/setup/dry-run.json": {"get": {
            "summary": "What the camera saw during the dry run, street by street", "operationId": "dryRun",
            "security": ADMIN, "responses": {"200": _json(DRY_RUN, "the dry run"), **_errors(401, 404)}}},
        "/admin/setup/dry-run/start": {"post": {
            "summary": "Forget the last dry run and watch the next hand dealt", "operationId": "dryRunStart",
            "security": ADMIN, "responses": {"200": _json(DRY_RUN, "watching"), **_errors(401, 403, 404)}}},
        "/admin/setup/dry-run/stop": {"post": {
            "summary": "Stop watching the dry run", "operationId": "dryRunStop",
            "security": ADMIN, "responses": {"200": _json(DRY_RUN, "stopped"), **_errors(401, 403, 404)}}},
        "/admin/setup/deck.json": {"get": {
            "summary": "Where the teaching of the deck stands", "operationId": "deck", "security": ADMIN,
            "responses": {"200": _json(DECK, "the progress"), **_errors(401, 404)}}},
        "/admin/setup/deck/start": _deck_step("Teach the deck (the demo's players wait)", "deckStart"),
        "/admin/setup/deck/stop": _deck_step("Stop teaching; the cards kept stay kept", "deckStop"),
        "/admin/setup/deck/restart": _deck_step("Forget the cards kept so far", "deckRestart"),
        "/admin/setup/deck/capture": _deck_step("Read the card asked for on the camera's next picture", "deckCapture"),
        "/admin/setup/deck/keep": _deck_step("Keep the card captured (the whole deck kept: saved, used)", "deckKeep"),
        "/admin/setup/deck/retake": _deck_step("Drop the card captured", "deckRetake"),
        "/admin/setup/deck/redo": _deck_step("Ask for a kept card again", "deckRedo",
                                             body=_object(["card"], {"card": STR})),
        "/admin/setup/deck/lay": _deck_step("The demo: lay the card asked for on the synthetic table", "deckLay"),
        "/admin/setup/deck/lay-check": _deck_step(
            "The demo: lay ten cards at random for the check", "deckLayCheck",
            answer=_object(["ok", "laid"], {"ok": BOOL, "laid": {"type": "array", "items": STR}})),
        "/admin/setup/deck/check": _deck_step("Read every card on the camera's next picture", "deckCheck",
                                              answer=DECK_CHECK),
        "/admin/setup/deck/crop.jpg": {"get": {
            "summary": "The card the camera took last, straightened", "operationId": "deckCrop", "security": ADMIN,
            "responses": {"200": {"description": "a JPEG", "content": {"image/jpeg": {}}}, **_errors(401, 404)}}},
        "/api/openapi.json": {"get": {"summary": "This document", "operationId": "openapi",
                                      "responses": {"200": _json({"type": "object"}, "OpenAPI 3.0")}}},
    }  # fmt: skip
    paths.update(DICE_PATHS)
    paths.update(LENS_PATHS)
    schemas = {"State": STATE, "Seat": SEAT, "Pot": POT, "Hand": HAND, "LedgerLine": LEDGER_LINE,
               "History": HISTORY, "Ledger": LEDGER, "Error": ERROR, "Ack": ACK, "Command": command_schema(),
               **DICE_SCHEMAS, **LENS_SCHEMAS}  # fmt: skip
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "tocktable",
            "version": "1",
            "description": "The live poker table: state, live events, history, exports, host commands. Hole cards "
            "never appear while betting is open: only at the showdown, or tabled at an all-in.",
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "adminSession": {"type": "apiKey", "in": "cookie", "name": "session",
                                 "description": "the signed session cookie set by POST /admin/login"},
                "csrfToken": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token",
                              "description": "the session's CSRF token (in the admin page)"},
            },
        },
    }  # fmt: skip


@openapi.get("/openapi.json")
def openapi_json() -> Response:
    """The OpenAPI document."""
    return jsonify(document())
