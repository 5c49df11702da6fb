""""What you'll need" before step 1, without JavaScript: the new-merchant page lists the
requirements of the chosen entity type, category and products; creating the merchant keeps
the choice; its summary ticks the list as documents arrive and steps are sent."""

from __future__ import annotations

from urllib.parse import urlencode

from portal.domain.onboarding import scenarios
from tests.support.rows import stored
from tests.support.team import audited
from tests.wizard.support import merchant_id_from, typed, upload

CHOICE = {"need-entityType": "PARTNERSHIP_FIRM", "need-sector": "FOOD_AND_BEVERAGES",
          "need-products": "DOMESTIC_CARDS_UPI_AND_INB"}


def listed(page, selector: str = ".requirements-list") -> dict[str, str]:
    """The requirement rows a page lists, by key, with their words."""
    return {li["data-requirement"]: li.get_text(" ", strip=True)
            for li in page.soup.select(f"{selector} li[data-requirement]")}


def test_the_new_merchant_page_lists_every_merchants_needs_before_anything_is_chosen(browser):
    rows = listed(browser.get("/merchants/new"))
    assert "bank_account" in rows and "partnership_deed" not in rows


def test_choosing_entity_category_and_products_lists_their_requirements(browser):
    page = browser.get("/merchants/new?" + urlencode(CHOICE))
    rows = listed(page)
    assert "The partnership deed" in rows["partnership_deed"]
    assert "not one of the partners" in rows["authorisation_letter"]
    assert "FSSAI" in rows["fssai_licence"]
    assert {"website_privacy", "website_refund", "website_terms", "website_shipping",
            "website_prices", "website_name"} <= set(rows)
    assert "board_resolution" not in rows
    chosen = page.soup.select_one("select[name='need-entityType'] option[selected]")
    assert chosen["value"] == "PARTNERSHIP_FIRM"  # the choice stays on the page


def test_the_merchant_keeps_the_choice_and_its_summary_ticks_as_steps_and_documents_arrive(
        browser, app):
    page = browser.get("/merchants/new?" + urlencode(CHOICE))
    page = browser.submit(page, typed(scenarios.HAPPY, "create",
                                      panNumber=scenarios.company_pan("F")))
    merchant_id = merchant_id_from(page)
    assert stored(app, merchant_id).requirement_choice == {
        "entityType": "PARTNERSHIP_FIRM", "sector": "FOOD_AND_BEVERAGES",
        "products": ["DOMESTIC_CARDS_UPI_AND_INB"]}
    assert audited(app, "merchant.requirements")[0].merchant_id == merchant_id

    summary = browser.get(f"/merchants/{merchant_id}")
    ticks = ticked(summary)
    assert ticks["pan_firm"] is True  # step 1 was sent
    assert ticks["partnership_deed"] is False and ticks["fssai_licence"] is False
    assert ticks["website_refund"] is False

    browser.submit(browser.get(f"/merchants/{merchant_id}/steps/business"),
                   typed(scenarios.HAPPY, "business", entityType="PARTNERSHIP_FIRM"))
    documents = browser.get(f"/merchants/{merchant_id}/steps/documents")
    upload(browser, documents, "PARTNERSHIP_DEED", scenarios.sample_pdf("deed"), "deed.pdf")
    ticks = ticked(browser.get(f"/merchants/{merchant_id}"))
    assert ticks["partnership_deed"] is True
    assert ticks["line_of_business"] is True  # step 2 was sent
    assert ticks["fssai_licence"] is False


def test_the_summary_changes_the_sector_with_its_form(browser, app, new_merchant):
    page = browser.get(f"/merchants/{new_merchant}")
    assert "iata_certification" not in ticked(page)
    page = browser.submit(page, {"need-sector": "INTERNATIONAL_TRAVEL"},
                          action="", selector=".requirements-change form")
    assert "iata_certification" in ticked(page)
    assert stored(app, new_merchant).requirement_choice == {"sector": "INTERNATIONAL_TRAVEL"}


def ticked(page) -> dict[str, bool]:
    """The summary's checklist: each row's key and whether it is ticked."""
    return {li["data-requirement"]: "requirement--done" in li["class"]
            for li in page.soup.select(".requirements-checklist li")}
