"""What the merchant's link never shows: the ops wording, internal notes, other documents,
codes or ids (the gateway's own RFI text included); what ops write for the merchant does
show, and the defaults come in the merchant's language."""

from __future__ import annotations

from sqlalchemy import select

from portal.core.db import db
from portal.core.label_tables import TABLES, Kind
from portal.core.models.document import StoredDocument
from portal.core.models.merchant import Merchant
from portal.core.models.user import User
from portal.domain.asks.wording import MERCHANT_WORDS
from portal.domain.ownership.notes import add_note
from tests.asks.support import asked_merchant, asks_on, link_page, wording_path
from tests.verification.support import merchant_link

OPS_WORDS = "Bank statement, last 3 months: compare with the penny-drop name"
MERCHANT_TEXT = "Your bank statement for the last three months"
NOTE = "Owner sounded unsure about the turnover; check the statement closely"


def test_every_document_type_has_its_merchant_wording():
    assert set(TABLES[Kind.DOCUMENT]) - set(MERCHANT_WORDS) == set()


def test_the_link_never_shows_ops_words_notes_other_documents_or_ids(
        app, client, auth, sandbox, answer_dialect):
    auth.login("ops")
    merchant_id = asked_merchant(app, client, sandbox)
    path = merchant_link(app, merchant_id)
    client.post(wording_path(client, merchant_id),
                data={"ops_words": OPS_WORDS, "merchant_words_en": MERCHANT_TEXT})
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        ops = db.session.scalar(select(User).where(User.role == "ops"))
        add_note(merchant, NOTE, ops)
        secrets = [merchant.onboarding_id, merchant.external_onboarding_id, merchant.pan,
                   merchant.pan_masked, *merchant.documents_outstanding,
                   *(d.original_filename for d in db.session.scalars(select(StoredDocument)))]
        rfi = merchant.rfi_details
    ops_page = client.get(f"/merchants/{merchant_id}").get_data(as_text=True)
    assert OPS_WORDS in ops_page and MERCHANT_TEXT in ops_page

    soup = link_page(app.test_client(), path)
    assert asks_on(soup) == [("asked", MERCHANT_TEXT)]
    html = str(soup)
    for hidden in [OPS_WORDS, NOTE, "Bank statement", "BANK_STATEMENT", *secrets]:
        assert hidden not in html, hidden
    if rfi:  # the docs dialect's rfiDetails: the gateway's words for ops only
        for text in rfi.values():
            assert str(text) not in html


def test_the_defaults_read_in_the_merchants_language(app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = asked_merchant(app, client, sandbox)
    path = merchant_link(app, merchant_id)
    merchant = app.test_client()
    link_page(merchant, path)
    merchant.post(path.replace("?", "/language?"), data={"language": "hi"})
    soup = link_page(merchant, path)
    assert asks_on(soup) == [("asked", "आपके व्यवसाय के बैंक खाते का हाल का स्टेटमेंट")]
    assert soup.select_one("form.ask__form button").get_text(strip=True) == "यह दस्तावेज़ भेजें"
