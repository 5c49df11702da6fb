"""Required fields are marked (``required`` and a visible asterisk) from the request shapes that
validate them: a marked field left blank is refused when sent, an unmarked one never is."""

from __future__ import annotations

import pytest
from bs4 import Tag

from portal.domain.onboarding import scenarios
from tests.support.browser import Browser, Page
from tests.wizard.support import typed

STREET_2 = "address-businessRegisteredAddress-streetAddress2"


def required_inputs(page: Page) -> set[str]:
    form = page.form()
    return {tag["name"] for tag in form.find_all(["input", "select", "textarea"])
            if tag.has_attr("required")}


def text_inputs(page: Page) -> set[str]:
    return {tag["name"] for tag in page.form().find_all(["input", "select", "textarea"])
            if tag.get("type") not in ("hidden", "checkbox", "submit") and tag.get("name")}


def has_visible_mark(tag: Tag) -> bool:
    box = tag.find_parent(class_="field")
    return box is not None and box.select_one("label + .required, .required") is not None


def test_step_one_marks_the_id_and_pan_not_the_portal_only_name(browser: Browser):
    page = browser.get("/merchants/new")
    assert required_inputs(page) == {"externalOnboardingId", "panNumber"}


def test_business_details_mark_street_line_two_and_leave_the_optional_names(
        browser: Browser, new_merchant: int):
    page = browser.get(f"/merchants/{new_merchant}/steps/business")
    marked = required_inputs(page)
    assert STREET_2 in marked
    assert {"entityType", "natureOfBusiness", "websiteUrl", "purposeCode",
            "expectedMonthlyVolume-amount"} <= marked
    assert not {"registeredName", "tradeName", "gstNumber", "iec"} & marked
    for name in marked:
        assert has_visible_mark(page.soup.find(attrs={"name": name})), name


@pytest.mark.parametrize("step", ["business", "bank", "signatory"])
def test_a_marked_field_left_blank_is_refused_and_an_unmarked_one_is_not(
        browser: Browser, new_merchant: int, step: str):
    url = f"/merchants/{new_merchant}/steps/{step}"
    page = browser.get(url)
    marked = required_inputs(page)
    # the operating address is only read when it differs; USD is the only currency
    checked = {name for name in text_inputs(page)
               if not name.startswith("address-businessOperatingAddress-")
               and name != "expectedMonthlyVolume-currency"}
    for name in sorted(checked):
        sent = browser.submit(browser.get(url), typed(scenarios.HAPPY, step, **{name: ""}))
        refused = sent.response.request.path == url and bool(sent.errors_for(name))
        assert refused == (name in marked), name


def test_owner_rows_added_later_are_marked_too(browser: Browser, new_merchant: int):
    page = browser.get(f"/merchants/{new_merchant}/steps/owners")
    page = browser.submit(page, {}, action="add_owner")
    assert {"owners-1-name", "owners-1-pan", "owners-1-percentageOwnership"} <= \
        required_inputs(page)
    assert "owners-1-designation" not in required_inputs(page)


def test_products_mark_the_group_not_each_checkbox(browser: Browser, new_merchant: int):
    page = browser.get(f"/merchants/{new_merchant}/steps/products")
    legend = page.soup.find(attrs={"name": "products"}).find_parent("fieldset").legend
    assert legend.select_one(".required") is not None  # choose at least one product
    assert not any(box.has_attr("required")
                   for box in page.soup.find_all("input", attrs={"name": "products"}))
    assert {"productFees-GLOBAL_FUND_TRANSFER-feeType",
            "productFees-GLOBAL_FUND_TRANSFER-fee"} <= required_inputs(page)
