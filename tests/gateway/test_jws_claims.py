"""A verified JWS token's claims: the digest must match the body and the token must be fresh."""

from __future__ import annotations

import base64
import hashlib

import pytest

from portal.gateway.payments.jws import CLOCK_SKEW_MS, TOKEN_LIFETIME_MS, TokenError
from portal.sandbox.payments.tokens import check_digest_claims
from tests.gateway.support import NOW_MS


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
