"""README.md names only what exists, and its Layout section matches the tree: a row per folder
of ``portal/``, and a row that lists its folder's modules lists them all. (Its layer table is
checked by tests/test_architecture.py, its configuration table by tests/core/test_config.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: A backticked path of the project: a folder or file under one of these, or a file at the root.
PATH = re.compile(r"`((?:portal|tests|bench|scripts|templates|static|migrations|docs|\.ci)/"
                  r"[\w./-]*|[\w-]+\.(?:py|toml|ini))`")
#: A backticked dotted name of the portal (a module, or a name in one).
DOTTED = re.compile(r"`(portal(?:\.\w+)+)`")


def section(title: str) -> str:
    """The text of README's ``## title`` section."""
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end != -1 else None]


def module_exists(dotted: str) -> bool:
    """Whether ``dotted`` names a module of the portal, or a name defined in one."""
    parts = dotted.split(".")
    for cut in (len(parts), len(parts) - 1):
        path = ROOT.joinpath(*parts[:cut])
        if path.with_suffix(".py").is_file() or (path / "__init__.py").is_file():
            return cut == len(parts) or re.search(
                rf"^(?:def|class) {parts[-1]}\b|^{parts[-1]}\b.*=",
                (path.with_suffix(".py") if path.with_suffix(".py").is_file()
                 else path / "__init__.py").read_text(encoding="utf-8"), re.MULTILINE) is not None
    return False


def layout_rows() -> dict[str, str]:
    """The Layout table's rows: first cell (a backticked path) -> the row's text."""
    rows = {}
    for line in section("Layout").splitlines():
        match = re.match(r"\| `([^`]+)`[^|]*\| (.*) \|$", line)
        if match:
            rows[match.group(1)] = match.group(2)
    return rows


def portal_folders() -> set[str]:
    """Every package of ``portal/``: its layer folders and the packages inside them (the
    sandbox's own parts aside), as ``portal/<layer>/`` and ``portal/<layer>/<name>/``."""
    portal = ROOT / "portal"
    found = {path.parent for path in (*portal.glob("*/__init__.py"),
                                      *portal.glob("*/*/__init__.py"))
             if "sandbox" not in path.relative_to(portal).parts[:-2]}
    return {f"{path.relative_to(ROOT).as_posix()}/" for path in found}


#: Paths the README shows as examples of what a user writes, not files of the project.
EXAMPLES = {"docs/gst.pdf"}


@pytest.mark.parametrize("path", sorted(set(PATH.findall(README)) - EXAMPLES))
def test_every_path_the_readme_names_exists(path: str) -> None:
    assert (ROOT / path).exists()


@pytest.mark.parametrize("dotted", sorted(set(DOTTED.findall(README))))
def test_every_module_the_readme_names_exists(dotted: str) -> None:
    assert module_exists(dotted)


def test_the_layout_has_a_row_for_every_folder_of_the_portal() -> None:
    listed = {path for path in layout_rows() if path.startswith("portal/")}
    assert listed == portal_folders()


def test_a_layout_row_that_lists_modules_lists_them_all() -> None:
    rows = {path: text for path, text in layout_rows().items() if "Modules:" in text}
    assert "portal/domain/onboarding/" in rows
    for path, text in rows.items():
        named = set(re.findall(r"`(\w+)`", text.split("Modules:", 1)[1]))
        modules = {file.stem for file in (ROOT / path).glob("*.py") if file.stem != "__init__"}
        assert modules <= named, f"{path} leaves out {sorted(modules - named)}"
