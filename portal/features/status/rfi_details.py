"""What the gateway's review asks for (its ``rfiDetails``), for the status page: the gateway's
own text, quoted and never reworded, in words where it is a list or a mapping of strings.

No source shows the field's shape (reference/faq only names it), so the page reads it
tolerantly: a string, a list of strings, or a mapping whose values are strings or lists of
strings are shown as quotations, verbatim but for PANs and long numbers masked (a document type
the portal knows gets its label beside the quote, in the portal's words); anything else is
shown as its JSON text. Nothing in it becomes a link.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from portal.core.labels import Kind, label
from portal.core.models.merchant import Merchant
from portal.core.redaction import redact_text

_WORD_START = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@dataclass(frozen=True)
class Quote:
    """One string of the gateway's, quoted, and what the portal knows it to mean ('' when
    nothing: a document type's label)."""

    text: str
    meaning: str = ""


@dataclass(frozen=True)
class Entry:
    """One part of the details: the gateway's key in words ('' for none) and its texts."""

    name: str
    texts: list[Quote]


@dataclass(frozen=True)
class RfiDetails:
    """The details as the page shows them: quoted entries, or the JSON text when they are not
    strings; ``cut`` when only their beginning was kept."""

    entries: list[Entry] = field(default_factory=list)
    text: str = ""
    cut: bool = False


def key_words(key: str) -> str:
    """A key of the gateway's in words: 'documentsRequested' -> 'Documents requested'."""
    return _WORD_START.sub(" ", key).replace("_", " ").strip().lower().capitalize()


def quoted(text: str) -> Quote:
    """One string of the gateway's as the page quotes it: PANs and long numbers masked, and
    beside it the label of the document type it names, where the portal knows one."""
    named = label(text, Kind.DOCUMENT)
    return Quote(redact_text(text), named if named != text else "")


def _texts(value: Any) -> list[Quote] | None:
    """A string or a list of strings as quotations; None for anything else."""
    if isinstance(value, str):
        return [quoted(value)]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [quoted(item) for item in value]
    return None


def _entries(value: Any) -> list[Entry] | None:
    texts = _texts(value)
    if texts is not None:
        return [Entry("", texts)]
    if not isinstance(value, dict):
        return None
    entries = []
    for key, item in value.items():
        texts = _texts(item)
        if texts is None:
            return None
        entries.append(Entry(key_words(str(key)), texts))
    return entries


def rfi_details(merchant: Merchant) -> RfiDetails | None:
    """The merchant's stored rfiDetails as the page shows them; None when there are none."""
    value = merchant.rfi_details
    if value is None:
        return None
    if merchant.rfi_details_cut:
        return RfiDetails(text=redact_text(str(value)), cut=True)
    entries = _entries(value)
    if entries is not None:
        return RfiDetails(entries)
    return RfiDetails(text=redact_text(json.dumps(value, ensure_ascii=False, indent=2)))
