"""The import graph of ``portal``, read from the source with ``ast`` (nothing is imported), for
the architecture test and the gateway's client-only test.

Only module-level imports are edges (``if TYPE_CHECKING:`` blocks excepted); ``from x import
y`` is an edge to the module ``x.y`` when it is one, else to ``x``. Besides modules, each
``portal.<name>`` (a folder with everything under it) is a node of the package graph.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

PORTAL = Path(__file__).resolve().parents[2] / "portal"


def module_name(path: Path) -> str:
    """``portal/a/b.py`` -> ``portal.a.b``; a package's ``__init__`` is the package."""
    parts = list(path.relative_to(PORTAL.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the portal by name."""
    return {module_name(path): path for path in sorted(PORTAL.rglob("*.py"))}


@cache
def tree_of(path: Path) -> ast.Module:
    """A file's syntax tree, parsed once."""
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _imported(node: ast.Import | ast.ImportFrom, name: str, is_package: bool) -> Iterator[str]:
    """The modules one import statement names."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        package = name.split(".") if is_package else name.split(".")[:-1]
        anchor = package[:len(package) - node.level + 1]
        base = ".".join([*anchor, *([node.module] if node.module else [])])
    for alias in node.names:
        yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules() else base


def _statements(body: list[ast.stmt], top: bool) -> Iterator[tuple[ast.stmt, bool]]:
    """Every statement with whether it runs at import time (not in a function body); a
    ``TYPE_CHECKING`` block's statements count as not run at import time."""
    for node in body:
        yield node, top
        checking = isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
            and node.test.id == "TYPE_CHECKING"
        inner = top and not checking and not isinstance(
            node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for field in ("body", "orelse", "finalbody", "handlers"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                yield from _statements(children, inner)


@cache
def imports() -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """Each module's imported names at module level, and elsewhere (in function bodies or
    behind ``TYPE_CHECKING``)."""
    found = {}
    for name, path in modules().items():
        top, hidden = set(), set()
        for node, at_import in _statements(tree_of(path).body, True):
            if isinstance(node, ast.Import | ast.ImportFrom):
                targets = _imported(node, name, path.name == "__init__.py")
                (top if at_import else hidden).update(targets)
        found[name] = (frozenset(top), frozenset(hidden))
    return found


@cache
def graph() -> dict[str, frozenset[str]]:
    """Module -> the portal modules it imports at module level."""
    return {name: frozenset(t for t in top if t in modules() and t != name)
            for name, (top, _hidden) in imports().items()}


#: Layers whose folders hold packages of their own (``portal.domain.payments``); the others are
#: one package each, subpackages included (``portal.core``), but the gateway's two APIs.
PACKAGED_LAYERS = frozenset({"domain", "features", "app"})


def layer_folder_of(module: str) -> str:
    """``portal.<layer>``: the layer folder ``module`` is in (the sandbox is one too)."""
    return ".".join(module.split(".")[:2])


def package_of(module: str) -> str:
    """The package ``module`` belongs to: ``portal.<layer>.<package>`` in the domain, features
    and app layers and for the gateway's two APIs, else its layer folder."""
    parts = module.split(".")
    if len(parts) > 2 and (parts[1] in PACKAGED_LAYERS
                           or (parts[1] == "gateway" and len(parts) > 3)):
        return ".".join(parts[:3])
    return layer_folder_of(module)


def grouped(key: Callable[[str], str]) -> dict[str, frozenset[str]]:
    """The graph between groups of modules: ``key(module)`` names a module's group."""
    edges: dict[str, set[str]] = {}
    for module, targets in graph().items():
        edges.setdefault(key(module), set()).update(
            key(t) for t in targets if key(t) != key(module))
    return {node: frozenset(targets) for node, targets in edges.items()}


def cycles(edges: dict[str, frozenset[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of nodes (iterative Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(_cycle_in(set(group), edges))
    return groups


def _cycle_in(group: set[str], edges: dict[str, frozenset[str]]) -> list[str]:
    """A shortest path from the group's first node back to itself (breadth first)."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    for node in queue:
        for child in sorted(edges.get(node, frozenset()) & group):
            if child == start:
                return [*paths[node], start]
            if child not in paths:
                paths[child] = [*paths[node], child]
                queue.append(child)
    raise AssertionError(f"no cycle in {group}")  # pragma: no cover


def definitions(path: Path) -> dict[str, set[str]]:
    """Each name a module defines at its top level, with every name its definition (its body,
    decorators, bases, value) mentions."""
    found: dict[str, set[str]] = {}
    for node in tree_of(path).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            defined = [node.name]
        elif isinstance(node, ast.Assign):
            defined = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            defined = [node.target.id]
        else:
            continue
        mentioned = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
            n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
        for name in defined:
            found.setdefault(name, set()).update(mentioned - {name})
    return found
