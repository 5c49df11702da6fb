"""The verification page's steps, walked without JS: messages posted, sections locked, refusals."""

from __future__ import annotations

import pytest
from bs4 import Tag

from portal.gateway.errors import ValidationFailed
from tests.sandbox.payloads import CALLBACK, bank, business, document, owners, signatory
from tests.sandbox.verification_pages import (
    PARTNER_ORIGIN,
    event,
    open_link,
    press,
    ready_link,
    status_of,
    step,
)


def test_page_is_accessible_html(sandbox_server, partner, onboarding_id):
    page = open_link(ready_link(partner, onboarding_id))
    html = page.soup.find("html")
    assert isinstance(html, Tag)
    assert html["lang"] == "en"
    assert page.soup.title is not None
    assert page.soup.title.get_text(strip=True)
    assert [h.get_text(strip=True) for h in page.soup.find_all(["h1", "h2"])] == [
        "Merchant verification", "Step 1 of 3: Terms and conditions"]
    for field in page.soup.find_all("input", attrs={"type": "checkbox"}):
        assert page.soup.find("label", attrs={"for": field["id"]}) is not None
    buttons = [b.get_text(strip=True) for b in page.soup.find_all("button")]
    assert buttons == ["Accept and continue", "Close verification"]


def test_walk_through_posts_each_step_and_locks_sections(sandbox_server, partner,
                                                         onboarding_id):
    url = sandbox_server.url
    page = open_link(ready_link(partner, onboarding_id))

    page = press(url, page, "tnc", accept="yes")
    assert page.response.status_code == 200
    assert (page.messages, page.target_origin) == ([step("TNC", onboarding_id)], PARTNER_ORIGIN)
    assert page.step == "DIGILOCKER"
    checklist = partner.get_status(onboarding_id).merchantOnboardingCheckListStatus
    assert (checklist.tncAcknowledged, checklist.digiLocker) == ("COMPLETE", "PENDING")
    with pytest.raises(ValidationFailed) as caught:
        partner.update_business_details(onboarding_id, business())
    assert [e.field for e in caught.value.field_errors] == ["businessDetails"]
    with pytest.raises(ValidationFailed):
        partner.update_auth_signatory(onboarding_id, signatory())
    partner.update_bank_details(onboarding_id, bank())  # not locked before verification

    page = press(url, page, "digilocker", consent="yes")
    assert page.messages == [step("DIGILOCKER", onboarding_id)]
    assert page.step == "VKYC"
    assert partner.get_status(onboarding_id).merchantOnboardingCheckListStatus.digiLocker \
        == "COMPLETE"
    assert status_of(partner, onboarding_id) == "PENDING_VERIFICATION"

    page = press(url, page, "vkyc-pass")
    assert page.messages == [step("VKYC", onboarding_id), event("COMPLETE", onboarding_id)]
    assert page.step == "DONE"
    assert "Verification complete" in page.text()
    status = partner.get_status(onboarding_id)
    assert status.merchantInfo.onboardingStatus == "PENDING_REVIEW"
    assert status.merchantOnboardingCheckListStatus.vkyc == "COMPLETE"
    for name, body, section in [("update_bank_details", bank(), "bankDetails"),
                                ("add_beneficial_owners", owners(), "beneficialOwners"),
                                ("upload_document", document("IEC"), "documents")]:
        with pytest.raises(ValidationFailed) as caught:
            getattr(partner, name)(onboarding_id, body)
        assert [e.field for e in caught.value.field_errors] == [section]


def test_vkyc_failure_keeps_the_status_and_can_be_retried(sandbox_server, partner,
                                                         onboarding_id):
    url = sandbox_server.url
    page = open_link(ready_link(partner, onboarding_id))
    page = press(url, press(url, page, "tnc", accept="yes"), "digilocker", consent="yes")

    page = press(url, page, "vkyc-fail")
    assert page.response.status_code == 200
    assert page.messages == []
    assert page.step == "VKYC"
    assert "Video KYC did not succeed. You can try again." in page.text()
    status = partner.get_status(onboarding_id)
    assert status.merchantInfo.onboardingStatus == "PENDING_VERIFICATION"
    assert status.merchantOnboardingCheckListStatus.vkyc == "FAILED"

    page = press(url, page, "vkyc-pass")
    assert page.messages == [step("VKYC", onboarding_id), event("COMPLETE", onboarding_id)]
    assert status_of(partner, onboarding_id) == "PENDING_REVIEW"


@pytest.mark.parametrize(("action", "box"), [("tnc", "accept"), ("digilocker", "consent")])
def test_a_step_needs_its_box_ticked(sandbox_server, partner, onboarding_id, action, box):
    url = sandbox_server.url
    page = open_link(ready_link(partner, onboarding_id))
    if action == "digilocker":
        page = press(url, page, "tnc", accept="yes")
    page = press(url, page, action)
    assert page.response.status_code == 400
    assert page.messages == []
    field = page.soup.find("input", attrs={"name": box})
    assert isinstance(field, Tag)
    assert field["aria-invalid"] == "true"
    assert page.soup.select_one(f'#error-summary a[href="#{box}"]') is not None


def test_a_button_of_a_done_step_changes_nothing(sandbox_server, partner, onboarding_id):
    url = sandbox_server.url
    page = press(url, open_link(ready_link(partner, onboarding_id)), "tnc", accept="yes")
    again = press(url, page, "tnc", accept="yes")
    assert again.response.status_code == 409
    assert (again.messages, again.step) == ([], "DIGILOCKER")
    early = press(url, page, "vkyc-pass")
    assert early.response.status_code == 409
    assert status_of(partner, onboarding_id) == "PENDING_VERIFICATION"
    unknown = press(url, page, "approve-me")
    assert unknown.response.status_code == 400


def test_a_step_is_refused_when_the_record_is_no_longer_ready(sandbox_server, partner,
                                                              onboarding_id):
    url = sandbox_server.url
    page = press(url, open_link(ready_link(partner, onboarding_id)), "tnc", accept="yes")
    partner.update_bank_details(onboarding_id, bank(account="9876543210"))  # a cheque is due
    page = press(url, page, "digilocker", consent="yes")
    assert page.response.status_code == 409
    assert page.messages == []
    assert "This step cannot be completed now" in page.text()


def test_closing_posts_closed_and_ends_the_session(sandbox_server, partner, onboarding_id):
    url = sandbox_server.url
    page = press(url, open_link(ready_link(partner, onboarding_id)), "tnc", accept="yes")
    closed = press(url, page, "close")
    assert closed.response.status_code == 200
    assert closed.messages == [event("CLOSED", onboarding_id)]
    assert closed.target_origin == PARTNER_ORIGIN
    later = press(url, page, "digilocker", consent="yes")
    assert later.response.status_code == 410
    assert "was closed" in later.text()
    # a new link resumes where the merchant stopped
    link = partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    assert open_link(link.redirectLink).step == "DIGILOCKER"
