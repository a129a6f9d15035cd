"""``/admin/setup``: setting the table up from the host's phone, behind the PIN.

- ``GET /admin/setup``: the page (aim the camera: the live picture and the advice).
- ``GET /admin/setup/aim.json``: the advice for the latest frame (``{"camera": bool, "frame",
  "advice": [{"topic", "ok", "value", "text"}], "movable": bool, "position": {...} | null}``),
  worked out on the Pi (:class:`web.protocols.AimAdvisor`): words and numbers, no picture.
- ``POST /admin/setup/camera`` (``{"lift": m, "tilt": degrees, "blur": px}``, any of them): move
  the demo's synthetic camera; 404 for a real camera, 400 saying the ranges for a bad value.
- ``GET /admin/setup/zones.json``: the zones the table uses and where they come from
  (:class:`web.protocols.ZoneEditor`); ``POST /admin/setup/zones`` (``{"zones": {"board": [[x, y],
  ...], "seat:0": ...}}``): keep and use new ones (400 saying what is wrong and what is allowed,
  409 when the configuration file sets the zones, 404 when the table has no zone editor).
- ``POST /admin/setup/zones/calibrate``: zones proposed from one card laid face up in front of
  each seat and one in the middle (not saved: the page asks which seat is seat 1, then saves);
  400 saying what to lay down when the cards seen do not make zones.
- ``GET /admin/setup/zones/check.json``: whether the zones still match the picture (``{"match": {"ok",
  "kind", "cards", "outside", "empty", "crowded", "text"}}``, the text in the phone's language): a
  camera moved after the zones were drawn leaves cards outside them.
- ``GET /admin/setup/dry-run.json``, ``POST /admin/setup/dry-run/start`` and ``/stop``: a dry run
  (:class:`web.protocols.DryRunner`): what the camera saw, street by street, while the host deals
  one hand with nobody betting (404 when the table has no camera).

The picture is the camera page's (``/admin/camera/frame.jpg``), masked as it is there.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template

from web.admin import guard
from web.context import context
from web.errors import json_object
from web.language import words
from web.security import session_csrf_token
from web.words.setup import advice_words, dry_run_words, zone_match_words

setup = Blueprint("setup", __name__, url_prefix="/admin/setup")
setup.before_request(guard)

MOVES = ("lift", "tilt", "blur")


@setup.get("")
def setup_page() -> str:
    ctx = context()
    zones = ctx.zone_editor.current() if ctx.zone_editor is not None else None
    return render_template("setup.html", csrf=session_csrf_token(), camera=ctx.camera is not None,
                           movable=bool(ctx.aim is not None and ctx.aim.movable), zones=zones,
                           dry_run=ctx.dry_run is not None, deck=ctx.deck is not None)  # fmt: skip


@setup.get("/aim.json")
def aim_json() -> Response:
    """The aim advice for the camera's latest frame."""
    aim = context().aim
    body: dict[str, Any] = {"camera": aim is not None, "frame": None, "advice": [], "movable": False, "position": None}
    if aim is not None:
        body.update(aim.advice())
        body["advice"] = advice_words(words(), body["advice"])
        body["movable"] = aim.movable
        body["position"] = aim.camera()
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response


@setup.post("/camera")
def move_camera() -> tuple[Response, int]:
    """Move the demo's synthetic camera."""
    aim = context().aim
    if aim is None or not aim.movable:
        return jsonify(ok=False, error="this camera cannot be moved from the page: move it by hand"), 404
    data = json_object(f"send a JSON object with any of {', '.join(MOVES)}", bool)
    unknown = sorted(set(data) - set(MOVES))
    if unknown:
        return jsonify(ok=False, error=f"unknown field(s) {', '.join(unknown)}: use {', '.join(MOVES)}"), 400
    try:
        position = aim.move(**data)
    except LookupError as exc:
        return jsonify(ok=False, error=str(exc)), 404
    except ValueError as exc:
        return jsonify(ok=False, error=str(exc)), 400
    return jsonify(ok=True, position=position), 200


@setup.get("/zones.json")
def zones_json() -> tuple[Response, int]:
    """The zones the table uses, where they come from, and whether the page may change them."""
    editor = context().zone_editor
    if editor is None:
        return jsonify(ok=False, error="this table has no zones to draw"), 404
    response = jsonify(ok=True, **editor.current())
    response.headers["Cache-Control"] = "no-store"
    return response, 200


@setup.post("/zones")
def save_zones() -> tuple[Response, int]:
    """Keep new zones in the data directory and use them at once."""
    editor = context().zone_editor
    if editor is None:
        return jsonify(ok=False, error="this table has no zones to draw"), 404
    data = json_object('send {"zones": {"board": [[x, y], ...], "seat:0": [[x, y], ...], ...}}',
                       lambda d: "zones" in d)  # fmt: skip
    try:
        saved = editor.save(data["zones"])
    except PermissionError as exc:
        return jsonify(ok=False, error=str(exc)), 409
    except ValueError as exc:
        return jsonify(ok=False, error=str(exc)), 400
    except OSError as exc:
        return jsonify(ok=False, error=f"the zones could not be written: {exc}"), 500
    return jsonify(ok=True, **saved), 200


@setup.post("/zones/calibrate")
def calibrate_zones() -> tuple[Response, int]:
    """Zones from the cards on the camera's latest frame, for the host to number and save."""
    editor = context().zone_editor
    if editor is None:
        return jsonify(ok=False, error="this table has no zones to draw"), 404
    try:
        proposal = editor.calibrate()
    except PermissionError as exc:
        return jsonify(ok=False, error=str(exc)), 409
    except LookupError as exc:
        return jsonify(ok=False, error=str(exc)), 404
    except ValueError as exc:
        return jsonify(ok=False, error=str(exc)), 400
    return jsonify(ok=True, **proposal), 200


@setup.get("/zones/check.json")
def check_zones() -> tuple[Response, int]:
    """Whether the zones still match the camera's picture (cards outside every zone)."""
    editor = context().zone_editor
    if editor is None:
        return jsonify(ok=False, error="this table has no zones to draw"), 404
    try:
        result = editor.check()
    except LookupError as exc:
        return jsonify(ok=False, error=str(exc)), 404
    response = jsonify(ok=True, match=zone_match_words(words(), result))
    response.headers["Cache-Control"] = "no-store"
    return response, 200


def _dry_run(action: str) -> tuple[Response, int]:
    runner = context().dry_run
    if runner is None:
        return jsonify(ok=False, error="this table has no camera: there is nothing to watch"), 404
    report = runner.start() if action == "start" else runner.stop() if action == "stop" else runner.report()
    report = dry_run_words(words(), report)
    response = jsonify(ok=True, **report)
    response.headers["Cache-Control"] = "no-store"
    return response, 200


@setup.get("/dry-run.json")
def dry_run_json() -> tuple[Response, int]:
    """What the camera saw during the dry run, street by street."""
    return _dry_run("report")


@setup.post("/dry-run/start")
def dry_run_start() -> tuple[Response, int]:
    """Forget the last dry run and watch the next hand dealt."""
    return _dry_run("start")


@setup.post("/dry-run/stop")
def dry_run_stop() -> tuple[Response, int]:
    """Stop watching."""
    return _dry_run("stop")
