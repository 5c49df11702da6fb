"""What the language tests share: the merchant-facing strings as pybabel extracts them from
the files translations/merchant_facing.txt lists, and the English sentences of the catalogue
that a page in another language must not show."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup

from portal.core.config_fields import ROOT
from portal.web.page_language import TRANSLATIONS

KEYWORDS = {"_": None, "gettext": None, "_l": None, "lazy_gettext": None, "N_": None}
#: What cuts a msgid into the English a page could show verbatim: placeholders and tags.
_CUTS = re.compile(r"%\([a-z_]+\)s|\{[a-z_]+\}|\$[a-z_]+|<[^>]+>")
#: A piece of a msgid shorter than this many words is a name or a loanword the translation
#: may keep (DigiLocker, Video KYC, UTC), not an English sentence left over.
MIN_WORDS = 3
#: The attributes whose text a person reads or hears (the scripts show the data-text-* ones).
_READ_ATTRIBUTES = ("alt", "title", "aria-label", "placeholder")


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


@cache
def english_phrases() -> tuple[str, ...]:
    """Every piece of the English catalogue (translations/messages.pot) of at least
    MIN_WORDS words, placeholders and tags cut out, whitespace collapsed."""
    with (TRANSLATIONS / "messages.pot").open("rb") as source:
        catalogue = read_po(source)
    pieces = set()
    for message in catalogue:
        for msgid in ([message.id] if isinstance(message.id, str) else message.id):
            for piece in _CUTS.split(msgid):
                words = piece.strip(" \n,.:;()").split()
                if len(words) >= MIN_WORDS:
                    pieces.add(" ".join(words))
    return tuple(sorted(pieces))


def english_left(text: str) -> list[str]:
    """The English pieces of the catalogue that ``text`` still shows."""
    collapsed = " ".join(text.split())
    return [piece for piece in english_phrases() if piece in collapsed]


def read_text(html: bytes | str) -> str:
    """What a person reads of a page: its title and visible text, the texts of images and
    labels, and the sentences its scripts show (data-text-*); no script or style."""
    soup = BeautifulSoup(html, "html.parser")
    for hidden in soup(["script", "style"]):
        hidden.decompose()
    said = [soup.get_text(" ")]
    for element in soup.find_all(True):
        said += [str(value) for key, value in element.attrs.items()
                 if key in _READ_ATTRIBUTES or key.startswith("data-text-")]
    return " ".join(said)


def in_hindi(response, status: int = 200) -> str:
    """The read text of a page that answered ``status``, drawn in Hindi with no English
    sentence of the catalogue left."""
    assert response.status_code == status, response.status_code
    assert b'<html lang="hi">' in response.data
    text = read_text(response.data)
    assert english_left(text) == []
    return text
