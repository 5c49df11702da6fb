"""Each onboarding sample of docs/gateway-contract.md, "Reading answers" (samples-rev3) has the
keys, nesting, types
and status words of the sandbox's docs-dialect answer; each webhook sample those of the
sandbox's delivery (with the docs' status names, plus the sandbox's own ``event_id``). Every
sample in the folder is one of them or a payments one (tests/sandbox/payments)."""

from __future__ import annotations

import pytest

from tests.sandbox.docs_samples import (
    ONBOARDING,
    PAYMENTS,
    WEBHOOKS,
    same_shape,
    sample,
    sample_names,
)
from tests.sandbox.payloads import bank, business, document
from tests.sandbox.raw_calls import raw
from tests.sandbox.verification_pages import ready_link, walk
from tests.sandbox.webhook_deliveries import verify_all
from tests.support.sandbox import speak

#: The docs' names of the contract's statuses (docs/gateway-facts.md A3), as the webhook
#: samples use.
DOCS_STATUS_NAMES = {"PENDING_REVIEW": "UNDER_REVIEW", "APPROVED": "ACCEPTED"}
#: The key the sandbox adds to every webhook payload, so a receiver can deduplicate.
EVENT_ID = "event_id"



def test_every_sample_is_compared_with_an_answer():
    assert sample_names() == {*PAYMENTS, *ONBOARDING, *WEBHOOKS}


def test_bank_details(sandbox_server, partner, onboarding_id):
    speak(sandbox_server, "docs")
    answer = raw(partner, "update_bank_details", bank(), onboardingId=onboarding_id)
    assert answer.status_code == sample("bank-details.docs.json")["http"]
    assert same_shape(answer.json(), "bank-details.docs.json")


def test_upload_documents(sandbox_server, partner, onboarding_id):
    speak(sandbox_server, "docs")
    answer = raw(partner, "upload_document", document("PAN"), onboardingId=onboarding_id)
    assert answer.status_code == sample("upload-documents.docs.json")["http"]
    assert same_shape(answer.json(), "upload-documents.docs.json")


def test_the_checklist_in_review(sandbox_server, partner, onboarding_id):
    walk(sandbox_server.url, ready_link(partner, onboarding_id))
    speak(sandbox_server, "docs")
    checklist = raw(partner, "get_status", onboardingId=onboarding_id).json()["data"][
        "merchantOnboardingCheckListStatus"]
    every_value_a_word = frozenset(sample("checklist-variants.openapi.json")["body"])
    assert same_shape(checklist, "checklist-variants.openapi.json", every_value_a_word)


@pytest.mark.parametrize(("name", "registered_name"), [
    ("webhook-vkyc-completed.docs.json", "Acme Widgets Private Limited"),
    ("webhook-merchant-accepted.docs.json", "Acme Widgets Private Limited"),
    ("webhook-pendency.docs.json", "Acme RFI Widgets Ltd"),
])
def test_webhooks(hooked, receiver, partner, ready, monkeypatch, name, registered_name):
    monkeypatch.setattr(hooked.state.config, "statusNames", DOCS_STATUS_NAMES)
    speak(hooked, "docs")
    partner.update_business_details(ready, business(registeredName=registered_name))
    verify_all(hooked, ready)
    hooked.backend.tick()
    event = sample(name)["body"]["status"]
    payload = next(r.payload for r in receiver.received if r.payload["status"] == event)
    assert EVENT_ID in payload
    assert same_shape({k: v for k, v in payload.items() if k != EVENT_ID}, name)
