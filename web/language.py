"""Which language each phone reads, and the switch that changes it.

A phone's language is, in order: the one it chose with the switch at the top of every page
(``GET /language/<code>``, kept in the ``lang`` cookie for a year), else the best its browser
asks for (``Accept-Language``) among those the pages speak, else the host's default
(``[web] language`` in the configuration). The demo's ``--lang`` puts one language before the
browser's (``create_app(language=...)``). Each request's :class:`web.words.Words` is
:func:`words`; the templates reach it as ``_`` (Jinja's i18n extension: ``{{ _("Pot") }}``).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Flask, current_app, g, redirect, request
from flask.typing import ResponseReturnValue

from web.errors import json_error
from web.words import Words, languages, pick_language, words_for

COOKIE = "lang"
"""The cookie that keeps a phone's choice."""
language_switch = Blueprint("language", __name__)


def default_language() -> str:
    """The host's default (``[web] language``), English when the configuration has none."""
    config = current_app.config.get("TOCKTABLE_CONFIG")
    chosen = getattr(getattr(config, "web", None), "language", None)
    return chosen if chosen in languages() else "en"


def script_json(text: str) -> str:
    """JSON text safe inside a ``<script>`` element: no ``</script>`` or ``<!--`` can close it."""
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def words() -> Words:
    """The words of this request's phone."""
    found: Words | None = g.get("tocktable_words")
    if found is None:
        chosen = request.cookies.get(COOKIE)
        if chosen not in languages():
            chosen = current_app.config.get("TOCKTABLE_LANGUAGE")
        language = pick_language(request.headers.get("Accept-Language"), default=default_language(), chosen=chosen)
        found = g.tocktable_words = words_for(language)
    return found


@language_switch.get("/language/<code>")
def switch(code: str) -> ResponseReturnValue:
    """Keep ``code`` as this phone's language and go back to the page it came from (``?next=``,
    a path on this server; else the dashboard). An unknown language is a 404 listing the known."""
    if code not in languages():
        return json_error(404, f"no language {code!r}: choose one of {', '.join(languages())}")
    back = request.args.get("next", "/")
    if not back.startswith("/") or back.startswith("//") or "\\" in back:
        back = "/"  # only a path on this server: the switch is no open redirect
    response = redirect(back, code=303)
    response.set_cookie(COOKIE, code, max_age=365 * 24 * 3600, samesite="Strict", httponly=True)
    return response


def install(app: Flask) -> None:
    """Give ``app`` the switch, the templates' ``_``/``ngettext`` and what every page needs of its language."""
    app.register_blueprint(language_switch)
    app.jinja_env.add_extension("jinja2.ext.i18n")

    def gettext(message: str) -> str:
        return words()(message)

    def ngettext(singular: str, plural: str, n: int) -> str:
        return words().ngettext(singular, plural, n)

    app.jinja_env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]

    @app.context_processor
    def _language() -> dict[str, Any]:
        spoken = words()
        return {
            "lang": spoken.language,
            "languages": languages(),
            "number": spoken.number,
            "words_json": script_json(json.dumps(spoken.for_scripts(), ensure_ascii=False)),
        }
