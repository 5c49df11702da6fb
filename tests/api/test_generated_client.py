"""The partner's software, as a client generated from /api/v1/openapi.json with
openapi-python-client, over real HTTP to the portal served on loopback: it onboards a merchant
through every step and the verification (the sandbox's page done as the merchant does it),
then places a hold that the customer pays on the hosted checkout, and captures it; and its
webhook endpoint receives the merchant's approval and the hold's authorisation and capture,
each verified with the Standard Webhooks library."""

from __future__ import annotations

import io
import threading
from datetime import timedelta

import requests

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import SYSTEM
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.scenarios import sample_pdf
from portal.domain.partner_events.delivery import deliver_due
from portal.domain.payments import credentials as creds
from tests.api.generated_client import generate, module
from tests.api.support import new_merchant_body
from tests.payments.support import HOLD, pay
from tests.support.partner_webhooks import endpoint_for, receiving
from tests.verification.support import backend_of, complete_on_sandbox_page, portal_server

__all__ = ["portal_server"]
STEPS = ("business", "owners", "bank", "signatory", "products")


def test_a_generated_client_onboards_a_merchant_and_captures_a_hold(
        app, settings, sandbox, portal_server, token, tmp_path):
    with receiving() as receiver:
        _, secret = endpoint_for(app, receiver.url)
        merchant_id, payment_id = _journey(app, settings, sandbox, portal_server, token,
                                           tmp_path)
        with app.app_context():
            deliver_due(True, timedelta(minutes=1), threading.Event())
    told = [(event["type"], event["data"]) for event in receiver.verified(secret)]
    assert ("merchant.status_changed", merchant_id, "APPROVED") in [
        (kind, data.get("merchantId"), data.get("status")) for kind, data in told]
    payments = [kind for kind, data in told if data.get("paymentId") == payment_id]
    assert payments[:2] == ["payment.authorized", "payment.captured"], told
    assert len(receiver.unique_ids()) == len(receiver.received)  # each event once


def _journey(app, settings, sandbox, portal_server, token, tmp_path) -> tuple[int, int]:
    """Onboard a merchant and capture a hold with the generated client; their ids."""
    client_package = generate(app, tmp_path)
    client = client_package.AuthenticatedClient(base_url=portal_server.url,
                                                token=token, raise_on_unexpected_status=True)
    models = module("models")
    call = {name: module(f"api.default.{name}") for name in (
        "create_merchant", "save_draft", "send", "list_documents", "upload_document",
        "mint_gateway_link", "read_merchant", "create_hold", "capture", "read_payment")}

    create = new_merchant_body()
    created = call["create_merchant"].sync(client=client, body=models.CreateOnboardingRequest(
        **_snake(create)))
    assert isinstance(created, models.MerchantOut), created
    for step in STEPS:
        data = models.StepBodyData.from_dict(
            scenarios.form_data(scenarios.HAPPY, step, create["panNumber"]))
        saved = call["save_draft"].sync(created.id, models.SaveDraftStepKey(step), client=client,
                                        body=models.StepBody(data=data))
        sent = call["send"].sync(created.id, models.SendStepKey(step), client=client,
                                 body=models.StepBody(data=data, version=saved.version))
        assert isinstance(sent, models.StepOut), (step, sent)
    slots = call["list_documents"].sync(created.id, client=client).slots
    for slot in (s for s in slots if s.outstanding):
        doc_type = slot.types[0]
        uploaded = call["upload_document"].sync(created.id, client=client, body=(
            models.DocumentUpload(doc_type=doc_type, file=client_package.types.File(
                payload=io.BytesIO(sample_pdf(doc_type)),
                file_name=f"{doc_type.lower()}.pdf", mime_type="application/pdf"))))
        assert uploaded.status == "sent", uploaded

    link = call["mint_gateway_link"].sync(created.id, client=client, body=(
        models.VerificationRedirectRequest(call_back_url="https://partner.example/verified")))
    complete_on_sandbox_page(link.url)
    backend_of(sandbox).tick()  # the review decides; its webhook reaches the served portal
    merchant = call["read_merchant"].sync(created.id, client=client)
    assert merchant.status == "APPROVED", merchant

    with app.app_context():  # payment credentials are an admin's, on a page, not the API's
        creds.save_credentials(settings, db.session.get(Merchant, created.id), "MID-GEN-1",
                               "kid-gen-1", None, None, actor=SYSTEM)
    body = {"merchantTxnId": "ORDGEN0001", "paymentData": HOLD["paymentData"]}
    hold = call["create_hold"].sync(created.id, client=client,
                                    body=models.HoldBody.from_dict(body))
    returned = pay(hold.redirect_url)
    requests.post(f"{portal_server.url}{returned.path}", data={"x-gl-token": returned.token},
                  timeout=10)
    assert "capture" in call["read_payment"].sync(hold.id, client=client).actions_allowed
    captured = call["capture"].sync(hold.id, client=client, body=models.ActionBody())
    assert captured.status == "SENT_FOR_CAPTURE", captured
    return created.id, hold.id


def _snake(body: dict[str, str]) -> dict[str, str]:
    """The API's camelCase names as the generated models' snake_case arguments."""
    return {"".join(f"_{c.lower()}" if c.isupper() else c for c in name): value
            for name, value in body.items()}
