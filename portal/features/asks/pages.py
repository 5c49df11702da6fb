"""The merchant page's "Asked of the merchant" panel: the asks with their wording forms."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from portal.core.config import current_settings
from portal.core.languages import BY_CODE, Language
from portal.core.models.document_ask import DocumentAsk
from portal.core.models.merchant import Merchant
from portal.domain.asks import service, wording
from portal.domain.branding import service as branding
from portal.domain.onboarding import merchant_language
from portal.domain.onboarding.progress import documents_asked
from portal.features.asks.forms import RefuseForm, WordsForm, merchant_field


@dataclass(frozen=True)
class Panel:
    """What the merchant's page shows of the asks: each with its wording form, and whether
    the merchant can be sent a link for them."""

    asks: list[tuple[service.Ask, WordsForm]]
    open: bool
    refuse_form: RefuseForm
    #: The language the merchant's pages are in (a refusal's reason is read as written).
    reads: Language


def panel(merchant: Merchant) -> Panel:
    """The panel's asks and forms (the merchant's words in English, as ops read them)."""
    settings = current_settings()
    partner = branding.current(settings).display_name
    asks = service.asks_of(merchant, settings.secret_key, partner)
    written = wording.written_for(merchant)
    return Panel([(ask, words_form(ask, written.get(ask.key), partner, formdata=None))
                  for ask in asks], documents_asked(merchant), RefuseForm(formdata=None),
                 BY_CODE[merchant_language.language_of(merchant)])


def words_form(ask: service.Ask, written: DocumentAsk | None, partner: str,
               **formdata: Any) -> WordsForm:
    """The wording form of ``ask``: what ops wrote, each merchant field's help quoting the
    default in its language, ids named after the ask; ``formdata`` as WTForms takes it
    (``formdata=None``: the stored words only)."""
    texts = (written.merchant_texts if written else None) or {}
    data = {merchant_field(code): text for code, text in texts.items()}
    form = WordsForm(**formdata, data={**data, "ops_words": written.ops_words if written
                                       else ""})
    defaults = wording.defaults_by_language(ask.key, partner)
    for language, field in form.merchant_fields():
        field.description = f"Empty: the default, \u201c{defaults[language.code]}\u201d."
    for field in form:
        field.id = f"ask-{ask.ref}-{field.name}"
        field.label.field_id = field.id
    return form
