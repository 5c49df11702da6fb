"""What the sandbox's compliance review asks for after the video KYC, as the gateway's page
"Merchant Requirements" (docs repository, ``set-up/partner-onboarding/merchant-requirements.mdx``;
docs/gateway-facts.md A4) describes: a regulated line of business's certificate (BIS for
jewellery, IRDAI for insurance, FSSAI for food and beverages, IATA for travel) as a
``LOB_DOCUMENT``, and for cards the website's policy pages and prices ("Gaps here will block
the compliance review even after VKYC succeeds").

The documents the page lists by entity type (a partnership's deed, an LLP's agreement, a
signatory's authorisation) are asked before the verification already, in
``documentsToBeUploaded`` (``documents.py``); this module is what only the review finds.

The website is read only when the config's ``reviewWebsites`` is on: it is fetched (loopback
allowed, this is an emulator for tests), its links read for each page. A site that cannot be
read lacks every page. This reading is the emulator's own, apart from the portal's check, so a
portal check that predicts it is measured against an independent reviewer.
"""

from __future__ import annotations

import re

import requests

from portal.gateway.onboarding.vocabulary import Product
from portal.sandbox.onboarding.records import OnboardingRecord

LOB_DOCUMENT = "LOB_DOCUMENT"
#: The categories (``natureOfBusiness``) of the page's regulated sectors, and the certificate.
REGULATED = {
    "RETAIL.JEWELLERY": "a BIS hallmarking certificate",
    "FIN.INSURANCE": "an IRDAI licence",
    "FOOD.RESTAURANTS": "an FSSAI licence",
    "FOOD.PACKAGED": "an FSSAI licence",
    "TRANS.TRAVEL_AGENCY": "an IATA certification",
}
CARDS = frozenset({Product.INTERNATIONAL_CARDS_AND_ALT_PAYS, Product.DOMESTIC_CARDS_UPI_AND_INB})
#: Each page the review looks for: its key, its words, a pattern of its link's address or words.
WEBSITE_PAGES = (
    ("privacy", "a privacy policy page", re.compile(r"privacy", re.I)),
    ("refund", "a refund policy page", re.compile(r"refund|cancellation|returns?\b", re.I)),
    ("terms", "a terms and conditions page", re.compile(r"terms|conditions", re.I)),
    ("shipping", "a shipping or delivery policy page", re.compile(r"shipping|delivery", re.I)),
)
_PRICE = re.compile(r"(₹|rs\.?|inr)\s?\d", re.I)
_LINK = re.compile(r"<a\b[^>]*href\s*=\s*[\"']([^\"']*)[\"'][^>]*>(.*?)</a>", re.I | re.S)
TIMEOUT_SECONDS = 5
MAX_BYTES = 1_000_000


def certificate_gap(record: OnboardingRecord) -> str | None:
    """``LOB_DOCUMENT`` when the record's line of business is regulated and none was uploaded."""
    business = record.business
    nature = business.natureOfBusiness if business else ""
    if nature in REGULATED and LOB_DOCUMENT not in record.uploaded_types():
        return LOB_DOCUMENT
    return None


def asks_for_cards(record: OnboardingRecord) -> bool:
    """Whether the record asked for a card product."""
    return bool(record.products and CARDS.intersection(record.products.products))


def website_gaps(url: str) -> list[str]:
    """What the website at ``url`` lacks of the review's pages and prices, in words."""
    try:
        with requests.get(url, timeout=TIMEOUT_SECONDS, stream=True,
                          headers={"User-Agent": "PayGlocal-Sandbox-Review/1.0"}) as answer:
            html = answer.raw.read(MAX_BYTES, decode_content=True).decode("utf-8", "replace") \
                if answer.status_code == 200 else ""
    except requests.RequestException:
        html = ""
    links = [f"{href} {words}" for href, words in _LINK.findall(html)
             if not href.startswith(("mailto:", "#"))]
    gaps = [words for _key, words, cue in WEBSITE_PAGES
            if not any(cue.search(link) for link in links)]
    if not _PRICE.search(re.sub(r"<[^>]+>", " ", html)):
        gaps.append("prices shown")
    return gaps


def review_gaps(record: OnboardingRecord, read_websites: bool) -> tuple[list[str], list[str]]:
    """What the review asks for: the documents (a regulated sector's certificate) and the
    website's gaps in words (only when ``read_websites``, for a record asking for cards)."""
    documents = [gap] if (gap := certificate_gap(record)) else []
    website = record.business.websiteUrl if record.business else ""
    pages = website_gaps(str(website)) if read_websites and website and asks_for_cards(record) \
        else []
    return documents, pages
