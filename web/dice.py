"""``/dice``: the poker dice referee ("Poker au dé") on every phone.

The table's side game: the players, the direction of play, the announcement on the table and
the lowest one that beats it ("Supérieur"), the Tour de Poker throws, each challenge's outcome
and the loss tally; dice are entered by tapping faces. The referee (``table.dice.DiceReferee``)
says what is allowed; this page only shows it and passes the moves on.

- ``GET /dice``: the page; ``GET /api/dice``: the state (``active`` false before a game);
  ``GET /api/dice/announcements``: the 119 announcements lowest first, for the picker.
- ``POST /api/dice/new`` (``players``, optional ``first``, ``track_throws``), ``/api/dice/announce``
  (``announcement``, optional ``direction``, ``visible``, ``tour_de_poker``),
  ``/api/dice/challenge`` (``roll``), ``/api/dice/roll-off`` (``dice``: name -> face),
  ``/api/dice/undo``. Each needs the page's CSRF token (``X-CSRF-Token``); no login: it is the
  players' game. A refused move answers 409 with the reason (and ``suggestions`` for a
  misspelt announcement) and changes nothing.
- With ``track_throws`` the referee also follows each player's throwing phase, as the text
  has it: ``POST /api/dice/throw`` (``dice``: die numbers 0-4, optional ``under_cup``),
  ``/api/dice/look`` (a secret look under the cup received), ``/api/dice/show`` (``dice`` taken
  out from under the cup and shown), ``/api/dice/tour-de-poker``. The state's ``throwing`` says
  which dice lie under the cup and, turn by turn, who looked, showed and threw which dice (``current``:
  the phase of the player to act, once begun); a move
  the text forbids (a die thrown twice in a phase, an announcement after looking without
  throwing, a game opened without throwing all five) is refused with the rule it breaks.

The game lives in memory, one per app: a restart starts the series again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request, session

from table.dice import AnnouncementError, DiceError, DiceReferee, IllegalTurnError, all_announcements
from table.dice.referee import DICE
from table.phrases import N_, Word
from web.context import context
from web.errors import json_object
from web.language import words
from web.names import NAME_SCHEMA, NAMES_SCHEMA, PlayerNameError, check_name
from web.security import CSRF_HEADER, same_token, session_csrf_token
from web.words.phrases import say_error

dice = Blueprint("dice", __name__)

MAX_PLAYERS = 12
THE_FIRST = Word(N_("the first player's name"))
"""The ``first`` field of a new series, as a refusal of its name calls it."""


class DiceTable:
    """The page's referee, its version (bumped on every move) and a lock for the moves."""

    def __init__(self) -> None:
        self.referee: DiceReferee | None = None
        self.version = 0
        self.lock = threading.Lock()

    def state(self) -> dict[str, Any]:
        if self.referee is None:
            return {"active": False, "version": self.version}
        return {"active": True, "version": self.version, **self.referee.snapshot()}


def _table() -> DiceTable:
    table: DiceTable = context().dice
    return table


@dice.before_request
def _check_csrf() -> tuple[Response, int] | None:
    if request.method == "POST" and not same_token(request.headers.get(CSRF_HEADER), session.get("csrf")):
        return jsonify(ok=False, error="missing or wrong CSRF token: reload the dice page and try again"), 403
    return None


@dice.get("/dice")
def page() -> str:
    """The poker dice page."""
    return render_template("dice.html", csrf=session_csrf_token())


@dice.get("/api/dice")
def state() -> Response:
    """The referee's state: players, direction, announcement, legal next, last challenge, tally."""
    response = jsonify(_table().state())
    response.headers["Cache-Control"] = "no-store"
    return response


@dice.get("/api/dice/announcements")
def announcements() -> Response:
    """Every announcement, lowest first (French, short French, English, category, faces)."""
    return jsonify([a.to_dict() for a in all_announcements()])


def _move(run: Callable[[DiceReferee, dict[str, Any]], Any], *, needs_game: bool = True) -> tuple[Response, int]:
    """Apply one move under the table's lock; 400 for a malformed body, 409 for a refused move."""
    body = json_object("send the move as a JSON object")
    table = _table()
    with table.lock:
        if needs_game and table.referee is None:
            return jsonify(ok=False, error="no game yet: start one with the players' names"), 409
        try:
            outcome = run(table.referee, body)  # type: ignore[arg-type]
        except AnnouncementError as exc:
            return jsonify(ok=False, error=say_error(words(), exc), suggestions=list(exc.suggestions)), 409
        except DiceError as exc:
            return jsonify(ok=False, error=say_error(words(), exc)), 409
        except (_BadField, PlayerNameError) as exc:  # a name is checked by the one rule of web.names
            return jsonify(ok=False, error=say_error(words(), exc)), 400
        table.version += 1
        return jsonify(ok=True, result=outcome, state=table.state()), 200


class _BadField(Exception):
    """A field of the move's body with the wrong type."""


def _text(body: dict[str, Any], key: str, *, required: bool = True) -> str | None:
    value = body.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _BadField(f"{key} must be text, got {value!r}")
    return value


def _faces(value: Any, key: str) -> str | None:
    """Dice as text ("N N D D A") from text or a list of face letters."""
    if value is None:
        return None
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value)
    if isinstance(value, str):
        return value
    raise _BadField(f'{key} must be faces such as "N N D D A" or a list of them, got {value!r}')


@dice.post("/api/dice/new")
def new_game() -> tuple[Response, int]:
    """A new series with these players (seating order, going left); ``first`` opens game 1."""

    def run(_: Any, body: dict[str, Any]) -> Any:
        players = body.get("players")
        if isinstance(players, str):
            players = [p.strip() for p in players.replace("\n", ",").split(",") if p.strip()]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise _BadField("players must be names separated by commas, or a list of names")
        if len(players) > MAX_PLAYERS:
            raise _BadField(f"at most {MAX_PLAYERS} players, got {len(players)}")
        first = body.get("first")
        track = body.get("track_throws", False)
        if not isinstance(track, bool):
            raise _BadField(f"track_throws must be true or false, got {track!r}")
        first_name = None if first is None else check_name(first, THE_FIRST)
        referee = DiceReferee([check_name(p) for p in players], first=first_name, track_throws=track)
        _table().referee = referee
        return None

    return _move(run, needs_game=False)


@dice.post("/api/dice/announce")
def announce() -> tuple[Response, int]:
    """The player to act announces (text such as "Paire de Dames", "Supérieur", "Petit Full")."""

    def run(referee: DiceReferee, body: dict[str, Any]) -> Any:
        tour = body.get("tour_de_poker", False)
        if not isinstance(tour, bool):
            raise _BadField(f"tour_de_poker must be true or false, got {tour!r}")
        said = referee.announce(
            _text(body, "announcement") or "",
            direction=_text(body, "direction", required=False),
            visible=_faces(body.get("visible"), "visible"),
            tour_de_poker=tour,
        )
        return said.to_dict()

    return _move(run)


@dice.post("/api/dice/challenge")
def lift() -> tuple[Response, int]:
    """The player to act does not believe it: the cup is lifted on ``roll``."""

    def run(referee: DiceReferee, body: dict[str, Any]) -> Any:
        roll = _faces(body.get("roll"), "roll")
        if roll is None:
            raise _BadField('roll is required: the five faces under the cup, e.g. "N N D D A"')
        referee.challenge(roll)
        return referee.snapshot()["last_challenge"]

    return _move(run)


@dice.post("/api/dice/roll-off")
def roll_off() -> tuple[Response, int]:
    """One die per player to choose who opens game 1 (lowest starts; a tie throws again)."""

    def run(referee: DiceReferee, body: dict[str, Any]) -> Any:
        dice_by_name = body.get("dice")
        if not isinstance(dice_by_name, dict) or not all(isinstance(v, str) for v in dice_by_name.values()):
            raise _BadField('dice must be an object of player name -> face, e.g. {"Ana": "K"}')
        return list(referee.roll_off({check_name(name): face for name, face in dice_by_name.items()}))

    return _move(run)


def _followed(referee: DiceReferee) -> DiceReferee:
    """The referee, when it follows the throws; a refused move (409) otherwise."""
    if not referee.track_throws:
        raise IllegalTurnError("this series follows the announcements only: start a new series with the throws "
                               "followed to record throws, looks and shown dice")  # fmt: skip
    return referee


def _die_numbers(body: dict[str, Any]) -> list[int]:
    """The ``dice`` of a throw or a show: die numbers 0-4 (which physical dice, not their faces)."""
    value = body.get("dice")
    if (not isinstance(value, list) or not value
            or not all(isinstance(d, int) and not isinstance(d, bool) and 0 <= d < DICE for d in value)):  # fmt: skip
        raise _BadField(f"dice must be a list of die numbers 0 to {DICE - 1}, e.g. [0, 3], got {value!r}")
    return value


@dice.post("/api/dice/throw")
def throw() -> tuple[Response, int]:
    """The player to act throws ``dice`` (die numbers) on the table, or under the cup (``under_cup``)."""

    def run(referee: DiceReferee, body: dict[str, Any]) -> Any:
        under_cup = body.get("under_cup", False)
        if not isinstance(under_cup, bool):
            raise _BadField(f"under_cup must be true or false, got {under_cup!r}")
        numbers = _die_numbers(body)
        done = _followed(referee).throw(numbers, under_cup=under_cup)
        return {"player": done.player, "dice": list(done.dice), "under_cup": done.under_cup}

    return _move(run)


@dice.post("/api/dice/look")
def look() -> tuple[Response, int]:
    """The player to act looks secretly under the cup received (believing it: a throw must follow)."""

    def run(referee: DiceReferee, _: dict[str, Any]) -> Any:
        _followed(referee).look()
        return None

    return _move(run)


@dice.post("/api/dice/show")
def show() -> tuple[Response, int]:
    """The player to act takes ``dice`` out from under the cup and shows them."""

    def run(referee: DiceReferee, body: dict[str, Any]) -> Any:
        numbers = _die_numbers(body)
        _followed(referee).show(numbers)
        return None

    return _move(run)


@dice.post("/api/dice/tour-de-poker")
def tour_de_poker() -> tuple[Response, int]:
    """After looking at a Poker received, the player to act starts a Tour de Poker; answers its throws."""

    def run(referee: DiceReferee, _: dict[str, Any]) -> Any:
        return {"throws": _followed(referee).start_tour_de_poker()}

    return _move(run)


@dice.post("/api/dice/undo")
def undo() -> tuple[Response, int]:
    """Take back the last move."""

    def run(referee: DiceReferee, _: dict[str, Any]) -> Any:
        referee.undo()
        return None

    return _move(run)


# ------------------------------------------------------------------------------- OpenAPI
def _ann() -> dict[str, Any]:
    return {"type": "object", "required": ["french", "english", "category", "faces"], "properties": {
        "french": {"type": "string"}, "french_short": {"type": "string"}, "english": {"type": "string"},
        "category": {"type": "string"}, "faces": {"type": "array", "items": {"type": "string"}},
        "attainable": {"type": "boolean"}}}  # fmt: skip


DICE_SCHEMAS: dict[str, Any] = {
    "DiceAnnouncement": _ann(),
    "DicePhase": {"type": "object", "required": ["player", "looked", "tour_de_poker", "shown", "throws"],
                  "properties": {
        "player": {"type": "string"}, "looked": {"type": "boolean"}, "tour_de_poker": {"type": "boolean"},
        "shown": {"type": "array", "items": {"type": "integer"}},
        "throws": {"type": "array", "items": {"type": "object", "required": ["dice", "under_cup"], "properties": {
            "dice": {"type": "array", "items": {"type": "integer"}}, "under_cup": {"type": "boolean"}}}}}},
    "DiceState": {
        "type": "object",
        "required": ["active", "version"],
        "properties": {
            "active": {"type": "boolean"}, "version": {"type": "integer"}, "game": {"type": "integer"},
            "players": {"type": "array", "items": {"type": "object", "required": ["name", "points", "to_act"],
                        "properties": {"name": {"type": "string"}, "seat": {"type": "integer"},
                                       "points": {"type": "integer"}, "to_act": {"type": "boolean"}}}},
            "direction": {"type": "string", "enum": ["left", "right"], "nullable": True},
            "to_act": {"type": "string"}, "announcer": {"type": "string", "nullable": True},
            "current": {"$ref": "#/components/schemas/DiceAnnouncement", "nullable": True},
            "legal_next": {"$ref": "#/components/schemas/DiceAnnouncement", "nullable": True},
            "must_challenge": {"type": "boolean"}, "tour_de_poker_throws": {"type": "integer", "nullable": True},
            "history": {"type": "array", "items": {"type": "object"}},
            "last_challenge": {"type": "object", "nullable": True},
            "standings": {"type": "array", "items": {"type": "object"}},
            "throwing": {"type": "object", "required": ["hidden", "phases", "current"], "properties": {
                "hidden": {"type": "array", "items": {"type": "integer"}},
                "phases": {"type": "array", "items": {"$ref": "#/components/schemas/DicePhase"}},
                "current": {"$ref": "#/components/schemas/DicePhase", "nullable": True}}},
        },
    },
}  # fmt: skip


def _post(summary: str, op: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    error = {"$ref": "#/components/schemas/Error"}
    body = {"type": "object", "required": required, "properties": properties}
    return {"post": {
        "summary": summary, "operationId": op,
        "parameters": [{"name": "X-CSRF-Token", "in": "header", "required": True, "schema": {"type": "string"}}],
        "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
        "responses": {
            "200": {"description": "done", "content": {"application/json": {"schema": {"type": "object",
                    "required": ["ok", "state"], "properties": {"ok": {"type": "boolean"},
                    "state": {"$ref": "#/components/schemas/DiceState"}}}}}},
            **{code: {"description": text, "content": {"application/json": {"schema": error}}}
               for code, text in (("400", "malformed"), ("403", "missing CSRF token"), ("409", "not allowed now"),
                                  ("413", "body over 64 KiB"))},
        },
    }}  # fmt: skip


_FACES = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
_DIE_NUMBERS = {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 0, "maximum": DICE - 1}}
DICE_PATHS: dict[str, Any] = {
    "/api/dice": {"get": {"summary": "The poker dice referee's state", "operationId": "diceState", "responses": {
        "200": {"description": "state", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/DiceState"}}}}}}},
    "/api/dice/announcements": {"get": {"summary": "Every announcement, lowest first", "operationId": "diceList",
        "responses": {"200": {"description": "119 announcements", "content": {"application/json": {
            "schema": {"type": "array", "items": {"$ref": "#/components/schemas/DiceAnnouncement"}}}}}}}},
    "/api/dice/new": _post("A new series", "diceNew", {"players": NAMES_SCHEMA, "first": NAME_SCHEMA,
                           "track_throws": {"type": "boolean"}}, ["players"]),
    "/api/dice/announce": _post("Announce", "diceAnnounce", {
        "announcement": {"type": "string"}, "direction": {"type": "string", "enum": ["left", "right"]},
        "visible": _FACES, "tour_de_poker": {"type": "boolean"}}, ["announcement"]),
    "/api/dice/challenge": _post("Lift the cup", "diceChallenge", {"roll": _FACES}, ["roll"]),
    "/api/dice/roll-off": _post("Who starts", "diceRollOff", {"dice": {"type": "object",
                                "additionalProperties": {"type": "string"}}}, ["dice"]),
    "/api/dice/throw": _post("Throw dice on the table or under the cup", "diceThrow", {"dice": _DIE_NUMBERS,
                             "under_cup": {"type": "boolean"}}, ["dice"]),
    "/api/dice/look": _post("Look under the cup received", "diceLook", {}, []),
    "/api/dice/show": _post("Show dice taken out from under the cup", "diceShow", {"dice": _DIE_NUMBERS}, ["dice"]),
    "/api/dice/tour-de-poker": _post("Start a Tour de Poker", "diceTourDePoker", {}, []),
    "/api/dice/undo": _post("Take back the last move", "diceUndo", {}, []),
}  # fmt: skip
