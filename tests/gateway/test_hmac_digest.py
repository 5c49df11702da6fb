"""The HMAC digest of onboarding requests: over exactly the bytes sent, checked against openssl.

The known answers below were produced with openssl, not with our code, e.g.::

    printf '%s' '{"a":1}' | openssl dgst -sha256 -hmac 'secret' -binary | base64
"""

from __future__ import annotations

import base64

import pytest
import requests

from portal.gateway.onboarding.hmac import HmacAuth, hmac_digest, matching_secret, signing_input
from tests.gateway.support import HEX_OF_A1, STATUS_PATH, STATUS_PATH_DIGEST

SECRET = "s3cr3t-Ω-key"  # UTF-8 bytes 73 33 63 72 33 74 2d ce a9 2d 6b 65 79
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
    # STATUS_PATH, see its openssl command in tests/gateway/support.py
    (SECRET, STATUS_PATH.encode(), STATUS_PATH_DIGEST),
]


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
    assert prepared.headers["x-gl-digest"] == STATUS_PATH_DIGEST


def test_hmac_auth_repr_hides_the_secret() -> None:
    auth = HmacAuth("ak_visible", "very-secret-value")
    assert "very-secret-value" not in repr(auth)
    assert "very-secret-value" not in str(auth)
    assert "ak_visible" in repr(auth)

