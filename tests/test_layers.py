"""One-way layers: the import graph of kit, preparers, verifiers, workflows and forge has no cycle, and imports
only go down the folder order kit < preparers < verifiers < workflows < forge (forge.cli on top); within
verifiers/, the readers (verifiers/readers/) sit below the checks that judge what they read.

The graph is read from the source with `ast`, so it sees every import a module can run: module level, inside
functions (a function-level import that closes a cycle is still a cycle, only a hidden one) and under
`if TYPE_CHECKING:` (a type-only import upward still ties a lower layer to a higher one). `from x import y` counts
as an import of the module `x.y` when there is one, else of `x`.

Families are not imported statically by anything below them: the kernel finds them by package name
(`kit.registry.families()` imports `workflows` with importlib), which is the plug-in boundary.

A second rule keeps the database behind the catalog: outside `CATALOG`, no module imports SQLAlchemy or Alembic
or opens a catalog's session or engine.
"""

from __future__ import annotations

import ast
import fnmatch
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("kit", "preparers", "verifiers", "workflows", "forge")

#: The layer order, lowest first: a module may import modules of its own layer and of the layers before it.
#: The folders are the layers (folder order = import order), so the question "may a family import this?" is
#: answered by where the module lives: anything in kit/, preparers/ and verifiers/, nothing in forge/.
#: A module belongs to the layer of its longest matching pattern (fnmatch on the dotted name).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # kit/: what every layer builds on (errors, ids, value objects, the DAG and family kit, axes, the registry,
    # bounded readers, the sandbox, packages on disk, the taxonomy's data, the LLM interface)
    ("kernel", ("kit", "kit.*")),
    # preparers/: pure builders, spec -> bytes, and the ops that edit files
    ("preparers", ("preparers", "preparers.*")),
    # verifiers/readers/: one reader per file kind (parsing, caching, bounds), below the checks that only judge
    # what it reads: a reader imports no check (OSWorld keeps its getters apart from its metrics the same way)
    ("readers", ("verifiers.readers", "verifiers.readers.*")),
    # verifiers/: the vocabulary authors extend (checks, mutants, lexicon, grounding)
    ("verifiers", ("verifiers", "verifiers.*")),
    # workflows/: one family per module, each app's kit beside them
    ("workflows", ("workflows", "workflows.*")),
    # verifiers/gate/: the gate, which runs what families declare; no family imports it
    ("gate", ("verifiers.gate", "verifiers.gate.*")),
    # forge/: what drives them: generation, the catalog, LLM backends, flows, rounds, exports, the real-app tier
    ("application", ("forge", "forge.*")),
    # the command line, above everything it drives (nothing imports it)
    ("interface", ("forge.cli", "forge.cli.*", "forge.__main__")),
)

#: The catalog: the only modules that talk to the database (SQLAlchemy, Alembic); everything else asks a `Catalog`
#: method. `forge sql` runs a user's read-only statement through `Catalog.run_sql` (forge.sqlquery) by design.
CATALOG = ("forge.tables", "forge.database", "forge.catalog", "forge.stats", "forge.sqlquery", "forge.migrations",
           "forge.migrations.*")

#: Imports that break the layer order on purpose, each with its reason: (importer, imported) -> why.
KNOWN_UPWARD: dict[tuple[str, str], str] = {}


def module_names(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of `packages` under `root`: dotted name -> file (a package is its __init__.py)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _resolve(name: str, known: Mapping[str, Path]) -> str | None:
    """The module `name` names, or the nearest enclosing module when `name` is an attribute; None if foreign."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The modules of `known` that `module` (at `path`) imports anywhere in its body."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package, up `level - 1` more
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        found.update(t for t in (_resolve(name, known) for name in targets) if t is not None and t != module)
    return found


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    known = module_names(root, packages)
    return {name: imports_of(name, path, known) for name, path in known.items()}


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in graph:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def shortest_cycle(graph: Mapping[str, set[str]], component: Sequence[str]) -> list[str]:
    """A shortest import chain from the component's first module back to itself (breadth first): the path to show,
    since a component lists every module that takes part but not how they import each other."""
    start, members = component[0], set(component)
    paths = {start: [start]}
    queue = [start]
    for node in queue:
        for nxt in sorted(graph[node] & members):
            if nxt == start:
                return [*paths[node], start]
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                queue.append(nxt)
    return [*component, start]  # unreachable for a strongly connected component


def layer_of(module: str, layers: Sequence[tuple[str, Sequence[str]]]) -> int:
    """The rank of the layer whose longest matching pattern is the longest (`forge.cli.*` beats `forge.*`)."""
    matches = [(len(pattern), rank) for rank, (_, patterns) in enumerate(layers) for pattern in patterns
               if fnmatch.fnmatchcase(module, pattern)]
    if not matches:
        raise LookupError(f"{module} is in no layer; add a pattern for it to LAYERS in tests/test_layers.py")
    return max(matches)[1]


def upward_imports(graph: Mapping[str, set[str]], layers: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """Every import from a lower layer to a higher one, as 'importer (layer) -> imported (layer)'."""
    names = [name for name, _ in layers]
    found = []
    for module, targets in sorted(graph.items()):
        mine = layer_of(module, layers)
        for target in sorted(targets):
            theirs = layer_of(target, layers)
            if theirs > mine:
                found.append(f"{module} ({names[mine]}) -> {target} ({names[theirs]})")
    return found


def problems(root: Path, packages: Sequence[str], layers: Sequence[tuple[str, Sequence[str]]],
             known_upward: Mapping[tuple[str, str], str] = MappingProxyType({})) -> list[str]:
    """Everything that breaks the one-way rule, one line each: import cycles (within a package or across
    packages) and imports up the layer order (unless listed in `known_upward`)."""
    graph = import_graph(root, packages)
    found = [f"import cycle: {' -> '.join(shortest_cycle(graph, c))}"
             + (f" (and {len(c) - len(shortest_cycle(graph, c)) + 1} more modules tied in)" if len(c) > 2 else "")
             for c in cycles(graph)]
    for line in upward_imports(graph, layers):
        importer, imported = (part.split(" (")[0] for part in line.split(" -> "))
        if (importer, imported) not in known_upward:
            found.append(f"upward import: {line}")
    return found


def database_access(path: Path) -> list[str]:
    """Where a module talks to the database itself: an import of SQLAlchemy or Alembic, a `.session()` call, or a
    catalog's `.engine`, as 'line N: what'."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
        found += [f"line {getattr(node, 'lineno', 0)}: imports {n}" for n in names
                  if n.split(".")[0] in ("sqlalchemy", "alembic")]
        if isinstance(node, ast.Attribute) and node.attr in ("session", "engine") \
                and "catalog" in ast.unparse(node.value).lower():
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


# ---- the checks on Forge itself ----


def test_forge_imports_are_one_way() -> None:
    """No cycle among the modules of kit, preparers, verifiers, workflows and forge (function-level imports
    included), and no import up the layer order. To fix a finding, move the code to the layer where it belongs (a
    check primitive to verifiers, a query to the catalog, a shared helper down to kit/): a function-level import
    does not fix a cycle, it hides it."""
    assert problems(ROOT, PACKAGES, LAYERS, KNOWN_UPWARD) == []


def database_problems(root: Path, packages: Sequence[str], catalog: Sequence[str]) -> dict[str, list[str]]:
    """Modules outside `catalog` (fnmatch patterns) that talk to the database themselves, with where."""
    found = {module: database_access(path) for module, path in module_names(root, packages).items()
             if not any(fnmatch.fnmatchcase(module, p) for p in catalog)}
    return {module: lines for module, lines in found.items() if lines}


def test_database_access_goes_through_the_catalog() -> None:
    """Queries live in the catalog's modules (forge/catalog.py and below), so a schema change is made in one
    place and every query is tested on SQLite and PostgreSQL there. To fix a finding, add a `Catalog` method
    named for the question the module asks (one transaction per method) and call it."""
    assert database_problems(ROOT, ["forge"], CATALOG) == {}


def test_every_module_has_a_layer() -> None:
    for module in import_graph(ROOT, PACKAGES):
        layer_of(module, LAYERS)


def test_known_exceptions_are_still_needed() -> None:
    """An exception that no longer occurs leaves KNOWN_UPWARD, so the list only shrinks."""
    graph = import_graph(ROOT, PACKAGES)
    assert [pair for pair in KNOWN_UPWARD if pair[1] not in graph.get(pair[0], set())] == []


# ---- the checker itself, on tiny synthetic packages: it must be able to fail ----


def _package(root: Path, files: Mapping[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_cycle_hidden_in_a_function_is_found(tmp_path: Path) -> None:
    root = _package(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": "from pkg import b\n",
                               "pkg/b.py": "def f():\n    from pkg.a import thing\n    return thing\n"})
    assert problems(root, ["pkg"], [("all", ("pkg", "pkg.*"))]) == ["import cycle: pkg.a -> pkg.b -> pkg.a"]


def test_relative_and_type_checking_imports_count(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "pkg/__init__.py": "", "pkg/sub/__init__.py": "",
        "pkg/sub/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..c import C\n",
        "pkg/c.py": "from .sub import a\nimport os.path\n"})
    graph = import_graph(root, ["pkg"])
    assert graph["pkg.sub.a"] == {"pkg.c"}
    assert graph["pkg.c"] == {"pkg.sub.a"}  # `from .sub import a` names the module pkg.sub.a; os is foreign
    assert cycles(graph) == [["pkg.c", "pkg.sub.a"]]


def test_an_import_up_the_layers_is_found(tmp_path: Path) -> None:
    root = _package(tmp_path, {"low/__init__.py": "", "low/core.py": "def f():\n    import high.app\n",
                               "high/__init__.py": "", "high/app.py": "X = 1\n"})
    layers = [("low", ("low", "low.*")), ("high", ("high", "high.*"))]
    assert problems(root, ["low", "high"], layers) == ["upward import: low.core (low) -> high.app (high)"]
    assert problems(root, ["low", "high"], layers, {("low.core", "high.app"): "a reason"}) == []


def test_a_query_outside_the_catalog_is_found(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "app/__init__.py": "", "app/catalog.py": "from sqlalchemy import select\n",
        "app/loop.py": "def f(catalog):\n    with catalog.session() as s:\n        return s\n",
        "app/raw.py": "def g(my_catalog):\n    from sqlalchemy.orm import Session\n    return my_catalog.engine\n",
        "app/fine.py": "def h(catalog):\n    return catalog.skill_ids()\n"})
    assert database_problems(root, ["app"], ["app.catalog"]) == {
        "app.loop": ["line 2: catalog.session"],
        "app.raw": ["line 2: imports sqlalchemy.orm", "line 3: my_catalog.engine"]}


def test_the_most_specific_pattern_decides_the_layer() -> None:
    names = [name for name, _ in LAYERS]
    assert [names[layer_of(m, LAYERS)] for m in ("kit.dag", "forge.generate", "forge.cli.db", "workflows.calc",
                                                   "verifiers.checks.docx", "verifiers.readers.docx",
                                                   "verifiers.gate.controls")] \
        == ["kernel", "application", "interface", "workflows", "verifiers", "readers", "gate"]
