"""README.md is the front page and docs/ the documentation site; both name only what exists.

The Layout page matches the tree: a row per folder of ``portal/``, and a row that lists its
folder's modules lists them all. The layer table is checked by tests/test_architecture.py, the
configuration table by tests/core/test_config.py, the test cards by
tests/sandbox/payments/test_checkout_test_cards.py; ``mkdocs build --strict`` in
scripts/test.sh checks the site's own links."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
LAYOUT = (DOCS / "developer" / "layout.md").read_text(encoding="utf-8")
#: A front page, read in minutes; the guides live in docs/.
README_MOST_LINES = 350
#: Names files of the gateway's own repositories (its SDKs, its docs), not of this project.
OTHER_REPOSITORIES = {DOCS / "gateway-facts.md"}
#: The README and every page of the site that names this project's files.
TEXTS = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
         for path in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
         if path not in OTHER_REPOSITORIES}
#: A backticked path of the project: a folder or file under one of these, or a file at the root.
PATH = re.compile(r"`((?:portal|tests|bench|scripts|templates|static|migrations|docs|\.ci)/"
                  r"[\w./-]*|[\w-]+\.(?:py|toml|ini|yml))`")
#: A backticked dotted name of the portal (a module, or a name in one).
DOTTED = re.compile(r"`(portal(?:\.\w+)+)`")
#: A Markdown link or image to a file of the repository (not a web address, not an anchor).
LOCAL_LINK = re.compile(r"\]\((?!https?://|#)([^)#\s]+)(?:#[^)]*)?\)")


def named(pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    """Every (text, match) of ``pattern`` across the README and the site's pages."""
    return sorted({(name, found) for name, text in TEXTS.items()
                   for found in pattern.findall(text)})


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
    for line in LAYOUT.splitlines():
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


def nav_pages(entries: list) -> set[str]:
    """The pages ``mkdocs.yml``'s nav lists, relative to docs/, however deep."""
    pages = set()
    for entry in entries:
        for value in (entry.values() if isinstance(entry, dict) else [entry]):
            pages |= nav_pages(value) if isinstance(value, list) else {value}
    return pages


#: Paths the docs show as examples of what a user writes, not files of the project.
EXAMPLES = {"docs/gst.pdf"}


@pytest.mark.parametrize(("text", "path"),
                         [(text, path) for text, path in named(PATH) if path not in EXAMPLES])
def test_every_path_the_readme_and_the_docs_name_exists(text: str, path: str) -> None:
    assert (ROOT / path).exists(), f"{text} names {path}"


@pytest.mark.parametrize(("text", "dotted"), named(DOTTED))
def test_every_module_the_readme_and_the_docs_name_exists(text: str, dotted: str) -> None:
    assert module_exists(dotted), f"{text} names {dotted}"


def test_the_layout_has_a_row_for_every_folder_of_the_portal() -> None:
    listed = {path for path in layout_rows() if path.startswith("portal/")}
    assert listed == portal_folders()


def test_a_layout_row_that_lists_modules_lists_them_all() -> None:
    rows = {path: text for path, text in layout_rows().items() if "Modules:" in text}
    assert "portal/domain/onboarding/" in rows
    for path, text in rows.items():
        named_modules = set(re.findall(r"`(\w+)`", text.split("Modules:", 1)[1]))
        modules = {file.stem for file in (ROOT / path).glob("*.py") if file.stem != "__init__"}
        assert modules <= named_modules, f"{path} leaves out {sorted(modules - named_modules)}"


def test_the_readme_is_a_front_page() -> None:
    lines = len(README.splitlines())
    assert lines <= README_MOST_LINES, (
        f"README.md has {lines} lines; move what is not the front page into docs/")


def test_the_readme_gives_the_two_commands() -> None:
    commands = README.split("```sh\n", 1)[1].split("```", 1)[0]
    assert [line.split()[:2] for line in commands.splitlines()] == [
        ["make", "run"], ["make", "test"]]
    assert "### `make run`" in README and "### `make test`" in README
    assert "admin@localhost" in README


def test_the_readme_says_what_to_check_before_sending_citing_the_requirements_page() -> None:
    section = README.split("## Before you send\n", 1)[1].split("\n## ", 1)[0]
    assert "`set-up/partner-onboarding/merchant-requirements.mdx`" in section
    assert "(docs/user/before-you-send.md)" in section


def test_every_file_the_readme_links_exists() -> None:
    links = LOCAL_LINK.findall(README)
    assert "docs/images/dashboard.png" in links
    assert {link for link in links if link.startswith("docs/")} >= {
        f"docs/{page}" for page in nav_pages(yaml.safe_load(
            (ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]) if page != "index.md"}
    missing = [link for link in links if not (ROOT / link).is_file()]
    assert not missing, missing


def test_every_page_of_the_docs_is_in_the_nav() -> None:
    nav = nav_pages(yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"])
    pages = {path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")}
    assert pages == nav, (
        f"not in the nav: {sorted(pages - nav)}; no such page: {sorted(nav - pages)}")


#: Where the code's comments and docstrings are.
CODE_FOLDERS = ("portal", "tests", "bench", "scripts")
#: A citation of the gateway facts page and the section it names first (``A7``, ``section E``),
#: also when the citation is wrapped across comment lines.
FACTS_CITATION = re.compile(r"docs/gateway-facts\.md(?:\s|#:?)*\(?(?:section\s+)?([A-E]\d{0,2})\b")


def commentary(path: Path) -> str:
    """The comments and docstrings of a Python or shell file: where the code cites its sources
    (a string literal may quote a source's own words, as the samples' ``_source`` does)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".sh":
        return "\n".join(line for line in text.splitlines() if line.lstrip().startswith("#"))
    comments = [token.string for token in tokenize.generate_tokens(io.StringIO(text).readline)
                if token.type == tokenize.COMMENT]
    docstrings = [ast.get_docstring(node, clean=False) or "" for node in ast.walk(ast.parse(text))
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                | ast.AsyncFunctionDef)]
    return "\n".join([*comments, *docstrings])


def code_commentary() -> dict[str, str]:
    """The comments and docstrings of every Python and shell file of the code folders that
    names the gateway facts (only those are parsed: parsing them all takes seconds)."""
    return {path.relative_to(ROOT).as_posix(): commentary(path)
            for folder in CODE_FOLDERS for path in sorted((ROOT / folder).rglob("*"))
            if path.suffix in {".py", ".sh"} and path.is_file()
            and "gateway-facts" in path.read_text(encoding="utf-8")}


def test_the_code_cites_the_gateway_facts_of_this_repository() -> None:
    outside = [path for path, text in code_commentary().items()
               if re.search(r"(?<!docs/)gateway-facts", text)]
    assert not outside, f"cite docs/gateway-facts.md instead: {outside}"


def test_every_section_the_code_cites_of_the_gateway_facts_exists() -> None:
    sections = {anchor.upper() for anchor in re.findall(
        r"\{#([a-e]\d*)\}", (DOCS / "gateway-facts.md").read_text(encoding="utf-8"))}
    cited = {(path, section) for path, text in code_commentary().items()
             for section in FACTS_CITATION.findall(text)}
    assert len(cited) > 25
    assert not [(path, section) for path, section in cited if section not in sections]
