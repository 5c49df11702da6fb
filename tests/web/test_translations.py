"""Every merchant-facing string has its translation in every catalogue: `make test` fails on a
string added to a merchant page, email or message without one, naming it."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from portal.core.languages import DEFAULT, LANGUAGES
from portal.web.page_language import TRANSLATIONS
from tests.support.languages import extracted_strings, merchant_facing_files

TRANSLATED = [language.code for language in LANGUAGES if language.code != DEFAULT]
_PLACEHOLDER = re.compile(r"%\([a-z_]+\)s|\{[a-z_]+\}|\$[a-z_]+")


def catalogue(code: str):
    """The catalogue of ``code`` as its .po holds it."""
    with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=code)


def test_every_language_has_its_catalogue_and_every_catalogue_its_row():
    on_disk = {path.parts[-3] for path in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po")}
    assert on_disk == set(TRANSLATED)


def test_the_list_of_merchant_facing_files_names_files_that_exist_and_hold_strings():
    for path in merchant_facing_files():
        assert path.is_file(), f"translations/merchant_facing.txt names {path}, not a file"
        assert extracted_strings(path), f"{path} has no string marked for translation"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_merchant_facing_string_is_translated(code):
    messages = catalogue(code)
    wanting = []
    for path in merchant_facing_files():
        for msgid in sorted(extracted_strings(path)):
            message = messages.get(msgid)
            if message is None or not message.string or message.fuzzy:
                wanting.append(f"{path.name}: {msgid!r}")
    assert not wanting, (f"Not translated in translations/{code} (run make translations, then "
                         "translate):\n" + "\n".join(wanting))


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_translation_keeps_its_placeholders(code):
    wrong = [message.id for message in catalogue(code) if message.id and message.string
             and sorted(_PLACEHOLDER.findall(message.id))
             != sorted(_PLACEHOLDER.findall(message.string))]
    assert not wrong, f"Placeholders differ from the English in translations/{code}: {wrong}"
