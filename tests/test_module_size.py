"""No Python module of the project is over 300 lines, migrations aside: a longer file holds
more than one job."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The folders of the project's own Python code.
FOLDERS = ("portal", "bench", "tests", "migrations")
MAX_LINES = 300


def counted(path: Path) -> bool:
    """Whether ``path`` is held to the limit."""
    parts = path.relative_to(ROOT).parts
    return "versions" not in parts


def test_no_module_is_over_300_lines() -> None:
    long = {str(path.relative_to(ROOT)): lines
            for folder in FOLDERS for path in sorted((ROOT / folder).rglob("*.py"))
            if counted(path)
            and (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}
