"""The package's layers: the core imports nothing outside it, and no two modules import each
other (directly or round a longer cycle). Read from the source, imports under TYPE_CHECKING
left out (they never run)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "ginrummy"

#: The core: the rules engine and what a game and a scorekeeper need, nothing that plays.
CORE = {
    "cards", "errors", "words", "rules", "melds", "discard_search", "actions", "events", "scoring", "observation", "layout",
    "hand", "game", "match", "dealing", "scoresheet", "multisheet", "record", "table",
}


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _runtime_imports(path: Path, name: str) -> set[str]:
    """Modules of the package that ``path`` imports when it runs (any depth of the tree)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for orelse in child.orelse:
                    visit(orelse)
                continue
            if isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package[: len(package) - child.level + 1]
                    mod = ".".join([*base, *(child.module.split(".") if child.module else [])])
                    targets = [mod] + [f"{mod}.{a.name}" if mod else a.name for a in child.names]
                else:
                    mod = child.module or ""
                    if not mod.startswith("ginrummy"):
                        continue
                    mod = mod.removeprefix("ginrummy").lstrip(".")
                    targets = [mod] + [f"{mod}.{a.name}" if mod else a.name for a in child.names]
                out.update(t for t in targets if t in MODULES)
            elif isinstance(child, ast.Import):
                for a in child.names:
                    if a.name.startswith("ginrummy."):
                        t = a.name.removeprefix("ginrummy.")
                        if t in MODULES:
                            out.add(t)
            visit(child)

    visit(tree)
    out.discard(name)
    return out


MODULES = {_module_name(p) for p in SRC.rglob("*.py")}
GRAPH = {_module_name(p): _runtime_imports(p, _module_name(p)) for p in SRC.rglob("*.py")}


def test_the_core_imports_only_the_core() -> None:
    for mod in sorted(CORE & MODULES):
        outside = {m for m in GRAPH[mod] if m.split(".")[0] not in CORE and m != ""}
        assert not outside, f"core module {mod} imports {sorted(outside)}"


def test_no_import_cycles() -> None:
    # Package __init__ files re-export their children; an edge into a package's own children is not a cycle.
    def edges(mod: str) -> set[str]:
        return {m for m in GRAPH.get(mod, set()) if m and not m.startswith(mod + ".") and m != mod}

    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(mod: str) -> None:
        state[mod] = 1
        stack.append(mod)
        for nxt in sorted(edges(mod)):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                dfs(nxt)
        stack.pop()
        state[mod] = 2

    for mod in sorted(GRAPH):
        if mod not in state:
            dfs(mod)


def test_no_module_imports_another_modules_private_names() -> None:
    """What one module shares with another is public (no leading underscore): a table or helper
    another module needs is part of its module's API, and named and documented as such."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
                if private:
                    found.append(f"{path.relative_to(SRC)}: from {'.' * node.level}{node.module or ''} import {private}")
    assert not found, found
