"""The customer's return from the hosted page: verified, confirmed with a status call, and
shown as a customer's page; anything unverifiable changes nothing."""

from __future__ import annotations

import logging
import time

import pytest

from portal.gateway.payments.words import PaymentStatus
from portal.sandbox.payments.auth import GatewayKey
from tests.payments.support import APPROVING_CARD, backend, pay, payment_row, post_hold

CALLBACK = "/payments/callback"


@pytest.fixture
def returned(browser, merchant_id, credentials):
    """A hold paid on the hosted page whose return has not reached the portal yet."""
    response = post_hold(browser, merchant_id)
    return pay(response.headers["Location"])


def now_ms() -> str:
    return str(int(time.time() * 1000))


def tampered(token: str) -> str:
    header, payload, signature = token.split(".")
    flipped = "A" if signature[5] != "A" else "B"
    return ".".join((header, payload, signature[:5] + flipped + signature[6:]))


@pytest.mark.parametrize("token", [None, "", "not.a.token"], ids=["missing", "empty", "garbage"])
def test_a_missing_or_malformed_token_is_refused(app, client, returned, token):
    data = {} if token is None else {"x-gl-token": token}
    response = client.post(CALLBACK, data=data)
    assert response.status_code == 400
    assert b"could not take this payment response" in response.data
    assert payment_row(app, 1).status == "INPROGRESS"


def test_a_tampered_token_is_refused_and_changes_nothing(app, client, returned):
    response = client.post(CALLBACK, data={"x-gl-token": tampered(returned.token)})
    assert response.status_code == 400
    assert b"could not be verified" in response.data
    assert payment_row(app, 1).status == "INPROGRESS"


def test_a_token_signed_by_another_key_is_refused(app, client, returned, sandbox):
    gid = payment_row(app, 1).gid
    forged = GatewayKey(None).sign({"gid": gid, "status": "AUTHORIZED", "iat": now_ms()})
    assert client.post(CALLBACK, data={"x-gl-token": forged}).status_code == 400
    assert payment_row(app, 1).status == "INPROGRESS"


def test_a_callback_for_an_unknown_gid_has_no_effect(app, client, returned, sandbox):
    token = backend(sandbox).gateway_key.sign({"gid": "gl_o-unknown", "status": "AUTHORIZED",
                                               "iat": now_ms()})
    response = client.post(CALLBACK, data={"x-gl-token": token})
    assert response.status_code == 404
    assert b"We do not know this payment" in response.data
    assert payment_row(app, 1).status == "INPROGRESS"


def test_the_outcome_comes_from_the_status_call_not_the_token(app, client, browser, sandbox,
                                                              merchant_id, credentials):
    post_hold(browser, merchant_id)  # not paid: the gateway says INPROGRESS
    gid = payment_row(app, 1).gid
    claims_approved = backend(sandbox).gateway_key.sign(
        {"gid": gid, "status": PaymentStatus.AUTHORIZED, "iat": now_ms()})
    response = client.post(CALLBACK, data={"x-gl-token": claims_approved})
    assert response.status_code == 200
    assert b"Your payment is being confirmed" in response.data
    assert payment_row(app, 1).status == "INPROGRESS"


def test_the_callback_needs_no_sign_in_and_no_csrf_token(app, csrf_app, returned):
    anonymous = csrf_app.test_client()
    response = anonymous.post(returned.path, data={"x-gl-token": returned.token})
    assert response.status_code == 200
    assert b"your payment is authorised" in response.data
    assert payment_row(app, 1).status == "AUTHORIZED"


def test_an_unconfigured_gateway_key_refuses_callbacks(app, client, returned):
    settings = app.extensions["portal_settings"]
    app.extensions["portal_settings"] = settings.with_changes(gateway_public_key_file="")
    response = client.post(CALLBACK, data={"x-gl-token": returned.token})
    assert response.status_code == 503
    assert payment_row(app, 1).status == "INPROGRESS"


def test_no_card_number_or_token_is_logged(caplog, browser, merchant_id, credentials):
    caplog.set_level(logging.DEBUG)
    response = post_hold(browser, merchant_id)
    returned = pay(response.headers["Location"], APPROVING_CARD)
    browser.client.post(returned.path, data={"x-gl-token": returned.token})
    browser.client.post(CALLBACK, data={"x-gl-token": tampered(returned.token)})
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "payment callback refused" in logged
    assert APPROVING_CARD not in logged
    assert returned.token not in logged
    assert returned.token.split(".")[2] not in logged
    checkout_token = response.headers["Location"].split("x-gl-token=")[1]
    assert checkout_token not in logged


def test_a_repeated_return_shows_the_same_outcome(app, client, returned):
    for _ in range(2):
        response = client.post(returned.path, data={"x-gl-token": returned.token})
        assert response.status_code == 200
        assert b"your payment is authorised" in response.data
    assert payment_row(app, 1).status == "AUTHORIZED"
