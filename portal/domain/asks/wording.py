"""How an asked document is worded: for the merchant (their link, in their language) and for
ops (the merchant's page), each a default that ops may replace per merchant and document; the
merchant's in each language of ``portal.core.languages`` on its own (a language ops wrote
nothing in reads the default, translated).

The merchant's default comes from :data:`MERCHANT_WORDS`, one row per document type the
portal knows (``tests/asks`` checks every type of the labels' table has one); the ops default
is the document's label. The merchant's words never name a code, an id or a PAN.
"""

from __future__ import annotations

from flask_babel import force_locale, get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.labels import Kind, label
from portal.core.languages import DEFAULT, LANGUAGES
from portal.core.models.document_ask import DocumentAsk
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor, record
from portal.gateway.onboarding.vocabulary import AADHAR_DOC_PATTERN

#: Each document type as the merchant reads it.
MERCHANT_WORDS = {
    "IEC": _l("Your importer-exporter code (IEC) certificate"),
    "LOB_DOCUMENT": _l("A document that shows what your business does"),
    "MOA_DOCUMENT": _l("Your company's memorandum of association"),
    "AOA_DOCUMENT": _l("Your company's articles of association"),
    "COI_DOCUMENT": _l("Your company's certificate of incorporation"),
    "OPERATING_ADDRESS_PROOF": _l("A proof of the address your business works from"),
    "LLP_AGREEMENT": _l("Your LLP agreement"),
    "PARTNERSHIP_DEED": _l("Your partnership deed"),
    "UDYAM": _l("Your Udyam registration certificate"),
    "PAN": _l("Your business's PAN card"),
    "BUSINESS": _l("A proof that your business exists, such as a registration certificate"),
    "ADDRESS": _l("A proof of your business address"),
    "ACCOUNT": _l("A proof of your business bank account"),
    "AUTH_SIGNATORY": _l("An ID of the person who signs for the business"),
    "BO": _l("An ID of each owner of the business"),
    "DIRECTOR": _l("An ID of each director"),
    "MOA": _l("Your company's memorandum of association"),
    "AOA": _l("Your company's articles of association"),
    "COI": _l("Your company's certificate of incorporation"),
    "BR": _l("A board resolution that lets the signer act for the company"),
    "LLP": _l("Your LLP's certificate of incorporation"),
    "CANCELLED_CHEQUE": _l("A cancelled cheque of your business bank account"),
    "REPRESENTATIVE_DOC": _l("A document of the person who represents the business"),
    "PARTNERSHIP_REGISTRATION_CERTIFICATE": _l("Your partnership's registration certificate"),
    "UTILITY_BILL": _l("A recent electricity, water or phone bill of your business"),
    "ITR": _l("Your latest income tax return"),
    "SHOP_ESTABLISHMENT_CERTIFICATE": _l("Your shop and establishment certificate"),
    "GST_SUPPORTING_CERTIFICATE": _l("Your GST certificate"),
    "SERVICE_LEVEL_AGREEMENT": _l("A service agreement with one of your clients"),
    "BANK_STATEMENT": _l("A recent statement of your business bank account"),
    "PAN_CARD": _l("Your business's PAN card"),
    "CERTIFICATE_OF_INCORPORATION": _l("Your company's certificate of incorporation"),
    "GST_CERTIFICATE": _l("Your GST registration certificate"),
    "SOLE_PROP_DOC_1_UPLOAD": _l("A proof of your business, such as a Udyam certificate or a "
                                 "utility bill"),
    "SOLE_PROP_DOC_2_UPLOAD": _l("A second, different proof of your business"),
    "FREELANCER_DOC_UPLOAD": _l("A proof of your work, such as a client agreement or an "
                                "income tax return"),
}
#: A type the table does not know: ops are expected to word it (the merchant's page).
ANY_OTHER = _l("One more document about your business: %(partner)s will tell you which")


def default_merchant_words(key: str, partner: str) -> str:
    """What the merchant reads for ``key`` with nothing written by ops, in the page's
    language; an owner's Aadhaar names the owner, never the PAN in its key."""
    if AADHAR_DOC_PATTERN.fullmatch(key):
        owner = key.partition("_")[2].removesuffix("_AADHAR").replace("_", " ").title()
        return _("The Aadhaar card of %(owner)s", owner=owner)
    words = MERCHANT_WORDS.get(key)
    return str(words) if words is not None else str(ANY_OTHER) % {"partner": partner}


def written_for(merchant: Merchant) -> dict[str, DocumentAsk]:
    """What ops wrote for the merchant's asked documents, by the gateway's key."""
    rows = db.session.scalars(select(DocumentAsk).where(DocumentAsk.merchant_id == merchant.id))
    return {row.doc_key: row for row in rows}


def merchant_words(key: str, written: DocumentAsk | None, partner: str) -> str:
    """What the merchant reads for ``key`` in the language being drawn: what ops wrote in it,
    else the default in it."""
    texts = written.merchant_texts if written is not None else None
    return (texts or {}).get(drawn_language()) or default_merchant_words(key, partner)


def defaults_by_language(key: str, partner: str) -> dict[str, str]:
    """The default merchant wording of ``key`` in every language (ops' form shows them)."""
    found = {}
    for language in LANGUAGES:
        with force_locale(language.code):
            found[language.code] = default_merchant_words(key, partner)
    return found


def drawn_language() -> str:
    """The language the page or email being written is in (Flask-Babel's locale)."""
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT


def ops_words(key: str, written: DocumentAsk | None) -> str:
    """What ops read for ``key``: what they wrote, else the document's label."""
    return (written.ops_words if written is not None and written.ops_words
            else label(key, Kind.DOCUMENT))


def write(merchant: Merchant, key: str, merchant_texts: dict[str, str], ops_text: str,
          actor: Actor) -> None:
    """Keep ops' wording of ``key``: the merchant's by language code (an empty text: that
    language's default) and ops' (empty: the label); audited; commits."""
    row = written_for(merchant).get(key)
    if row is None:
        row = DocumentAsk(merchant_id=merchant.id, doc_key=key)
        db.session.add(row)
    kept = {code: text for code, text in merchant_texts.items() if text}
    row.merchant_texts, row.ops_words = kept or None, ops_text or None
    row.updated_at, row.updated_by = clock.utcnow(), actor.label
    record("document.ask_words", actor=actor, merchant_id=merchant.id,
           detail={"docType": key, "merchantWords": kept, "opsWords": ops_text})
    db.session.commit()
