"""Signing cost: our HMAC digest vs raw ``hmac``; our JWS vs a raw RSA PKCS#1 v1.5 signature."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from bench.measure import Row, per_call, ratio_row
from portal.gateway.signing import hmac_digest, load_private_key, sign_digest_token


def _raw_hmac(secret: bytes, data: bytes) -> str:
    return base64.b64encode(hmac.new(secret, data, hashlib.sha256).digest()).decode()


def run() -> list[Row]:
    """Measure the signing rows."""
    rows = []
    secret = "s" * 32
    for label, size in (("1 KB", 1024), ("5 MB", 5 * 1024 * 1024)):
        data = os.urandom(size)
        ours = per_call(lambda d=data: hmac_digest(secret, d))
        raw = per_call(lambda d=data: _raw_hmac(secret.encode(), d))
        rows.append(ratio_row(f"HMAC digest of {label} vs raw hmac", ours * 1e6, raw * 1e6,
                              "us", 1.1))
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    jwk = load_private_key(pem)
    body = os.urandom(1024)
    ours = per_call(lambda: sign_digest_token(body, jwk, kid="k", merchant_id="m",
                                              encrypted=False, now_ms=0))
    raw = per_call(lambda: key.sign(body, padding.PKCS1v15(), hashes.SHA256()))
    rows.append(ratio_row("JWS RS256 token vs raw RSA-2048 PKCS#1 v1.5", ours * 1e6, raw * 1e6,
                          "us", 1.3))
    return rows
