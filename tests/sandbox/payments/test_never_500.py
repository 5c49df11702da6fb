"""Hostile input never makes the sandbox's payments API or hosted page answer 500."""

from __future__ import annotations

import base64
import json

import pytest

from tests.sandbox.payments.support import MID


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _header(value: object) -> str:
    return _b64(json.dumps(value).encode())


BAD_TOKENS = {
    "deeply-nested-header": _b64(b"[" * 3_000) + ".e30.",
    "header-is-a-list": _header([1]) + ".e30.x",
    "kid-is-an-object": _header({"alg": "RS256", "kid": {"a": 1}}) + ".e30.x",
    "alg-is-a-list": _header({"alg": ["RS256"]}) + ".e30.x",
    "two-parts": "abc.def",
    "not-base64": "!!!.???.***",
    "non-ascii": "é.é.é",
    "six-parts": "a.b.c.d.e.f",
}

JWE_BODIES = {
    "not-a-jwe": b"hello",
    "header-only": _header({"alg": "RSA-OAEP-256", "enc": "A128CBC-HS256"}).encode() + b"....",
    "dir-algorithm": _header({"alg": "dir", "enc": "A128CBC-HS256"}).encode() + b".a.b.c.d",
    "enc-is-a-list": _header({"alg": "RSA-OAEP-256", "enc": ["x"]}).encode() + b".a.b.c.d",
    "not-ascii": "é.é.é.é.é".encode(),
}


@pytest.mark.parametrize("token", BAD_TOKENS.values(), ids=BAD_TOKENS.keys())
def test_bad_token_on_initiate_is_401(signer, token):
    assert signer.post({}, token=token).status_code == 401


@pytest.mark.parametrize("token", BAD_TOKENS.values(), ids=BAD_TOKENS.keys())
def test_bad_token_on_status_is_401(http, sandbox, token):
    url = f"{sandbox.url}/gl/v1/payments/gl_o-1/status"
    assert http.get(url, params={"x-gl-token": token}, timeout=5).status_code == 401
    signed = http.get(url, headers={"x-gl-token-external": token, "x-gl-merchantid": MID},
                      timeout=5)
    assert signed.status_code == 401


@pytest.mark.parametrize("token", BAD_TOKENS.values(), ids=BAD_TOKENS.keys())
def test_bad_token_on_hosted_page_is_401(http, sandbox, token):
    url = f"{sandbox.url}/gl/payflow-ui/"
    assert http.get(url, params={"x-gl-token": token}, timeout=5).status_code == 401
    assert http.post(url, data={"x-gl-token": token}, timeout=5).status_code == 401


@pytest.mark.parametrize("raw", JWE_BODIES.values(), ids=JWE_BODIES.keys())
def test_signed_garbage_jwe_is_400(signer, raw):
    response = signer.post(raw=raw, token=signer.token(raw, encrypted=True),
                           content_type="text/plain")
    assert response.status_code == 400, response.text


@pytest.mark.parametrize("path", ["/gl/v1/payments/gl_o-1/capture", "/gl/v1/payments/x/refund",
                                  "/gl/v1/payments/%00/auth-reversal"])
def test_follow_up_without_auth_is_401(http, sandbox, path):
    assert http.post(sandbox.url + path, data=b"{", timeout=5).status_code == 401
