"""The Flask dashboard, JSON API, server-sent events and admin pages.

``create_app(config, service)`` builds the app around a running service: the web layer knows it
through the Protocols of :mod:`web.protocols` (snapshots, commands, the session read back from the
store, the lens), never through the service's modules, and never touches the engine. Blueprints:

- ``dashboard``: ``GET /``, the live table for every phone (no login);
- ``api``: ``GET /api/state``, ``POST /api/command`` (PIN header, for scripts);
- ``events``: ``GET /api/events``, server-sent events;
- ``records``: ``GET /api/history`` and the exports (PHH, ledger CSV/JSON);
- ``openapi``: ``GET /api/openapi.json``;
- ``admin``: ``/admin``, the host's pages behind the PIN;
- ``setup``: ``/admin/setup``, setting the table up (aiming the camera), behind the PIN too;
- ``dice``: ``/dice``, the poker dice referee;
- ``lens``: ``GET /api/lens``, the learning lens (worked out by the service's lens worker);
- ``language``: ``GET /language/<code>``, the switch at the top of every page (:mod:`web.language`).

Serve it with :class:`web.serve.WebServer` (waitress, threaded) in production.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from flask import Flask

    from web.protocols import (
        AimAdvisor,
        Camera,
        DeckTutor,
        DryRunner,
        LensFeed,
        TableService,
        WebConfig,
        ZoneEditor,
    )
    from web.security import PinGuard

SETTINGS_FILE = "dashboard.json"


def create_app(
    config: WebConfig,
    service: TableService,
    *,
    admin_pin: str | None = None,
    camera: Camera | None = None,
    public_url: str | None = None,
    guard: PinGuard | None = None,
    lens: LensFeed | Literal[False] | None = None,
    aim: AimAdvisor | None = None,
    zones: ZoneEditor | None = None,
    dry_run: DryRunner | None = None,
    deck: DeckTutor | None = None,
    language: str | None = None,
) -> Flask:
    """The web app for ``service``.

    ``admin_pin`` guards the host's pages and commands (default: the configuration's
    ``web.admin_pin``, else the random one kept in the data directory). ``camera`` is the frame
    source the camera page shows (anything with ``read(newer_than=, timeout=)``); it can also be
    set later with ``app.extensions["tocktable.web"].camera = source``. ``public_url`` is the
    address phones should open (default: this machine's LAN address). ``guard`` replaces the
    :class:`web.security.PinGuard` (tests pass one with a fake clock). ``lens``: the lens worker
    (default: the service's own, :meth:`web.protocols.TableService.lens_feed`, started now;
    ``False``: none). ``aim``: the set-up page's camera advice (``app.extensions["tocktable.web"].aim``); ``zones``: the
    zones it draws (``.zone_editor``); ``dry_run``: its dry run (``.dry_run``); ``deck``: its deck
    teaching (``.deck``). ``language``: the pages' language on every phone that has not chosen
    one with the switch, whatever its browser asks (the demo's ``--lang``; default: as the
    browser asks, else ``web.language``).
    """
    # Flask and the blueprints load with an app only: the service's modules import web.protocols,
    # web.serve and web.join, which need neither.
    from datetime import timedelta

    from flask import Flask

    from web.admin import admin
    from web.api import api
    from web.context import EXTENSION, WebContext, load_dashboard_settings
    from web.dashboard import dashboard
    from web.dice import DiceTable, dice
    from web.errors import install as install_errors
    from web.events import events
    from web.history import History
    from web.language import install as install_language
    from web.lens import LENS_EXTENSION, lens_api, start_lens
    from web.openapi import openapi
    from web.present import DEFAULT_CHIP_SET, Presenter, chip_set_named
    from web.records import records
    from web.security import PinGuard, secret_key
    from web.security import admin_pin as kept_pin
    from web.setup import setup
    from web.setup_deck import setup_deck
    from web.words import check_language

    data_dir = Path(config.data_dir)
    pin = admin_pin if admin_pin is not None else kept_pin(config.web.admin_pin, data_dir)
    settings_file = data_dir / SETTINGS_FILE
    saved = load_dashboard_settings(settings_file)
    chip_name = saved.get("chip_set") or config.table.chip_set or DEFAULT_CHIP_SET
    try:
        chip_set = chip_set_named(chip_name)
    except ValueError:
        chip_set = chip_set_named(DEFAULT_CHIP_SET)

    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=secret_key(data_dir),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        PERMANENT_SESSION_LIFETIME=timedelta(hours=16),
        MAX_CONTENT_LENGTH=64 * 1024,
        TOCKTABLE_ADMIN_PIN=pin,
        TOCKTABLE_CONFIG=config,
        TOCKTABLE_LANGUAGE=check_language(language) if language is not None else None,
    )
    ctx = WebContext(
        config=config,
        service=service,
        presenter=Presenter(chip_set),
        guard=guard if guard is not None else PinGuard(pin),
        history=History(service),
        data_dir=data_dir,
        camera=camera,
        aim=aim,
        zone_editor=zones,
        dry_run=dry_run,
        deck=deck,
        public_url=public_url,
        settings_file=settings_file,
        dice=DiceTable(),
    )
    app.extensions[EXTENSION] = ctx
    install_errors(app)
    install_language(app)
    _warm_up()
    app.extensions["tocktable.service"] = service
    app.extensions[LENS_EXTENSION] = start_lens(service, lens, closing=ctx.closing)
    for blueprint in (dashboard, api, events, records, openapi, admin, setup, setup_deck, dice, lens_api):
        app.register_blueprint(blueprint)

    @app.context_processor
    def _not_saving() -> dict[str, Any]:
        # Every page opens with "not saving: ..." while the service cannot keep the game (base.html);
        # the pages that follow the state keep it up to date from the state's storage_fault.
        fault = service.fault
        return {"not_saving": str(fault) if fault is not None else None}

    @app.after_request
    def _headers(response: Any) -> Any:
        # Everything is served from the Pi itself: no outside script, style or frame may load.
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            "script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        )
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    return app


def _warm_up() -> None:
    """Build the hand evaluator's tables (seven-card ranks, hand names) and read the catalogs now,
    on a spare thread: the first showdown would otherwise wait for them (a few hundred ms) before
    any phone hears of the result."""
    import threading

    from web.present import describe_shown  # the hand evaluator (numpy) loads with an app, not with web
    from web.words import languages, words_for  # Babel loads with an app, not with web (the service imports web)

    def warm() -> None:
        describe_shown(["As", "Kd"], ["Qh", "Jc", "9s", "2c", "3d"])  # the table of hands without a flush
        describe_shown(["As", "Ks"], ["Qs", "Js", "Ts", "2c", "3d"])  # and with one
        for language in languages():  # each catalog is read once (about 0.1 s): not on a phone's first page
            words_for(language)

    threading.Thread(target=warm, daemon=True, name="tocktable-warm-up").start()
