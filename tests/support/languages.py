"""What the language tests share: the merchant-facing strings as pybabel extracts them from
the files translations/merchant_facing.txt lists."""

from __future__ import annotations

from pathlib import Path

from babel.messages.extract import extract_from_file

from portal.core.config_fields import ROOT
from portal.web.page_language import TRANSLATIONS

KEYWORDS = {"_": None, "gettext": None, "_l": None, "lazy_gettext": None, "N_": None}


def merchant_facing_files() -> list[Path]:
    """The files whose strings merchants read (translations/merchant_facing.txt)."""
    listed = (TRANSLATIONS / "merchant_facing.txt").read_text(encoding="utf-8").splitlines()
    return [ROOT / line for line in listed if line.strip() and not line.startswith("#")]


def extracted_strings(path: Path) -> set[str]:
    """The msgids pybabel extracts from ``path`` (a template or a module)."""
    method = "jinja2" if path.suffix == ".html" else "python"
    found = set()
    for _line, message, _comments, _context in extract_from_file(method, str(path),
                                                                 keywords=KEYWORDS):
        found.update([message] if isinstance(message, str) else [m for m in message if m])
    return found

