"""Signing cost: our HMAC digest vs raw ``hmac``; our JWS vs a raw RSA PKCS#1 v1.5 signature."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
from collections.abc import Callable

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from bench.measure import Row, per_call, ratio_row
from bench.stack import Bench
from portal.gateway.onboarding.hmac import hmac_digest
from portal.gateway.payments.jws import load_private_key, sign_digest_token


def _raw_hmac(secret: bytes, data: bytes) -> str:
    return base64.b64encode(hmac.new(secret, data, hashlib.sha256).digest()).decode()


#: Rounds of alternating measurements; each figure is its best round (the least disturbed).
ROUNDS = 3


def best_of(ours: Callable[[], object], raw: Callable[[], object]) -> tuple[float, float]:
    """Seconds per call of each, measured in alternating rounds, the best round of each."""
    rounds = [(per_call(ours), per_call(raw)) for _ in range(ROUNDS)]
    return min(r[0] for r in rounds), min(r[1] for r in rounds)


def run(_bench: Bench) -> list[Row]:
    """Measure the signing rows."""
    rows = []
    secret = "s" * 32
    for label, size in (("1 KB", 1024), ("5 MB", 5 * 1024 * 1024)):
        data = os.urandom(size)
        ours, raw = best_of(lambda d=data: hmac_digest(secret, d),
                            lambda d=data: _raw_hmac(secret.encode(), d))
        rows.append(ratio_row(f"HMAC digest of {label} vs raw hmac", ours * 1e6, raw * 1e6,
                              "us", 1.1))
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    jwk = load_private_key(pem)
    body = os.urandom(1024)
    ours, raw = best_of(lambda: sign_digest_token(body, jwk, kid="k", merchant_id="m",
                                                  encrypted=False, now_ms=0),
                        lambda: key.sign(body, padding.PKCS1v15(), hashes.SHA256()))
    rows.append(ratio_row("JWS RS256 token vs raw RSA-2048 PKCS#1 v1.5", ours * 1e6, raw * 1e6,
                          "us", 1.3))
    return rows
