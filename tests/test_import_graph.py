"""The import graph of ``src/pitchcards`` (issue 28, item 3): no circles, no face in another face.

The graph is read from the source with :mod:`ast`, nothing is imported.  A module's *runtime*
imports are every ``import`` it can execute, at the top or inside a function (a lazy import is
still an arrow: it runs the other module's top level when it runs); imports under
``if TYPE_CHECKING:`` never run and are kept apart.  ``from package import name`` is an arrow to
the submodule when ``name`` is one, else to the package; the implicit import of a module's
parent packages is not an arrow (a package's ``__init__`` that re-exports its modules would
otherwise close a circle with each of them).

The layers (docs/design.md): the core (the engine, sessions, records, the neutral helpers such as
:mod:`pitchcards.argtypes` and :mod:`pitchcards.score_form`) imports no bot, face or client; the
faces (:data:`FACES`) import the core, the bots and the client but never one another; the
``pitch`` command (:mod:`pitchcards.cli`) composes the faces and nothing imports it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "pitchcards"

#: The faces: each shows or serves the game its own way and must not import another.
FACES = ("pitchcards.tui", "pitchcards.server", "pitchcards.envs", "pitchcards.bots.arena")
#: The ``pitch`` command: it wires the faces together, so it may import them all.
ENTRY = "pitchcards.cli"
#: Built on the bots: the analysis of a game (``pitch analyze``) weighs decisions with the
#: expert's machinery, and a tournament's boards are played by bots (``pitch tournament``), so
#: they sit above them; no face needs to import another to use them.
ON_THE_BOTS = ("pitchcards.analysis", "pitchcards.analysis_text", "pitchcards.tournament")
#: Above the core, besides the faces: the bots, what is built on them, and the Python client.
ABOVE_CORE = ("pitchcards.bots", *ON_THE_BOTS, "pitchcards.client", ENTRY, *FACES)
#: Circles that exist only under ``if TYPE_CHECKING:`` (they never run), each with its reason.
TYPING_ONLY_CIRCLES = {
    frozenset({"pitchcards.hand", "pitchcards.views"}):
        "views.view_of types its argument as the Hand that imports it to build views",
}


@dataclass(frozen=True)
class Arrow:
    """One import: ``source`` imports ``target`` at ``line``."""

    source: str
    target: str
    line: int
    typing_only: bool


def modules(src: Path = SRC) -> dict[str, tuple[Path, bool]]:
    """Every module of the package: dotted name -> (file, is a package)."""
    found = {}
    for path in sorted((src / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found[".".join(parts)] = (path, is_package)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _imported(node: ast.Import | ast.ImportFrom, name: str, is_package: bool,
              known: Mapping[str, object]) -> list[str]:
    """The modules one import statement of module ``name`` names."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = name.split(".") if is_package else name.split(".")[:-1]
        base = base[:len(base) - (node.level - 1)]
        origin = ".".join([*base, *([node.module] if node.module else [])])
    else:
        origin = node.module or ""
    return [f"{origin}.{a.name}" if f"{origin}.{a.name}" in known else origin
            for a in node.names]


def arrows(known: Mapping[str, tuple[Path, bool]]) -> list[Arrow]:
    """Every import from one module of the package to another."""
    out: list[Arrow] = []
    for name, (path, is_package) in known.items():
        def walk(node: ast.AST, typing_only: bool, name: str = name,
                 is_package: bool = is_package) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and _is_type_checking(child.test):
                    for stmt in child.body:
                        walk_one(stmt, True, name, is_package)
                    for stmt in child.orelse:
                        walk_one(stmt, typing_only, name, is_package)
                else:
                    walk_one(child, typing_only, name, is_package)

        def walk_one(node: ast.AST, typing_only: bool, name: str, is_package: bool) -> None:
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in dict.fromkeys(_imported(node, name, is_package, known)):
                    if target in known and target != name:
                        out.append(Arrow(name, target, node.lineno, typing_only))
            else:
                walk(node, typing_only, name, is_package)

        walk(ast.parse(path.read_text(encoding="utf-8")), False)
    return out


def circles(nodes: Iterable[str], edges: Iterable[Arrow]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    succ: dict[str, set[str]] = {n: set() for n in nodes}
    for e in edges:
        succ[e.source].add(e.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # recursion depth is bounded by the module count (~110)
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(succ[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(succ):
        if v not in index:
            visit(v)
    return found


def _within(module: str, prefixes: Iterable[str]) -> str | None:
    return next((p for p in prefixes if module == p or module.startswith(p + ".")), None)


def _describe(component: list[str], edges: Iterable[Arrow]) -> str:
    inside = set(component)
    return "; ".join(f"{e.source} -> {e.target} (line {e.line})" for e in edges
                     if e.source in inside and e.target in inside)


KNOWN = modules()
ARROWS = arrows(KNOWN)
RUNTIME = [a for a in ARROWS if not a.typing_only]


def test_the_graph_is_read() -> None:
    # The reader finds arrows we know are there, of both kinds, and resolves relative imports.
    pairs = {(a.source, a.target, a.typing_only) for a in ARROWS}
    assert ("pitchcards.table", "pitchcards.session", False) in pairs
    assert ("pitchcards.table", "pitchcards.bots.base", True) in pairs
    assert ("pitchcards.server.scores", "pitchcards.score_form", False) in pairs
    assert ("pitchcards.bots.sampler", "pitchcards.bots.hand_features", False) in pairs
    assert len(KNOWN) > 100 and len(RUNTIME) > 300


def test_the_circle_finder_finds_a_circle() -> None:
    edges = [Arrow("a", "b", 1, False), Arrow("b", "c", 2, False), Arrow("c", "a", 3, False),
             Arrow("c", "d", 4, False)]
    assert circles("abcd", edges) == [["a", "b", "c"]]
    assert circles("abcd", edges[1:]) == []


def test_no_import_circles_at_runtime() -> None:
    found = circles(KNOWN, RUNTIME)
    assert not found, "import circles: " + " | ".join(_describe(c, RUNTIME) for c in found)


def test_the_only_typing_circles_are_the_named_ones() -> None:
    found = {frozenset(c) for c in circles(KNOWN, ARROWS)}
    unnamed = [sorted(c) for c in found - set(TYPING_ONLY_CIRCLES)]
    assert not unnamed, ("new circles through `if TYPE_CHECKING:` imports (break them, or name "
                         "them in TYPING_ONLY_CIRCLES with the reason): "
                         + " | ".join(_describe(c, ARROWS) for c in unnamed))
    gone = [sorted(c) for c in set(TYPING_ONLY_CIRCLES) - found]
    assert not gone, f"circles named as allowed that no longer exist (remove them): {gone}"


def test_no_face_imports_another_face() -> None:
    crossing = [f"{a.source} -> {a.target} (line {a.line})" for a in RUNTIME
                if (face := _within(a.source, FACES)) is not None
                and _within(a.target, FACES) not in (None, face)]
    assert not crossing, "a face imports another face: " + "; ".join(crossing)


def test_nothing_imports_the_command() -> None:
    importers = [f"{a.source} (line {a.line})" for a in ARROWS if a.target == ENTRY]
    assert not importers, f"{ENTRY} is the entry point; imported by: {', '.join(importers)}"


def test_the_core_imports_nothing_above_it() -> None:
    upward = [f"{a.source} -> {a.target} (line {a.line})" for a in RUNTIME
              if _within(a.source, ABOVE_CORE) is None
              and _within(a.target, ABOVE_CORE) is not None]
    assert not upward, "the core imports a bot, face or client: " + "; ".join(upward)


def test_the_readme_layout_names_every_module() -> None:
    # Issue 28, item 6: the README's layout section lists every module of the package.
    readme = (SRC.parent / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("\n## Layout"):]
    layout = layout[:layout.find("\n## ", 1)] if "\n## " in layout[1:] else layout
    words = set("".join(c if c.isalnum() or c == "_" else " " for c in layout).split())
    missing = sorted(name for name, (path, is_package) in KNOWN.items()
                     if not is_package and "migrations" not in name.split(".")
                     and path.stem not in words)
    assert not missing, f"modules the README's Layout section does not list: {missing}"
