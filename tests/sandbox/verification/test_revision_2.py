"""The sandbox after contract revision 2, over loopback HTTP: the review decided by tradeName when
registeredName is absent, the status names of the gateway's other pages, and the verification
page in the iframe docs' dialect (DigiLocker outside the frame, bare-string COMPLETE)."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from portal.gateway.onboarding.vocabulary import PennyDropStatus
from tests.sandbox.payloads import CALLBACK, bank, business, fill_every_step
from tests.sandbox.verification_pages import (
    PARTNER_ORIGIN,
    TICKED,
    Page,
    open_link,
    parsed,
    press,
    ready_link,
)


def without(body: dict, key: str) -> dict:
    return {k: v for k, v in body.items() if k != key}


@pytest.mark.parametrize(("trade_name", "outcome"), [
    ("Acme REJECT Traders", "REJECTED"),
    ("Acme RFI Traders", "RFI"),
    ("Acme Traders", "APPROVED"),
])
def test_without_registered_name_the_trade_name_decides_the_review(
        sandbox_server, partner, onboarding_id, trade_name, outcome):
    fill_every_step(partner, onboarding_id)
    body = {**without(business(), "registeredName"), "tradeName": trade_name}
    partner.update_business_details(onboarding_id, body)
    sandbox_server.backend.complete_verification(onboarding_id)
    assert sandbox_server.backend.finish_review(onboarding_id) == outcome


def test_bank_details_without_holder_name_return_the_banks_name(partner, onboarding_id):
    partner.update_business_details(onboarding_id, business())
    data = partner.update_bank_details(onboarding_id, without(bank(), "accountHolderName")).record
    settlement = data.merchantInfo.settlementDetails
    assert settlement.pennyDropStatus == PennyDropStatus.VERIFIED
    assert settlement.accountHolderName is None
    assert settlement.nameAtBank == "ACME WIDGETS PRIVATE LIMITED"


@pytest.fixture
def renamed(sandbox_server) -> Iterator[None]:
    """The sandbox names statuses as the lifecycle page and the webhooks do, in merchantStatus."""
    config = sandbox_server.state.config
    config.statusNames = {"PENDING_REVIEW": "UNDER_REVIEW", "APPROVED": "ACCEPTED"}
    config.statusKey = "merchantStatus"
    try:
        yield
    finally:
        config.statusNames = {}
        config.statusKey = "onboardingStatus"


def test_status_names_can_be_the_other_pages_ones(renamed, sandbox_server, partner,
                                                  onboarding_id):
    fill_every_step(partner, onboarding_id)
    backend = sandbox_server.backend
    backend.complete_verification(onboarding_id)
    info = partner.get_status(onboarding_id).merchantInfo
    assert (info.onboardingStatus, info.merchantStatus) == (None, "UNDER_REVIEW")
    assert info.status == "PENDING_REVIEW"
    backend.finish_review(onboarding_id)
    info = partner.get_status(onboarding_id).merchantInfo
    assert (info.merchantStatus, info.status) == ("ACCEPTED", "APPROVED")


# ---------------------------------------------------------------- DigiLocker outside the frame


def redirect_of(page: Page) -> dict:
    """The page's one REDIRECT message."""
    [message] = [m for m in page.messages if isinstance(m, dict)
                 and m["eventName"] == "PARTNER_MERCHANT_VERIFICATION_REDIRECT"]
    return message


def test_digilocker_outside_the_frame_then_back_to_the_callback(sandbox_server, partner,
                                                                onboarding_id):
    url = sandbox_server.url
    link = ready_link(partner, onboarding_id, registeredName="Acme REDIRECT Ltd")
    page = press(url, open_link(link), "tnc", **TICKED)
    assert page.step == "DIGILOCKER"
    message = redirect_of(page)
    assert page.messages == [message]  # no STEP messages in this dialect
    assert message["eventData"]["stepName"] == "DIGILOCKER"
    assert message["eventData"]["subStepId"] == "CONSENT_PROCEED"
    uri = message["eventData"]["uri"]
    assert uri.startswith(url + "/verification/digilocker?session=")
    assert page.soup.find("a", attrs={"target": "_top"})["href"] == uri  # a fallback link
    assert page.soup.find("input", attrs={"name": "consent"}) is None  # not inside the frame

    outside = parsed(requests.get(uri, timeout=5))
    assert outside.csp()["frame-ancestors"] == "'none'"  # top-level only
    assert outside.csp()["form-action"] == f"'self' {PARTNER_ORIGIN}"
    session = parse_qs(urlsplit(uri).query)["session"][0]
    refused = requests.post(url + "/verification/digilocker", data={"session": session},
                            allow_redirects=False, timeout=5)
    assert refused.status_code == 400
    assert "Tick the box" in refused.text
    consented = requests.post(url + "/verification/digilocker",
                              data={"session": session, "consent": "yes"},
                              allow_redirects=False, timeout=5)
    assert consented.status_code == 303
    assert consented.headers["Location"] == CALLBACK  # the callBackUrl of the link, only

    fresh = partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    resumed = open_link(fresh.redirectLink)
    assert resumed.step == "VKYC"
    done = press(url, resumed, "vkyc-pass")
    assert done.messages == ["PARTNER_MERCHANT_VERIFICATION_COMPLETE"]  # the bare string
    assert partner.get_status(onboarding_id).merchantInfo.onboardingStatus == "PENDING_REVIEW"


def test_the_digilocker_page_needs_an_open_session(sandbox_server):
    answer = requests.get(sandbox_server.url + "/verification/digilocker?session=forged",
                          timeout=5)
    assert answer.status_code == 403
    assert "not valid" in answer.text
