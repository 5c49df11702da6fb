"""The sandbox's scenario is chosen once per merchant and kept until changed; "Fill every step"
fills every step that can still change with it, so an RFI chosen on step 1 stays an RFI."""

from __future__ import annotations

import json

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.onboarding import scenarios
from tests.support.browser import Browser, Page
from tests.support.rows import stored
from tests.wizard.support import merchant_id_from, sends, step_url

FORM_STEPS = ("business", "owners", "bank", "signatory", "products")


def pick(browser: Browser, page: Page, scenario: str) -> Page:
    """Choose ``scenario`` in the page's picker and press "Fill every step"."""
    return browser.submit(page, {"scenario": scenario}, action="",
                          selector="form.scenario-picker")


def picked(page: Page) -> str:
    """The scenario the page's picker shows as chosen."""
    option = page.soup.select_one("form.scenario-picker option[selected]")
    return option["value"] if option else ""


def flashed(page: Page) -> str:
    """The messages flashed atop the page."""
    return " ".join(p.get_text(" ", strip=True) for p in page.soup.select(".flashes .flash"))


def value_of(page: Page, name: str) -> str:
    """The value of the input ``name`` as the page shows it."""
    return page.soup.find(attrs={"name": name})["value"]


def test_an_rfi_chosen_on_step_one_fills_every_step_and_stays_chosen(browser, app, sandbox):
    page = pick(browser, browser.get("/merchants/new"), scenarios.REVIEW_RFI)
    merchant_id = merchant_id_from(page)
    assert page.response.request.path == step_url(merchant_id, "create")
    assert picked(page) == scenarios.REVIEW_RFI
    assert "Review asks for more information" in page.text()
    assert stored(app, merchant_id).sandbox_scenario == scenarios.REVIEW_RFI
    states = page.step_states()
    assert [states[step] for step in FORM_STEPS] == ["draft"] * len(FORM_STEPS)
    # every step's page offers the same scenario and holds its data, sent as it stands
    page = browser.submit(page)  # step 1: Save and send
    for step in FORM_STEPS:
        assert page.response.request.path == step_url(merchant_id, step), page.text()[:300]
        assert picked(page) == scenarios.REVIEW_RFI
        if step == "business":
            assert value_of(page, "registeredName").startswith("RFI ")
        page = browser.submit(page)
        if step == "signatory":  # documents next: its page offers the scenario too
            assert picked(page) == scenarios.REVIEW_RFI
            page = browser.get(step_url(merchant_id, "products"))
    business = [r for r in sandbox.state.onboarding.received_requests()
                if r.raw_path.endswith("/business-details")]
    assert [json.loads(r.body)["registeredName"] for r in business] == [
        "RFI Sandbox Traders Private Limited"]


def test_changing_the_scenario_refills_only_what_differs(browser, app, new_merchant):
    page = pick(browser, browser.get(step_url(new_merchant, "business")), scenarios.HAPPY)
    browser.submit(page)  # business details sent with the happy data
    browser.submit(browser.get(step_url(new_merchant, "bank")))  # and the bank details
    asked = pick(browser, browser.get(step_url(new_merchant, "owners")),
                 scenarios.PENNY_DROP_FAILS)
    # the bank details sent would change: the page says so and asks first
    assert [li.get_text(strip=True) for li in asked.soup.select(".fill-confirm__replaced li")] \
        == ["Step 4, bank details: the values sent to the gateway (they become a draft to send "
            "again)"]
    assert stored(app, new_merchant).sandbox_scenario == scenarios.HAPPY  # nothing changed yet
    page = browser.submit(asked, action="", selector="section.fill-confirm form")
    assert page.response.request.path == step_url(new_merchant, "owners")  # back where it was
    assert picked(page) == scenarios.PENNY_DROP_FAILS
    states = page.step_states()
    assert states["business"] == "sent"  # the same business details in both scenarios
    assert states["bank"] == "draft"  # a failing account now, to send again
    assert value_of(browser.get(step_url(new_merchant, "bank")), "bankAccountNumber") == \
        scenarios.FAILING_BANK[0]
    assert "Filled step 4 with the test data for 'Penny drop fails" in flashed(page)


def test_a_saved_draft_is_named_and_kept_when_the_user_keeps_it(browser, app, new_merchant):
    page = browser.get(step_url(new_merchant, "bank"))
    browser.submit(page, {"bankAccountNumber": "5556667778"}, action="draft")
    asked = pick(browser, browser.get(step_url(new_merchant, "owners")), scenarios.HAPPY)
    replaced = [li.get_text(strip=True) for li in asked.soup.select(".fill-confirm__replaced li")]
    assert replaced == ["Step 4, bank details: the saved draft"]
    keep = asked.soup.select_one("section.fill-confirm a")
    assert (keep.get_text(strip=True), keep["href"]) == ("Keep them", step_url(new_merchant,
                                                                                 "owners"))
    assert value_of(browser.get(step_url(new_merchant, "bank")), "bankAccountNumber") == \
        "5556667778"


def test_filling_again_with_the_same_scenario_changes_nothing(browser, new_merchant, sandbox):
    page = pick(browser, browser.get(step_url(new_merchant, "bank")), scenarios.HAPPY)
    page = browser.submit(page)  # bank sent
    before = sends(sandbox)
    page = pick(browser, browser.get(step_url(new_merchant, "bank")), scenarios.HAPPY)
    assert page.step_states()["bank"] == "sent"
    assert "already holds the test data" in flashed(page)
    assert sends(sandbox) == before  # filling never sends


def test_locked_steps_and_a_sent_identity_are_not_filled(browser, app, new_merchant):
    with app.app_context():
        merchant = db.session.get(Merchant, new_merchant)
        merchant.checklist = {**merchant.checklist, "tncAcknowledged": "COMPLETE"}
        db.session.commit()
    name = stored(app, new_merchant).display_name
    page = pick(browser, browser.get(step_url(new_merchant, "owners")), scenarios.REVIEW_RFI)
    states = page.step_states()
    assert states["business"] == states["signatory"] == "locked"
    assert states["owners"] == "draft"
    assert stored(app, new_merchant).display_name == name  # step 1 was sent: left alone
    assert "Filled steps 3, 4 and 7 with the test data for 'Review asks for more information'" in \
        flashed(page)


def test_the_picker_names_the_kept_scenario_on_every_step_page(browser, new_merchant):
    assert picked(browser.get(step_url(new_merchant, "bank"))) == scenarios.HAPPY  # default
    pick(browser, browser.get(step_url(new_merchant, "bank")), scenarios.DIGILOCKER_OUTSIDE)
    for step in (*FORM_STEPS, "documents"):
        page = browser.get(step_url(new_merchant, step))
        assert picked(page) == scenarios.DIGILOCKER_OUTSIDE, step
        assert "This merchant's scenario: Verification page as the gateway's" in page.text()
