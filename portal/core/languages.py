"""The languages merchant-facing pages and emails are written in: one row per catalogue.

Staff pages are English only. A language is added with its row here and its catalogue,
``translations/<code>/LC_MESSAGES/messages.po`` (docs/developer/translations.md); a test
fails on a row without a catalogue, or a catalogue without a row.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    """One language: its code (the catalogue's folder, the page's ``lang``), its name as its
    readers write it (the page's switch) and in English (the staff's pages)."""

    code: str
    own_name: str
    english_name: str


LANGUAGES = (
    Language("en", "English", "English"),
    Language("hi", "हिन्दी", "Hindi"),
)
BY_CODE = {language.code: language for language in LANGUAGES}
#: The language of staff pages, and of merchant pages nobody chose a language for.
DEFAULT = "en"


def known(code: str | None) -> str:
    """``code`` when it names a language of the table, else the default."""
    return code if code in BY_CODE else DEFAULT


# gettext's name for the marker, which pybabel extracts by default.
def N_(text: str) -> str:
    """Mark ``text`` for the catalogues without translating it: data kept in English (the
    requirements table) is translated where a merchant reads it, by ``gettext(text)``."""
    return text
