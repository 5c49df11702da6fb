"""The merchant page's "Asked of the merchant" panel: the asks with their wording forms."""

from __future__ import annotations

from dataclasses import dataclass

from portal.core.config import current_settings
from portal.core.models.document_ask import DocumentAsk
from portal.core.models.merchant import Merchant
from portal.domain.asks import service, wording
from portal.domain.branding import service as branding
from portal.domain.onboarding.progress import documents_asked
from portal.features.asks.forms import RefuseForm, WordsForm


@dataclass(frozen=True)
class Panel:
    """What the merchant's page shows of the asks: each with its wording form, and whether
    the merchant can be sent a link for them."""

    asks: list[tuple[service.Ask, WordsForm]]
    open: bool
    refuse_form: RefuseForm


def panel(merchant: Merchant) -> Panel:
    """The panel's asks and forms (the merchant's words in English, as ops read them)."""
    settings = current_settings()
    asks = service.asks_of(merchant, settings.secret_key,
                           branding.current(settings).display_name)
    written = wording.written_for(merchant)
    return Panel([(ask, words_form(ask, written.get(ask.key))) for ask in asks],
                 documents_asked(merchant), RefuseForm(formdata=None))


def words_form(ask: service.Ask, written: DocumentAsk | None) -> WordsForm:
    """The wording form of ``ask``, filled with what ops wrote (ids named after the ask)."""
    form = WordsForm(formdata=None, ask=ask.ref,
                     merchant_words=written.merchant_words if written else "",
                     ops_words=written.ops_words if written else "")
    for field in form:
        field.id = f"ask-{ask.ref}-{field.name}"
        field.label.field_id = field.id
    return form
