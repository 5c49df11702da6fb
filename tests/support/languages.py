"""What the language tests share: the merchant-facing strings as pybabel extracts them from
the files translations/merchant_facing.txt lists, and English left on a page drawn in
another language."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.extract import extract_from_file
from bs4 import BeautifulSoup

from portal.core.config_fields import ROOT
from portal.web.page_language import TRANSLATIONS

KEYWORDS = {"_": None, "gettext": None, "_l": None, "lazy_gettext": None}
#: Words a page in any language keeps in Latin letters: brands, products, codes, the sandbox's
#: partner and merchant names, and what browsers' menus call their buttons.
KEPT_IN_LATIN = ("Acme Payments", "Sandbox Traders Private Limited", "Sandbox Traders",
                 "Partner Onboarding Portal", "Video KYC", "DigiLocker", "Ctrl+C", "https",
                 "Chrome", "Safari", "iPhone", "Android", "WhatsApp", "Wi-Fi", "UTC")
_ASCII_RUN = re.compile(r"[A-Za-z][A-Za-z'’.,:;()\-\s]*")


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


def english_left(html: bytes | str, allowed: tuple[str, ...] = ()) -> list[str]:
    """Runs of three or more English words in a page's text, title and script words (its
    data-text-* attributes), brand names and codes aside: what a catalogue left untranslated."""
    soup = BeautifulSoup(html, "html.parser")
    for hidden in soup(["script", "style", "noscript"]):
        hidden.decompose()
    texts = [soup.get_text(" ")]
    texts += [value for tag in soup.find_all(True) for name, value in tag.attrs.items()
              if name.startswith("data-text-") or name in ("aria-label", "title", "alt")
              and isinstance(value, str)]
    runs = []
    for text in texts:
        for kept in (*allowed, *KEPT_IN_LATIN):
            text = text.replace(kept, " ")
        for run in _ASCII_RUN.findall(text):
            if len(re.findall(r"[A-Za-z]+", run)) >= 3:
                runs.append(" ".join(run.split()))
    return runs
