"""A step that can no longer change shows its values in words, laid out as its form: the same
labels and groups, choices by their labels, fee rows by card network, nothing raw."""

from __future__ import annotations

import pytest
from bs4 import Tag

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.onboarding import locks
from tests.support.browser import Page
from tests.support.finished import LONG_NAME, LONG_STREET, finished_merchant
from tests.wizard.support import FORM_STEPS, step_url

#: Codes the gateway speaks that a person must never read on these pages.
RAW = ("PVT_LTD_COMPANY", "BUS.IT_SERVICES", "PERCENTAGE", "CURRENT", "APPROVED",
       "INTERNATIONAL_CARDS_AND_ALT_PAYS", "DOMESTIC_CARDS_UPI_AND_INB", "AMERICAN_EXPRESS")


def values(page: Page) -> dict[str, str]:
    """The read-only rows: label -> value, in words (the last of a repeated label wins)."""
    return {row.dt.get_text(strip=True): row.dd.get_text(" ", strip=True)
            for row in page.soup.select(".step-values .values__row")}


def titles(page: Page) -> list[str]:
    """The groups' titles, in order."""
    return [h.get_text(strip=True) for h in page.soup.select(".step-values .values-group__title")]


def main_text(page: Page) -> str:
    """What the step's card says (the stepper and navigation aside)."""
    card = page.soup.select_one("section.wizard-step")
    assert isinstance(card, Tag)
    return " ".join(card.get_text(" ").split())


@pytest.fixture
def finished(app, browser) -> int:
    """An approved merchant whose steps hold long values."""
    return finished_merchant(app)


@pytest.mark.parametrize("step", FORM_STEPS)
def test_a_finished_merchants_step_is_shown_in_words_without_a_form(browser, finished, step):
    page = browser.get(step_url(finished, step))
    assert page.soup.select_one("form.step-form") is None
    assert page.soup.select_one(".scenario-picker") is None  # nothing to fill any more
    text = main_text(page)
    assert "The onboarding is approved: nothing can change any more." in text
    assert [code for code in RAW if code in text] == []
    assert values(page), "no values shown"


def test_business_details_read_as_words_in_the_forms_groups(browser, finished):
    page = browser.get(step_url(finished, "business"))
    shown = values(page)
    assert shown["Entity type"] == "Private limited company"
    assert shown["Nature of business"] == \
        "Computer programming and IT services (Business services)"
    assert shown["Registered name"] == LONG_NAME
    assert shown["Street address, line 1"] == LONG_STREET
    assert shown["The business operates at its registered address"] == "Yes"
    assert shown["Import export code"] == "—"
    # the form's groups in its order; the operating address, the registered one, is left out
    assert titles(page) == ["Expected monthly volume", "Addresses", "Registered address"]


def test_card_fees_are_named_by_network_and_products_by_name(browser, finished):
    page = browser.get(step_url(finished, "products"))
    assert titles(page) == ["International cards and alternative payments fee",
                            "American Express", "Diners Club", "Discover",
                            "Other debit cards", "Other credit cards",
                            "Domestic cards, UPI and net banking fee"]
    products = page.soup.select_one(".values__row dd[data-field='products']")
    assert [li.get_text(strip=True) for li in products.select("li")] == [
        "International cards and alternative payments", "Domestic cards, UPI and net banking"]
    amex = page.soup.select_one("[data-group='productFees-INTERNATIONAL_CARDS_AND_ALT_PAYS-0']")
    assert [dd.get_text(strip=True) for dd in amex.select("dd")] == ["Percentage", "2.5"]
    assert "Global fund transfer fee" not in main_text(page)  # not a product chosen


def test_owners_bank_and_identity_read_in_words_with_pans_masked(browser, app, finished):
    owners = browser.get(step_url(finished, "owners"))
    assert titles(owners)[:2] == ["Owner 1", "Owner 2"]
    assert "Together: 100 %" in main_text(owners)
    assert "ABCPR1234K" not in main_text(owners)
    bank = values(browser.get(step_url(finished, "bank")))
    assert bank["Account type"] == "Current"
    assert bank["Account number"].endswith("7890") and "123456" not in bank["Account number"]
    with app.app_context():
        pan = db.session.get(Merchant, finished).pan
    identity = browser.get(step_url(finished, "create"))
    assert values(identity)["Merchant name"] == LONG_NAME
    assert pan not in main_text(identity)


def test_a_rejected_merchants_steps_say_so_in_words(app, browser):
    page = browser.get(step_url(finished_merchant(app, "REJECTED"), "bank"))
    assert "The onboarding is rejected: nothing can change any more." in main_text(page)


def test_a_step_never_filled_says_so(app, browser, new_merchant):
    with app.app_context():
        db.session.get(Merchant, new_merchant).status = "REJECTED"
        db.session.commit()
    page = browser.get(step_url(new_merchant, "owners"))
    assert "No owners were entered." in main_text(page)
    assert "Together" not in main_text(page)
    assert set(values(browser.get(step_url(new_merchant, "bank"))).values()) == {"—"}


def test_a_step_locked_by_the_terms_reads_the_same_way(browser, app, new_merchant):
    url = step_url(new_merchant, "business")
    browser.submit(browser.get(url), {"entityType": "PVT_LTD_COMPANY",
                                      "registeredName": LONG_NAME}, action="draft")
    with app.app_context():
        merchant = db.session.get(Merchant, new_merchant)
        merchant.checklist = {**merchant.checklist, "tncAcknowledged": "COMPLETE"}
        db.session.commit()
    page = browser.get(url)
    assert locks.TNC_REASON in main_text(page)
    assert values(page)["Entity type"] == "Private limited company"
    assert values(page)["Registered name"] == LONG_NAME
