"""The sandbox's shape: one subpackage per API it emulates, and no import cycle between its
modules or between its parts (a subpackage, or one shared module at the top), read from the
source so an import hidden in a function or behind ``TYPE_CHECKING`` counts too."""

from __future__ import annotations

import ast
from functools import cache
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

import portal.sandbox

ROOT = Path(portal.sandbox.__file__).parent
PACKAGE = "portal.sandbox"
#: One subpackage per API the sandbox emulates, as moto has a folder per service.
SUBPACKAGES = {"onboarding", "payments", "verification", "webhooks"}
MAX_LINES = 300


def module_name(path: Path) -> str:
    """The dotted name of a module file under the sandbox."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


MODULES = {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def imported_names(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The sandbox modules an import statement loads (``from pkg import module`` names it)."""
    if isinstance(node, ast.Import):
        candidates = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        candidates = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                      for alias in node.names]
    return [name for name in candidates if name in MODULES]


@cache
def tree_of(path: Path) -> ast.Module:
    """A file's syntax tree, parsed once."""
    return ast.parse(path.read_text(encoding="utf-8"))


def imports_of(path: Path) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement in a file, wherever it stands."""
    return [node for node in ast.walk(tree_of(path))
            if isinstance(node, ast.Import | ast.ImportFrom)]


def part_of(module: str) -> str:
    """The subpackage a module belongs to, or the module itself when it sits at the top."""
    parts = module.split(".")
    if len(parts) > 3 and parts[2] in SUBPACKAGES:
        return ".".join(parts[:3])
    return module


def graph(key=lambda module: module) -> dict[str, set[str]]:
    """Who imports whom among the sandbox's modules, grouped by ``key``."""
    edges: dict[str, set[str]] = {key(module): set() for module in MODULES}
    for module, path in MODULES.items():
        for node in imports_of(path):
            for target in imported_names(node):
                if key(target) != key(module):
                    edges[key(module)].add(key(target))
    return edges


def cycle_in(edges: dict[str, set[str]]) -> list[str]:
    """A cycle in ``edges`` as the list of its nodes, or [] when there is none."""
    try:
        TopologicalSorter(edges).prepare()
    except CycleError as error:
        return error.args[1]
    return []


def test_the_sandbox_has_one_subpackage_per_api_it_emulates():
    found = {path.parent.name for path in ROOT.glob("*/__init__.py")}
    assert found == SUBPACKAGES


def test_no_module_imports_one_that_imports_it_back():
    assert cycle_in(graph()) == []


def test_no_subpackage_imports_one_that_imports_it_back():
    assert cycle_in(graph(part_of)) == []


def test_the_check_sees_a_cycle_when_there_is_one():
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) != []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_import_of_a_sandbox_module_stands_at_the_top_of_the_file(module):
    top_level = tree_of(MODULES[module]).body
    hidden = [node.lineno for node in imports_of(MODULES[module])
              if imported_names(node) and node not in top_level]
    assert hidden == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_is_over_300_lines(module):
    assert len(MODULES[module].read_text(encoding="utf-8").splitlines()) <= MAX_LINES
