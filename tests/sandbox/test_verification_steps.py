"""The hosted verification page, walked without JS: steps, messages, tokens, locks."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
import requests
from bs4 import BeautifulSoup, Tag

from portal.gateway.errors import ValidationFailed
from portal.gateway.onboarding_client import OnboardingClient
from portal.gateway.onboarding_events import origin_of
from portal.sandbox.onboarding.backend import TOKEN_LIFETIME
from tests.sandbox.payloads import (
    CALLBACK,
    bank,
    business,
    document,
    fill_every_step,
    owners,
    signatory,
)

PARTNER_ORIGIN = "https://partner.example.com"
TICKED = {"accept": "yes", "consent": "yes"}


def step(name: str, onboarding_id: str) -> dict[str, Any]:
    """A STEP message as the parent should receive it."""
    return {"eventName": "PARTNER_MERCHANT_VERIFICATION_STEP",
            "eventData": {"onboardingId": onboarding_id, "stepName": name}}


def event(name: str, onboarding_id: str) -> dict[str, Any]:
    """A COMPLETE or CLOSED message."""
    return {"eventName": f"PARTNER_MERCHANT_VERIFICATION_{name}",
            "eventData": {"onboardingId": onboarding_id}}


@dataclass
class Page:
    """One answer of the verification page, parsed."""

    response: requests.Response
    soup: BeautifulSoup

    @property
    def body(self) -> Tag:
        """The <body>, which carries the messages."""
        body = self.soup.body
        assert body is not None
        return body

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The messages the page's script posts to its parent."""
        return json.loads(str(self.body["data-messages"]))

    @property
    def target_origin(self) -> str:
        """The targetOrigin the script posts them to."""
        return str(self.body["data-target-origin"])

    @property
    def session(self) -> str:
        """The session id in the page's forms."""
        field = self.soup.find("input", attrs={"name": "session"})
        assert isinstance(field, Tag), "no session field on the page"
        return str(field["value"])

    @property
    def step(self) -> str:
        """The current step: TNC, DIGILOCKER, VKYC, or DONE when none is current."""
        current = self.soup.select_one('.steps li[aria-current="step"]')
        return str(current["data-step"]) if current is not None else "DONE"

    def csp(self) -> dict[str, str]:
        """The Content-Security-Policy header by directive."""
        header = self.response.headers["Content-Security-Policy"]
        return dict(part.strip().split(" ", 1) for part in header.split(";"))

    def text(self) -> str:
        """The page's text, whitespace collapsed."""
        return " ".join(self.soup.get_text(" ").split())


def parsed(response: requests.Response) -> Page:
    """A response as a Page."""
    return Page(response, BeautifulSoup(response.text, "html.parser"))


def open_link(link: str) -> Page:
    """GET the redirect link."""
    return parsed(requests.get(link, timeout=5))


def press(url: str, page: Page, action: str, **fields: str) -> Page:
    """Post one of the page's buttons with the page's session."""
    data = {"session": page.session, "action": action, **fields}
    return parsed(requests.post(url + "/verification", data=data, timeout=5))


def ready_link(partner: OnboardingClient, onboarding_id: str, callback: str = CALLBACK,
               **business_overrides: Any) -> str:
    """Fill every step and ask for a verification link."""
    fill_every_step(partner, onboarding_id)
    if business_overrides:
        partner.update_business_details(onboarding_id, business(**business_overrides))
    return partner.get_verification_redirect(onboarding_id,
                                             {"callBackUrl": callback}).redirectLink


def walk(url: str, link: str) -> Page:
    """Open the link and pass every step; the last page."""
    page = open_link(link)
    for action in ("tnc", "digilocker", "vkyc-pass"):
        page = press(url, page, action, **TICKED)
    return page


def status_of(partner: OnboardingClient, onboarding_id: str) -> str:
    """The record's onboardingStatus."""
    return partner.get_status(onboarding_id).merchantInfo.onboardingStatus


def test_link_opens_the_first_step_with_strict_headers(sandbox_server, partner, onboarding_id):
    page = open_link(ready_link(partner, onboarding_id))
    assert page.response.status_code == 200
    assert page.step == "TNC"
    assert (page.messages, page.target_origin) == ([], PARTNER_ORIGIN)
    csp = page.csp()
    assert csp["frame-ancestors"] == PARTNER_ORIGIN
    assert csp["script-src"] == "'self'"
    assert csp["default-src"] == "'none'"
    assert "unsafe-inline" not in page.response.headers["Content-Security-Policy"]
    assert page.response.headers["Cache-Control"] == "no-store"
    assert page.response.headers["Referrer-Policy"] == "no-referrer"
    scripts = page.soup.find_all("script")
    assert [s["src"] for s in scripts] == ["/verification/static/verification.js"]
    assert all(not s.get_text(strip=True) for s in scripts)
    style = page.soup.find("style")
    assert isinstance(style, Tag)
    assert csp["style-src"] == f"'nonce-{style['nonce']}'"


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


@pytest.mark.parametrize(("registered_name", "outcome"), [
    ("Acme Widgets Private Limited", "APPROVED"),
    ("Acme REJECT Widgets Ltd", "REJECTED"),
    ("Acme RFI Widgets Ltd", "RFI"),
])
def test_review_ends_as_the_test_values_say_at_the_next_tick(sandbox_server, partner,
                                                             onboarding_id, registered_name,
                                                             outcome):
    walk(sandbox_server.url, ready_link(partner, onboarding_id, registeredName=registered_name))
    assert status_of(partner, onboarding_id) == "PENDING_REVIEW"
    sandbox_server.backend.tick()
    assert status_of(partner, onboarding_id) == outcome


def test_review_waits_review_seconds_on_the_sandbox_clock(sandbox_server, partner,
                                                          onboarding_id, monkeypatch):
    monkeypatch.setattr(sandbox_server.state.config, "reviewSeconds", 120.0)
    walk(sandbox_server.url, ready_link(partner, onboarding_id))
    backend, clock = sandbox_server.backend, sandbox_server.clock
    backend.tick()
    clock.advance(119)
    backend.tick()
    assert status_of(partner, onboarding_id) == "PENDING_REVIEW"
    clock.advance(1)
    backend.tick()
    assert status_of(partner, onboarding_id) == "APPROVED"


def test_rfi_document_returns_to_review_and_the_next_review_decides(sandbox_server, partner,
                                                                    onboarding_id):
    walk(sandbox_server.url, ready_link(partner, onboarding_id, registeredName="Acme RFI Ltd"))
    sandbox_server.backend.tick()
    status = partner.get_status(onboarding_id)
    assert status.merchantInfo.onboardingStatus == "RFI"
    assert status.merchantOnboardingCheckListStatus.documentsToBeUploaded == ["BANK_STATEMENT"]
    data = partner.upload_document(onboarding_id, document("BANK_STATEMENT"))
    assert data.merchantInfo.onboardingStatus == "PENDING_REVIEW"
    sandbox_server.backend.tick()
    assert status_of(partner, onboarding_id) == "APPROVED"


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


def test_second_use_of_a_link_is_refused(sandbox_server, partner, onboarding_id):
    link = ready_link(partner, onboarding_id)
    assert open_link(link).response.status_code == 200
    again = open_link(link)
    assert again.response.status_code == 410
    assert "This verification link was already used. Ask the partner for a new verification " \
           "link." in again.text()
    assert again.soup.find("form") is None
    assert again.csp()["frame-ancestors"] == PARTNER_ORIGIN  # the refusal shows in the iframe


def test_a_head_probe_does_not_use_the_link_up(sandbox_server, partner, onboarding_id):
    link = ready_link(partner, onboarding_id)
    assert requests.head(link, timeout=5).status_code == 200
    assert open_link(link).response.status_code == 200


def test_link_expires_after_24_hours(sandbox_server, partner, onboarding_id):
    link = ready_link(partner, onboarding_id)
    sandbox_server.clock.advance((TOKEN_LIFETIME + timedelta(seconds=1)).total_seconds())
    page = open_link(link)
    assert page.response.status_code == 410
    assert "This verification link has expired." in page.text()


def test_link_works_until_its_last_second(sandbox_server, partner, onboarding_id):
    link = ready_link(partner, onboarding_id)
    sandbox_server.clock.advance((TOKEN_LIFETIME - timedelta(seconds=1)).total_seconds())
    assert open_link(link).response.status_code == 200


def test_session_ends_when_the_link_would_have_expired(sandbox_server, partner, onboarding_id):
    page = open_link(ready_link(partner, onboarding_id))
    sandbox_server.clock.advance(TOKEN_LIFETIME.total_seconds())
    late = press(sandbox_server.url, page, "tnc", accept="yes")
    assert late.response.status_code == 410
    assert "session has expired" in late.text()
    assert partner.get_status(onboarding_id).merchantOnboardingCheckListStatus.tncAcknowledged \
        == "PENDING"


@pytest.mark.parametrize("query", ["", "?token=nope&onboardingId=x", "?token=&onboardingId="])
def test_unknown_link_is_refused_and_not_framable(sandbox_server, query):
    page = open_link(sandbox_server.url + "/verification" + query)
    assert page.response.status_code == 404
    assert "This verification link is not valid." in page.text()
    assert page.csp()["frame-ancestors"] == "'none'"


def test_link_for_another_record_is_refused_without_using_it_up(sandbox_server, partner,
                                                                onboarding_id):
    link = ready_link(partner, onboarding_id)
    assert open_link(link.replace(onboarding_id, "pg_onboard_other")).response.status_code \
        == 404
    assert open_link(link).response.status_code == 200


@pytest.mark.parametrize("session", ["", "forged-session-id"])
def test_a_step_needs_a_valid_session(sandbox_server, session):
    response = requests.post(sandbox_server.url + "/verification",
                             data={"session": session, "action": "tnc", "accept": "yes"},
                             timeout=5)
    assert response.status_code == 403
    assert "session is not valid" in parsed(response).text()


def test_target_origin_is_the_callback_origin_with_its_port(sandbox_server, partner,
                                                           onboarding_id):
    page = open_link(ready_link(partner, onboarding_id, "http://127.0.0.1:5000/onboarding/done"))
    assert page.target_origin == "http://127.0.0.1:5000"
    assert page.csp()["frame-ancestors"] == "http://127.0.0.1:5000"


@pytest.mark.parametrize(("url", "origin"), [
    ("https://Partner.Example.com/done?x=1", "https://partner.example.com"),
    ("https://partner.example.com:443/done", "https://partner.example.com"),
    ("https://user:pass@partner.example.com:8443/done", "https://partner.example.com:8443"),
    ("http://localhost:80/done", "http://localhost"),
    ("http://[::1]:8080/done", "http://[::1]:8080"),
])
def test_origin_of_a_callback_url(url, origin):
    assert origin_of(url) == origin


def test_script_posts_to_the_exact_origin_only_when_framed(sandbox_server):
    response = requests.get(sandbox_server.url + "/verification/static/verification.js",
                            timeout=5)
    assert response.status_code == 200
    assert "javascript" in response.headers["Content-Type"]
    script = response.text
    assert "window.parent.postMessage(message, targetOrigin)" in script
    assert "window.parent !== window && targetOrigin" in script  # only when framed
    assert '"*"' not in script
    assert "'*'" not in script
