"""``/admin``: the host's pages, behind the PIN.

- ``GET /admin``: the login form, or (logged in) the host's console.
- ``POST /admin/login`` (form: ``pin``, ``csrf_token``) and ``POST /admin/logout``.
- ``POST /admin/command``: one command for the service, the same JSON as ``POST /api/command``
  (``{"kind": "press", "button": "fold"}``, ``{"kind": "correct", "seat": null, "index": 2,
  "card": "7d"}``...), with the session cookie and the ``X-CSRF-Token`` header.
- ``POST /admin/game``: a new game (variant, betting, seats, players, buy-in, blinds, chip set);
  ``POST /admin/end``: end the session (its exports stay available); ``POST /admin/chip-set``.
- ``GET /admin/state`` and ``GET /admin/events`` (SSE): the table as ``/api/state`` and
  ``/api/events`` send it, plus the host's own warnings (a refused command, a failed write),
  which the players' phones never see.
- ``GET /admin/camera`` (page), ``/admin/camera/frame.jpg`` (the latest frame),
  ``/admin/camera/view.json`` (what was read, and the zones); ``GET /admin/join.svg`` (QR code).

Every route but the login form and the login itself needs the session; every POST needs the
session's CSRF token (the login form too). Wrong PINs are slowed down by the app's PinGuard.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request, session, url_for

from table.chips import CHIP_SETS
from table.errors import TocktableError
from web.api import read_command
from web.camera import camera_view, frame_jpeg
from web.context import SettingsSaveError, context
from web.events import open_stream
from web.gameform import GameFormError, read_game
from web.join import qr_svg
from web.language import words as phone_words
from web.present import chip_set_named
from web.protocols import ServiceUnavailable
from web.security import CSRF_FIELD, CSRF_HEADER, LoginLocked, new_csrf_token, same_token, session_csrf_token
from web.words import N_, SOURCE_LANGUAGE
from web.words.phrases import say_error

admin = Blueprint("admin", __name__, url_prefix="/admin")

F = TypeVar("F", bound=Callable[..., Any])


def _secret() -> bytes:
    """The server's secret (``web-secret``): the key of the login cookie's MAC."""
    key = current_app.secret_key
    return key.encode() if isinstance(key, str) else bytes(key or b"")


def logged_in() -> bool:
    """Whether this browser's session is the host's: a session the guard sealed with the current PIN."""
    ctx = context()
    return ctx.guard.configured and ctx.guard.holds_session(session.get("admin"), _secret())


def _refuse(status: int, message: str) -> Response:
    """A refusal as JSON, ``message`` (marked with ``N_``) in the phone's language."""
    message = phone_words()(message)
    wants_html = request.method == "GET" and "text/html" in request.headers.get("Accept", "")
    if status == 401 and wants_html:
        return redirect(url_for("admin.home"))  # type: ignore[return-value]
    response = jsonify(ok=False, error=message)
    response.status_code = status
    return response


@admin.before_request
def guard() -> Response | None:
    """Every admin route needs the session (but the login form and the login itself), and every
    POST the session's CSRF token."""
    public = request.endpoint in ("admin.home", "admin.login")
    if request.method == "POST":
        given = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD)
        if not same_token(given, session.get("csrf")):
            return _refuse(403, N_("missing or wrong CSRF token: reload the admin page and try again"))
    if not public and not logged_in():
        return _refuse(401, N_("log in on /admin with the admin PIN first"))
    return None


def _json_only(view: F) -> F:
    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if request.get_json(silent=True) is None and not request.form:
            return _refuse(400, N_("send the fields as a JSON object (Content-Type: application/json)"))
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


@admin.get("")
def home() -> Response | str | tuple[str, int]:
    """The login form, or the host's console once logged in."""
    ctx = context()
    if not logged_in():
        locked = ctx.guard.retry_after(request.remote_addr or "?")
        return render_template("login.html", csrf=session_csrf_token(), error=None, locked=locked,
                               configured=ctx.guard.configured)  # fmt: skip
    return render_template(
        "admin.html",
        csrf=session_csrf_token(),
        url=ctx.join_url(),
        mdns=ctx.mdns_url,
        chip_sets=list(CHIP_SETS),
        chip_set=ctx.presenter.chip_set.name,
    )


@admin.post("/login")
def login() -> Response | tuple[str, int]:
    """Check the PIN (slowed down after a few mistakes); on success the session is the host's."""
    ctx = context()
    client = request.remote_addr or "?"
    try:
        ok = ctx.guard.check(request.form.get("pin", "").strip(), client)
    except LoginLocked as exc:
        words = phone_words()  # English keeps the guard's own words; another language says why in its own
        error = str(exc)
        if words.language != SOURCE_LANGUAGE:
            error = words("Too many wrong PINs: wait before the next try.")
        page = render_template("login.html", csrf=session_csrf_token(), error=error, locked=exc.retry_after,
                               configured=ctx.guard.configured)  # fmt: skip
        response = Response(page, status=429, mimetype="text/html")
        response.headers["Retry-After"] = str(int(exc.retry_after) + 1)
        return response
    if not ok:
        words = phone_words()
        message = words("wrong PIN") if ctx.guard.configured else words("no admin PIN is set: see the server's output")
        return render_template("login.html", csrf=session_csrf_token(), error=message, locked=0,
                               configured=ctx.guard.configured), 401  # fmt: skip
    session.clear()
    session.permanent = True
    session["admin"] = ctx.guard.open_session(_secret())
    session["csrf"] = new_csrf_token()  # a new token once logged in: one seen before login is worthless
    return redirect(url_for("admin.home"))  # type: ignore[return-value]


@admin.post("/logout")
def logout() -> Response:
    context().guard.end_session(session.get("admin"))
    session.clear()
    return redirect(url_for("dashboard.index"))  # type: ignore[return-value]


def _call(item: Any) -> tuple[Response, int]:
    try:
        ack = context().service.call(item, timeout=10.0)
    except ServiceUnavailable as exc:
        return jsonify(ok=False, error=say_error(phone_words(), exc)), 503
    except TocktableError as exc:
        return jsonify(ok=False, error=say_error(phone_words(), exc)), 409
    return jsonify(ok=True, seq=ack.seq, version=ack.version, steps=list(ack.steps)), 200


@admin.post("/command")
@_json_only
def command() -> tuple[Response, int]:
    """Run one command on the service (a console press, a bet amount, a correction...)."""
    try:
        item = read_command(request.get_json(silent=True))
    except ValueError as exc:
        return jsonify(ok=False, error=say_error(phone_words(), exc)), 400
    return _call(item)


@admin.post("/game")
@_json_only
def new_game() -> tuple[Response, int]:
    """Close the session and open a new one with these settings and players."""
    ctx = context()
    data = request.get_json(silent=True) or request.form.to_dict()
    try:
        game = read_game(data)
    except GameFormError as exc:
        return jsonify(ok=False, error=say_error(phone_words(), exc)), 400
    response = _call(ctx.new_game(game.settings, game.players))
    if response[1] == 200:
        ctx.set_chip_set(game.chip_set)
    return response


@admin.post("/end")
def end_session() -> tuple[Response, int]:
    """End the night: the session is closed (its exports stay), a new empty one is opened."""
    ctx = context()
    ended = ctx.service.session_id
    response = _call(ctx.end_session())
    if response[1] == 200:
        response[0].set_data(jsonify(ok=True, ended=ended, session=ctx.service.session_id).get_data())
    return response


@admin.post("/chip-set")
@_json_only
def chip_set() -> tuple[Response, int]:
    """Draw pots and bets in the colours of another chip set."""
    data = request.get_json(silent=True) or request.form.to_dict()
    name = data.get("name") if isinstance(data, dict) else None
    try:
        chosen = chip_set_named(name if isinstance(name, str) else "")
    except TocktableError as exc:
        return jsonify(ok=False, error=say_error(phone_words(), exc)), 400
    try:
        context().set_chip_set(chosen.name)
    except SettingsSaveError as exc:
        return jsonify(
            ok=False, error=f"chip set {chosen.name}: {say_error(phone_words(), exc)}", chip_set=chosen.to_dict()
        ), 500
    return jsonify(ok=True, chip_set=chosen.to_dict()), 200


@admin.get("/state")
def host_state() -> Response:
    """The table now, with the host's own warnings (see :data:`web.present.HOST_NOTICES`)."""
    ctx = context()
    text = ctx.presenter.text(ctx.service.snapshot(), host=True, words=phone_words())
    response = Response(text, mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


@admin.get("/events")
def host_events() -> Response | tuple[Response, int]:
    """The host's live stream: ``/api/events`` with the host's own warnings."""
    return open_stream(host=True)


@admin.get("/camera")
def camera_page() -> str:
    return render_template("camera.html", csrf=session_csrf_token())


@admin.get("/camera/frame.jpg")
def camera_frame() -> Response:
    """The camera's latest frame as JPEG (404 when there is no camera or no frame yet)."""
    ctx = context()
    data = frame_jpeg(ctx.camera, service=ctx.service, config=ctx.config)
    if data is None:
        return _refuse(404, N_("no camera frame: the table runs without a camera, or it has not sent a picture yet"))
    response = Response(data, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


@admin.get("/camera/view.json")
def camera_json() -> Response:
    """What the camera read (cards, face up or down, marks, corners), the zones, the conflicts."""
    ctx = context()
    response = jsonify(camera_view(ctx.service, ctx.config, ctx.camera))
    response.headers["Cache-Control"] = "no-store"
    return response


@admin.get("/join.svg")
def join_svg() -> Response:
    """A QR code of the dashboard's address (the server's own, never the request's ``Host``)."""
    return Response(qr_svg(context().join_url()), mimetype="image/svg+xml")
