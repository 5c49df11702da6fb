"""The sandbox's review asks for what the requirements page says only the review finds: a
regulated sector's certificate (FSSAI for food and beverages) and, for cards, the website's
policy pages and prices, read from a real site served on loopback."""

from __future__ import annotations

import pytest

from portal.gateway.onboarding.vocabulary import OnboardingStatus
from tests.sandbox.payloads import business, document, fill_every_step
from tests.support.servers import serve
from tests.support.websites import HOME, site

#: A shop linking every page the review asks for, with its prices.
COMPLETE = HOME.replace('<a href="mailto:refunds@chai.example">refunds</a>',
                        '<a href="/refunds">Refund policy</a>')


def reviewed(sandbox_server, partner, onboarding_id, **details) -> OnboardingStatus:
    """Fill every step with ``details`` in the business details; verify; the review's end."""
    fill_every_step(partner, onboarding_id)
    partner.update_business_details(onboarding_id, business(**details))
    sandbox_server.backend.complete_verification(onboarding_id)
    return sandbox_server.backend.finish_review(onboarding_id)


def test_food_and_beverages_without_fssai_reaches_an_rfi_for_it(
        sandbox_server, partner, onboarding_id):
    outcome = reviewed(sandbox_server, partner, onboarding_id,
                       natureOfBusiness="FOOD.RESTAURANTS")
    assert outcome is OnboardingStatus.RFI
    status = partner.get_status(onboarding_id).merchantOnboardingCheckListStatus
    assert status.documentsToBeUploaded == ["LOB_DOCUMENT"]


def test_food_and_beverages_with_its_certificate_uploaded_first_is_approved(
        sandbox_server, partner, onboarding_id):
    partner.upload_document(onboarding_id, document("LOB_DOCUMENT"))
    outcome = reviewed(sandbox_server, partner, onboarding_id,
                       natureOfBusiness="FOOD.PACKAGED")
    assert outcome is OnboardingStatus.APPROVED


def test_a_card_merchants_website_without_a_refund_page_reaches_an_rfi_naming_it(
        sandbox_server, partner, onboarding_id, monkeypatch):
    monkeypatch.setattr(sandbox_server.state.config, "reviewWebsites", True)
    with serve(site({"/": ("200 OK", {}, HOME)})) as url:
        outcome = reviewed(sandbox_server, partner, onboarding_id, websiteUrl=url)
    assert outcome is OnboardingStatus.RFI
    record = sandbox_server.backend._get(onboarding_id)
    assert record.website_gaps == ["a refund policy page"]


@pytest.mark.parametrize(("read_websites", "home"), [(True, COMPLETE), (False, HOME)])
def test_a_website_with_every_page_or_not_read_is_approved(
        sandbox_server, partner, onboarding_id, monkeypatch, read_websites, home):
    monkeypatch.setattr(sandbox_server.state.config, "reviewWebsites", read_websites)
    with serve(site({"/": ("200 OK", {}, home)})) as url:
        outcome = reviewed(sandbox_server, partner, onboarding_id, websiteUrl=url)
    assert outcome is OnboardingStatus.APPROVED
