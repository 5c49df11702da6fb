"""The forms of the merchant page's "Asked of the merchant" panel."""

from __future__ import annotations

from wtforms import Field, TextAreaField
from wtforms.validators import DataRequired, Length

from portal.core.languages import LANGUAGES, Language
from portal.web.form_base import PortalForm

#: The longest wording or reason (the refusal's column holds 500).
WORDS_MOST = 500


class WordsForm(PortalForm):
    """How one asked document is worded: the merchant's words in each language (a field per
    language of the table, ``merchant_words_<code>``) and ops'; empty fields go back to the
    defaults."""

    ops_words = TextAreaField(
        "What ops read", validators=[Length(max=WORDS_MOST, message=(
            f"Keep it to {WORDS_MOST} characters."))],
        description="Only on the merchant's page in the portal, never on their link. Empty: "
                    "the document's name.")

    def merchant_fields(self) -> list[tuple[Language, Field]]:
        """The merchant's words' fields, a language each, in the table's order."""
        return [(language, self[merchant_field(language.code)]) for language in LANGUAGES]

    def merchant_texts(self) -> dict[str, str]:
        """The merchant's words typed, by language code (stripped; '' for none)."""
        return {language.code: (field.data or "").strip()
                for language, field in self.merchant_fields()}


def merchant_field(code: str) -> str:
    """The name of the field of the merchant's words in language ``code``."""
    return f"merchant_words_{code}"


for _language in LANGUAGES:  # WTForms' FormMeta takes fields set on the class
    setattr(WordsForm, merchant_field(_language.code), TextAreaField(
        f"What the merchant reads, in {_language.english_name}"
        + (f" ({_language.own_name})" if _language.own_name != _language.english_name else ""),
        validators=[Length(max=WORDS_MOST, message=f"Keep it to {WORDS_MOST} characters.")]))


class RefuseForm(PortalForm):
    """Refuse one of the merchant's uploads, with the reason they read."""

    reason = TextAreaField("Why, in words for the merchant", validators=[
        DataRequired(message="Say why, in words the merchant understands: they read it on "
                             "their link."),
        Length(max=WORDS_MOST, message=f"Keep the reason to {WORDS_MOST} characters.")])
