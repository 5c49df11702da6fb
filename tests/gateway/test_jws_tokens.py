"""HMAC (onboarding) and JWS (payments) signatures, checked against independent computations.

The HMAC known answers below were produced with openssl, not with our code, e.g.::

    printf '%s' '{"a":1}' | openssl dgst -sha256 -hmac 'secret' -binary | base64

and the SHA-256 digests with ``openssl dgst -sha256 -binary | base64``. Tokens are verified
with jwcrypto, a second JOSE library, and hostile tokens are hand-crafted.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest
import requests
from jwcrypto import jwk as jc_jwk
from jwcrypto import jws as jc_jws

from portal.gateway import signing
from portal.gateway.signing import (
    CLOCK_SKEW_MS,
    TOKEN_LIFETIME_MS,
    HmacAuth,
    TokenError,
    check_digest_claims,
    digests_match,
    hmac_digest,
    load_private_key,
    load_public_key,
    matching_secret,
    sign_digest_token,
    signing_input,
    verify_claims,
)

SECRET = "s3cr3t-Ω-key"  # UTF-8 bytes 73 33 63 72 33 74 2d ce a9 2d 6b 65 79
STATUS_PATH = "/gcc/v2/partner/merchant/onboard/abc/status?note=a%20b%2Fc&x=%E2%82%B9"
WS_BODY = b'{"note":"a\tb\r\nc\xc2\xa0d"}'  # raw tab, CRLF and a UTF-8 no-break space

# (secret, signed bytes, expected Base64) -- every expected value from openssl, see each comment
HMAC_VECTORS = [
    # printf '' | openssl dgst -sha256 -hmac 's3cr3t-Ω-key' -binary | base64
    (SECRET, b"", "X0IBlFL06DSPlA144cOdQSfC7qpGvRejG+GNgN5L9Uk="),
    # printf '' | openssl dgst -sha256 -hmac 'secret' -binary | base64
    ("secret", b"", "+eZuF5tnR65UEI+C+K3os8Jddv0wr95sOVgixTAZYWk="),
    # printf '%s' '{"a":1}' | openssl dgst -sha256 -hmac 'secret' -binary | base64
    ("secret", b'{"a":1}', "qp4uNXX11wmLbKzNeQiIw21f22M0KnO62i1qUXR6hJQ="),
    # printf '%s' '{"name":"Jöhn Dœ ₹"}' | openssl dgst -sha256 -hmac 's3cr3t-Ω-key' -binary
    #   | base64
    (
        SECRET,
        '{"name":"Jöhn Dœ ₹"}'.encode(),
        "qqD0a2tEV3WYL49s+vtQ4OIlS9MTD1a5dGDkmVRIIjk=",
    ),
    # printf '{"note":"a\tb\r\nc\xc2\xa0d"}' | openssl dgst -sha256 -hmac 's3cr3t-Ω-key' -binary
    #   | base64
    (SECRET, WS_BODY, "PzVrNg53xIHNwnqiW7G3VCaeNNexf+HXTxcz09xxSGA="),
    # printf '%s' '/gcc/v2/partner/merchant/onboard/abc/status?note=a%20b%2Fc&x=%E2%82%B9'
    #   | openssl dgst -sha256 -hmac 's3cr3t-Ω-key' -binary | base64
    (SECRET, STATUS_PATH.encode(), "QLJqVsyVbnKrplgZFxDGVdo+NUKT5ZGIRkX25TXhJD8="),
]
# printf '%s' '{"a":1}' | openssl dgst -sha256 -hmac 'secret'   (hex: what we must NOT send)
HEX_OF_A1 = "aa9e2e3575f5d7098b6caccd790888c36d5fdb63342a73bada2d6a51747a8494"


# ---------------------------------------------------------------- HMAC known answers


@pytest.mark.parametrize(("secret", "data", "expected"), HMAC_VECTORS)
def test_hmac_digest_matches_openssl(secret: str, data: bytes, expected: str) -> None:
    assert hmac_digest(secret, data) == expected


@pytest.mark.parametrize(("secret", "data", "expected"), HMAC_VECTORS)
def test_hmac_digest_is_padded_standard_base64_not_hex(
    secret: str, data: bytes, expected: str
) -> None:
    digest = hmac_digest(secret, data)
    assert len(digest) == 44 and digest.endswith("=")
    assert base64.b64decode(digest, validate=True) == base64.b64decode(expected)
    assert len(base64.b64decode(digest)) == 32


def test_hmac_digest_is_not_the_hex_form() -> None:
    digest = hmac_digest("secret", b'{"a":1}')
    assert digest != HEX_OF_A1
    assert base64.b64decode(digest).hex() == HEX_OF_A1


def test_hmac_is_keyed_with_the_secret_not_the_key() -> None:
    assert hmac_digest("secret", b'{"a":1}') != hmac_digest("ak_test", b'{"a":1}')


# ---------------------------------------------------------------- signing input


def _prepare(method: str, url: str, **kwargs) -> requests.PreparedRequest:
    return requests.Request(method, url, **kwargs).prepare()


@pytest.mark.parametrize("method", ["POST", "PUT"])
def test_signing_input_of_a_body_request_is_the_body_bytes(method: str) -> None:
    body = b'{"name":"J\xc3\xb6hn D\xc5\x93 \xe2\x82\xb9","note":"a\tb\r\n"}'
    prepared = _prepare(method, "https://gw.example/gcc/v2/partner/merchant/onboard", data=body)
    assert signing_input(prepared) == body
    assert prepared.body == body  # what is signed is what will be sent


def test_signing_input_of_an_empty_post_is_empty() -> None:
    prepared = _prepare("POST", "https://gw.example/x")
    assert signing_input(prepared) == b""


def test_signing_input_of_a_get_is_the_path_and_query_as_on_the_wire() -> None:
    prepared = _prepare("GET", "https://gw.example:8443" + STATUS_PATH)
    assert signing_input(prepared) == STATUS_PATH.encode("ascii")
    assert b"gw.example" not in signing_input(prepared)
    assert not signing_input(prepared).startswith(b"http")


def test_signing_input_of_a_get_with_params_is_percent_encoded() -> None:
    prepared = _prepare(
        "GET",
        "https://gw.example/gcc/v2/partner/merchant/onboard/abc/status",
        params={"note": "a b/c", "x": "₹", "amp": "1&2=3"},
    )
    expected = (
        b"/gcc/v2/partner/merchant/onboard/abc/status"
        b"?note=a+b%2Fc&x=%E2%82%B9&amp=1%262%3D3"
    )
    assert signing_input(prepared) == expected
    assert signing_input(prepared) == prepared.path_url.encode("ascii")


def test_signing_input_of_a_get_ignores_any_body() -> None:
    prepared = _prepare("GET", "https://gw.example/a/b?c=d", data=b"ignored")
    assert signing_input(prepared) == b"/a/b?c=d"


# ---------------------------------------------------------------- HmacAuth


def test_hmac_auth_signs_the_prepared_body() -> None:
    body = '{"name":"Jöhn Dœ ₹"}'.encode()
    prepared = _prepare(
        "POST", "https://gw.example/onboard", data=body, auth=HmacAuth("ak_1", SECRET)
    )
    assert prepared.headers["x-gl-auth"] == "ak_1"
    # the openssl vector for exactly these bytes
    assert prepared.headers["x-gl-digest"] == "qqD0a2tEV3WYL49s+vtQ4OIlS9MTD1a5dGDkmVRIIjk="


def test_hmac_auth_digest_differs_once_the_body_is_tampered_with() -> None:
    prepared = _prepare(
        "PUT", "https://gw.example/onboard/1/bank", data=b'{"a":1}', auth=HmacAuth("k", "secret")
    )
    signed = prepared.headers["x-gl-digest"]
    assert signed == "qp4uNXX11wmLbKzNeQiIw21f22M0KnO62i1qUXR6hJQ="
    prepared.body = b'{"a":2}'
    assert hmac_digest("secret", signing_input(prepared)) != signed
    assert not matching_secret(["secret"], signing_input(prepared), signed)


def test_hmac_auth_signs_a_get_over_its_path() -> None:
    prepared = _prepare("GET", "http://127.0.0.1:9" + STATUS_PATH, auth=HmacAuth("k", SECRET))
    assert prepared.headers["x-gl-digest"] == "QLJqVsyVbnKrplgZFxDGVdo+NUKT5ZGIRkX25TXhJD8="


def test_hmac_auth_repr_hides_the_secret() -> None:
    auth = HmacAuth("ak_visible", "very-secret-value")
    assert "very-secret-value" not in repr(auth)
    assert "very-secret-value" not in str(auth)
    assert "ak_visible" in repr(auth)


# ---------------------------------------------------------------- several secrets, comparison


def test_matching_secret_accepts_any_active_secret() -> None:
    data = b'{"a":1}'
    received = "qp4uNXX11wmLbKzNeQiIw21f22M0KnO62i1qUXR6hJQ="  # openssl, secret 'secret'
    assert matching_secret(["secret"], data, received)
    assert matching_secret(["old-one", "secret"], data, received)
    assert matching_secret(["secret", "new-one"], data, received)


def test_matching_secret_refuses_when_no_secret_matches() -> None:
    data = b'{"a":1}'
    received = "qp4uNXX11wmLbKzNeQiIw21f22M0KnO62i1qUXR6hJQ="
    assert not matching_secret(["other", "another"], data, received)
    assert not matching_secret([], data, received)
    assert not matching_secret(["secret"], b'{"a": 1}', received)  # re-serialised JSON
    assert not matching_secret(["secret"], data, HEX_OF_A1)  # hex, not Base64


def test_matching_secret_tries_every_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    tried: list[str] = []
    real = signing.hmac_digest

    def spy(secret: str, data: bytes) -> str:
        tried.append(secret)
        return real(secret, data)

    monkeypatch.setattr(signing, "hmac_digest", spy)
    received = real("a", b"x")
    assert matching_secret(["a", "b", "c"], b"x", received)
    assert tried == ["a", "b", "c"]  # no early exit on the first match


def test_digests_match_compares_whole_values() -> None:
    digest = hmac_digest("secret", b"x")
    assert digests_match(digest, digest)
    assert digests_match(digest, str(digest))
    assert not digests_match(digest, digest[:-1])
    assert not digests_match(digest, digest + "=")
    assert not digests_match(digest, "")
    assert not digests_match(digest, digest.lower())


def test_digests_match_survives_non_ascii_input() -> None:
    digest = hmac_digest("secret", b"x")
    assert not digests_match(digest, "Ω" * len(digest))


def test_digests_match_uses_a_constant_time_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(signing.hmac, "compare_digest", spy)
    assert digests_match("abc=", "abc=")
    assert calls == [(b"abc=", b"abc=")]


# ---------------------------------------------------------------- JWS: signing


MID = "MID-2024-00042"
KID = "kid-merchant-1"
NOW_MS = 1_736_000_000_000


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


# ---------------------------------------------------------------- JWS: verifying


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


# ---------------------------------------------------------------- JWS: digest and clock


def _claims(data: bytes = b"body", iat_ms: int = NOW_MS) -> dict:
    return {
        "digest": base64.b64encode(hashlib.sha256(data).digest()).decode(),
        "digestAlgorithm": "SHA-256",
        "iat": str(iat_ms),
        "exp": TOKEN_LIFETIME_MS,
    }


def test_check_digest_claims_accepts_a_fresh_matching_token() -> None:
    check_digest_claims(_claims(), b"body", NOW_MS)


def test_check_digest_claims_rejects_a_digest_mismatch() -> None:
    with pytest.raises(TokenError, match="digest"):
        check_digest_claims(_claims(b"body"), b"body ", NOW_MS)


def test_check_digest_claims_rejects_a_hex_digest() -> None:
    claims = _claims() | {"digest": hashlib.sha256(b"body").hexdigest()}
    with pytest.raises(TokenError, match="digest"):
        check_digest_claims(claims, b"body", NOW_MS)


def test_check_digest_claims_rejects_an_unpadded_or_urlsafe_digest() -> None:
    # printf '' | openssl dgst -sha256 -binary | base64  (holds both '+' and '/')
    digest = "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
    check_digest_claims(_claims(b""), b"", NOW_MS)
    assert _claims(b"")["digest"] == digest
    for variant in (digest.rstrip("="), digest.replace("+", "-").replace("/", "_")):
        with pytest.raises(TokenError, match="digest"):
            check_digest_claims(_claims(b"") | {"digest": variant}, b"", NOW_MS)


def test_check_digest_claims_rejects_another_algorithm() -> None:
    with pytest.raises(TokenError, match="SHA-256"):
        check_digest_claims(_claims() | {"digestAlgorithm": "MD5"}, b"body", NOW_MS)


@pytest.mark.parametrize(
    ("age_ms", "accepted"),
    [
        (0, True),
        (TOKEN_LIFETIME_MS, True),
        (TOKEN_LIFETIME_MS + CLOCK_SKEW_MS, True),  # 360000 ms: the last accepted instant
        (TOKEN_LIFETIME_MS + CLOCK_SKEW_MS + 1, False),
        (3_600_000, False),
        (-CLOCK_SKEW_MS, True),  # issued in the future, within the skew
        (-1, True),
        (-(CLOCK_SKEW_MS + 1), False),  # in the future beyond the skew
        (-3_600_000, False),
    ],
)
def test_check_digest_claims_clock(age_ms: int, accepted: bool) -> None:
    claims = _claims(iat_ms=NOW_MS - age_ms)
    if accepted:
        check_digest_claims(claims, b"body", NOW_MS)
    else:
        with pytest.raises(TokenError, match=r"expired|future"):
            check_digest_claims(claims, b"body", NOW_MS)


def test_check_digest_claims_rejects_a_non_numeric_iat() -> None:
    with pytest.raises(TokenError, match="iat"):
        check_digest_claims(_claims() | {"iat": "yesterday"}, b"body", NOW_MS)
    claims = _claims()
    del claims["iat"]
    with pytest.raises(TokenError, match="iat"):
        check_digest_claims(claims, b"body", NOW_MS)
