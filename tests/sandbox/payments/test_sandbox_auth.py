"""The sandbox's JWS check on the payments API: each way to fail is a 401, one test each; the
SDKs' token form and the spec's form are both accepted."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest

from portal.gateway.payments.jws import TOKEN_LIFETIME_MS, sha256_b64
from portal.gateway.transport import json_bytes
from tests.sandbox.payments.support import KID, MID, OTHER_KID, OTHER_MID, initiate_body


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unsigned(header: dict, payload: dict, signature: bytes = b"") -> str:
    return ".".join([_b64url(json.dumps(header).encode()), _b64url(json.dumps(payload).encode()),
                     _b64url(signature)])


def _claims(data: bytes, now_ms: int, **changes) -> dict:
    return {"digest": sha256_b64(data), "digestAlgorithm": "SHA-256", "iat": str(now_ms),
            "exp": TOKEN_LIFETIME_MS, **changes}


def _assert_unauthorized(response) -> None:
    assert response.status_code == 401, response.text
    assert response.json()["reasonCode"] == "UNAUTHORIZED"


@pytest.fixture
def body() -> bytes:
    """The bytes of a valid initiate body."""
    return json_bytes(initiate_body())


def test_valid_token_is_accepted(signer, body):
    response = signer.post(raw=body)
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "INPROGRESS"


def test_missing_token_is_401(signer, body):
    _assert_unauthorized(signer.post(raw=body, token=""))


def test_missing_merchant_header_is_401(signer, body):
    _assert_unauthorized(signer.post(raw=body, headers={"x-gl-merchantid": ""}))


def test_bad_signature_is_401(signer, body, stranger_keys):
    token = signer.token(body, private_pem=stranger_keys.private_pem)
    _assert_unauthorized(signer.post(raw=body, token=token))


def test_tampered_body_is_401(signer, body):
    token = signer.token(body)
    tampered = body.replace(b'"100.00"', b'"1.00"')
    _assert_unauthorized(signer.post(raw=tampered, token=token))


def test_unknown_kid_is_401(signer, body):
    token = signer.token(body, kid="kid-nobody")
    _assert_unauthorized(signer.post(raw=body, token=token, headers={"x-gl-kid": "kid-nobody"}))


def test_kid_of_another_merchant_is_401(signer, body, other_merchant_keys):
    token = signer.token(body, kid=OTHER_KID, mid=OTHER_MID,
                         private_pem=other_merchant_keys.private_pem)
    _assert_unauthorized(signer.post(raw=body, token=token, headers={"x-gl-kid": OTHER_KID}))


def test_token_merchant_id_of_another_merchant_is_401(signer, body):
    token = signer.token(body, mid=OTHER_MID)
    _assert_unauthorized(signer.post(raw=body, token=token))


def test_kid_header_differing_from_token_kid_is_401(signer, body):
    _assert_unauthorized(signer.post(raw=body, headers={"x-gl-kid": OTHER_KID}))


def test_alg_none_is_401(signer, body, clock):
    token = _unsigned({"alg": "none", "kid": KID, "x-gl-enc": "false", "is-digested": "true"},
                      _claims(body, clock.now_ms()))
    _assert_unauthorized(signer.post(raw=body, token=token))


def test_alg_hs256_with_the_public_key_as_secret_is_401(signer, body, clock, merchant_keys):
    header = {"alg": "HS256", "kid": KID, "x-gl-enc": "false", "is-digested": "true"}
    head = _b64url(json.dumps(header).encode()) + "." + _b64url(
        json.dumps(_claims(body, clock.now_ms())).encode())
    mac = hmac.new(merchant_keys.public_pem.encode(), head.encode(), hashlib.sha256).digest()
    _assert_unauthorized(signer.post(raw=body, token=head + "." + _b64url(mac)))


def test_iat_too_old_is_401(signer, body, clock):
    stale = clock.now_ms() - TOKEN_LIFETIME_MS - 61_000
    _assert_unauthorized(signer.post(raw=body, token=signer.token(body, now_ms=stale)))


def test_iat_just_inside_the_skew_is_accepted(signer, body, clock):
    old = clock.now_ms() - TOKEN_LIFETIME_MS - 50_000
    assert signer.post(raw=body, token=signer.token(body, now_ms=old)).status_code == 200


def test_iat_in_the_future_is_401(signer, body, clock):
    future = clock.now_ms() + 61_000
    _assert_unauthorized(signer.post(raw=body, token=signer.token(body, now_ms=future)))


def test_lifetime_longer_than_five_minutes_is_401(signer, body, clock):
    token = signer.claims_token(
        _claims(body, clock.now_ms(), exp=10 * TOKEN_LIFETIME_MS),
        {"kid": KID, "issued-by": MID, "x-gl-enc": "false", "is-digested": "true"})
    _assert_unauthorized(signer.post(raw=body, token=token))


def test_undigested_token_is_401(signer, body, clock):
    token = signer.claims_token(
        _claims(body, clock.now_ms()),
        {"kid": KID, "issued-by": MID, "x-gl-enc": "false", "is-digested": "false"})
    _assert_unauthorized(signer.post(raw=body, token=token))


def test_garbage_token_is_401(signer, body):
    _assert_unauthorized(signer.post(raw=body, token="not.a.jws"))


def test_sdk_form_token_without_iss_is_accepted(signer, body, clock):
    # header exactly as the official SDKs build it: issued-by + x-gl-merchantId, no iss
    token = signer.claims_token(
        _claims(body, clock.now_ms()),
        {"kid": KID, "issued-by": MID, "x-gl-merchantId": MID, "x-gl-enc": "false",
         "is-digested": "true"})
    response = signer.post(raw=body, token=token)
    assert response.status_code == 200, response.text


def test_spec_form_token_with_iss_and_boolean_flags_is_accepted(signer, body, clock):
    token = signer.claims_token(_claims(body, clock.now_ms()),
                                {"kid": KID, "iss": MID, "x-gl-enc": False, "is-digested": True})
    assert signer.post(raw=body, token=token).status_code == 200


def test_paycollect_path_is_accepted(signer, body):
    response = signer.post(raw=body, path="/gl/v1/payments/initiate/paycollect")
    assert response.status_code == 200, response.text


def test_status_without_any_token_is_401(signer, client, http, sandbox):
    gid = client.initiate(initiate_body()).gid
    _assert_unauthorized(http.get(f"{sandbox.url}/gl/v1/payments/{gid}/status", timeout=5))


def test_status_jws_over_another_path_is_401(signer, client, http, sandbox):
    gid = client.initiate(initiate_body()).gid
    token = signer.token(b"/gl/v1/payments/other/status")
    response = http.get(f"{sandbox.url}/gl/v1/payments/{gid}/status", timeout=5,
                        headers={"x-gl-token-external": token, "x-gl-merchantid": MID})
    _assert_unauthorized(response)


def test_status_url_token_of_another_payment_is_401(client, http, sandbox):
    first = client.initiate(initiate_body())
    second = client.initiate(initiate_body(merchantTxnId="ORDER2"))
    token = second.data.statusUrl.split("x-gl-token=", 1)[1]
    response = http.get(f"{sandbox.url}/gl/v1/payments/{first.gid}/status",
                        params={"x-gl-token": token}, timeout=5)
    _assert_unauthorized(response)


def test_checkout_token_does_not_open_status(client, http, sandbox):
    started = client.initiate(initiate_body())
    token = started.data.redirectUrl.split("x-gl-token=", 1)[1]
    response = http.get(f"{sandbox.url}/gl/v1/payments/{started.gid}/status",
                        params={"x-gl-token": token}, timeout=5)
    _assert_unauthorized(response)


def test_forged_checkout_token_shows_an_error_page(http, sandbox, signer, clock):
    token = signer.claims_token({"gid": "gl_o-x", "scope": "checkout", "iat": "1"},
                                {"kid": "k", "issued-by": "GLOCAL"})
    response = http.get(f"{sandbox.url}/gl/payflow-ui/", params={"x-gl-token": token}, timeout=5)
    assert response.status_code == 401
    assert "This checkout cannot be used" in response.text
