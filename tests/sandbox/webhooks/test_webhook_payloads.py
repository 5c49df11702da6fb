"""What the sandbox's webhooks deliver on tick(): each event's payload, signature and order."""

from __future__ import annotations

import pytest
import requests

from portal.gateway.onboarding.hmac import hmac_digest
from tests.sandbox.payloads import business, document, fill_every_step
from tests.sandbox.support import KEY, SECOND_SECRET, SECRET, START
from tests.sandbox.webhook_deliveries import (
    ACCEPTED,
    COMMON_KEYS,
    DIGILOCKER,
    PENDENCY,
    PENDENCY_KEYS,
    TNC,
    VKYC,
    outcomes,
    verify_all,
)

START_MS = str(int(START.timestamp() * 1000))


def test_steps_and_approval_are_delivered_signed_in_order(hooked, receiver, ready):
    verify_all(hooked, ready)
    assert receiver.received == []  # raising an event only queues it
    hooked.backend.tick()
    assert receiver.events() == [TNC, DIGILOCKER, VKYC, ACCEPTED]
    for delivery in receiver.received:
        assert delivery.headers["Content-Type"] == "application/json"
        assert delivery.headers["X-Gl-Digest"] == hmac_digest(SECRET, delivery.body)
        payload = delivery.payload
        assert all(isinstance(value, str) for value in payload.values())
        assert payload["onboarding_id"] == ready
        assert payload["event_timestamp"] == START_MS
    tnc, digilocker, vkyc, accepted = (r.payload for r in receiver.received)
    assert set(tnc) == COMMON_KEYS | {"terms_and_conditions_acknowledged"}
    assert tnc["terms_and_conditions_acknowledged"] == "true"
    assert tnc["onboarding_status"] == "PENDING_VERIFICATION"
    assert digilocker["digilocker_ckyc_completed"] == "true"
    assert (vkyc["vkyc_completed"], vkyc["onboarding_status"]) == ("true", "PENDING_REVIEW")
    assert set(accepted) == COMMON_KEYS | {"merchant_id"}
    assert accepted["onboarding_status"] == "APPROVED"
    assert accepted["merchant_id"].startswith("UCIC")
    assert len({r.payload["event_id"] for r in receiver.received}) == 4
    assert outcomes(hooked) == [(event, 1, 200, "delivered") for event in receiver.events()]
    assert hooked.backend.webhooks.pending() == 0


def test_the_verification_page_never_waits_on_the_receiver(hooked, receiver, partner, ready):
    link = partner.get_verification_redirect(ready, {"callBackUrl": "https://p.example/done"})
    page = requests.get(link.redirectLink, timeout=5)
    session = page.text.split('name="session" value="', 1)[1].split('"', 1)[0]
    response = requests.post(hooked.url + "/verification", timeout=5,
                             data={"session": session, "action": "tnc", "accept": "yes"})
    assert response.status_code == 200
    assert receiver.received == []
    hooked.backend.tick()
    assert receiver.events() == [TNC]


def test_signed_with_the_partners_first_active_secret(hooked, receiver, ready):
    hooked.backend.set_key_active(KEY, False)
    hooked.backend.acknowledge_tnc(ready)
    hooked.backend.tick()
    delivery = receiver.received[0]
    assert delivery.headers["X-Gl-Digest"] == hmac_digest(SECOND_SECRET, delivery.body)


@pytest.mark.parametrize(("name", "outcome", "pendency_status"), [
    ("Acme RFI Widgets Ltd", "RFI", "OPEN"),
    ("Acme REJECT Widgets Ltd", "REJECTED", "REJECTED"),
])
def test_rfi_and_rejection_are_pendency_updates(hooked, receiver, partner, ready, name,
                                                outcome, pendency_status):
    partner.update_business_details(ready, business(registeredName=name))
    verify_all(hooked, ready)
    hooked.backend.tick()
    assert receiver.events() == [TNC, DIGILOCKER, VKYC, PENDENCY]
    pendency = receiver.received[-1].payload
    assert set(pendency) == COMMON_KEYS | PENDENCY_KEYS
    assert pendency["onboarding_status"] == outcome
    assert pendency["pendency_info_status"] == pendency_status
    assert pendency["pendency_info_creation_time"] == START_MS


def test_rfi_names_the_document_and_the_next_review_is_delivered(hooked, receiver, partner,
                                                                 ready):
    partner.update_business_details(ready, business(registeredName="Acme RFI Ltd"))
    verify_all(hooked, ready)
    hooked.backend.tick()
    pendency = receiver.received[-1].payload
    assert pendency["pendency_info_sub_category"] == "BANK_STATEMENT"
    assert "BANK_STATEMENT" in pendency["pendency_info_reason"]
    partner.upload_document(ready, document("BANK_STATEMENT"))
    hooked.backend.tick()
    assert receiver.events()[-1] == ACCEPTED


def test_no_webhook_url_means_nothing_is_queued(sandbox_server, partner, onboarding_id):
    fill_every_step(partner, onboarding_id)
    verify_all(sandbox_server, onboarding_id)
    sandbox_server.backend.tick()
    assert sandbox_server.backend.webhooks.pending() == 0
    assert sandbox_server.backend.webhooks.deliveries() == []
