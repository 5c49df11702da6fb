"""Steps 1-7 for one merchant through the pages, against the real loopback sandbox."""

from __future__ import annotations

from portal.core.labels import Kind, label
from portal.domain.onboarding import scenarios
from tests.support.browser import Browser
from tests.support.rows import stored
from tests.wizard.support import merchant_id_from, typed, upload


def test_steps_one_to_seven_end_in_pending_verification(browser: Browser, app, sandbox):
    page = browser.submit(browser.get("/merchants/new"), typed(scenarios.HAPPY, "create"))
    merchant_id = merchant_id_from(page)
    for step, following in [("business", "owners"), ("owners", "bank"), ("bank", "signatory"),
                            ("signatory", "documents")]:
        assert page.response.request.path == f"/merchants/{merchant_id}/steps/{step}"
        page = browser.submit(page, typed(scenarios.HAPPY, step))
        assert page.response.request.path.endswith(f"/steps/{following}"), page.top_errors()

    outstanding = stored(app, merchant_id).documents_outstanding
    assert outstanding == ["ABCPR1234K_ASHA_RAO_AADHAR", "BCDPM5678L_VIKRAM_MEHTA_AADHAR"]
    for slot in outstanding:
        page = upload(browser, page, slot, scenarios.sample_pdf(slot), "aadhaar.pdf")
        assert f"{label(slot, Kind.DOCUMENT)} sent to the gateway." in page.text()
    assert page.soup.select_one(".nothing-outstanding") is not None

    page = browser.submit(browser.get(f"/merchants/{merchant_id}/steps/products"),
                          typed(scenarios.HAPPY, "products"))
    # no dead end: sending step 7 leads on to verification
    assert page.response.request.path == f"/merchants/{merchant_id}/verification"
    assert "Step 8 of 9: Verification" in page.text()

    row = stored(app, merchant_id)
    assert row.status == "PENDING_VERIFICATION"
    assert row.documents_outstanding == []
    assert row.penny_drop_status == "VERIFIED"
    states = page.step_states()
    assert [states[k] for k in ("create", "business", "owners", "bank", "signatory",
                                "documents", "products")] == ["sent"] * 7
    assert states["verification"] == states["status"] == "not_started"
    record = sandbox.state.onboarding.get_status("partner-test",
                                                              row.onboarding_id)
    assert record["merchantInfo"]["onboardingStatus"] == "PENDING_VERIFICATION"
    listing = browser.get("/merchants")
    assert listing.soup.select_one(f"tr[data-merchant='{merchant_id}'] .steps-done") \
        .get_text(strip=True) == "7 / 9"
