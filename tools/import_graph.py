"""The project's import graph, read from the source with ``ast``: its cycles and its picture.

Every ``import`` of a project module is an arrow from the importing module to the imported one,
wherever it sits: at module level, inside a function (run on first call) or under
``if TYPE_CHECKING:`` (read by the type checker alone). All three count, because an arrow is a
dependency whichever way it is loaded: an import moved into a function hides a cycle from the
interpreter, not from the design.

Two graphs come from the arrows:

- **modules**: ``web.join`` → ``web.security``; a cycle here is modules that each need the other.
- **packages**: the top-level packages (``tocktable`` → ``web``), each arrow with the number of
  imports behind it; a cycle here means no package can be understood (or tested) without the
  other.

``python -m tools.import_graph`` prints the package arrows, the cycles and the imports inside
functions; ``--write`` redraws the picture at the top of ``docs/architecture.md``, ``--check``
exits 1 if the picture is stale or a cycle is found that ``KNOWN`` does not allow (the test
suite runs the same check: ``tests/tools/test_import_graph.py``).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

ROOT = Path(__file__).resolve().parent.parent

# The project's packages, the lowest first: an arrow points to the left in this list. vision and
# hardware both stand on table; hardware reaches vision through its renderer alone (THROUGH).
PACKAGES = ("table", "vision", "hardware", "web", "tocktable", "bench", "tools")

Where = Literal["module", "function", "typing"]


@dataclass(frozen=True)
class Import:
    """One import of a project module: who imports what, on which line, and when it runs."""

    source: str
    target: str
    line: int
    where: Where

    @property
    def arrow(self) -> tuple[str, str]:
        return self.source, self.target

    def __str__(self) -> str:
        return f"{self.source}:{self.line} → {self.target} ({self.where})"


def package_of(module: str) -> str:
    """The top-level package a module belongs to (``web.join`` → ``web``)."""
    return module.split(".", 1)[0]


def find_modules(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, Path]:
    """Every module of the given packages under ``root``, by dotted name (a package is its ``__init__``)."""
    modules: dict[str, Path] = {}
    for package in packages:
        base = root / package
        if not (base / "__init__.py").is_file():
            continue
        for path in sorted(base.rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, where: Where) -> Iterator[tuple[ast.Import | ast.ImportFrom, Where]]:
    """Every import statement under ``node``, with when it runs."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, where
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield from _walk(child, "function")
        elif isinstance(child, ast.If) and where == "module" and _is_type_checking(child.test):
            for statement in child.body:
                yield from _walk(ast.Module(body=[statement], type_ignores=[]), "typing")
            for statement in child.orelse:
                yield from _walk(ast.Module(body=[statement], type_ignores=[]), "module")
        else:
            yield from _walk(child, where)


def _resolve(name: str, modules: Mapping[str, Path]) -> str | None:
    """The longest prefix of a dotted name that is a project module, if any."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imports_of(module: str, path: Path, modules: Mapping[str, Path]) -> list[Import]:
    """The project imports of one module, in the order they appear."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: list[Import] = []
    for statement, where in _walk(tree, "module"):
        targets: list[str | None] = []
        if isinstance(statement, ast.Import):
            targets = [_resolve(alias.name, modules) for alias in statement.names]
        else:
            base = statement.module or ""
            if statement.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (statement.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in statement.names:
                targets.append(_resolve(f"{base}.{alias.name}", modules) or _resolve(base, modules))
        for target in dict.fromkeys(targets):
            if target is not None and target != module:
                found.append(Import(module, target, statement.lineno, where))
    return found


def read_imports(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> list[Import]:
    """Every project import of every module of ``packages`` under ``root``."""
    modules = find_modules(root, packages)
    return [found for module, path in modules.items() for found in imports_of(module, path, modules)]


def graph_of(arrows: Iterable[tuple[str, str]]) -> dict[str, set[str]]:
    """Arrows as an adjacency mapping (self-arrows dropped)."""
    graph: dict[str, set[str]] = {}
    for source, target in arrows:
        graph.setdefault(source, set())
        graph.setdefault(target, set())
        if source != target:
            graph[source].add(target)
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts with more than one node, each sorted, in sorted order.

    Tarjan's algorithm, iterative, so deep graphs do not hit the recursion limit.
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = counter
                    counter += 1
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                part: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return sorted(found)


def package_arrows(imports: Iterable[Import]) -> Counter[tuple[str, str]]:
    """How many imports stand behind each arrow between two top-level packages."""
    return Counter(
        (package_of(found.source), package_of(found.target))
        for found in imports
        if package_of(found.source) != package_of(found.target)
    )


# ---------------------------------------------------------------------------- imports inside functions
def _import_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


MODULE_REASON = "# Imports inside functions:"


def unexplained(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> list[Import]:
    """The project imports inside functions that no comment explains.

    A comment explains an import when it sits on the import's line, or above it with only other
    imports and blank lines between (one comment may explain a block of imports). A module whose imports inside
    functions all have the same reason says it once, in a comment line of its own starting with
    :data:`MODULE_REASON` (a command line that loads each command's needs when it runs)."""
    modules = find_modules(root, packages)
    found: list[Import] = []
    for module, path in modules.items():
        inside = [i for i in imports_of(module, path, modules) if i.where == "function"]
        if not inside:
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        if any(line.startswith(MODULE_REASON) for line in lines):
            continue
        covered = _import_lines(ast.parse(text))
        for item in inside:
            number = item.line
            explained = "#" in lines[number - 1]
            number -= 1
            while not explained and number >= 1:
                line = lines[number - 1].strip()
                if line.startswith("#"):
                    explained = True
                elif line and number not in covered:
                    break
                number -= 1
            if not explained:
                found.append(item)
    return found


# ---------------------------------------------------------------------------- what may remain
# Each entry is one import that closes a cycle, allowed while the work named beside it is not
# done. The list only shrinks: the check fails on a cycle it does not name, and on an entry whose
# import is gone or no longer closes a cycle.
KNOWN_MODULE_ARROWS: dict[tuple[str, str], str] = {}

# The same for the arrows between packages.
KNOWN_PACKAGE_ARROWS: dict[tuple[str, str], str] = {}

# Modules or packages whose imports inside functions may go without a comment, with the reason.
KNOWN_UNEXPLAINED: dict[str, str] = {}


# Code kept twice because the import that would share it is not allowed yet: each pair of
# functions (module.function) with why and what removes the copy. The check fails once either
# function is gone, so the entry goes with the copy.
KNOWN_COPIES: dict[tuple[str, str], str] = {}


# Package arrows that may land in a few modules of the imported package only: what the importing
# package reaches there, directly or through the imports of what it imports, must lie under one of
# these prefixes. hardware's synthetic camera draws with the renderer, which needs the errors of
# vision and nothing of the reader (no model, no onnxruntime).
THROUGH: dict[tuple[str, str], tuple[str, ...]] = {("hardware", "vision"): ("vision.render", "vision.errors")}


def reached(imports: Iterable[Import], through: Mapping[tuple[str, str], tuple[str, ...]] = THROUGH) -> list[str]:
    """The modules a package reaches in another beyond the prefixes :data:`THROUGH` allows it,
    each with the chain of imports that leads there (empty when every arrow keeps to its own)."""
    imports = list(imports)
    graph = graph_of(found.arrow for found in imports)
    out = []
    for (source, target), prefixes in through.items():
        came_from: dict[str, str] = {}
        stack = []
        for found in imports:
            arrow = package_of(found.source), package_of(found.target)
            if arrow == (source, target) and found.target not in came_from:
                came_from[found.target] = found.source
                stack.append(found.target)
        while stack:
            module = stack.pop()
            for following in sorted(graph.get(module, set())):
                if package_of(following) == target and following not in came_from:
                    came_from[following] = module
                    stack.append(following)
        for module in sorted(came_from):
            if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
                continue
            chain = [module]
            while package_of(chain[-1]) == target:
                chain.append(came_from[chain[-1]])
            out.append(f"{source} reaches {module} ({' → '.join(reversed(chain))}): {source} may import "
                       f"{target} only through {', '.join(prefixes)}")  # fmt: skip
    return out


def defined(name: str, root: Path = ROOT) -> bool:
    """Whether ``module.function`` is defined at the top level of its module under ``root``."""
    module, _, function = name.rpartition(".")
    path = find_modules(root, (package_of(module),)).get(module)
    if path is None:
        return False
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(node, ast.FunctionDef) and node.name == function for node in tree.body)


@dataclass(frozen=True)
class Report:
    """What the check finds: problems to fix (empty when the import graph is in order)."""

    module_cycles: list[list[str]]
    package_cycles: list[list[str]]
    stale: list[str]
    unexplained: list[Import]
    reached: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.module_cycles or self.package_cycles or self.stale or self.unexplained or self.reached)

    def lines(self) -> list[str]:
        out = [f"module cycle (no allowed arrow breaks it): {' '.join(c)}" for c in self.module_cycles]
        out += [f"package cycle (no allowed arrow breaks it): {' '.join(c)}" for c in self.package_cycles]
        out += [f"stale entry: {entry}" for entry in self.stale]
        out += [f"import inside a function without a comment saying why: {i}" for i in self.unexplained]
        out += self.reached
        return out


def _stale(arrows: Iterable[tuple[str, str]], graph: Mapping[str, set[str]], what: str) -> list[str]:
    parts = {node: i for i, part in enumerate(cycles(graph)) for node in part}
    stale = []
    for source, target in arrows:
        if target not in graph.get(source, set()):
            stale.append(f"{what} {source} → {target}: no such import any more (remove the entry)")
        elif parts.get(source) is None or parts.get(source) != parts.get(target):
            stale.append(f"{what} {source} → {target}: closes no cycle any more (remove the entry)")
    return stale


def _allowed_by(module: str, allowed: Mapping[str, str]) -> str | None:
    """The entry of ``allowed`` naming ``module`` or a package holding it, if any."""
    parts = module.split(".")
    for length in range(len(parts), 0, -1):
        if ".".join(parts[:length]) in allowed:
            return ".".join(parts[:length])
    return None


def check(
    imports: list[Import],
    unexplained_imports: list[Import],
    *,
    module_arrows: Mapping[tuple[str, str], str] = KNOWN_MODULE_ARROWS,
    package_arrows_allowed: Mapping[tuple[str, str], str] = KNOWN_PACKAGE_ARROWS,
    unexplained_allowed: Mapping[str, str] = KNOWN_UNEXPLAINED,
    copies: Mapping[tuple[str, str], str] = KNOWN_COPIES,
    through: Mapping[tuple[str, str], tuple[str, ...]] = THROUGH,
    root: Path = ROOT,
) -> Report:
    """Cycles left once the allowed arrows are taken out, allowed arrows gone stale, the
    unexplained imports inside functions of modules (or packages) not allowed any, and modules
    reached beyond what :data:`THROUGH` allows."""
    modules = graph_of(found.arrow for found in imports)
    packages = graph_of(package_arrows(imports))
    kept_modules = graph_of(found.arrow for found in imports if found.arrow not in module_arrows)
    kept_packages = graph_of(arrow for arrow in package_arrows(imports) if arrow not in package_arrows_allowed)
    return Report(
        module_cycles=cycles(kept_modules),
        package_cycles=cycles(kept_packages),
        stale=_stale(module_arrows, modules, "module arrow")
        + _stale(package_arrows_allowed, packages, "package arrow")
        + [
            f"copy {first} / {second}: {name} is gone (remove the entry)"
            for first, second in copies
            for name in (first, second)
            if not defined(name, root)
        ]
        + [
            f"unexplained imports allowed in {name}: there are none any more (remove the entry)"
            for name in unexplained_allowed
            if not any(_allowed_by(found.source, {name: ""}) for found in unexplained_imports)
        ],
        unexplained=[found for found in unexplained_imports if _allowed_by(found.source, unexplained_allowed) is None],
        reached=reached(imports, through),
    )


# ---------------------------------------------------------------------------- the picture
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- import graph: drawn by `python -m tools.import_graph --write`; edit the code, not this block -->"
END = "<!-- end of the import graph -->"


UNDRAWN = ("bench", "tools")
"""Scripts above everything (they may import any package): left out of the picture, still checked."""


def picture(imports: list[Import]) -> str:
    """The package arrows as a Mermaid flowchart (GitHub draws it; it reads as text too), each
    arrow labelled with the kinds of imports behind it: module level, inside functions, for the
    type checker alone. An arrow allowed to close a cycle for now is dotted. No counts: the
    picture changes when an arrow or its kind does, not with every import added
    (``--check`` prints the counts)."""
    counts: dict[tuple[str, str], Counter[str]] = {}
    for found in imports:
        arrow = package_of(found.source), package_of(found.target)
        if arrow[0] != arrow[1] and arrow[0] not in UNDRAWN:
            counts.setdefault(arrow, Counter())[found.where] += 1
    lines = [BEGIN, "```mermaid", "flowchart TD"]
    present = {p for arrow in counts for p in arrow}
    lines += [f"    {p}[{p}/]" for p in PACKAGES if p in present]
    for (source, target), count in sorted(
        counts.items(), key=lambda item: (PACKAGES.index(item[0][0]), PACKAGES.index(item[0][1]))
    ):
        label = " + ".join(w for w in ("module", "function", "typing") if count[w])
        if (source, target) in THROUGH:
            label += f" · {THROUGH[source, target][0]} only"
        link = "-.->" if (source, target) in KNOWN_PACKAGE_ARROWS else "-->"
        lines.append(f"    {source} {link}|{label}| {target}")
    lines += [
        "```",
        "",
        "Each arrow is a package importing another: the imports at module level, inside functions "
        "(run on first call) and for the type checker alone (`bench/`, the benchmarks, may import any "
        "package and is left out). Dotted: an arrow that closes a cycle, allowed for now. "
        + " ".join(
            f"{source} → {target} lands in {' and '.join(f'`{p}`' for p in prefixes)} alone, and so does "
            f"all they import in {target} (`THROUGH`)."
            for (source, target), prefixes in THROUGH.items()
        ),
    ]
    left = [
        *(f"- package arrow {a} → {b}: {why}." for (a, b), why in KNOWN_PACKAGE_ARROWS.items()),
        *(f"- module arrow `{a}` → `{b}`: {why}." for (a, b), why in KNOWN_MODULE_ARROWS.items()),
        *(f"- `{a}` copies `{b}`: {why}." for (a, b), why in KNOWN_COPIES.items()),
    ]
    if left:
        lines += ["", "Left for now (`tools/import_graph.py` lists them; the test fails once one is gone):", "", *left]
    else:
        lines += ["", "There is no package cycle and no module cycle (`tests/tools/test_import_graph.py`)."]
    lines.append(END)
    return "\n".join(lines)


def with_picture(document: str, drawn: str) -> str:
    """``document`` with its picture block replaced by ``drawn`` (put after the title when missing)."""
    if BEGIN in document and END in document:
        head, rest = document.split(BEGIN, 1)
        return head + drawn + rest.split(END, 1)[1]
    title, _, rest = document.partition("\n")
    return f"{title}\n\n{drawn}\n{rest}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.import_graph", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--write", action="store_true", help="redraw the picture in docs/architecture.md")
    parser.add_argument("--check", action="store_true", help="exit 1 on a cycle, a stale entry or a stale picture")
    parser.add_argument("--inside", action="store_true", help="list every project import inside a function")
    options = parser.parse_args(argv)
    imports = read_imports()
    for (source, target), count in sorted(package_arrows(imports).items()):
        print(f"{source} → {target}: {count} imports")
    inside = [found for found in imports if found.where == "function"]
    print(f"{len(imports)} project imports, {len(inside)} of them inside functions")
    if options.inside:
        for found in inside:
            print(f"  {found}")
    report = check(imports, unexplained())
    for line in report.lines():
        print(line)
    drawn = picture(imports)
    document = DOC.read_text(encoding="utf-8")
    if options.write:
        DOC.write_text(with_picture(document, drawn), encoding="utf-8")
        print(f"wrote the picture into {DOC.relative_to(ROOT)}")
    elif with_picture(document, drawn) != document:
        print(f"the picture in {DOC.relative_to(ROOT)} is stale: run python -m tools.import_graph --write")
        if options.check:
            return 1
    return 1 if options.check and not report.ok else 0


if __name__ == "__main__":
    sys.exit(main())
