"""The Flask dashboard, JSON API, server-sent events and admin pages.

``create_app(config, service)`` builds the app around a running ``tocktable.service.Service``;
the web layer talks to the service (snapshots and commands), never to the engine.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response

_PLACEHOLDER = """<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>tocktable</title><style>body{font:16px system-ui;margin:1em;background:#0b3d2e;color:#eee}
pre{white-space:pre-wrap}</style><h1>tocktable</h1><p>The live table (the full dashboard is coming):</p>
<pre id="t">loading...</pre><script>
async function f(){try{const s=await (await fetch('/api/state')).json();const L=[];
L.push(`hand ${s.hand_number}  ${s.phase}  ${s.street||''}  blinds ${s.blinds.small_blind}/${s.blinds.big_blind}`);
L.push(`board: ${s.board.join(' ')||'-'}   pot: ${s.pot_total}`);
for(const p of s.seats){if(!p.name)continue;L.push(`${p.seat===s.to_act?'>':' '} ${p.dealer?'D':' '} `+
`${p.name.padEnd(8)} ${String(p.stack).padStart(6)}  bet ${p.bet}  ${p.state} ${p.hole.join(' ')}`);}
for(const w of s.warnings)L.push('! '+w.message);document.getElementById('t').textContent=L.join('\\n');}
catch(e){}setTimeout(f,500);}f();</script>"""


def create_app(config: Any, service: Any, *, admin_pin: str | None = None) -> Flask:
    """The web app for ``service``; ``admin_pin`` guards the host's commands (default: the
    configuration's ``web.admin_pin``)."""
    from web.api import api

    app = Flask(__name__)
    app.config["TOCKTABLE_ADMIN_PIN"] = admin_pin if admin_pin is not None else getattr(config.web, "admin_pin", "")
    app.config["TOCKTABLE_CONFIG"] = config
    app.extensions["tocktable.service"] = service
    app.register_blueprint(api)

    @app.get("/")
    def index() -> Response:
        return Response(_PLACEHOLDER, mimetype="text/html")

    return app
