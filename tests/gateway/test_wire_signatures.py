"""Signatures on the wire: the server receives exactly the signed bytes, with their HMAC digest.

Against the real loopback HTTP server (conftest.py), which records what it received.
"""

from __future__ import annotations

import requests

from portal.gateway.onboarding.hmac import HmacAuth
from portal.gateway.onboarding.operations import PREFIX
from tests.gateway.support import (
    SIGNATORY,
    STATUS_PATH,
    STATUS_PATH_DIGEST,
    independent_hmac,
    merchant,
)

# A hand-written, whitespace-heavy body: CRLF, tabs, an escaped tab, a no-break space, UTF-8.
RAW_BODY = (
    b'{\r\n\t"note" :\t"a\\tb\xc2\xa0c",\r\n  "name": "J\xc3\xb6hn D\xc5\x93 \xe2\x82\xb9"\r\n}\r\n'
)
# F='{\r\n\t"note" :\t"a\\tb\xc2\xa0c",\r\n  "name": "J\xc3\xb6hn D\xc5\x93 \xe2\x82\xb9"'
# printf "$F"'\r\n}\r\n' | openssl dgst -sha256 -hmac 's3cr3t-Ω-key' -binary | base64
RAW_BODY_DIGEST = "9nU+twH6z0bebF9G7CAiNhssLvqbjIm6IZ836dFw8R4="


def test_server_receives_the_prepared_bytes_and_their_digest(server, make_client, credentials):
    server.program(server.reply(200, server.ok_body(merchant())))
    client = make_client(server.url)
    prepared = client.prepare("update_auth_signatory", SIGNATORY, onboardingId="ob-123")
    client.transport.send(prepared, "update_auth_signatory")
    (got,) = server.received
    assert got.body == prepared.body
    assert "Jöhn\u00a0\u00a0Dœ \\t ₹ Sr".encode() in got.body  # raw UTF-8, tab escaped
    assert got.headers["x-gl-auth"] == credentials.api_key
    assert got.headers["x-gl-digest"] == independent_hmac(credentials.api_secret, got.body)
    assert got.path == PREFIX + "/onboard/ob-123/auth-signatory"


def test_whitespace_heavy_raw_body_is_signed_as_sent(server, make_client, credentials) -> None:
    server.program(server.reply(200, server.ok_body()))
    client = make_client(server.url)
    prepared = client.transport.prepare("PUT", PREFIX + "/onboard/ob-123/docs", body=RAW_BODY)
    client.transport.send(prepared, "raw")
    (got,) = server.received
    assert got.body == RAW_BODY == prepared.body
    assert got.headers["x-gl-digest"] == RAW_BODY_DIGEST
    assert independent_hmac(credentials.api_secret, got.body) == RAW_BODY_DIGEST


def test_get_digest_covers_the_request_line_path(server, make_client, credentials) -> None:
    server.program(server.reply(200, server.ok_body(merchant())))
    client = make_client(server.url)
    client.transport.send(client.transport.prepare("GET", STATUS_PATH), "get_status")
    (got,) = server.received
    assert got.path == STATUS_PATH
    assert got.body == b""
    assert got.headers["x-gl-digest"] == STATUS_PATH_DIGEST
    assert got.headers["x-gl-digest"] == independent_hmac(
        credentials.api_secret, got.path.encode()
    )


def test_get_with_params_dict_is_signed_over_the_encoded_query(server, credentials) -> None:
    server.program(server.reply(200, server.ok_body()))
    with requests.Session() as session:
        session.trust_env = False
        response = session.get(
            server.url + PREFIX + "/onboard/abc/status",
            params={"note": "a b/c", "x": "₹"},
            auth=HmacAuth(credentials.api_key, credentials.api_secret),
            timeout=(1, 2),
        )
    assert response.status_code == 200
    (got,) = server.received
    assert got.path == PREFIX + "/onboard/abc/status?note=a+b%2Fc&x=%E2%82%B9"
    # printf '%s' '/gcc/v2/partner/merchant/onboard/abc/status?note=a+b%2Fc&x=%E2%82%B9'
    #   | openssl dgst -sha256 -hmac 's3cr3t-Ω-key' -binary | base64
    assert got.headers["x-gl-digest"] == "sDKau/wdWUBqO3J0+77h+U3sKFwRk/pGq9pWy9IKwTY="
    assert got.headers["x-gl-digest"] == independent_hmac(
        credentials.api_secret, got.path.encode()
    )


def test_path_parameters_are_percent_encoded_and_signed(server, make_client, credentials):
    server.program(server.reply(200, server.ok_body(merchant())))
    make_client(server.url).get_status("a b/../ö")
    (got,) = server.received
    assert got.path == PREFIX + "/onboard/a%20b%2F..%2F%C3%B6/status"
    assert got.headers["x-gl-digest"] == independent_hmac(
        credentials.api_secret, got.path.encode()
    )
