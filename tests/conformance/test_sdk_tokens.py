"""The official Python SDK's tokens against the sandbox, over loopback HTTP.

Each test builds its tokens with the SDK's own ``JwtHelper`` (vendor/payglocal-python-sdk,
loaded from the shared folder) and sends them as the SDK's README says to: the JWE as a
``text/plain`` body, the JWS in ``x-gl-token-external``; and checks a callback token the sandbox
signed with the SDK's ``verify_jwt_token``.
"""

from __future__ import annotations

import json

import pytest
import requests

from portal.gateway.payments.client import PaymentsClient
from portal.gateway.payments.jws import load_private_key, sign_claims
from portal.gateway.payments.operations import INITIATE_PATH, OPERATIONS
from portal.sandbox.payments.routes import GATEWAY_KEY_PATH
from tests.conformance.support import SdkConfig
from tests.sandbox.payments.support import (
    KID,
    MID,
    OTHER_MID,
    PARENT_KID,
    PARENT_MID,
    SUB_MID,
    initiate_body,
    pay_by_card,
    returned,
)

APPROVED_CARD = "4111111111111111"


@pytest.fixture
def gateway_public_pem(payments_sandbox, http) -> str:
    """The gateway key the sandbox publishes (what a merchant downloads from the dashboard)."""
    answer = http.get(payments_sandbox.url + GATEWAY_KEY_PATH, timeout=5)
    assert answer.status_code == 200
    return answer.text


@pytest.fixture
def sdk_for(load_sdk, payments_sandbox, gateway_public_pem, merchant_keys, parent_keys):
    """Load the SDK as MID (own key) or as a sub-merchant signing with PARENT_MID's key."""

    def make(mid: str = MID, *, portfolio: bool = False, encrypt_payload: str = "true"):
        keys, kid = (parent_keys, PARENT_KID) if portfolio else (merchant_keys, KID)
        return load_sdk(SdkConfig(
            mid=mid, kid=kid, private_pem=keys.private_pem,
            gateway_public_pem=gateway_public_pem,
            gateway_kid=payments_sandbox.payments.gateway_key.kid,
            parent_mid=PARENT_MID if portfolio else "", encrypt_payload=encrypt_payload))

    return make


def _headers(sdk_token: str, mid: str, kid: str, content_type: str | None) -> dict[str, str]:
    headers = {"x-gl-token-external": sdk_token, "x-gl-merchantid": mid, "x-gl-kid": kid}
    if content_type:
        headers["Content-Type"] = content_type
    return headers


def initiate_with(sdk, http: requests.Session, url: str, mid: str, kid: str,
                  body: dict | None = None) -> requests.Response:
    """POST an initiate the SDK's way: JWE body as text/plain, JWS over the JWE string."""
    jwe_token = sdk.jwe(json.dumps(body or initiate_body()))
    return http.post(url + INITIATE_PATH, data=jwe_token.encode("ascii"), timeout=10,
                     headers=_headers(sdk.jws(jwe_token), mid, kid, "text/plain"))


def status_with(sdk, http: requests.Session, url: str, gid: str, mid: str,
                kid: str) -> requests.Response:
    """GET the status with the SDK's JWS over the path (its ``glocalMerchant.status.payload``)."""
    path = OPERATIONS["status"].url_path(id=gid)
    return http.get(url + path, timeout=10, headers=_headers(sdk.jws(path), mid, kid, None))


def test_sdk_jwe_and_jws_initiate_and_status_are_accepted(sdk_for, payments_sandbox, http):
    """Source: jwt_helper.py create_jwe_token + create_jws_token_with_rsa, main.py (the JWS
    digests the JWE string; the status JWS digests /gl/v1/payments/<gid>/status)."""
    sdk = sdk_for()
    started = initiate_with(sdk, http, payments_sandbox.url, MID, KID)
    assert started.status_code == 200, started.text
    gid = started.json()["gid"]
    # the body was decrypted intact
    assert payments_sandbox.payments.get(gid).request.merchantTxnId == "ORDER12345"
    status = status_with(sdk, http, payments_sandbox.url, gid, MID, KID)
    assert status.status_code == 200, status.text
    assert status.json()["data"]["gid"] == gid


def test_sdk_jws_over_a_plain_json_body_is_accepted(sdk_for, payments_sandbox, http):
    """Source: jwt_helper.py create_jws_token_with_rsa with an empty encryptPayload, which
    sends x-gl-enc "false" (docs/gateway-facts.md B1, quirk)."""
    sdk = sdk_for(encrypt_payload="")
    body = json.dumps(initiate_body(merchantTxnId="PLAINJSON1"))
    answer = http.post(payments_sandbox.url + INITIATE_PATH, data=body.encode("utf-8"), timeout=10,
                       headers=_headers(sdk.jws(body), MID, KID, "application/json"))
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"]["merchantTxnId"] == "PLAINJSON1"


def test_sdk_token_over_other_bytes_is_refused(sdk_for, payments_sandbox, http):
    """Source: jwt_helper.py (the JWS digest binds the exact JWE string): a JWS made for one
    body does not carry another."""
    sdk = sdk_for()
    sent = sdk.jwe(json.dumps(initiate_body()))
    token = sdk.jws(sdk.jwe(json.dumps(initiate_body())))  # a second JWE of the same JSON
    answer = http.post(payments_sandbox.url + INITIATE_PATH, data=sent.encode("ascii"), timeout=10,
                       headers=_headers(token, MID, KID, "text/plain"))
    assert answer.status_code == 401, answer.text


def test_sdk_portfolio_tokens_are_accepted_for_a_sub_merchant(sdk_for, payments_sandbox, http):
    """Source: jwt_helper.py with glocalMerchant.parentMid set (issued-by and x-gl-kid-mid =
    parent, x-gl-merchantId = transacting MID, kid of the parent key); docs/user/admins.md,
    "Portfolio key"."""
    sdk = sdk_for(SUB_MID, portfolio=True)
    started = initiate_with(sdk, http, payments_sandbox.url, SUB_MID, PARENT_KID)
    assert started.status_code == 200, started.text
    gid = started.json()["gid"]
    assert payments_sandbox.payments.get(gid).mid == SUB_MID
    status = status_with(sdk, http, payments_sandbox.url, gid, SUB_MID, PARENT_KID)
    assert status.status_code == 200, status.text


def test_sdk_portfolio_token_for_a_merchant_outside_the_portfolio_is_401(sdk_for,
                                                                         payments_sandbox, http):
    """Source: docs/gateway-contract.md, "Portfolio (parent) keys" (otherwise 401), tokens from
    jwt_helper.py
    with glocalMerchant.parentMid set for a MID the parent does not hold."""
    sdk = sdk_for(OTHER_MID, portfolio=True)
    answer = initiate_with(sdk, http, payments_sandbox.url, OTHER_MID, PARENT_KID)
    assert answer.status_code == 401, answer.text
    assert answer.json()["reasonCode"] == "UNAUTHORIZED"


def test_sdk_verifies_the_callback_token_the_sandbox_signs(sdk_for, payments_sandbox, http,
                                                           merchant_keys):
    """Source: jwt_helper.py verify_jwt_token (jose.jws.verify with the gateway's public key,
    RS256) and main.py's glocalMerchant.jws.verify.token: the x-gl-token posted back to
    merchantCallbackURL."""
    client = PaymentsClient(payments_sandbox.url, merchant_id=MID, kid=KID, session=http,
                            private_key_pem=merchant_keys.private_pem,
                            now_ms=payments_sandbox.clock.now_ms)
    started = client.initiate(initiate_body(merchantTxnId="CALLBACK1"))
    back = returned(pay_by_card(http, started.data.redirectUrl, APPROVED_CARD))
    sdk = sdk_for()
    assert sdk.verify(back.token) is True
    head, payload, signature = back.token.split(".")
    forged = ".".join([head, payload, signature[:-4] + ("AAAA" if signature[-4:] != "AAAA"
                                                         else "BBBB")])
    assert sdk.verify(forged) is False


def test_sdk_refuses_a_callback_token_of_another_key(sdk_for, stranger_keys):
    """Source: jwt_helper.py verify_jwt_token: only the gateway's public key verifies."""
    token = sign_claims({"gid": "gl_o-x", "status": "AUTHORIZED"},
                        load_private_key(stranger_keys.private_pem),
                        {"kid": "k", "issued-by": "Glocal"})
    assert sdk_for().verify(token) is False
