"""Every refusal a phone can show carries its words as a value (``table.phrases``): an English
template marked with ``N_`` and typed figures, never English text made up front. The modules
whose errors only the command line, the configuration file or the programming interface report
stay English and say so."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from table.errors import IllegalActionError, TocktableError, phrase_of
from table.phrases import N_, Chips, Counted, Listed, Phrase, Seat, Seats, Verbatim, Word, given, phrase_from_data

ROOT = Path(__file__).resolve().parents[2]
ENGLISH_ONLY = {
    "table/history.py": "hand history files (the export and import commands)",
    "table/steps.py": "the JSON command protocol of scripts",
    "table/session_log.py": "the session's log as stored and replayed",
    "table/lens.py": "the programming interface of the lens",
    "table/equity.py": "the programming interface of the equity calculator",
    "table/evaluate.py": "the programming interface of the evaluator",
    "table/evaluate_tables.py": "the evaluator's tables",
}
"""Modules of table/ whose errors reach no phone, and why."""
PHONE_FACING = sorted(
    {p.relative_to(ROOT).as_posix() for p in (ROOT / "table").rglob("*.py")} - set(ENGLISH_ONLY)
    | {"tocktable/game.py", "tocktable/service.py", "web/gameform.py", "web/names.py"}
)
MAKES_A_PHRASE = {"N_", "phrase_of", "Phrase"}
"""What the first argument of a refusal may be: a marked template, or a phrase made from one."""


def faults(path: str) -> list[str]:
    """Each ``raise SomeTocktableError(...)`` of ``path`` whose words are not a marked template
    (a literal, an f-string, a ``str()``, a concatenation...), and each figure given as bare text."""
    module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
    found = []
    for node in ast.walk(ast.parse((ROOT / path).read_text())):
        if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
            continue
        call = node.exc
        name = call.func.id if isinstance(call.func, ast.Name) else None
        error = getattr(module, name, None) if name else None
        if not (isinstance(error, type) and issubclass(error, TocktableError)) or not call.args:
            continue
        first = call.args[0]
        marked = isinstance(first, ast.Call) and isinstance(first.func, ast.Name) and first.func.id in MAKES_A_PHRASE
        if not marked:
            found.append(f"{path}:{node.lineno}: {ast.unparse(first)[:70]}")
        for keyword in call.keywords:
            if isinstance(keyword.value, ast.JoinedStr | ast.Constant) and isinstance(
                getattr(keyword.value, "value", ""), str
            ):
                found.append(f"{path}:{node.lineno}: figure {keyword.arg} is bare text")
    return found


def test_every_refusal_a_phone_can_show_is_a_marked_template_with_figures() -> None:
    """Fails on any ``raise SomeTocktableError("literal")`` or f-string in the rules, the game, the
    service and the host's form: the phone would read it in English whatever its language."""
    assert len(PHONE_FACING) > 30
    found = [fault for path in PHONE_FACING for fault in faults(path)]
    assert not found, "\n".join(found)


def test_the_check_finds_what_it_looks_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk above can fail: a literal, an f-string and a bare-text figure are each found."""
    package = tmp_path / "fakepkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "bad.py").write_text(
        "from table.errors import RulesError\nfrom table.phrases import N_\n"
        "def a(x):\n    raise RulesError('no')\n"
        "def b(x):\n    raise RulesError(f'no {x}')\n"
        "def c(x):\n    raise RulesError(N_('no {x}'), x=f'{x}')\n"
        "def d(x):\n    raise RulesError(N_('no {x}'), x=x)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    assert [f.split(": ", 1)[1] for f in faults("fakepkg/bad.py")] == [
        "'no'", "f'no {x}'", "figure x is bare text"
    ]  # fmt: skip


@pytest.mark.parametrize("path", sorted(ENGLISH_ONLY))
def test_the_modules_that_stay_english_say_so(path: str) -> None:
    docstring = ast.get_docstring(ast.parse((ROOT / path).read_text())) or ""
    assert "stay English" in docstring or "stays English" in docstring, path


def test_a_phrase_is_english_as_a_string_and_travels_as_data() -> None:
    phrase = Phrase(
        N_("seat {seat} cannot {action}: {reason}; allowed: {allowed}"),
        seat=Seat(3), action=Word("check", "action"),
        reason=Phrase(N_("there is a bet of {amount} to call"), amount=Chips(1500)),
        allowed=Listed([Word("fold", "action"), Counted(2, "{n} card", "{n} cards"), Seats([0, 1]), given("x")], "or"),
    )  # fmt: skip
    assert phrase.english() == (
        "seat 4 cannot check: there is a bet of 1500 to call; allowed: fold, 2 cards, seats 1 and 2 or 'x'"
    )
    assert phrase_from_data(phrase.to_data()) == phrase
    error = IllegalActionError(phrase)
    assert str(error) == phrase.english() and error.phrase == phrase and phrase_of(error) == phrase
    assert phrase_of(KeyError("k")) == Phrase("'k'")
    assert IllegalActionError("plain {braces} stay").phrase.english() == "plain {braces} stay"
    assert Seat.of("x") == Seat("'x'") and Verbatim("Ah Kd").english() == "Ah Kd"
