"""Every rule of the request bodies, one case each: refused by the client before anything is
sent, and refused by the sandbox with 400 VALIDATION_ERROR naming the same field."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from portal.gateway.errors import ValidationFailed
from portal.gateway.payments.operations import OPERATIONS
from portal.gateway.payments.requests import InitiateRequest
from portal.gateway.shapes import validate_payload
from tests.sandbox.payments.support import initiate_body

DELETE = object()


def changed(body: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``body`` with the dotted ``path`` set to ``value`` (or removed)."""
    result = copy.deepcopy(body)
    *parents, last = path.split(".")
    target: Any = result
    for part in parents:
        target = target[int(part)] if part.isdigit() else target[part]
    if value is DELETE:
        del target[last]
    else:
        target[last] = value
    return result


# (case id, dotted path in the body, new value, errorDetails field, words in the message)
INITIATE_RULES = [
    ("txn-id-missing", "merchantTxnId", DELETE, "merchantTxnId", "required"),
    ("txn-id-too-short", "merchantTxnId", "A12", "merchantTxnId", "4 to 50"),
    ("txn-id-too-long", "merchantTxnId", "A" * 51, "merchantTxnId", "4 to 50"),
    ("txn-id-not-alphanumeric", "merchantTxnId", "ORDER-1234", "merchantTxnId", "4 to 50"),
    ("unique-id-too-short", "merchantUniqueId", "U" * 14, "merchantUniqueId", "15 to 40"),
    ("unique-id-too-long", "merchantUniqueId", "U" * 41, "merchantUniqueId", "15 to 40"),
    ("unique-id-not-alphanumeric", "merchantUniqueId", "UNIQUE_000000001", "merchantUniqueId",
     "15 to 40"),
    ("capture-txn-true", "captureTxn", True, "captureTxn", "must be the JSON boolean false"),
    ("capture-txn-string", "captureTxn", "false", "captureTxn", "must be the JSON boolean false"),
    ("capture-txn-zero", "captureTxn", 0, "captureTxn", "must be the JSON boolean false"),
    ("capture-txn-missing", "captureTxn", DELETE, "captureTxn", "required"),
    ("payment-data-missing", "paymentData", DELETE, "paymentData", "required"),
    ("amount-missing", "paymentData.totalAmount", DELETE, "paymentData.totalAmount",
     "required"),
    ("amount-five-decimals", "paymentData.totalAmount", "10.12345", "paymentData.totalAmount",
     "at most 4 decimal places"),
    ("amount-zero", "paymentData.totalAmount", "0.00", "paymentData.totalAmount",
     "greater than 0"),
    ("amount-negative", "paymentData.totalAmount", "-5", "paymentData.totalAmount",
     "decimal number"),
    ("amount-a-json-number", "paymentData.totalAmount", 100, "paymentData.totalAmount",
     "string"),
    ("amount-not-a-number", "paymentData.totalAmount", "1e3", "paymentData.totalAmount",
     "decimal number"),
    ("currency-missing", "paymentData.txnCurrency", DELETE, "paymentData.txnCurrency",
     "required"),
    ("currency-lowercase", "paymentData.txnCurrency", "usd", "paymentData.txnCurrency",
     "ISO 4217"),
    ("currency-unknown", "paymentData.txnCurrency", "ABC", "paymentData.txnCurrency",
     "ISO 4217"),
    ("billing-email", "paymentData.billingData.emailId", "asha@", "paymentData.billingData.emailId",
     "email"),
    ("billing-country-alpha2", "paymentData.billingData.addressCountry", "IN",
     "paymentData.billingData.addressCountry", "alpha-3"),
    ("billing-field-not-a-string", "paymentData.billingData.firstName", 7,
     "paymentData.billingData.firstName", "string"),
    ("billing-unknown-field", "paymentData.billingData.nickname", "A",
     "paymentData.billingData.nickname", "Unknown field"),
    ("customer-email", "riskData.customerData.emailId", "no-at-sign",
     "riskData.customerData.emailId", "email"),
    ("shipping-email", "riskData.shippingData.emailId", "a@b@c", "riskData.shippingData.emailId",
     "email"),
    ("shipping-country-unknown", "riskData.shippingData.addressCountry", "XYZ",
     "riskData.shippingData.addressCountry", "alpha-3"),
    ("item-quantity-string", "riskData.orderData.0.itemQuantity", "2",
     "riskData.orderData[0].itemQuantity", "whole number"),
    ("item-quantity-decimal", "riskData.orderData.0.itemQuantity", 2.5,
     "riskData.orderData[0].itemQuantity", "whole number"),
    ("item-quantity-zero", "riskData.orderData.0.itemQuantity", 0,
     "riskData.orderData[0].itemQuantity", "greater than or equal to 1"),
    ("item-price-not-decimal", "riskData.orderData.0.itemPrice", "12,50",
     "riskData.orderData[0].itemPrice", "decimal number"),
    ("order-data-not-a-list", "riskData.orderData", {"itemId": "A"}, "riskData.orderData",
     "list"),
    ("callback-missing", "merchantCallbackURL", DELETE, "merchantCallbackURL", "required"),
    ("callback-not-a-url", "merchantCallbackURL", "shop/return", "merchantCallbackURL",
     "absolute http(s) URL"),
    ("callback-not-http", "merchantCallbackURL", "javascript:alert(1)", "merchantCallbackURL",
     "absolute http(s) URL"),
    ("card-data-sent", "cardData", {"number": "4111111111111111"}, "cardData",
     "must not be sent in hosted checkout"),
    ("token-data-sent", "tokenData", {"token": "t"}, "tokenData",
     "must not be sent in hosted checkout"),
    ("standing-instruction-sent", "standingInstruction", {}, "standingInstruction",
     "must not be sent in hosted checkout"),
    ("authentication-data-sent", "authenticationData", None, "authenticationData",
     "must not be sent in hosted checkout"),
    ("unknown-field", "isAuthPayment", True, "isAuthPayment", "Unknown field"),
]

# (case id, operation, body, errorDetails field, words in the message)
FOLLOW_UP_RULES = [
    ("capture-type-unknown", "capture", {"merchantTxnId": "CAP1", "captureType": "X"},
     "captureType", "'F' or 'P'"),
    ("capture-partial-without-amount", "capture", {"merchantTxnId": "CAP1", "captureType": "P"},
     "paymentData.totalAmount", "partial capture"),
    ("capture-amount-five-decimals", "capture",
     {"merchantTxnId": "CAP1", "captureType": "P", "paymentData": {"totalAmount": "1.00001"}},
     "paymentData.totalAmount", "at most 4 decimal places"),
    ("capture-type-missing", "capture", {"merchantTxnId": "CAP1"}, "captureType", "required"),
    ("reversal-txn-id-too-short", "auth_reversal", {"merchantTxnId": "R1"}, "merchantTxnId",
     "4 to 50"),
    ("refund-type-missing", "refund", {"merchantTxnId": "REF1"}, "refundType", "required"),
    ("refund-partial-without-amount", "refund", {"merchantTxnId": "REF1", "refundType": "P"},
     "paymentData.totalAmount", "partial refund"),
    ("refund-currency-lowercase", "refund",
     {"merchantTxnId": "REF1", "refundType": "P",
      "paymentData": {"totalAmount": "1.00", "txnCurrency": "usd"}},
     "paymentData.txnCurrency", "ISO 4217"),
    ("refund-unique-id-too-short", "refund",
     {"merchantTxnId": "REF1", "refundType": "F", "merchantUniqueId": "U1"},
     "merchantUniqueId", "15 to 40"),
    ("refund-callback-not-a-url", "refund",
     {"merchantTxnId": "REF1", "refundType": "F", "merchantCallbackURL": "shop/return"},
     "merchantCallbackURL", "absolute http(s) URL"),
]


def _fields(errors) -> dict[str, str]:
    return {e.field: e.message for e in errors}


def test_the_base_body_is_valid():
    assert validate_payload(InitiateRequest, initiate_body())[1] == []


@pytest.mark.parametrize(("path", "value", "field", "words"),
                         [rule[1:] for rule in INITIATE_RULES],
                         ids=[rule[0] for rule in INITIATE_RULES])
def test_client_refuses_before_sending(make_client, dropping_url, path, value, field, words):
    client = make_client(base_url=dropping_url)  # anything sent would fail differently
    with pytest.raises(ValidationFailed) as refused:
        client.initiate(changed(initiate_body(), path, value))
    assert refused.value.http_status is None
    messages = _fields(refused.value.field_errors)
    assert field in messages
    assert words.lower() in messages[field].lower()


@pytest.mark.parametrize(("path", "value", "field", "words"),
                         [rule[1:] for rule in INITIATE_RULES],
                         ids=[rule[0] for rule in INITIATE_RULES])
def test_sandbox_answers_400(signer, path, value, field, words):
    response = signer.post(changed(initiate_body(), path, value))
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["reasonCode"] == "VALIDATION_ERROR"
    messages = {d["field"]: d["message"] for d in body["errorDetails"]}
    assert field in messages
    assert words.lower() in messages[field].lower()


@pytest.mark.parametrize(("operation", "body", "field", "words"),
                         [rule[1:] for rule in FOLLOW_UP_RULES],
                         ids=[rule[0] for rule in FOLLOW_UP_RULES])
def test_client_refuses_follow_up_before_sending(client, operation, body, field, words):
    with pytest.raises(ValidationFailed) as refused:
        client.prepare(operation, body, gid="gl_o-1")
    messages = _fields(refused.value.field_errors)
    assert field in messages
    assert words.lower() in messages[field].lower()


@pytest.mark.parametrize(("operation", "body", "field", "words"),
                         [rule[1:] for rule in FOLLOW_UP_RULES],
                         ids=[rule[0] for rule in FOLLOW_UP_RULES])
def test_sandbox_answers_400_to_follow_up(client, signer, operation, body, field, words):
    gid = client.initiate(initiate_body()).gid
    response = signer.post(body, path=OPERATIONS[operation].url_path(gid=gid))
    assert response.status_code == 400, response.text
    messages = {d["field"]: d["message"] for d in response.json()["errorDetails"]}
    assert field in messages
    assert words.lower() in messages[field].lower()


@pytest.mark.parametrize("raw", [b"", b"{", b"[]", b"\xff\xfe", b"[" * 100_000, b'"text"'],
                         ids=["empty", "truncated", "array", "not-utf8", "deep", "string"])
def test_malformed_body_is_400_not_500(signer, raw):
    response = signer.post(raw=raw)
    assert response.status_code == 400, response.text
    assert response.json()["reasonCode"] == "VALIDATION_ERROR"


def test_undecryptable_jwe_body_is_400(signer):
    raw = b"eyJhbGciOiJSU0EtT0FFUC0yNTYifQ.a.b.c.d"
    token = signer.token(raw, encrypted=True)
    response = signer.post(raw=raw, token=token, content_type="text/plain")
    assert response.status_code == 400
    assert response.json()["errorDetails"][0]["field"] == "body"
