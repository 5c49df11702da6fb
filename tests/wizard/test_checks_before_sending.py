"""The checks before sending on the step pages: each refusal beside its field with its reason,
nothing sent; "Send anyway" offered for advisory ones only, sending and audited."""

from __future__ import annotations

from portal.domain.onboarding import scenarios
from tests.support.rows import stored
from tests.support.team import audited
from tests.wizard.support import typed


def sends(sandbox, path_end: str) -> int:
    """How many requests the sandbox received whose path ends with ``path_end``."""
    return sum(1 for r in sandbox.state.onboarding.received_requests()
               if r.raw_path.endswith(path_end))


def business_page(browser, merchant_id: int, **changes):
    url = f"/merchants/{merchant_id}/steps/business"
    return browser.submit(browser.get(url), typed(scenarios.HAPPY, "business", **changes))


def test_a_gstin_from_another_state_is_refused_beside_the_field_with_the_reason(
        browser, app, new_merchant, sandbox):
    karnataka = scenarios.gstin_of(stored(app, new_merchant).pan, "29")
    before = sends(sandbox, "/business-details")
    page = business_page(browser, new_merchant, gstNumber=karnataka)
    [error] = page.errors_for("gstNumber")
    assert "registered in Karnataka" in error
    assert "the registered address is in Maharashtra" in error
    assert page.soup.find(attrs={"name": "gstNumber"})["value"] == karnataka  # kept as typed
    assert page.soup.select_one(".error-summary a[href='#gstNumber']") is not None
    assert page.soup.find("button", attrs={"value": "send_anyway"}) is not None
    assert page.step_states()["business"] == "needs_attention"
    assert sends(sandbox, "/business-details") == before
    # opened again later, the refusal and the offer are still there
    page = browser.get(f"/merchants/{new_merchant}/steps/business")
    assert "registered in Karnataka" in page.errors_for("gstNumber")[0]
    assert page.soup.find("button", attrs={"value": "send_anyway"}) is not None


def test_send_anyway_sends_past_an_advisory_check_and_is_audited(browser, app, new_merchant,
                                                                 sandbox):
    karnataka = scenarios.gstin_of(stored(app, new_merchant).pan, "29")
    page = business_page(browser, new_merchant, gstNumber=karnataka)
    page = browser.submit(page, action="send_anyway")
    assert page.response.request.path == f"/merchants/{new_merchant}/steps/owners"
    assert sends(sandbox, "/business-details") == 1
    [entry] = audited(app, "step.send_anyway")
    assert entry.detail == {"step": "business", "checks": ["gstin_state"]}
    assert entry.merchant_id == new_merchant


def test_a_gstin_of_another_pan_is_refused_and_cannot_be_sent_anyway(browser, new_merchant,
                                                                      sandbox):
    others = scenarios.gstin_of("AAPFU0939F")
    page = business_page(browser, new_merchant, gstNumber=others)
    assert "another PAN" in page.errors_for("gstNumber")[0]
    assert page.soup.find("button", attrs={"value": "send_anyway"}) is None
    page = browser.submit(page, action="send_anyway")  # a hand-made post is refused too
    assert "another PAN" in page.errors_for("gstNumber")[0]
    assert sends(sandbox, "/business-details") == 0


def test_an_entity_type_the_pan_does_not_fit_is_refused_beside_the_entity_type(
        browser, new_merchant, sandbox):
    page = business_page(browser, new_merchant, entityType="PARTNERSHIP_FIRM")
    [error] = page.errors_for("entityType")
    assert "a company's (4th letter C)" in error and "4th letter F" in error
    assert sends(sandbox, "/business-details") == 0


def test_an_ifsc_of_an_unknown_bank_is_refused_beside_the_ifsc_and_may_be_sent_anyway(
        browser, new_merchant, sandbox):
    url = f"/merchants/{new_merchant}/steps/bank"
    page = browser.submit(browser.get(url),
                          typed(scenarios.HAPPY, "bank", bankIfscCode="ZZZZ0000001"))
    assert "not the code of a bank" in page.errors_for("bankIfscCode")[0]
    assert sends(sandbox, "/bank-details") == 0
    page = browser.submit(page, action="send_anyway")
    assert page.response.request.path == f"/merchants/{new_merchant}/steps/signatory"
    assert sends(sandbox, "/bank-details") == 1
