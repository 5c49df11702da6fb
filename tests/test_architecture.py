"""The import graph of ``portal``, read with ``ast``: no cycles, layers only import downwards,
the portal never imports the sandbox, the gateway layer imports no Flask.

Only module-level imports are edges (``if TYPE_CHECKING:`` blocks excepted); ``from x import
y`` is an edge to the module ``x.y`` when it is one, else to ``x``. Besides modules, each
``portal.<name>`` (a feature package with everything under it, or a top-level module) is a node
of the package graph, which must have no cycle either.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

PORTAL = Path(__file__).resolve().parents[1] / "portal"
SANDBOX = "portal.sandbox"

#: Layers, lowest first; a module may import its own layer and the ones below it.
VOCABULARY = 0  # the gateway's wire vocabulary: shapes, rules, event names (pure data)
BASE = 1  # models, database, clock, config and small utilities
TRANSPORT = 2  # signing, sending, retrying, mapping HTTP errors
GATEWAY = 3  # the gateway clients (one method per operation)
SERVICES = 4  # domain rules, taking plain arguments
WEB = 5  # routes, forms, CLI commands, page helpers
APP = 6  # the app factory and what registers the blueprints and commands
LAYER_NAMES = ["vocabulary", "base", "transport", "gateway", "services", "web", "app"]

EXPLICIT = {
    **dict.fromkeys(["portal.gateway.shapes", "portal.gateway.onboarding_shapes",
                     "portal.gateway.payments_shapes", "portal.gateway.rules",
                     "portal.gateway.onboarding_events"], VOCABULARY),
    **dict.fromkeys(["portal.core.db", "portal.core.clock", "portal.core.config",
                     "portal.core.config_errors", "portal.core.config_fields",
                     "portal.core.encryption", "portal.core.startup", "portal.core.redaction",
                     "portal.core.private_files", "portal.core.logging_filters", "portal.web.http",
                     "portal.core.pagination"], BASE),
    **dict.fromkeys(["portal.gateway.transport", "portal.gateway.retry",
                     "portal.gateway.errors", "portal.gateway.hmac", "portal.gateway.jws",
                     "portal.gateway.jwe",
                     "portal.gateway.payments_auth", "portal.gateway.telemetry",
                     "portal.gateway.tracing", "portal.gateway.reading",
                     "portal.gateway.reading.payments", "portal.gateway.reading.onboarding"],
                    TRANSPORT),
    **dict.fromkeys(["portal.gateway", "portal.gateway.onboarding_client",
                     "portal.gateway.payments_client"], GATEWAY),
    #: Flask wiring: sign-in sessions' request hooks and the extensions bound to the app.
    **dict.fromkeys(["portal.auth.sessions", "portal.app.extensions"], WEB),
    **dict.fromkeys(["portal", "portal.app.factory", "portal.app.blueprints", "portal.app.cli"],
                    APP),
}
#: Module names (last part) that belong to the web layer wherever they are.
WEB_MODULES = {"routes", "forms", "cli", "pages", "conflicts", "handlers", "navigation"}
FLASK_PACKAGES = ("flask", "flask_login", "flask_wtf", "werkzeug", "wtforms")


def module_name(path: Path) -> str:
    """``portal/a/b.py`` -> ``portal.a.b``; a package's ``__init__`` is the package."""
    parts = list(path.relative_to(PORTAL.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the portal by name."""
    return {module_name(path): path for path in sorted(PORTAL.rglob("*.py"))}


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
    """Every statement with whether it runs at import time (not in a function body)."""
    for node in body:
        yield node, top
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            continue
        inner = top and not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for field in ("body", "orelse", "finalbody", "handlers"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                yield from _statements(children, inner)


@cache
def imports() -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """Each module's imported names at module level, and in function bodies."""
    found = {}
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        top, nested = set(), set()
        for node, at_import in _statements(tree.body, True):
            if isinstance(node, ast.Import | ast.ImportFrom):
                targets = _imported(node, name, path.name == "__init__.py")
                (top if at_import else nested).update(targets)
        found[name] = (frozenset(top), frozenset(nested))
    return found


@cache
def graph() -> dict[str, frozenset[str]]:
    """Module -> the portal modules it imports at module level."""
    return {name: frozenset(t for t in top if t in modules() and t != name)
            for name, (top, _nested) in imports().items()}


def package_of(module: str) -> str:
    """``portal.<name>``: the feature package or top-level module ``module`` is part of."""
    return ".".join(module.split(".")[:2])


def package_graph() -> dict[str, frozenset[str]]:
    """``portal.<name>`` -> the other ``portal.<name>`` it imports."""
    edges: dict[str, set[str]] = {}
    for module, targets in graph().items():
        edges.setdefault(package_of(module), set()).update(
            package_of(t) for t in targets if package_of(t) != package_of(module))
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


def layer(module: str) -> int:
    """The layer of ``module`` (see the constants above)."""
    if module in EXPLICIT:
        return EXPLICIT[module]
    if module.startswith("portal.core.models"):
        return BASE
    last = module.rsplit(".", 1)[-1]
    if last in WEB_MODULES or last.endswith(("_routes", "_cli")):
        return WEB
    if module.count(".") == 1 and any(layer(t) >= WEB for t in graph().get(module, ())
                                      if t.startswith(module + ".")):
        return WEB  # a feature package whose __init__ hands out its blueprint
    return SERVICES


def test_the_graph_is_read() -> None:
    assert "portal.onboarding.service" in graph()
    assert "portal.onboarding.steps" in graph()["portal.onboarding.service"]
    assert "portal.onboarding" in package_graph()["portal.wizard"]


def test_no_module_level_import_cycle() -> None:
    found = [" -> ".join(cycle) for cycle in cycles(graph())]
    assert not found, "import cycles between modules:\n" + "\n".join(found)


def test_no_cycle_between_packages() -> None:
    found = [" -> ".join(cycle) for cycle in cycles(package_graph())]
    assert not found, "import cycles between portal.<package>s:\n" + "\n".join(found)


def test_no_import_inside_a_function_dodges_a_cycle() -> None:
    found = [f"{name} imports {target}" for name, (_top, nested) in imports().items()
             for target in sorted(nested) if target.startswith("portal")]
    assert not found, "portal imports inside functions:\n" + "\n".join(found)


def test_the_portal_never_imports_the_sandbox() -> None:
    found = [f"{name} -> {target}" for name, targets in graph().items()
             if package_of(name) != SANDBOX
             for target in sorted(targets) if package_of(target) == SANDBOX]
    assert not found, "\n".join(found)


def test_the_gateway_layer_imports_no_flask_and_nothing_above_it() -> None:
    found = [f"{name} -> {target}"
             for name, (top, nested) in imports().items() if package_of(name) == "portal.gateway"
             for target in sorted(top | nested)
             if target.split(".")[0] in FLASK_PACKAGES
             or (target.startswith("portal") and package_of(target) != "portal.gateway")]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("module", ["portal.onboarding.sending", "portal.core.models.merchant",
                                    "portal.gateway.transport", "portal.wizard.routes",
                                    "portal.app.factory", "portal.gateway.onboarding_shapes"])
def test_layers_are_assigned_as_documented(module: str) -> None:
    expected = {"portal.onboarding.sending": SERVICES, "portal.core.models.merchant": BASE,
                "portal.gateway.transport": TRANSPORT, "portal.wizard.routes": WEB,
                "portal.app.factory": APP, "portal.gateway.onboarding_shapes": VOCABULARY}
    assert layer(module) == expected[module]


def test_no_layer_imports_one_above_it() -> None:
    found = [f"{name} ({LAYER_NAMES[layer(name)]}) -> {target} ({LAYER_NAMES[layer(target)]})"
             for name, targets in sorted(graph().items()) if package_of(name) != SANDBOX
             for target in sorted(targets) if layer(target) > layer(name)]
    assert not found, "imports from a lower layer up:\n" + "\n".join(found)

