"""Every mistake of a page at once: each field's own rules and the cross-field rules (the owners'
total, fee percentages, the addresses) in one round, under one summary that links to each."""

from __future__ import annotations

import pytest

from portal.domain.onboarding import scenarios
from portal.domain.onboarding.steps import BY_KEY
from portal.domain.onboarding.whole_page import check_all
from tests.support.browser import Page
from tests.wizard.support import sends, step_url, typed

SUMMARY = "Some fields need correcting"
#: Between the names of a field's place in the summary ("Owner 1 > PAN", with a single angle).
IN = " \u203a "
BAD_OWNERS = {"owners-0-pan": "ABCCE1234F",  # a company's PAN where a person's is asked for
              "owners-0-percentageOwnership": "75"}  # 75 + 40: 115 %
CARD_FEES = "productFees-INTERNATIONAL_CARDS_AND_ALT_PAYS"
BAD_FEES = {f"{CARD_FEES}-0-fee": "150",  # American Express at 150 %
            f"{CARD_FEES}-3-feeType": ""}  # and one fee type not chosen


def summary_links(page: Page) -> dict[str, str]:
    """The error summary's links: target id -> text."""
    return {a["href"]: a.get_text(" ", strip=True)
            for a in page.soup.select(".error-summary .error-summary__list a")}


def check(step: str, **changes: str) -> list[tuple[str, str]]:
    """What check_all finds in a scenario's data of ``step`` with ``changes`` (nested keys
    written as the form's field names)."""
    data = scenarios.form_data(scenarios.HAPPY, step)
    for name, value in changes.items():
        *path, last = name.split("-")
        place = data
        for part in path:
            place = place[int(part)] if part.isdigit() else place[part]
        place[last] = value
    shape = BY_KEY[step]
    value, errors = check_all(shape.shape, shape.request(data))
    assert value is None
    return [(e.field, e.message) for e in errors]


def test_a_field_error_and_the_owners_total_are_found_together():
    found = check("owners", **BAD_OWNERS)
    assert [field for field, _ in found] == ["[0].pan", "percentageOwnership"]
    assert "add up to 115" in found[1][1]


def test_an_unreadable_or_too_small_percentage_still_counts_as_typed():
    # "abc" adds nothing (as the page's running total); 5 % is refused but still adds 5
    assert [f for f, _ in check("owners", **{"owners-0-percentageOwnership": "abc"})] == \
        ["[0].percentageOwnership"]
    found = check("owners", **{"owners-0-percentageOwnership": "96",
                               "owners-1-percentageOwnership": "5", "owners-1-pan": ""})
    assert [f for f, _ in found] == ["[1].pan", "[1].percentageOwnership",
                                     "percentageOwnership"]


def test_a_fee_over_100_percent_is_found_beside_other_mistakes():
    found = check("products", **{"productFees-INTERNATIONAL_CARDS_AND_ALT_PAYS-0-fee": "150",
                                 "productFees-INTERNATIONAL_CARDS_AND_ALT_PAYS-3-feeType": "",
                                 "productFees-DOMESTIC_CARDS_UPI_AND_INB-feeRate": "120"})
    assert found == [
        ("productFees.INTERNATIONAL_CARDS_AND_ALT_PAYS[3].feeType", "This field is required"),
        ("productFees.INTERNATIONAL_CARDS_AND_ALT_PAYS[0].fee", "A percentage is at most 100"),
        ("productFees.DOMESTIC_CARDS_UPI_AND_INB", "A percentage is at most 100")]


def test_the_addresses_rule_runs_beside_a_bad_gstin():
    found = check("business", gstNumber="bad",
                  **{"address-isOperatingSameAsRegistered": False})
    assert [f for f, _ in found] == ["gstNumber", "address.businessOperatingAddress"]


def test_a_cross_field_error_on_a_field_already_in_error_is_not_said_twice():
    # two missing PANs read alike: "already listed" would repeat the field's own error
    found = check("owners", **{"owners-0-pan": "", "owners-1-pan": ""})
    assert found == [("[0].pan", "This field is required"), ("[1].pan", "This field is required")]


def test_the_owners_page_shows_the_pan_and_the_total_in_one_round(browser, new_merchant,
                                                                    sandbox):
    before = sends(sandbox)
    page = browser.submit(browser.get(step_url(new_merchant, "owners")),
                          typed(scenarios.HAPPY, "owners", **BAD_OWNERS))
    assert any("4th letter" in e for e in page.errors_for("owners-0-pan"))
    assert any("add up to 115" in e for e in page.group_errors("owners"))
    links = summary_links(page)
    assert list(links) == ["#owners-0-pan", "#owners"]
    assert links["#owners-0-pan"].startswith(f"Owner 1{IN}PAN: PAN holder type")
    assert links["#owners"].startswith("Beneficial owners: The owners' percentages add up to 115")
    assert sends(sandbox) == before


def test_a_150_percent_card_fee_is_refused_on_the_first_try(browser, new_merchant, sandbox):
    before = sends(sandbox)
    page = browser.submit(browser.get(step_url(new_merchant, "products")),
                          typed(scenarios.HAPPY, "products", **BAD_FEES))
    assert page.errors_for(f"{CARD_FEES}-0-fee") == ["A percentage is at most 100"]
    assert page.errors_for(f"{CARD_FEES}-3-feeType") == ["This field is required"]
    assert summary_links(page) == {
        f"#{CARD_FEES}-3-feeType": f"Other debit cards{IN}Fee type: This field is required",
        f"#{CARD_FEES}-0-fee": f"American Express{IN}Fee: A percentage is at most 100"}
    assert page.soup.find(attrs={"name": f"{CARD_FEES}-0-fee"})["value"] == "150"
    assert sends(sandbox) == before


@pytest.mark.parametrize("reopened", [False, True])
def test_the_summary_is_said_once_and_every_link_has_its_field(browser, new_merchant, reopened):
    url = step_url(new_merchant, "owners")
    page = browser.submit(browser.get(url), typed(scenarios.HAPPY, "owners", **BAD_OWNERS))
    if reopened:  # the stored errors of the failed send, shown when the step is opened again
        page = browser.get(url)
    assert page.text().count(SUMMARY) == 1
    assert page.top_errors() == []  # no second, vaguer message above the list
    for target in summary_links(page):
        assert page.soup.find(id=target.removeprefix("#")) is not None, target


def test_a_gateway_refusal_keeps_its_own_words_above_the_links(browser, new_merchant):
    page = browser.submit(browser.get(step_url(new_merchant, "owners")),
                          typed(scenarios.HAPPY, "owners", **{"owners-1-pan": "BCDPM9999L"}))
    assert page.top_errors() == ["The gateway refused the request."]
    assert summary_links(page) == {"#owners-1-pan": f"Owner 2{IN}PAN: PAN does not exist"}
