"""JWS digest tokens (payments): signed tokens verified by jwcrypto, and hostile tokens refused.

Tokens are verified with jwcrypto, a second JOSE library, and hostile tokens are hand-crafted;
the SHA-256 digests were produced with ``openssl dgst -sha256 -binary | base64``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest
from jwcrypto import jwk as jc_jwk
from jwcrypto import jws as jc_jws

from portal.gateway.payments import jws as signing
from portal.gateway.payments.jws import (
    TOKEN_LIFETIME_MS,
    TokenError,
    load_private_key,
    load_public_key,
    sign_digest_token,
    verify_claims,
)
from portal.sandbox.payments.tokens import check_digest_claims
from tests.gateway.support import KID, MID, NOW_MS

# ---------------------------------------------------------------- signing


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _verified_by_jwcrypto(token: str, public_pem: bytes) -> tuple[dict, dict]:
    key = jc_jwk.JWK.from_pem(public_pem)
    parsed = jc_jws.JWS()
    parsed.deserialize(token)
    parsed.verify(key, alg="RS256")
    return parsed.jose_header, json.loads(parsed.payload)


@pytest.mark.parametrize(("encrypted", "flag"), [(False, "false"), (True, "true")])
def test_sign_digest_token_verifies_with_jwcrypto(merchant_keys, encrypted: bool, flag: str):
    data = b'{"a":1}'
    token = sign_digest_token(
        data,
        load_private_key(merchant_keys.private_pem),
        kid=KID,
        merchant_id=MID,
        encrypted=encrypted,
        now_ms=NOW_MS,
    )
    header, payload = _verified_by_jwcrypto(token, merchant_keys.public_pem)
    assert header == {
        "alg": "RS256",
        "kid": KID,
        "iss": MID,
        "issued-by": MID,
        "x-gl-merchantId": MID,
        "x-gl-enc": flag,
        "is-digested": "true",
    }
    assert payload == {
        # printf '%s' '{"a":1}' | openssl dgst -sha256 -binary | base64
        "digest": "AVq9f1zFei3ZS3WQ8ErYCEJzkF7jPsXOvq5iJ2qX+GI=",
        "digestAlgorithm": "SHA-256",
        "iat": "1736000000000",
        "exp": 300000,
    }


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # printf '' | openssl dgst -sha256 -binary | base64
        (b"", "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="),
        # printf '%s' '{"name":"Jöhn Dœ ₹"}' | openssl dgst -sha256 -binary | base64
        ('{"name":"Jöhn Dœ ₹"}'.encode(), "zpP8NKtDCeVz2Hd46AXZwa6jjpIlg+USh+NViXlsZV0="),
        # printf '%s' '/gl/v1/payments/gl-123/status' | openssl dgst -sha256 -binary | base64
        (b"/gl/v1/payments/gl-123/status", "59497L1s9DsH6TjHXucAh1BaT2Kdrhgfk+nCLHwuW7s="),
    ],
)
def test_token_digest_is_padded_standard_base64_sha256(merchant_keys, data, expected) -> None:
    token = sign_digest_token(
        data, load_private_key(merchant_keys.private_pem), kid=KID, merchant_id=MID,
        encrypted=False, now_ms=NOW_MS,
    )
    _, payload = _verified_by_jwcrypto(token, merchant_keys.public_pem)
    assert payload["digest"] == expected
    assert isinstance(payload["iat"], str) and payload["iat"].isdigit()
    assert payload["exp"] == TOKEN_LIFETIME_MS == 300000


def test_token_signed_with_one_key_fails_jwcrypto_with_another(merchant_keys, other_keys):
    token = sign_digest_token(
        b"x", load_private_key(merchant_keys.private_pem), kid=KID, merchant_id=MID,
        encrypted=False, now_ms=NOW_MS,
    )
    with pytest.raises(jc_jws.InvalidJWSSignature):
        _verified_by_jwcrypto(token, other_keys.public_pem)


# ---------------------------------------------------------------- verifying


def _key_for(public_pem: bytes):
    key = load_public_key(public_pem)
    return lambda header: key if header.get("kid") == KID else None


def _good_token(keys, data: bytes = b'{"a":1}', now_ms: int = NOW_MS) -> str:
    return sign_digest_token(
        data, load_private_key(keys.private_pem), kid=KID, merchant_id=MID,
        encrypted=False, now_ms=now_ms,
    )


def test_verify_claims_accepts_a_good_token(merchant_keys) -> None:
    header, claims = verify_claims(_good_token(merchant_keys), _key_for(merchant_keys.public_pem))
    assert header["kid"] == KID and header["alg"] == "RS256"
    assert claims["digest"] == "AVq9f1zFei3ZS3WQ8ErYCEJzkF7jPsXOvq5iJ2qX+GI="
    check_digest_claims(claims, b'{"a":1}', NOW_MS)  # no exception


def test_verify_claims_accepts_a_token_made_by_jwcrypto(merchant_keys) -> None:
    private = jc_jwk.JWK.from_pem(merchant_keys.private_pem)
    payload = json.dumps({"digest": hashlib.sha256(b"x").hexdigest(), "iat": "1"}).encode()
    token = jc_jws.JWS(payload)
    token.add_signature(private, alg="RS256", protected=json.dumps({"alg": "RS256", "kid": KID}))
    header, claims = verify_claims(
        token.serialize(compact=True), _key_for(merchant_keys.public_pem)
    )
    assert header == {"alg": "RS256", "kid": KID}
    assert claims["iat"] == "1"


def test_verify_claims_rejects_alg_none(merchant_keys) -> None:
    header = _b64url(json.dumps({"alg": "none", "kid": KID}).encode())
    payload = _b64url(json.dumps({"digest": "x", "iat": str(NOW_MS)}).encode())
    for token in (f"{header}.{payload}.", f"{header}.{payload}"):
        with pytest.raises(TokenError, match="not accepted"):
            verify_claims(token, _key_for(merchant_keys.public_pem))


def _hs256_with_public_key_as_secret(public_pem: bytes, alg_in_header: str) -> str:
    """The classic confusion attack: HMAC keyed with the verifier's public key bytes."""
    oct_key = jc_jwk.JWK(kty="oct", k=_b64url(public_pem))
    payload = json.dumps({"digest": "x", "iat": str(NOW_MS), "exp": 300000}).encode()
    token = jc_jws.JWS(payload)
    token.add_signature(
        oct_key, alg="HS256", protected=json.dumps({"alg": "HS256", "kid": KID})
    )
    compact = token.serialize(compact=True)
    if alg_in_header == "HS256":
        return compact
    # relabel the header as RS256, keeping the HMAC signature (needs re-signing over new header)
    head = _b64url(json.dumps({"alg": alg_in_header, "kid": KID}).encode())
    body = compact.split(".")[1]
    mac = hmac.new(public_pem, f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{_b64url(mac)}"


def test_verify_claims_rejects_hs256_keyed_with_the_public_key(merchant_keys) -> None:
    token = _hs256_with_public_key_as_secret(merchant_keys.public_pem, "HS256")
    # the token is a genuine HS256 token under that secret ...
    oct_key = jc_jwk.JWK(kty="oct", k=_b64url(merchant_keys.public_pem))
    check = jc_jws.JWS()
    check.deserialize(token)
    check.verify(oct_key, alg="HS256")
    # ... and we refuse it
    with pytest.raises(TokenError, match="not accepted"):
        verify_claims(token, _key_for(merchant_keys.public_pem))


def test_verify_claims_rejects_an_hmac_signature_labelled_rs256(merchant_keys) -> None:
    token = _hs256_with_public_key_as_secret(merchant_keys.public_pem, "RS256")
    with pytest.raises(TokenError, match="does not verify"):
        verify_claims(token, _key_for(merchant_keys.public_pem))


def test_verify_claims_rejects_a_token_signed_with_another_key(merchant_keys, other_keys):
    token = _good_token(other_keys)
    with pytest.raises(TokenError, match="does not verify"):
        verify_claims(token, _key_for(merchant_keys.public_pem))


def test_verify_claims_rejects_a_tampered_payload(merchant_keys) -> None:
    head, _, sig = _good_token(merchant_keys).split(".")
    forged = _b64url(
        json.dumps(
            {"digest": signing.sha256_b64(b"evil"), "digestAlgorithm": "SHA-256",
             "iat": str(NOW_MS), "exp": 300000},
            separators=(",", ":"),
        ).encode()
    )
    with pytest.raises(TokenError, match="does not verify"):
        verify_claims(f"{head}.{forged}.{sig}", _key_for(merchant_keys.public_pem))


def test_verify_claims_rejects_an_unknown_kid(merchant_keys) -> None:
    token = sign_digest_token(
        b"x", load_private_key(merchant_keys.private_pem), kid="kid-unknown", merchant_id=MID,
        encrypted=False, now_ms=NOW_MS,
    )
    with pytest.raises(TokenError, match="kid"):
        verify_claims(token, _key_for(merchant_keys.public_pem))


@pytest.mark.parametrize("token", ["", "not-a-token", "%%%.x.y", _b64url(b"[1,2]") + ".e30.x"])
def test_verify_claims_rejects_garbage(merchant_keys, token: str) -> None:
    with pytest.raises(TokenError):
        verify_claims(token, _key_for(merchant_keys.public_pem))
