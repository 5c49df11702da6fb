"""The API's holds against the loopback sandbox: placed, paid on the hosted page, read,
listed, captured, released and refunded through the payments services the pages use."""

from __future__ import annotations

from decimal import Decimal

import pytest

from portal.core.config import SETTINGS_EXTENSION
from portal.core.db import db
from portal.core.models import Payment
from tests.api.support import Api
from tests.payments.support import HOLD, pay


def hold_body(txn: str = "ORDAPI0001", amount: str = "1500.00") -> dict:
    """A hold's body for the API."""
    data = {**HOLD["paymentData"], "totalAmount": amount}
    return {"merchantTxnId": txn, "paymentData": data}


def authorised(app, api: Api, merchant_id: int, txn: str = "ORDAPI0001") -> int:
    """A hold placed through the API and paid on the hosted page; its id."""
    answer = api.post(f"/merchants/{merchant_id}/payments", hold_body(txn))
    assert answer.status_code == 201, answer.json
    returned = pay(answer.json["redirectUrl"])
    app.test_client().post(returned.path, data={"x-gl-token": returned.token})
    return answer.json["id"]


@pytest.fixture
def hold(app, api, approved_merchant) -> int:
    """An authorised hold of 1500.00 INR placed through the API."""
    return authorised(app, api, approved_merchant)


def test_a_hold_is_placed_and_read(app, api: Api, approved_merchant):
    answer = api.post(f"/merchants/{approved_merchant}/payments", hold_body())
    assert answer.status_code == 201
    placed = answer.json
    assert placed["merchantTxnId"] == "ORDAPI0001" and placed["redirectUrl"]
    assert placed["amount"] == "1500.00" and placed["currency"] == "INR"
    assert api.get(f"/payments/{placed['id']}").json == placed
    with app.app_context():
        assert db.session.get(Payment, placed["id"]).request_payload["captureTxn"] is False


def test_a_bad_amount_is_refused_at_its_gateway_path(api: Api, approved_merchant):
    answer = api.post(f"/merchants/{approved_merchant}/payments", hold_body(amount="12,5"))
    assert answer.status_code == 422
    assert [e["field"] for e in answer.json["errors"]] == ["paymentData.totalAmount"]


def test_capture_then_refund(api: Api, hold: int):
    assert api.get(f"/payments/{hold}").json["actionsAllowed"] == ["capture", "release"]
    captured = api.post(f"/payments/{hold}/capture", {})
    assert captured.status_code == 200, captured.json
    assert captured.json["status"] == "SENT_FOR_CAPTURE"
    refunded = api.post(f"/payments/{hold}/refund", {"amount": "100.00"})
    assert refunded.status_code == 200, refunded.json
    assert [Decimal(r["amount"]) for r in refunded.json["refunds"]] == [Decimal("100.00")]


def test_release(api: Api, hold: int):
    released = api.post(f"/payments/{hold}/release", {})
    assert released.status_code == 200 and released.json["status"] == "REVERSED"


def test_an_action_the_payment_does_not_allow_is_a_problem(api: Api, hold: int):
    answer = api.post(f"/payments/{hold}/refund", {})
    assert answer.status_code == 422 and answer.json["detail"]


def test_a_refund_above_the_four_eyes_limit_is_not_sent(app, api: Api, hold: int):
    app.extensions[SETTINGS_EXTENSION] = app.extensions[SETTINGS_EXTENSION].with_changes(
        four_eyes_refund_above=Decimal("50"))
    api.post(f"/payments/{hold}/capture", {})
    answer = api.post(f"/payments/{hold}/refund", {"amount": "100.00"})
    assert answer.status_code == 403 and "second admin" in answer.json["detail"]
    assert api.get(f"/payments/{hold}").json["refunds"] == []


def test_the_list_filters_by_merchant_and_reference(app, api: Api, approved_merchant):
    first = api.post(f"/merchants/{approved_merchant}/payments", hold_body("ORDA0001")).json
    second = api.post(f"/merchants/{approved_merchant}/payments", hold_body("ORDB0001")).json
    page = api.get("/payments", merchantId=approved_merchant, limit=1).json
    assert [p["id"] for p in page["data"]] == [first["id"]]
    rest = api.get("/payments", merchantId=approved_merchant, cursor=page["nextCursor"]).json
    assert [p["id"] for p in rest["data"]] == [second["id"]] and rest["nextCursor"] is None
    assert [p["id"] for p in api.get("/payments", q="ORDB0001").json["data"]] == [second["id"]]
