"""The merchant's link page lists what the merchant still provides themselves (documents to
gather, website pages to add) in their language, folded under the verification."""

from __future__ import annotations

from portal.core.db import db
from portal.core.models.merchant import Merchant
from tests.verification.support import merchant_link, onboard, page_soup


def _merchant(app, language: str = "en") -> int:
    merchant_id = onboard(app)
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        merchant.requirement_choice = {"sector": "FOOD_AND_BEVERAGES",
                                       "products": ["DOMESTIC_CARDS_UPI_AND_INB"]}
        merchant.language = language
        db.session.commit()
    return merchant_id


def _asks(soup) -> dict[str, str]:
    return {li["data-requirement"]: li.get_text(" ", strip=True)
            for li in soup.select(".still-needed li[data-requirement]")}


def test_the_link_page_lists_the_documents_and_website_pages_still_needed(app, client):
    merchant_id = _merchant(app)
    soup = page_soup(client, merchant_link(app, merchant_id))
    asks = _asks(soup)
    assert asks["fssai_licence"] == "An FSSAI licence"
    assert "website_refund" in asks
    assert "bank_account" not in asks  # a fact of a step, the partner's to send
    assert not any(key.startswith(("kyc_", "pan_")) for key in asks)
    assert soup.select_one("details.still-needed").get("open") is None  # folded
    assert soup.select_one("iframe, .camera-check")  # the verification is still the page's


def test_the_list_is_in_the_merchants_language(app, client):
    merchant_id = _merchant(app, "hi")
    asks = _asks(page_soup(client, merchant_link(app, merchant_id)))
    assert asks["fssai_licence"] == "FSSAI लाइसेंस"
    assert asks["website_refund"] == "वेबसाइट पर रिफ़ंड नीति का पेज"


def test_a_pendency_raised_only_in_some_cases_waits_for_the_gateway(app, client):
    asks = _asks(page_soup(client, merchant_link(app, onboard(app))))
    assert "certificate_of_incorporation" in asks  # a company's, always
    assert "cancelled_cheque" not in asks and "owners_aadhaar" not in asks
