"""Every word a player or host reads, in each language of web/translations: the catalogs are
complete, each phone gets its language (switch, Accept-Language, the host's default), numbers are
written as the language writes them, hands are named with the game's French words."""

from __future__ import annotations

import ast
import builtins
import json
import re
import string
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo

import table.phrases
import table.wording
from table.draw import evaluate_draw
from table.evaluate import evaluate
from table.lens import lens, showdown
from tests.web.helpers import DEMO_HAND, make_app, play
from tocktable.config import Config, ConfigError, load_config
from web.language import COOKIE
from web.words import KEYWORDS, LanguageError, languages, pick_language, read_catalog, words_for
from web.words.hands import draw_hand_name, hand_name
from web.words.lens import seat_sentences, view_words
from web.words.notices import say_warning

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "web" / "translations" / "babel.cfg"
OTHER = [code for code in languages() if code != "en"]
PYTHON_WITH_MESSAGES = sorted(
    [*(ROOT / "web").rglob("*.py"), *(ROOT / "table").rglob("*.py"), ROOT / "hardware" / "aim.py",
     ROOT / "tocktable" / "service.py", ROOT / "tocktable" / "game.py"]
)  # fmt: skip
"""The Python the catalogs are extracted from (web/translations/babel.cfg says the same)."""
EN, FR = words_for("en"), words_for("fr")


def extracted() -> dict[tuple[str | None, str], list[str]]:
    """Every message of the code, the templates and the scripts, as ``pybabel extract`` finds it
    (the same mapping file and keywords): (context, message id) -> where it is used."""
    method_map, options_map = [], {}
    section = None
    for line in CONFIG.read_text().splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            method, _, pattern = line[1:-1].partition(":")
            method_map.append((pattern.strip(), method.strip()))
            section = pattern.strip()
            options_map[section] = {}
        elif "=" in line and not line.startswith("#") and section is not None:
            name, _, value = line.partition("=")
            options_map[section][name.strip()] = value.strip()
    found: dict[tuple[str | None, str], list[str]] = {}
    keywords = {**DEFAULT_KEYWORDS, **KEYWORDS}
    for filename, lineno, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        if msgid:
            found.setdefault((context, msgid), []).append(f"{filename}:{lineno}")
    return found


def literal_messages() -> set[str]:
    """Every message written as a literal where words are made: the first arguments of ``words``,
    ``counted``, ``N_``, ``NP_`` and ``Counted`` in Python (read with ``ast``; the refusals of
    ``table`` too), of ``_`` and ``ngettext`` in the scripts, of ``_`` in the templates."""
    found: set[str] = set()
    first_message = {"words": 0, "counted": 0, "N_": 0, "NP_": 1, "Counted": 1}
    for path in PYTHON_WITH_MESSAGES:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            first = first_message.get(node.func.id)
            if first is not None and len(node.args) > first:
                arg = node.args[first]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
    quoted = r'"((?:[^"\\]|\\.)*)"'
    for path in (ROOT / "web" / "static").glob("*.js"):
        for match in re.finditer(r"(?<![\w.])(?:_|ngettext)\(" + quoted, path.read_text()):
            found.add(json.loads(f'"{match.group(1)}"'))
    for path in (ROOT / "web" / "templates").glob("*.html"):
        for match in re.finditer(r"\b_\(" + quoted, path.read_text()):
            found.add(json.loads(f'"{match.group(1)}"'))
        for match in re.finditer(r"\b_\('((?:[^'\\]|\\.)*)'", path.read_text()):
            found.add(match.group(1).replace("\\'", "'"))
    return found


def test_the_extraction_misses_no_message() -> None:
    """Babel's extractors lose a message in some constructions (a keyword's own name among the
    arguments); every literal message must be in what they extract, or the catalog test could not
    see it."""
    ids = {msgid for _context, msgid in extracted()}
    assert literal_messages() - ids == set()
    assert len(literal_messages()) > 300


def test_the_extraction_finds_the_words_of_every_kind_of_file() -> None:
    where = {path.split(":")[0].rsplit(".", 1)[-1] for places in extracted().values() for path in places}
    assert where == {"py", "html", "js"}
    assert (None, "Main pot") in extracted() and (None, "Two pair, {ranks} and {ranks2}") in extracted()


@pytest.mark.parametrize("language", OTHER)
def test_every_message_has_a_translation(language: str) -> None:
    """Fails on any user-facing string without a translation: every message extracted from the
    code, the templates and the scripts has a non-empty, non-fuzzy translation in the catalog."""
    catalog = read_catalog(language)
    missing = []
    for (context, msgid), places in sorted(extracted().items(), key=str):
        message = catalog.get(msgid, context=context)
        strings = (message.string if isinstance(message.string, tuple) else (message.string,)) if message else ()
        if message is None or message.fuzzy or not strings or not all(strings):
            missing.append(f"{msgid!r} ({places[0]})")
    assert not missing, (
        f"{len(missing)} messages without a {language} translation (pybabel update, then translate):\n"
        + "\n".join(missing)
    )


@pytest.mark.parametrize("language", OTHER)
def test_translations_keep_the_fields_of_their_message(language: str) -> None:
    """A translation fills the same ``{fields}`` (or ``%(fields)s``) as its message, so nothing is
    lost or left unfilled. Where the words give a second form of a field (a rank's plural after
    "of", ``of_ranks``; a suit in the singular, ``suit``), a translation may use that one instead;
    a singular may leave ``{n}`` out where its language writes the count."""
    fields = re.compile(r"\{(\w+)\}|%\((\w+)\)s")
    second_form = {"ranks": "of_ranks", "suits": "suit"}
    wrong = []
    for message in read_catalog(language):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = {a or b for msgid in ids for a, b in fields.findall(msgid)}
        for text in strings:
            got = {a or b for a, b in fields.findall(text)}
            allowed = wanted | {second_form[f] for f in wanted if f in second_form}
            lost = {f for f in wanted - got if second_form.get(f) not in got} - ({"n"} if len(ids) > 1 else set())
            if not got <= allowed or lost:
                wrong.append((message.id, text))
            string.Formatter().parse(text)  # no stray brace
    assert not wrong


CODE_NAMES = (
    {name for name in dir(builtins) if name[0].islower() and callable(getattr(builtins, name))}
    | {name for kind in (str, bytes, list, tuple, dict, set, int, float, np.ndarray) for name in dir(kind)}
    | {name for module in (table.phrases, table.wording) for name in dir(module) if callable(getattr(module, name))}
    | {"describe"}
) - {"count", "index", "item", "items", "values", "size", "shape", "split", "data", "dtype", "open", "seats",
     "seat_numbers"}  # fmt: skip
"""Names of Python builtins, of methods (``tolist``, ``join``) and of the phrase helpers (``listed``,
``counted``, ``describe``), which say how a figure was computed, not what it is; less the nouns
among them that do say what a figure is (a ``count``, an ``index``, the ``values`` of a set)."""


def code_named_fields(message: str) -> set[str]:
    """The ``{fields}`` of ``message`` named after code (a trailing number too: ``{int2}``)."""
    fields = {a or b for a, b in re.findall(r"\{(\w+)\}|%\((\w+)\)s", message)}
    return {field for field in fields if field.rstrip(string.digits) in CODE_NAMES}


@pytest.mark.parametrize(
    ("message", "named"),
    [("got {int}..{int2}", {"int", "int2"}), ("{name} must be true or false, got {getattr}", {"getattr"}),
     ("row {row} repeats a card ({tolist})", {"tolist"}), ("use one of {join} or %(sorted)s", {"join", "sorted"}),
     ("{action} to {amount}: {describe}", {"describe"}), ("give at most {counted}", {"counted"}),
     ("{count} of {values}, card {index}", set())],
)  # fmt: skip
def test_fields_named_after_code_are_found(message: str, named: set[str]) -> None:
    assert code_named_fields(message) == named


def test_every_field_says_what_its_figure_is() -> None:
    """A translator reads a message's fields as the only hint of what fills them: each field names
    the figure (``{lowest}``, ``{jokers_in_row}``, ``{allowed}``), never the code that made it."""
    named = {msgid: code_named_fields(msgid) for _context, msgid in extracted()}
    assert {msgid: fields for msgid, fields in named.items() if fields} == {}


def test_the_catalog_compiles_with_its_plural_rule() -> None:
    catalog = read_catalog("fr")
    assert catalog.num_plurals == 2 and catalog.plural_expr == "(n > 1)"
    write_mo(__import__("io").BytesIO(), catalog)
    assert FR.ngettext("{n} side pot", "{n} side pots", 1) == "1 pot annexe"
    assert FR.ngettext("{n} side pot", "{n} side pots", 0) == "0 pot annexe"  # French: 0 is singular
    assert FR.ngettext("{n} side pot", "{n} side pots", 2) == "2 pots annexes"
    assert EN.ngettext("{n} side pot", "{n} side pots", 0) == "0 side pots"


@pytest.mark.parametrize(
    ("cards", "english", "french"),
    [
        ("As Ad 8c 8h Kd", "Two pair, aces and eights", "Double paire, as et huit"),
        ("Ks Kd Kc 7h 7d", "Full house, kings full of sevens", "Full aux rois par les sept"),
        ("Qs Qd Qc 7h 2d", "Three of a kind, queens", "Brelan de dames"),
        ("As Ad Ac Ah 2d", "Four of a kind, aces", "Carré d’as"),
        ("Js Jd 9c 7h 2d", "Pair of jacks", "Paire de valets"),
        ("Ah Kh Qh Jh Th", "Royal flush", "Quinte flush royale"),
        ("9h 8h 7h 6h 5h", "Straight flush, nine high", "Quinte flush hauteur neuf"),
        ("Kh 9h 7h 4h 2h", "Flush, king high", "Couleur hauteur roi"),
        ("5s 4h 3d 2c Ad", "Straight, five high", "Quinte hauteur cinq"),
        ("Ks 9h 7d 4c 2h", "High card, king", "Hauteur roi"),
    ],
)
def test_hands_are_named_with_the_games_words(cards: str, english: str, french: str) -> None:
    key = evaluate(cards.split()).key
    assert hand_name(EN, key) == english == evaluate(cards.split()).describe()
    assert hand_name(FR, key) == french


def test_draw_hands_with_jokers_and_wild_cards() -> None:
    joker = evaluate_draw("Kh Kd Ks Kc Jk")
    assert draw_hand_name(EN, joker) == joker.describe() == "Five of a kind, kings (with a joker)"
    assert draw_hand_name(FR, joker) == "Poker de rois (avec le Fou)"
    wild = evaluate_draw("3h 3d Ah Kd 7c", wild_rank="3")
    assert draw_hand_name(EN, wild) == wild.describe()
    assert draw_hand_name(FR, wild).endswith("(avec 2 cartes frimées)")


def test_the_lens_teaches_in_french() -> None:
    """The issue's own examples: a made hand, and a flush a seat can still make."""
    view = showdown(["Ah Ad", "8h 8d"], "As Ac 2d 3h 9s").to_json()
    assert seat_sentences(FR, view, 0)[0] == "Siège 1 montre l’as de cœur et l’as de carreau\xa0: un carré d’as."
    drawing = lens([["c:small", "d:medium"], ["s:ace", "c:large"], ["h:large", "h:large"]],
                   ["h:small", "h:small", "h:medium", "d:small", "s:large"], seed=1).to_json()  # fmt: skip
    said = view_words(FR, drawing)
    third = said["seats"][2]
    assert third["explanation"][0] == (
        "Siège 3 montre deux grands cœurs et les cartes communes comptent trois cœurs\xa0: une couleur est possible."
    )
    assert third["best_example"] == "une couleur à cœur" and third["best"] == "Couleur"
    assert said["board_words"].startswith("Les cartes communes\xa0: cinq cartes face cachée\xa0: un petit cœur")
    assert said["summary"].startswith("D’après ce que la table voit, Siège 3 mène avec environ 97\u202f%")
    for seat in said["seats"]:
        if seat["best_key"]:
            assert seat["best_hand"] == hand_name(FR, seat["best_key"]) != hand_name(EN, seat["best_key"])
    english = view_words(EN, drawing)["seats"][2]
    assert english["best_example"] == "a flush in hearts" and english["best"] == "Flush"


@pytest.mark.parametrize(
    ("header", "default", "expected"),
    [
        ("fr-FR,fr;q=0.9,en;q=0.8", "en", "fr"),
        ("en-GB,en;q=0.9,fr;q=0.8", "fr", "en"),
        ("de-CH, fr;q=0.4, en;q=0.3", "en", "fr"),  # the best the pages speak
        ("de, it", "fr", "fr"),  # none spoken: the host's default
        ("fr;q=0, en", "fr", "en"),  # q=0: not wanted
        ("", "fr", "fr"),
        (None, "en", "en"),
        ("fr_CA", "en", "fr"),
        ("fr;q=nonsense, en;q=0.5", "en", "en"),
    ],
)
def test_accept_language_picks_the_best_spoken_language(header: str | None, default: str, expected: str) -> None:
    assert pick_language(header, default=default) == expected
    assert pick_language(header, default=default, chosen="en") == "en"  # the switch wins
    assert pick_language(header, default=default, chosen="xx") == expected  # an unknown choice is ignored


def test_numbers_are_written_as_each_language_writes_them() -> None:
    assert FR.number(1000) == "1\u202f000" and EN.number(1000) == "1,000"
    assert FR.number(1234567) == "1\u202f234\u202f567" and EN.number(-2500) == "-2,500"
    assert FR.percent(0.41) == "41\u202f%" and EN.percent(0.41) == "41%"
    assert FR.for_scripts()["group"] == "\u202f" and EN.for_scripts()["group"] == ","
    assert FR.for_scripts()["plurals"][:3] == [0, 0, 1] and EN.for_scripts()["plurals"][:3] == [1, 0, 1]


def test_warnings_speak_the_phones_language() -> None:
    peek = {"kind": "peek", "message": "seat 3: a card lies face up; turn it down", "seat": 2}
    assert say_warning(EN, peek) is peek
    assert say_warning(FR, peek)["message"].startswith("Siège 3\xa0: une carte est face visible")
    refused = say_warning(FR, {"kind": "rejected", "message": "seat 2 cannot check", "seat": None})
    assert refused["message"] == "Refusé\xa0: seat 2 cannot check"  # the engine's detail stays as it was said
    unknown = {"kind": "something-new", "message": "as said", "seat": None}
    assert say_warning(FR, unknown) == unknown


def test_an_unknown_language_is_refused_with_the_allowed_ones(tmp_path: Path) -> None:
    path = tmp_path / "tocktable.toml"
    path.write_text('[web]\nlanguage = "de"\n')
    with pytest.raises(ConfigError, match=r"web\.language = 'de' is not allowed: choose one of en, fr"):
        load_config(path)
    path.write_text('[web]\nlanguage = "fr"\n')
    assert load_config(path).web.language == "fr"
    with pytest.raises(LanguageError, match="choose one of en, fr"):
        words_for("xx")


# ------------------------------------------------------------------------ the pages
def page_language(html: str) -> str:
    found = re.search(r'<html lang="(\w+)">', html)
    assert found
    return found.group(1)


def test_each_phone_reads_its_browsers_language(client: Any) -> None:
    english = client.get("/", headers={"Accept-Language": "en-US,en;q=0.9"}).get_data(as_text=True)
    french = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).get_data(as_text=True)
    assert page_language(english) == "en" and "Last hands" in english and "Dernières mains" not in english
    assert page_language(french) == "fr" and "Dernières mains" in french and "Last hands" not in french
    assert '"group": "\u202f"' in french and '"language": "fr"' in french  # what the scripts write numbers with


def test_the_switch_is_remembered_in_a_cookie(client: Any) -> None:
    response = client.get("/language/fr?next=/admin", headers={"Accept-Language": "en"})
    assert response.status_code == 303 and response.headers["Location"].endswith("/admin")
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=fr;") and "Max-Age=31536000" in cookie and "SameSite=Strict" in cookie
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert page_language(page) == "fr"  # the choice beats the browser
    for code in languages():  # the switch on the page links every language, back to this page
        assert f'href="/language/{code}?next=/"' in page
    client.get("/language/en")
    assert page_language(client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)) == "en"


def test_the_switch_goes_back_only_to_this_server(client: Any) -> None:
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example"):
        response = client.get("/language/fr", query_string={"next": target})
        assert response.status_code == 303 and response.headers["Location"] in ("/", "http://localhost/")
    missing = client.get("/language/xx")
    assert missing.status_code == 404 and missing.get_json()["error"] == "no language 'xx': choose one of en, fr"


def test_the_hosts_default_and_the_demos_language(service: Any, tmp_path: Path) -> None:
    from web import create_app

    config = replace(Config(), data_dir=tmp_path)
    french = create_app(
        replace(config, web=replace(config.web, language="fr")), service, admin_pin="1234"
    ).test_client()
    assert page_language(french.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)) == "fr"
    assert page_language(french.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)) == "en"
    forced = create_app(config, service, admin_pin="1234", language="fr").test_client()
    assert page_language(forced.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)) == "fr"
    forced.get("/language/en")
    assert page_language(forced.get("/").get_data(as_text=True)) == "en"  # the switch still wins
    with pytest.raises(LanguageError):
        create_app(config, service, admin_pin="1234", language="xx")


def test_the_state_names_hands_in_the_phones_language(service: Any, tmp_path: Path) -> None:
    app = make_app(service, tmp_path)
    play(service, DEMO_HAND)
    client = app.test_client()
    english = client.get("/api/state", headers={"Accept-Language": "en"}).get_json()
    french = client.get("/api/state", headers={"Accept-Language": "fr"}).get_json()
    assert {s["hand"] for s in english["seats"] if s.get("hand")} >= {"Three of a kind, kings"}
    assert {s["hand"] for s in french["seats"] if s.get("hand")} >= {"Brelan de rois"}
    winners = [w["hand"] for w in french["last_hand"]["winners"]]
    assert "Brelan de rois" in winners
    history = client.get("/api/history", headers={"Accept-Language": "fr"}).get_json()
    assert "Brelan de rois" in {w["hand"] for h in history["hands"] for w in h["winners"]}


def test_an_install_carries_every_catalog() -> None:
    """A wheel (the Pi's plain install) holds the files ``[tool.setuptools.package-data]`` names:
    every catalog must be among them, since they are read from their ``.po`` at start-up."""
    import tomllib

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["web"]
    shipped = {path for pattern in patterns for path in (ROOT / "web").glob(pattern)}
    catalogs = set((ROOT / "web" / "translations").glob("*/LC_MESSAGES/messages.po"))
    assert catalogs and catalogs <= shipped


def test_the_lens_is_said_once_per_document_and_language() -> None:
    from dataclasses import dataclass

    from web.lens_texts import LensTexts

    @dataclass
    class Published:
        version: int
        json: str

        def to_dict(self) -> dict[str, Any]:
            return dict(__import__("json").loads(self.json))

    view = showdown(["Ah Ad", "Kh Qh"], "As 9h Th 2d 3h").to_json()
    doc = Published(3, __import__("json").dumps({"version": 3, "note": "", "lens": view, "history": None}))
    texts = LensTexts()
    french, english = texts.text(doc, FR), texts.text(doc, EN)
    assert texts.text(doc, FR) is french and texts.text(doc, EN) is english  # the same text for every phone
    said = __import__("json").loads(french)["lens"]["seats"][0]["explanation"][0]
    assert said.endswith("un brelan d’as.") and "three of a kind, aces" in english
    assert texts.text(Published(3, doc.json), FR) is not french  # another document: worked out again


def test_a_refused_login_is_said_in_french_and_switches_back_to_a_page(client: Any) -> None:
    page = client.get("/admin", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token
    refused = client.post("/admin/login", data={"pin": "000000", "csrf_token": token.group(1)},
                          headers={"Accept-Language": "fr"})  # fmt: skip
    html = refused.get_data(as_text=True)
    assert refused.status_code == 401 and "code PIN faux" in html and page_language(html) == "fr"
    assert 'href="/language/en?next=/"' in html  # not back to /admin/login, which answers only a POST


@pytest.mark.parametrize(
    ("cards", "rule", "french"),
    [
        ("5h 4d 3c 2s Ah", "ace-to-five", "Cinq-quatre bas (5-4-3-2-A)"),
        ("7h 5h 4h 3h 2h", "deuce-to-seven", "Couleur, sept-cinq bas (7-5-4-3-2)"),
        ("Kh Kd 4c 3s 2h", "ace-to-five", "Paire de rois (K-K-4-3-2)"),
        ("5h 4d 3c 2s Jk", "ace-to-five", "Cinq-quatre bas (5-4-3-2-A) (avec le Fou)"),
    ],
)
def test_petite_misere_hands_are_named_as_the_evaluator_names_them(cards: str, rule: str, french: str) -> None:
    from table.draw import evaluate_low

    value = evaluate_low(cards, rule=rule)
    assert draw_hand_name(EN, value) == value.describe()
    assert draw_hand_name(FR, value) == french
