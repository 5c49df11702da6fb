"""After the verification page: how the sandbox's review ends, and when, on its clock."""

from __future__ import annotations

import pytest

from portal.gateway.errors import ValidationFailed
from portal.gateway.onboarding.reading import RFI_DETAILS
from tests.sandbox.payloads import document
from tests.sandbox.raw_calls import raw
from tests.sandbox.verification_pages import ready_link, status_of, walk
from tests.support.sandbox import speak


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
    data = partner.upload_document(onboarding_id, document("BANK_STATEMENT")).record
    assert data.merchantInfo.onboardingStatus == "PENDING_REVIEW"
    sandbox_server.backend.tick()
    assert status_of(partner, onboarding_id) == "APPROVED"


def test_an_rfi_for_a_gst_certificate_asks_a_type_beyond_the_list_and_takes_it(
        sandbox_server, partner, onboarding_id):
    walk(sandbox_server.url, ready_link(partner, onboarding_id, registeredName="Acme RFI GST Ltd"))
    sandbox_server.backend.tick()
    status = partner.get_status(onboarding_id)
    assert status.merchantOnboardingCheckListStatus.documentsToBeUploaded == ["GST_CERTIFICATE"]
    data = partner.upload_document(onboarding_id, document("GST_CERTIFICATE")).record
    assert data.merchantInfo.onboardingStatus == "PENDING_REVIEW"


def test_a_type_beyond_the_list_nobody_asked_for_is_refused(partner, onboarding_id):
    with pytest.raises(ValidationFailed) as refused:
        partner.upload_document(onboarding_id, document("SELFIE"))
    assert [(e.field, e.message) for e in refused.value.field_errors] == [
        ("merchantDocType", "Unknown document type")]


def test_the_docs_dialect_adds_rfi_details_while_the_review_asks_more(
        sandbox_server, partner, onboarding_id):
    walk(sandbox_server.url, ready_link(partner, onboarding_id, registeredName="Acme RFI Ltd"))
    assert RFI_DETAILS not in raw(partner, "get_status", onboardingId=onboarding_id).json()["data"]
    sandbox_server.backend.tick()
    assert RFI_DETAILS not in raw(partner, "get_status", onboardingId=onboarding_id).json()["data"]
    speak(sandbox_server, "docs")
    details = raw(partner, "get_status", onboardingId=onboarding_id).json()["data"][RFI_DETAILS]
    assert details["documentsRequested"] == ["BANK_STATEMENT"]
    assert "https://" in details["remarks"]
    partner.upload_document(onboarding_id, document("BANK_STATEMENT"))
    assert RFI_DETAILS not in raw(partner, "get_status", onboardingId=onboarding_id).json()["data"]
