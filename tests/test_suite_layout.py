"""The tests mirror the packages: each folder of ``tests/`` is named after a package of
``portal/`` (at any depth: ``tests/approvals`` holds ``portal/features/approvals``'s) or is one of
the suite's kinds, and the root of ``tests/`` holds only checks of the project as a whole."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PORTAL = TESTS.parent / "portal"
#: Folders that hold a kind of test across packages, not one package's tests.
KINDS = {
    "assets": "files the tests read (axe-core, sample documents)",
    "browser": "journeys in headless Chromium across several packages' pages",
    "concurrency": "races with real threads and processes",
    "conformance": "the gateway's samples and SDK as an oracle",
    "regression": "pinned figures: statements, commits, memory",
    "support": "helpers shared by several folders",
}
#: Test modules at the root: checks of the project as a whole, or of the suite itself.
WHOLE_PROJECT = {
    "test_answer_dialect_fixture.py", "test_architecture.py", "test_compiled_reuse.py",
    "test_log_hygiene.py", "test_module_size.py", "test_readme.py", "test_suite_layout.py",
}


#: Packages whose tests live with the feature they serve.
TESTED_ELSEWHERE = {
    "main": "the landing page and navigation: tests/worklist, tests/web/test_layout.py",
    "status": "the status step, read after verification: tests/verification",
    "four_eyes": "the approvals' rules, tested with their page: tests/approvals",
    "users": "accounts and their sign-in rules, tested with the sign-in pages: tests/auth",
}


def portal_packages() -> set[str]:
    """The names of the portal's packages, at every depth."""
    return {init.parent.name for init in PORTAL.rglob("__init__.py")} - {"portal"}


def test_every_test_folder_is_a_package_or_a_kind():
    folders = {path.name for path in TESTS.iterdir()
               if path.is_dir() and not path.name.startswith((".", "__"))}
    assert folders - portal_packages() - KINDS.keys() == set()


def test_the_root_holds_only_checks_of_the_whole_project():
    assert {path.name for path in TESTS.glob("test_*.py")} == WHOLE_PROJECT


def test_the_portals_main_packages_have_their_tests():
    packages = {path.parent for path in PORTAL.glob("*/*/__init__.py")
                if path.parts[-3] in ("domain", "features", "app") or path.parts[-3] == "web"}
    untested = {path.name for path in packages if not (TESTS / path.name).is_dir()}
    assert untested == TESTED_ELSEWHERE.keys(), "give each new package its folder of tests"


def imported_modules(path: Path) -> set[str]:
    """The modules a file of the suite imports from, as written."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return ({node.module for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom) and node.module}
            | {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
               for alias in node.names})


def test_no_test_imports_a_conftest_or_another_test_module():
    """What several tests share lives in a support module (``tests/support/`` for the whole
    suite, a folder's ``support.py`` for its own); a conftest only registers fixtures."""
    wrong = {f"{path.relative_to(TESTS)}: {module}"
             for path in TESTS.rglob("*.py") for module in imported_modules(path)
             if module.startswith("tests.")
             and (module.rsplit(".", 1)[-1] == "conftest"
                  or module.rsplit(".", 1)[-1].startswith("test_"))}
    assert wrong == set()


def test_the_sandboxs_tests_mirror_its_packages():
    """``tests/sandbox/<api>/`` holds the tests of ``portal/sandbox/<api>/``; the folder's root
    the tests of the sandbox's root modules (app, state, faults, controls)."""
    sandbox = PORTAL / "sandbox"
    packages = {path.parent.name for path in sandbox.glob("*/__init__.py")}
    folders = {path.name for path in (TESTS / "sandbox").iterdir()
               if path.is_dir() and not path.name.startswith((".", "__"))}
    assert folders <= packages
