"""The import graph read from the code: no cycle beyond the ones allowed for now, every import
inside a function explained, the picture in docs/architecture.md drawn from the code as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import import_graph
from tools.import_graph import Import, check, cycles, graph_of, picture, read_imports, unexplained, with_picture


def test_no_cycle_but_the_allowed_ones_and_no_stale_entry() -> None:
    report = check(read_imports(), unexplained())
    assert report.ok, "\n".join(report.lines())


def test_every_allowed_entry_says_why() -> None:
    entries = {**import_graph.KNOWN_MODULE_ARROWS, **import_graph.KNOWN_PACKAGE_ARROWS, **import_graph.KNOWN_COPIES}
    reasons = [*entries.values(), *import_graph.KNOWN_UNEXPLAINED.values()]
    assert all(len(reason.split()) >= 6 for reason in reasons), [r for r in reasons if len(r.split()) < 6]


def test_the_picture_in_the_docs_is_the_code_s() -> None:
    document = import_graph.DOC.read_text(encoding="utf-8")
    assert document.startswith("# "), "docs/architecture.md opens with its title"
    assert document.split("\n", 2)[2].startswith(import_graph.BEGIN), "then with the picture"
    assert with_picture(document, picture(read_imports())) == document, "run python -m tools.import_graph --write"


def _project(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_imports_are_read_wherever_they_sit(tmp_path: Path) -> None:
    root = _project(tmp_path, {
        "low/__init__.py": "from low.a import A\n",
        "low/a.py": "A = 1\n",
        "low/b.py": "from . import a\nfrom .a import A\nimport low.a as alias\n",
        "high/__init__.py": "",
        "high/c.py": (
            "from typing import TYPE_CHECKING\nimport json\nfrom low import A\n"
            "if TYPE_CHECKING:\n    from low.b import x\n"
            "def f():\n    from low.a import A  # only when called\n    return A\n"
            "class K:\n    def g(self):\n        import high\n"
        ),
    })  # fmt: skip
    found = {(i.source, i.target, i.where) for i in read_imports(root, ("low", "high"))}
    assert found == {
        ("low", "low.a", "module"),
        ("low.b", "low.a", "module"),
        ("high.c", "low", "module"),
        ("high.c", "low.b", "typing"),
        ("high.c", "low.a", "function"),
        ("high.c", "high", "function"),
    }


def test_a_cycle_hidden_in_a_function_is_found_and_only_an_entry_allows_it(tmp_path: Path) -> None:
    root = _project(tmp_path, {
        "low/__init__.py": "",
        "low/a.py": "def f():\n    from high.b import g\n    return g\n",
        "high/__init__.py": "",
        "high/b.py": "from low.a import f\ng = f\n",
    })  # fmt: skip
    imports = read_imports(root, ("low", "high"))
    hidden = unexplained(root, ("low", "high"))
    assert [str(i) for i in hidden] == ["low.a:2 → high.b (function)"]
    report = check(imports, hidden, module_arrows={}, package_arrows_allowed={}, unexplained_allowed={}, copies={})
    assert report.module_cycles == [["high.b", "low.a"]] and report.package_cycles == [["high", "low"]]
    assert not report.ok
    allowed = check(
        imports, hidden, module_arrows={("low.a", "high.b"): "why"}, package_arrows_allowed={("low", "high"): "why"},
        unexplained_allowed={"low": "why"}, copies={},
    )  # fmt: skip
    assert allowed.ok, allowed.lines()


def test_an_entry_that_closes_no_cycle_is_stale(tmp_path: Path) -> None:
    files = {"low/__init__.py": "", "low/a.py": "", "high/__init__.py": "", "high/b.py": "import low.a\n"}
    root = _project(tmp_path, files)
    report = check(
        read_imports(root, ("low", "high")), [], module_arrows={("high.b", "low.a"): "why", ("low.a", "high.b"): "why"},
        package_arrows_allowed={}, unexplained_allowed={"high": "why"}, root=root,
        copies={("high.b.f", "low.a.g"): "why"},
    )  # fmt: skip
    assert report.stale == [
        "module arrow high.b → low.a: closes no cycle any more (remove the entry)",
        "module arrow low.a → high.b: no such import any more (remove the entry)",
        "copy high.b.f / low.a.g: high.b.f is gone (remove the entry)",
        "copy high.b.f / low.a.g: low.a.g is gone (remove the entry)",
        "unexplained imports allowed in high: there are none any more (remove the entry)",
    ]


@pytest.mark.parametrize("above", ["    # numpy is heavy\n", "    import os  # numpy is heavy\n    # and so on\n"])
def test_a_comment_above_a_block_of_imports_explains_them(tmp_path: Path, above: str) -> None:
    body = f"def f():\n{above}    import json\n\n    from low.a import A\n    from low.a import (\n        A,\n    )\n"
    root = _project(tmp_path, {"low/__init__.py": "", "low/a.py": "A = 1\n", "low/b.py": body})
    assert unexplained(root, ("low",)) == []
    bare = body.replace(above, "    x = 1\n")
    _project(tmp_path, {"low/b.py": bare})
    assert [i.line for i in unexplained(root, ("low",))] == [5, 6]


def test_a_module_may_give_one_reason_for_all_its_imports_inside_functions(tmp_path: Path) -> None:
    body = "def f():\n    from low.a import A\n    return A\n"
    root = _project(tmp_path, {"low/__init__.py": "", "low/a.py": "A = 1\n", "low/b.py": body})
    assert len(unexplained(root, ("low",))) == 1
    _project(tmp_path, {"low/b.py": f"{import_graph.MODULE_REASON} each command loads what it needs\n{body}"})
    assert unexplained(root, ("low",)) == []


def test_cycles_are_the_strongly_connected_parts() -> None:
    graph = graph_of([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e"), ("e", "d"), ("f", "f")])
    assert cycles(graph) == [["a", "b", "c"], ["d", "e"]]
    chain = graph_of((str(i), str(i + 1)) for i in range(5000))  # deep: no recursion limit
    assert cycles(chain) == [] and cycles({**chain, "5000": {"0"}}) == [sorted(chain)]


def test_an_import_names_where_it_is() -> None:
    assert str(Import("web.join", "web.security", 12, "module")) == "web.join:12 → web.security (module)"


def test_an_arrow_kept_to_a_sub_package_fails_on_any_module_reached_beyond_it(tmp_path: Path) -> None:
    root = _project(tmp_path, {
        "low/__init__.py": "",
        "low/draw/__init__.py": "",
        "low/draw/scene.py": "from low.errors import E\n",
        "low/errors.py": "E = 1\n",
        "low/read.py": "",
        "high/__init__.py": "",
        "high/camera.py": "def frame():\n    from low.draw.scene import E  # drawn when asked\n    return E\n",
    })  # fmt: skip
    through = {("high", "low"): ("low.draw", "low.errors")}
    assert import_graph.reached(read_imports(root, ("low", "high")), through) == []
    _project(tmp_path, {"low/draw/scene.py": "from low.errors import E\nfrom low import read\n"})
    found = import_graph.reached(read_imports(root, ("low", "high")), through)
    assert found == [
        "high reaches low.read (high.camera → low.draw.scene → low.read): high may import low only through "
        "low.draw, low.errors"
    ]
    report = check(read_imports(root, ("low", "high")), [], module_arrows={}, package_arrows_allowed={},
                   unexplained_allowed={}, copies={}, through=through, root=root)  # fmt: skip
    assert not report.ok and report.lines() == found


def test_hardware_reaches_vision_through_the_renderer_alone() -> None:
    imports = read_imports()
    landing = {i.target for i in imports if i.source.startswith("hardware.") and i.target.startswith("vision")}
    assert landing and all(target.startswith("vision.render.") for target in landing), landing
    assert import_graph.reached(imports) == []
