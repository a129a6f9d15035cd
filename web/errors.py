"""Bad requests answered as JSON: depth-limited JSON bodies and one error format for the API.

- **JSON bodies** are parsed by :class:`BoundedJSONProvider`: a document nested deeper than
  :data:`MAX_DEPTH` is refused before the parser sees it (Python's parser recurses once per
  level, so 30,000 ``[`` would raise ``RecursionError``, a 500). Every ``POST`` whose body is
  JSON is checked before its route runs (:func:`check_json_body`): a body that is not JSON, or
  too deep, answers ``400 {"ok": false, "error": ...}`` saying what is allowed. A route reads
  its body with :func:`json_object`: anything but the object it needs answers
  ``400 {"ok": false, "error": ...}`` with the route's own words on what to send.
- **Errors** (400, 404, 405, 413, 429, 500...) on ``/api/...``, on the admin page's JSON
  commands, or to a client that asked for JSON are ``{"ok": false, "error": "...", "status": N}``
  (:func:`json_error`), never Flask's HTML page. The pages a browser opens keep HTML errors.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, jsonify, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed, RequestEntityTooLarge

from table.errors import TocktableError

MAX_DEPTH = 32
"""Deepest JSON nesting accepted in a request body (the deepest legitimate body is 3)."""

JSON_PAGES = ("/admin/command", "/admin/game", "/admin/end", "/admin/chip-set", "/admin/camera/view.json",
              "/admin/setup/aim.json", "/admin/setup/camera", "/admin/setup/zones.json", "/admin/setup/zones",
              "/admin/setup/zones/calibrate",
              "/admin/setup/zones/check.json", "/admin/setup/dry-run.json", "/admin/setup/dry-run/start",
              "/admin/setup/dry-run/stop", "/admin/setup/deck.json", "/admin/setup/deck/start",
              "/admin/setup/deck/stop", "/admin/setup/deck/restart", "/admin/setup/deck/capture",
              "/admin/setup/deck/keep", "/admin/setup/deck/retake", "/admin/setup/deck/redo", "/admin/setup/deck/lay",
              "/admin/setup/deck/lay-check", "/admin/setup/deck/check", "/admin/setup/deck/crop.jpg")
"""Admin routes that answer JSON (the rest of /admin are pages)."""

log = logging.getLogger("tocktable.web")

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


class JSONTooDeep(TocktableError, ValueError):
    """A JSON document nested deeper than :data:`MAX_DEPTH`."""


def json_depth(data: bytes | str) -> int:
    """How deeply the arrays and objects of a JSON text nest (brackets inside strings do not count).

    >>> json_depth(b'{"a": [1, {"b": "[[["}]}'), json_depth(b"1"), json_depth("[" * 5 + "]" * 5)
    (3, 0, 5)
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if raw.count(b"[") + raw.count(b"{") <= 1:
        return raw.count(b"[") + raw.count(b"{")
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    depth = deepest = 0
    for byte in brackets:
        if byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def check_depth(data: bytes | str, limit: int = MAX_DEPTH) -> None:
    """Raise :class:`JSONTooDeep` when ``data`` nests deeper than ``limit``."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if raw.count(b"[") + raw.count(b"{") > limit and json_depth(raw) > limit:
        raise JSONTooDeep(f"the JSON is nested more than {limit} levels deep: send a flat object such as "
                          '{"kind": "press", "button": "fold"}')  # fmt: skip


class BoundedJSONProvider(DefaultJSONProvider):
    """Flask's JSON, but ``loads`` refuses documents nested deeper than :data:`MAX_DEPTH`
    (a ``ValueError``, which ``request.get_json`` reports as a bad request)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        check_depth(s)
        return super().loads(s, **kwargs)


class BadBody(TocktableError, ValueError):
    """A request body that is not the JSON object the route needs; the message says what to send."""


def json_object(usage: str, accept: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any]:
    """The request's JSON body when it is an object (one that ``accept`` takes, if given); else
    :class:`BadBody` saying ``usage``, which :func:`install` answers ``400 {"ok": false, "error": usage}``."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or (accept is not None and not accept(data)):
        raise BadBody(usage)
    return data


def wants_json() -> bool:
    """Whether this request's errors are answered as JSON: the API, the admin page's JSON
    commands, a JSON body, or a client that prefers JSON to HTML."""
    path = request.path
    if path.startswith("/api/") or path == "/api" or path in JSON_PAGES or request.is_json:
        return True
    return request.accept_mimetypes.best_match(["text/html", "application/json"]) == "application/json"


def json_error(status: int, message: str, **extra: Any) -> Response:
    """``{"ok": false, "error": message, "status": status}`` with that status code."""
    response = jsonify(ok=False, error=message, status=status, **extra)
    response.status_code = status
    return response


def _message(error: HTTPException) -> str:
    if isinstance(error, RequestEntityTooLarge):
        limit = request.max_content_length
        size = f"{limit // 1024} KiB" if limit else "the limit"
        return f"the request body is larger than {size}: send less"
    if error.code == 404:
        return f"nothing at {request.path}: see /api/openapi.json for the routes"
    if isinstance(error, MethodNotAllowed):
        allowed = ", ".join(sorted(m for m in (error.valid_methods or []) if m not in ("HEAD", "OPTIONS")))
        return f"{request.method} is not allowed on {request.path}" + (f": use {allowed}" if allowed else "")
    if error.code == 500:
        return "the server failed on this request (it is logged); the table goes on"
    return str(error.description or error.name)


def check_json_body() -> Response | None:
    """Before every POST with a JSON body: a 400 when it is not JSON or nests too deep."""
    if request.method != "POST" or not request.is_json:
        return None
    data = request.get_data(cache=True)  # 413 here when over MAX_CONTENT_LENGTH
    if not data.strip():
        return None  # the route says what it needs
    try:
        check_depth(data)
        json.loads(data)
    except JSONTooDeep as exc:
        return json_error(400, str(exc))
    except ValueError as exc:
        return json_error(400, f"the body is not valid JSON ({exc})")
    return None


def install(app: Flask) -> None:
    """Depth-limited JSON, the JSON body check, and JSON error answers for ``app``."""
    app.json = BoundedJSONProvider(app)
    app.before_request(check_json_body)

    @app.errorhandler(BadBody)
    def _bad_body(error: BadBody) -> tuple[Response, int]:
        return jsonify(ok=False, error=str(error)), 400

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> Any:
        if not wants_json():
            return error
        response = json_error(error.code or 500, _message(error))
        for name, value in error.get_headers():
            if name in ("Retry-After", "Allow"):
                response.headers[name] = value
        return response

    @app.errorhandler(InternalServerError)
    def _server_error(error: InternalServerError) -> Any:
        original = getattr(error, "original_exception", None)
        if original is not None:
            log.error("%s %s failed", request.method, request.path, exc_info=original)
        if not wants_json():
            return error
        return json_error(500, _message(error))
