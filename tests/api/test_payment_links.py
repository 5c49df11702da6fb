"""The API's payment links through the payment links' service: a hold stored and its link
emailed (to a loopback SMTP server), read, resent with a new token, cancelled; a paused
merchant refused by the same guard as the page; a repeat POST with its Idempotency-Key sends
one email."""

from __future__ import annotations

import pytest

from portal.core.config import Settings
from tests.api.support import Api
from tests.payments.support import HOLD
from tests.support.mail import link_in, mailing
from tests.support.pausing import stop_now


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The API's settings, mailing to the loopback sink."""
    return mailing(settings, mail_sink)


def link_body(txn: str = "ORDLINK001") -> dict:
    """A hold's body with the customer's email in its billing data."""
    return {"merchantTxnId": txn, "paymentData": HOLD["paymentData"]}


def test_a_link_is_emailed_read_resent_and_cancelled(api: Api, approved_merchant, mail_sink):
    made = api.post(f"/merchants/{approved_merchant}/payment-links", link_body())
    assert made.status_code == 201, made.json
    payment = made.json["payment"]["id"]
    assert made.headers["Location"] == f"/api/v1/payments/{payment}/link"
    assert made.json["standing"] == "waiting" and made.json["emailsSent"] == 1
    assert made.json["payment"]["gid"] is None  # nothing went to the gateway yet
    first = link_in(mail_sink.messages()[-1])
    assert api.get(f"/payments/{payment}/link").json["id"] == made.json["id"]
    resent = api.post(f"/payments/{payment}/link/resend")
    assert resent.status_code == 200 and resent.json["emailsSent"] == 2
    assert link_in(mail_sink.messages()[-1]) != first  # a new token
    cancelled = api.post(f"/payments/{payment}/link/cancel")
    assert cancelled.status_code == 200 and cancelled.json["standing"] == "cancelled"
    again = api.post(f"/payments/{payment}/link/resend")
    assert again.status_code == 409 and "cancelled" in again.json["detail"]


def test_a_missing_email_is_refused_at_its_field(api: Api, approved_merchant):
    data = {**HOLD["paymentData"], "billingData": {
        k: v for k, v in HOLD["paymentData"]["billingData"].items() if k != "emailId"}}
    answer = api.post(f"/merchants/{approved_merchant}/payment-links",
                      {"merchantTxnId": "ORDLINK002", "paymentData": data})
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    assert [e["field"] for e in answer.json["errors"]] == ["paymentData.billingData.emailId"]


def test_a_paused_merchant_is_refused_and_nothing_is_emailed(app, api: Api, approved_merchant,
                                                            mail_sink):
    assert stop_now(app, approved_merchant).ok
    answer = api.post(f"/merchants/{approved_merchant}/payment-links", link_body("ORDLINK003"))
    assert answer.status_code == 409 and "paused" in answer.json["detail"].lower()
    assert mail_sink.messages() == []


def test_a_repeat_with_its_idempotency_key_emails_once(api: Api, approved_merchant, mail_sink):
    path = f"/merchants/{approved_merchant}/payment-links"
    first = api.post(path, link_body("ORDLINK004"), idempotency_key="link-4")
    second = api.post(path, link_body("ORDLINK004"), idempotency_key="link-4")
    assert first.status_code == second.status_code == 201
    assert second.headers["Idempotent-Replayed"] == "true" and second.json == first.json
    assert len(mail_sink.messages()) == 1


def test_a_payment_without_a_link_is_a_404(api: Api):
    assert api.get("/payments/999/link").status_code == 404
