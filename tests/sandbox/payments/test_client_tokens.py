"""What our PaymentsClient puts on the wire, checked with a second JOSE library (jwcrypto),
and the callback token check."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest
from jwcrypto import jwe as jc_jwe
from jwcrypto import jwk as jc_jwk
from jwcrypto import jws as jc_jws

from portal.gateway.payments.client import PaymentsClient, verify_callback_token
from portal.gateway.payments.jws import TokenError, load_private_key, sign_claims
from tests.sandbox.payments.support import KID, MID, initiate_body

NOW_MS = 1_760_000_000_000


@pytest.fixture
def fixed_client(make_client):
    """Build clients whose clock reads NOW_MS."""
    return lambda **kwargs: make_client(now_ms=lambda: NOW_MS, **kwargs)


def _verified(token: str, public_pem: str) -> tuple[dict, dict]:
    """Header and payload of a JWS, verified by jwcrypto."""
    verifier = jc_jws.JWS()
    verifier.deserialize(token)
    verifier.verify(jc_jwk.JWK.from_pem(public_pem.encode()), alg="RS256")
    return verifier.jose_header, json.loads(verifier.payload)


def _digest(data: bytes) -> str:
    return base64.b64encode(hashlib.sha256(data).digest()).decode("ascii")


def test_post_token_verifies_with_jwcrypto_and_digests_the_exact_body(fixed_client,
                                                                      merchant_keys):
    prepared = fixed_client().prepare("initiate", initiate_body())
    header, payload = _verified(prepared.headers["x-gl-token-external"], merchant_keys.public_pem)
    assert header == {"alg": "RS256", "kid": KID, "iss": MID, "issued-by": MID,
                      "x-gl-merchantId": MID, "x-gl-enc": "false", "is-digested": "true"}
    assert payload == {"digest": _digest(prepared.body), "digestAlgorithm": "SHA-256",
                       "iat": str(NOW_MS), "exp": 300000}
    assert prepared.headers["x-gl-merchantid"] == MID
    assert prepared.headers["x-gl-kid"] == KID
    assert prepared.headers["Content-Type"] == "application/json"
    assert json.loads(prepared.body)["merchantTxnId"] == "ORDER12345"


def test_get_token_digests_the_path(fixed_client, merchant_keys):
    prepared = fixed_client().prepare("status", id="gl_o-abc123")
    assert prepared.body is None
    _, payload = _verified(prepared.headers["x-gl-token-external"], merchant_keys.public_pem)
    assert payload["digest"] == _digest(b"/gl/v1/payments/gl_o-abc123/status")


def test_jwe_body_decrypts_with_jwcrypto_and_the_jws_digests_the_jwe(fixed_client, sandbox,
                                                                      merchant_keys,
                                                                      gateway_keys):
    prepared = fixed_client(encrypt=True).prepare("initiate", initiate_body())
    assert prepared.headers["Content-Type"] == "text/plain"
    header, payload = _verified(prepared.headers["x-gl-token-external"], merchant_keys.public_pem)
    assert header["x-gl-enc"] == "true"
    assert payload["digest"] == _digest(prepared.body)

    encrypted = jc_jwe.JWE()
    encrypted.deserialize(prepared.body.decode("ascii"),
                          key=jc_jwk.JWK.from_pem(gateway_keys.private_pem.encode()))
    assert json.loads(encrypted.payload) == {**initiate_body()}
    protected = json.loads(encrypted.objects["protected"])
    assert protected == {"alg": "RSA-OAEP-256", "enc": "A128CBC-HS256",
                         "kid": sandbox.payments.gateway_key.kid, "iat": str(NOW_MS),
                         "exp": 300000, "issued-by": MID, "is-digested": "true"}


def test_jwe_mode_needs_the_gateway_key(sandbox, merchant_keys):
    with pytest.raises(ValueError, match="gateway's public key"):
        PaymentsClient(sandbox.url, merchant_id=MID, kid=KID,
                       private_key_pem=merchant_keys.private_pem, encrypt=True)


# ---------------------------------------------------------------- callback token


def _callback(private_pem: str, *, alg_header: dict | None = None, **claims) -> str:
    payload = {"gid": "gl_o-1", "status": "AUTHORIZED", "merchantTxnId": "ORDER1",
               "merchantUniqueId": None, "reasonCode": "GL-201-001", "iat": str(NOW_MS),
               **claims}
    header = {"kid": "gw", "issued-by": "GLOCAL", "is-digested": "false", **(alg_header or {})}
    return sign_claims(payload, load_private_key(private_pem), header)


def test_callback_token_verifies(gateway_keys):
    claims = verify_callback_token(_callback(gateway_keys.private_pem), gateway_keys.public_pem,
                                   NOW_MS + 1000)
    assert (claims.order_ids, claims.status) == (("gl_o-1",), "AUTHORIZED")


def test_callback_token_from_another_key_is_refused(gateway_keys, stranger_keys):
    with pytest.raises(TokenError):
        verify_callback_token(_callback(stranger_keys.private_pem), gateway_keys.public_pem,
                              NOW_MS)


def test_callback_token_with_alg_none_is_refused(gateway_keys):
    token = _callback(gateway_keys.private_pem)
    head = base64.urlsafe_b64encode(b'{"alg":"none"}').rstrip(b"=").decode()
    forged = head + "." + token.split(".")[1] + "."
    with pytest.raises(TokenError, match="RS256"):
        verify_callback_token(forged, gateway_keys.public_pem, NOW_MS)


def test_old_callback_token_is_refused(gateway_keys):
    with pytest.raises(TokenError, match="too old"):
        verify_callback_token(_callback(gateway_keys.private_pem), gateway_keys.public_pem,
                              NOW_MS + 361_000)


def test_future_callback_token_is_refused(gateway_keys):
    with pytest.raises(TokenError, match="future"):
        verify_callback_token(_callback(gateway_keys.private_pem), gateway_keys.public_pem,
                              NOW_MS - 61_000)


def test_callback_token_without_status_is_taken(gateway_keys):
    """docs/gateway-contract.md, "Reading answers": the status may be absent (the status read
    decides anyway)."""
    token = _callback(gateway_keys.private_pem, status=None)
    assert verify_callback_token(token, gateway_keys.public_pem, NOW_MS).status is None


def test_callback_token_naming_the_transaction_by_x_gl_gid_with_iat_in_seconds(gateway_keys):
    """docs/gateway-contract.md, revision 4 (the 2025 pre-signed token): ``x-gl-gid`` is a second,
    transaction id, not the order id; ``iat`` in seconds as a number."""
    token = _callback(gateway_keys.private_pem, gid=None, status=None,
                      iat=NOW_MS // 1000, **{"x-gl-gid": "gl_2"})
    claims = verify_callback_token(token, gateway_keys.public_pem, NOW_MS + 1000)
    assert (claims.order_ids, claims.transaction_id) == ((), "gl_2")
    with pytest.raises(TokenError, match="too old"):
        verify_callback_token(token, gateway_keys.public_pem, NOW_MS + 361_000)


def test_callback_token_naming_no_payment_is_refused(gateway_keys):
    token = _callback(gateway_keys.private_pem, gid=None, merchantTxnId=None)
    with pytest.raises(TokenError, match="gid"):
        verify_callback_token(token, gateway_keys.public_pem, NOW_MS)


def test_published_gateway_key_verifies_callbacks(http, sandbox, client, gateway_keys):
    response = http.get(sandbox.url + "/gl/v1/gateway-key.pem", timeout=5)
    assert response.status_code == 200
    assert response.headers["x-gl-kid"] == sandbox.payments.gateway_key.kid
    token = sandbox.payments.gateway_key.sign({"gid": "g", "status": "AUTHORIZED",
                                               "iat": str(NOW_MS)})
    assert verify_callback_token(token, response.text, NOW_MS).gid == "g"
    assert jc_jwk.JWK.from_pem(response.content).thumbprint() == \
        jc_jwk.JWK.from_pem(gateway_keys.public_pem.encode()).thumbprint()
