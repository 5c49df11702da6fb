"""Each step's page: its fields and stepper, errors beside fields, sends, drafts, locks."""

from __future__ import annotations

import pytest

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.step import StepDraft
from portal.domain.onboarding import locks, scenarios
from tests.support.rows import stored
from tests.wizard.support import onboard, point_gateway_at, sends, step_url, typed

FIELDS = {
    "business": ["entityType", "natureOfBusiness", "registeredName", "tradeName", "gstNumber",
                 "websiteUrl", "purposeCode", "expectedMonthlyVolume-amount",
                 "expectedMonthlyVolume-currency", "address-isOperatingSameAsRegistered",
                 "address-businessRegisteredAddress-zipcode",
                 "address-businessOperatingAddress-stateCode"],
    "owners": ["owners-0-designation", "owners-0-name", "owners-0-pan",
               "owners-0-percentageOwnership"],
    "bank": ["bankAccountNumber", "bankIfscCode", "accountHolderName", "accountType"],
    "signatory": ["authSignatoryName", "authSignatoryPan", "contact-phone", "contact-email"],
    "products": ["products", "productFees-GLOBAL_FUND_TRANSFER-feeType",
                 "productFees-GLOBAL_FUND_TRANSFER-fee",
                 *(f"productFees-INTERNATIONAL_CARDS_AND_ALT_PAYS-{i}-fee" for i in range(5)),
                 "productFees-DOMESTIC_CARDS_UPI_AND_INB-feeRate"],
}
FOLLOWING = {"business": "owners", "owners": "bank", "bank": "signatory",
             "signatory": "documents", "products": "verification"}


@pytest.mark.parametrize("step", list(FIELDS))
def test_a_step_page_renders_its_fields_and_all_nine_steps(browser, new_merchant, step):
    page = browser.get(step_url(new_merchant, step))
    assert page.response.status_code == 200
    for name in FIELDS[step]:
        assert page.soup.find(attrs={"name": name}) is not None, name
    states = page.step_states()
    assert list(states) == ["create", "business", "owners", "bank", "signatory", "documents",
                            "products", "verification", "status"]
    assert states["create"] == "sent"
    assert states[step] == "not_started"
    assert page.soup.select_one(f".stepper__step[data-step='{step}']")["aria-current"] == "step"


def test_step_one_renders_with_a_generated_id(browser):
    page = browser.get("/merchants/new")
    external_id = page.soup.find(attrs={"name": "externalOnboardingId"})["value"]
    assert external_id.startswith("pop-") and len(external_id) == 36
    assert page.soup.find(attrs={"name": "panNumber"}) is not None
    assert set(page.step_states().values()) == {"not_started"}


def test_fields_with_a_format_show_help_and_an_example(browser, new_merchant):
    expected = {"business": ["gstNumber"], "owners": ["owners-0-pan"],
                "bank": ["bankIfscCode"], "signatory": ["authSignatoryPan", "contact-phone"]}
    for step, names in expected.items():
        page = browser.get(step_url(new_merchant, step))
        for name in names:
            field = page.soup.find(attrs={"name": name})
            assert field.find_next(class_="field__help") is not None
            assert "Example:" in field.find_parent(class_="field").get_text()


@pytest.mark.parametrize(("step", "changes", "field", "message"), [
    ("business", {"gstNumber": "27AAPFU0939F1ZX"}, "gstNumber", "Not a valid GSTIN"),
    ("business", {"address-businessRegisteredAddress-zipcode": "012345"},
     "address-businessRegisteredAddress-zipcode", "PIN code"),
    ("owners", {"owners-1-pan": "ABCCE1234F"}, "owners-1-pan", "4th letter"),
    ("bank", {"bankIfscCode": "SBIN1000000"}, "bankIfscCode", "Not a valid IFSC"),
    ("signatory", {"contact-phone": "98765"}, "contact-phone", "international format"),
    ("signatory", {"contact-email": "not-an-email"}, "contact-email", "Not a valid email"),
    ("products", {"productFees-INTERNATIONAL_CARDS_AND_ALT_PAYS-2-fee": "abc"},
     "productFees-INTERNATIONAL_CARDS_AND_ALT_PAYS-2-fee", "decimal"),
])
def test_bad_input_is_refused_locally_beside_its_field(browser, new_merchant, sandbox, step,
                                                       changes, field, message):
    before = sends(sandbox)
    page = browser.submit(browser.get(step_url(new_merchant, step)),
                          typed(scenarios.HAPPY, step, **changes))
    assert page.response.request.path == step_url(new_merchant, step)
    assert any(message in error for error in page.errors_for(field)), page.errors_for(field)
    assert page.soup.find(attrs={"name": field})["value"] == next(iter(changes.values()))
    assert page.step_states()[step] == "needs_attention"
    assert sends(sandbox) == before  # nothing went to the gateway


def test_step_one_refuses_a_bad_pan_beside_the_field(browser, sandbox):
    page = browser.submit(browser.get("/merchants/new"),
                          typed(scenarios.HAPPY, "create", panNumber="ABCDE123"))
    assert any("Not a valid PAN" in e for e in page.errors_for("panNumber"))
    assert not [s for s in sends(sandbox) if s.startswith("POST")]


@pytest.mark.parametrize("step", list(FOLLOWING))
def test_a_valid_send_stores_the_answer_and_moves_on(browser, app, new_merchant, step):
    page = browser.submit(browser.get(step_url(new_merchant, step)), typed(scenarios.HAPPY, step))
    following = FOLLOWING[step]
    expected = step_url(new_merchant, following)
    assert page.response.request.path == expected
    assert "sent to the gateway" in page.text()
    assert page.step_states()[step] == "sent"
    assert stored(app, new_merchant).status == "IN_PROGRESS"


def test_save_draft_stores_without_sending(browser, app, new_merchant, sandbox):
    before = sends(sandbox)
    page = browser.submit(browser.get(step_url(new_merchant, "bank")),
                          typed(scenarios.HAPPY, "bank", bankIfscCode="half-typed"),
                          action="draft")
    assert sends(sandbox) == before
    assert page.step_states()["bank"] == "draft"
    assert page.soup.find(attrs={"name": "bankIfscCode"})["value"] == "half-typed"


def test_the_gateways_field_errors_land_on_nested_fields(browser, new_merchant):
    missing = "ABCPR9999K"  # the sandbox says a PAN with the digits 9999 does not exist
    page = browser.submit(browser.get(step_url(new_merchant, "owners")),
                          typed(scenarios.HAPPY, "owners", **{"owners-1-pan": "BCDPM9999L"}))
    assert page.errors_for("owners-1-pan") == ["PAN does not exist"]
    assert page.errors_for("owners-0-pan") == []
    assert "The gateway refused the request." in page.top_errors()

    page = browser.submit(browser.get(step_url(new_merchant, "signatory")),
                          typed(scenarios.HAPPY, "signatory", authSignatoryPan=missing))
    assert page.errors_for("authSignatoryPan") == ["PAN does not exist"]
    # the stored refusal is shown again when the page is opened later
    page = browser.get(step_url(new_merchant, "signatory"))
    assert page.errors_for("authSignatoryPan") == ["PAN does not exist"]
    assert page.step_states()["signatory"] == "needs_attention"


def test_the_owners_total_is_checked_and_shown_at_the_list(browser, new_merchant):
    changes = {"owners-1-percentageOwnership": "50"}
    page = browser.submit(browser.get(step_url(new_merchant, "owners")),
                          typed(scenarios.HAPPY, "owners", **changes))
    assert page.soup.find(id="owners-total").get_text() == "110"
    assert any("add up to 110" in e for e in page.group_errors("owners"))


def test_owners_are_added_and_removed_without_javascript(browser, new_merchant):
    page = browser.get(step_url(new_merchant, "owners"))
    assert len(page.soup.select("fieldset.owner")) == 1
    page = browser.submit(page, {"owners-0-name": "Asha Rao", "owners-0-pan": "ABCPR1234K",
                                 "owners-0-percentageOwnership": "60"}, action="add_owner")
    assert len(page.soup.select("fieldset.owner")) == 2
    assert page.soup.find(attrs={"name": "owners-0-name"})["value"] == "Asha Rao"
    page = browser.submit(page, {"owners-1-name": "Vikram Mehta",
                                 "owners-1-percentageOwnership": "30"}, action="remove_owner:0")
    rows = page.soup.select("fieldset.owner")
    assert len(rows) == 1
    assert page.soup.find(attrs={"name": "owners-0-name"})["value"] == "Vikram Mehta"
    assert page.soup.find(id="owners-total").get_text() == "30"
    assert "Sending replaces all owners" in page.text()


def test_nature_of_business_lists_the_cached_categories_in_groups(browser, new_merchant, sandbox):
    for _ in range(2):
        page = browser.get(step_url(new_merchant, "business"))
    group = page.soup.find("optgroup", label="Business services")
    assert group.find("option", value="BUS.IT_SERVICES") is not None
    lookups = [s for s in sends(sandbox) if s.endswith("/business-category")]
    assert len(lookups) == 1


def test_a_draft_survives_an_unreachable_gateway_and_retry_sends_it(browser, app, new_merchant,
                                                                     sandbox, closed_port):
    point_gateway_at(app, closed_port)
    page = browser.submit(browser.get(step_url(new_merchant, "bank")),
                          typed(scenarios.HAPPY, "bank"))
    banner = page.soup.select_one(".step-queued")  # queued for the sync (tests/outbox)
    assert "could not be reached" in banner.get_text()
    assert banner.find("button", string="Send now") is not None
    assert page.soup.find(attrs={"name": "bankAccountNumber"})["value"] == "1234567890"
    assert page.step_states()["bank"] == "queued"
    with app.app_context():
        draft = db.session.query(StepDraft).filter_by(merchant_id=new_merchant, step="bank").one()
        assert draft.payload["bankAccountNumber"] == "1234567890"

    page = browser.get(step_url(new_merchant, "bank"))  # later, the typed data is still there
    assert page.soup.find(attrs={"name": "accountHolderName"})["value"] == \
        "Sandbox Traders Private Limited"
    point_gateway_at(app, sandbox.url)
    response = browser.client.post(f"{step_url(new_merchant, 'bank')}/retry",
                                   follow_redirects=True)
    assert response.request.path == step_url(new_merchant, "signatory")
    assert stored(app, new_merchant).penny_drop_status == "VERIFIED"


def test_bank_page_shows_the_penny_drop_and_the_name_at_the_bank(browser, app, new_merchant):
    url = step_url(new_merchant, "bank")
    browser.submit(browser.get(url), typed(scenarios.HAPPY, "bank"))
    panel = browser.get(url).soup.select_one(".penny-drop").get_text(" ")
    assert "Verified" in panel and "SANDBOX TRADERS PRIVATE LIMITED" in panel
    browser.submit(browser.get(url), typed(scenarios.PENNY_DROP_FAILS, "bank"))
    panel = browser.get(url).soup.select_one(".penny-drop")
    assert "Failed" in panel.get_text() and "cancelled cheque" in panel.get_text()
    assert panel.find("a", href=f"/merchants/{new_merchant}/steps/documents") is not None
    assert "CANCELLED_CHEQUE" in stored(app, new_merchant).documents_outstanding


def test_products_offer_a_fee_for_every_card_network(browser, new_merchant):
    page = browser.get(step_url(new_merchant, "products"))
    networks = [fs.find("legend").get_text() for fs in page.soup.select("fieldset.network-fee")]
    assert networks == ["American Express", "Diners Club", "Discover", "Other debit cards",
                        "Other credit cards"]


def test_a_locked_refusal_locks_the_step_with_its_reason(browser, app, sandbox):
    merchant_id = onboard(browser, app)
    sandbox.state.onboarding.acknowledge_tnc(stored(app, merchant_id).onboarding_id)
    page = browser.submit(browser.get(step_url(merchant_id, "business")),
                          typed(scenarios.HAPPY, "business", tradeName="New name"))
    assert page.step_states()["business"] == "locked"
    assert "cannot be changed after the T&C acknowledgement" in \
        page.soup.select_one(".lock-reason").get_text()
    assert page.soup.select_one("form.step-form") is None


def test_locks_follow_the_stored_checklist(browser, app, new_merchant):
    with app.app_context():
        stored = db.session.get(Merchant, new_merchant)
        stored.checklist = {**stored.checklist, "tncAcknowledged": "COMPLETE"}
        db.session.commit()
    page = browser.get(step_url(new_merchant, "signatory"))
    assert page.soup.select_one("form.step-form") is None
    assert locks.TNC_REASON in page.text()
    states = page.step_states()
    assert states["business"] == states["signatory"] == "locked"
    assert states["owners"] == "not_started"


def test_every_page_offers_the_scenario_picker_in_the_sandbox(browser, new_merchant):
    for url in ["/merchants/new", *(step_url(new_merchant, s) for s in FIELDS),
                step_url(new_merchant, "create")]:
        if url.endswith("/create"):
            continue  # created: step 1 is read-only
        picker = browser.get(url).soup.select_one(".scenario-picker")
        assert picker is not None, url
        assert {o["value"] for o in picker.find_all("option")} == set(scenarios.LABELS)


def test_the_scenario_picker_is_absent_outside_the_sandbox(browser, app, new_merchant):
    settings = app.extensions["portal_settings"]
    app.extensions["portal_settings"] = settings.with_changes(gateway_is_sandbox=False)
    for url in ["/merchants/new", step_url(new_merchant, "bank"),
                f"/merchants/{new_merchant}/steps/documents"]:
        assert browser.get(url).soup.select_one(".scenario-picker") is None
    response = browser.client.post(f"/merchants/{new_merchant}/fill",
                                   data={"scenario": scenarios.HAPPY})
    assert response.status_code == 404
