"""OnboardingClient and Transport against a real loopback HTTP server (conftest.py).

The server is programmed per test (status sequence, a slow answer, a dropped connection) and
records what it received, so retries are counted and signatures are checked on the wire bytes.
Nothing really sleeps: the client's ``sleep`` is a recorder.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
from typing import Any

import pytest
import requests
from requests.adapters import HTTPAdapter
from urllib3.exceptions import MaxRetryError, NameResolutionError

from portal.gateway.errors import (
    Conflict,
    Forbidden,
    GatewayError,
    GatewayUnavailable,
    NotFound,
    Unauthorized,
    ValidationFailed,
)
from portal.gateway.onboarding_shapes import PREFIX, MerchantData, OnboardingStatus
from portal.gateway.signing import HmacAuth

STATUS_PATH = PREFIX + "/onboard/abc/status?note=a%20b%2Fc&x=%E2%82%B9"
# printf '%s' '/gcc/v2/partner/merchant/onboard/abc/status?note=a%20b%2Fc&x=%E2%82%B9'
#   | openssl dgst -sha256 -hmac 's3cr3t-Ω-key' -binary | base64
STATUS_PATH_DIGEST = "QLJqVsyVbnKrplgZFxDGVdo+NUKT5ZGIRkX25TXhJD8="
# A hand-written, whitespace-heavy body: CRLF, tabs, an escaped tab, a no-break space, UTF-8.
RAW_BODY = (
    b'{\r\n\t"note" :\t"a\\tb\xc2\xa0c",\r\n  "name": "J\xc3\xb6hn D\xc5\x93 \xe2\x82\xb9"\r\n}\r\n'
)
# F='{\r\n\t"note" :\t"a\\tb\xc2\xa0c",\r\n  "name": "J\xc3\xb6hn D\xc5\x93 \xe2\x82\xb9"'
# printf "$F"'\r\n}\r\n' | openssl dgst -sha256 -hmac 's3cr3t-Ω-key' -binary | base64
RAW_BODY_DIGEST = "9nU+twH6z0bebF9G7CAiNhssLvqbjIm6IZ836dFw8R4="

CREATE = {"externalOnboardingId": "ext-0001", "panNumber": "ABCPE1234F"}
SIGNATORY = {
    "authSignatoryName": "Jöhn\u00a0\u00a0Dœ \t ₹ Sr",
    "authSignatoryPan": "AAAPZ1234C",
    "contact": {"phone": "+919876543210", "email": "john.doe@example.com"},
}
BANK = {
    "bankAccountNumber": "1234567890",
    "bankIfscCode": "SBIN0000000",
    "accountHolderName": "Jöhn Dœ",
    "accountType": "CURRENT",
}


def merchant(status: str = "INITIATED") -> dict[str, Any]:
    """The ``data`` of a record operation."""
    return {
        "merchantInfo": {
            "onboardingId": "ob-123",
            "partnerOnboardingId": "ext-0001",
            "onboardingStatus": status,
        },
        "merchantOnboardingCheckListStatus": {"businessDetails": "PENDING"},
    }


def error_body(status_text: str, gid: str, details: list[dict] | None = None) -> dict[str, Any]:
    return {
        "gid": gid,
        "timestamp": "01/01/2025 10:00:00",
        "reasonCode": status_text,
        "data": {},
        "errors": {"count": len(details or [])},
        "errorDetails": details or [],
    }


def independent_hmac(secret: str, data: bytes) -> str:
    return base64.b64encode(hmac.new(secret.encode(), data, hashlib.sha256).digest()).decode()


# ---------------------------------------------------------------- retries


def test_get_is_retried_on_503_then_succeeds(server, make_client, sleeper) -> None:
    server.program(
        server.reply(503, error_body("SYSTEM_ERROR", "gl-5a")),
        server.reply(503, error_body("SYSTEM_ERROR", "gl-5b")),
        server.reply(200, server.ok_body(merchant("IN_PROGRESS"))),
    )
    result = make_client(server.url).get_status("ob-123")
    assert isinstance(result, MerchantData)
    assert result.merchantInfo.onboardingStatus == OnboardingStatus.IN_PROGRESS
    assert [r.method for r in server.received] == ["GET", "GET", "GET"]
    assert len(sleeper.delays) == 2
    assert 0 <= sleeper.delays[0] <= 0.25 and 0 <= sleeper.delays[1] <= 0.5


def test_get_gives_up_after_the_last_attempt(server, make_client, sleeper) -> None:
    server.program(*[server.reply(503, error_body("SYSTEM_ERROR", f"gl-{i}")) for i in range(5)])
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(server.url, attempts=3).get_status("ob-123")
    assert len(server.received) == 3
    assert len(sleeper.delays) == 2
    assert caught.value.http_status == 503
    assert caught.value.gid == "gl-2"
    assert caught.value.outcome_unknown is False  # a GET changes nothing


def test_put_is_retried_with_the_same_signed_bytes(server, make_client, credentials) -> None:
    server.program(
        server.reply(502, error_body("SYSTEM_ERROR", "gl-502")),
        server.reply(200, server.ok_body(merchant())),
    )
    make_client(server.url).update_bank_details("ob-123", BANK)
    first, second = server.received
    assert first.method == second.method == "PUT"
    assert first.body == second.body
    assert first.headers["x-gl-digest"] == second.headers["x-gl-digest"]
    assert second.headers["x-gl-digest"] == independent_hmac(credentials.api_secret, second.body)


def test_retry_after_is_honoured_and_capped(server, make_client, sleeper) -> None:
    server.program(
        server.reply(503, error_body("SYSTEM_ERROR", "a"), {"Retry-After": "2"}),
        server.reply(429, error_body("TOO_MANY", "b"), {"Retry-After": "120"}),
        server.reply(200, server.ok_body(merchant())),
    )
    make_client(server.url).get_status("ob-123")
    assert sleeper.delays == [2.0, 4.0]
    assert len(server.received) == 3


def test_create_post_is_not_retried_on_503(server, make_client, sleeper) -> None:
    server.program(server.reply(503, error_body("SYSTEM_ERROR", "gl-503")))
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(server.url).create_onboarding(CREATE)
    assert len(server.received) == 1
    assert sleeper.delays == []
    assert caught.value.outcome_unknown is True
    assert caught.value.http_status == 503 and caught.value.gid == "gl-503"


def test_read_timeout_on_post_leaves_the_outcome_unknown(server, make_client, sleeper) -> None:
    server.program(server.slow(0.4, 200, server.ok_body(merchant())))
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(server.url, read=0.1).create_onboarding(CREATE)
    assert caught.value.outcome_unknown is True
    assert "did not answer in time" in str(caught.value)
    assert len(server.received) == 1  # the request did arrive: it may have been applied
    assert sleeper.delays == []


def test_read_timeout_on_get_is_retried(server, make_client, sleeper) -> None:
    server.program(server.slow(0.4), server.reply(200, server.ok_body(merchant())))
    # attempts to spare: on a loaded machine even the quick answer could miss 0.1 s
    result = make_client(server.url, read=0.1, attempts=5).get_status("ob-123")
    assert result.merchantInfo.onboardingId == "ob-123"
    assert len(server.received) >= 2  # the slow first answer was given up on
    assert len(sleeper.delays) == len(server.received) - 1


def test_dropped_connection_on_post_leaves_the_outcome_unknown(server, make_client, sleeper):
    server.program(server.close())
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(server.url).create_onboarding(CREATE)
    assert caught.value.outcome_unknown is True
    assert "connection to the gateway was lost" in str(caught.value)
    assert len(server.received) == 1
    assert sleeper.delays == []


def test_dropped_connection_on_put_is_retried(server, make_client, sleeper) -> None:
    server.program(server.close(), server.reply(200, server.ok_body(merchant())))
    make_client(server.url).update_bank_details("ob-123", BANK)
    assert [r.method for r in server.received] == ["PUT", "PUT"]
    assert len(sleeper.delays) == 1


def test_connection_refused_on_post_is_a_known_failure(refused_url, make_client, sleeper):
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(refused_url).create_onboarding(CREATE)
    assert caught.value.outcome_unknown is False  # nothing was sent
    assert "could not connect" in str(caught.value)
    assert sleeper.delays == []


def test_connection_refused_on_get_is_retried_then_fails(refused_url, make_client, sleeper):
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(refused_url, attempts=3).get_status("ob-123")
    assert caught.value.outcome_unknown is False
    assert len(sleeper.delays) == 2


class _NoDnsAdapter(HTTPAdapter):
    """Fails every send as requests does when the host name does not resolve."""

    def send(self, request, **kwargs):
        reason = NameResolutionError("gateway.invalid", None, OSError(-2, "Name not known"))
        raise requests.ConnectionError(MaxRetryError(None, request.path_url, reason))


def test_dns_failure_on_post_is_a_known_failure(make_client, sleeper) -> None:
    client = make_client("http://gateway.invalid")
    client.transport._session().mount("http://", _NoDnsAdapter())
    with pytest.raises(GatewayUnavailable) as caught:
        client.create_onboarding(CREATE)
    assert caught.value.outcome_unknown is False
    assert "could not connect" in str(caught.value)
    assert sleeper.delays == []


# ---------------------------------------------------------------- error mapping


def test_400_maps_field_and_field_name_paths(server, make_client) -> None:
    details = [
        {"field": "contact.email", "message": "Not a valid email"},
        {"fieldName": "[1].pan", "message": "PAN does not exist"},
        {"fieldName": "businessRegisteredAddress.zipcode", "message": "6 digits"},
        {"field": "productFees.INTERNATIONAL_CARDS_AND_ALT_PAYS", "message": "missing"},
    ]
    server.program(server.reply(400, error_body("VALIDATION_ERROR", "gl-400", details)))
    with pytest.raises(ValidationFailed) as caught:
        make_client(server.url).update_auth_signatory("ob-123", SIGNATORY)
    error = caught.value
    assert [(e.field, e.message) for e in error.field_errors] == [
        ("contact.email", "Not a valid email"),
        ("[1].pan", "PAN does not exist"),
        ("businessRegisteredAddress.zipcode", "6 digits"),
        ("productFees.INTERNATIONAL_CARDS_AND_ALT_PAYS", "missing"),
    ]
    assert error.http_status == 400 and error.reason_code == "VALIDATION_ERROR"
    assert error.gid == "gl-400"
    assert "contact.email" in str(error) and "[1].pan" in str(error)
    assert len(server.received) == 1  # a 400 is final


@pytest.mark.parametrize(
    ("status", "reason", "kind"),
    [
        (401, "UNAUTHORIZED", Unauthorized),
        (403, "FORBIDDEN", Forbidden),
        (404, "NOT_FOUND", NotFound),
        (409, "CONFLICT", Conflict),
    ],
)
@pytest.mark.parametrize("operation", ["get", "put", "post"])
def test_final_errors_carry_status_reason_gid_and_body(
    server, make_client, credentials, sleeper, status, reason, kind, operation
) -> None:
    body = error_body(reason, f"gl-{status}-xyz")
    server.program(server.reply(status, body))
    client = make_client(server.url)
    call = {
        "get": lambda: client.get_status("ob-123"),
        "put": lambda: client.update_auth_signatory("ob-123", SIGNATORY),
        "post": lambda: client.create_onboarding(CREATE),
    }[operation]
    with pytest.raises(kind) as caught:
        call()
    error = caught.value
    assert type(error) is kind
    assert error.http_status == status
    assert error.reason_code == reason
    assert error.gid == f"gl-{status}-xyz"
    assert error.body == body
    text = str(error)
    assert str(status) in text and reason in text and f"gl-{status}-xyz" in text
    assert credentials.api_secret not in text and credentials.api_key not in text
    assert credentials.api_secret not in repr(error) and credentials.api_key not in repr(error)
    sent = server.received[0].body.decode()
    for leaked in ("ABCPE1234F", "AAAPZ1234C", "john.doe@example.com", "ext-0001", "Jöhn"):
        assert leaked not in text
    if sent:
        assert sent not in text
    assert len(server.received) == 1 and sleeper.delays == []


def test_error_with_null_error_details_still_maps(server, make_client) -> None:
    body = {"gid": "gl-null", "reasonCode": "UNAUTHORIZED", "errorDetails": None, "data": None}
    server.program(server.reply(401, body))
    with pytest.raises(Unauthorized) as caught:
        make_client(server.url).get_status("ob-123")
    assert caught.value.gid == "gl-null" and caught.value.reason_code == "UNAUTHORIZED"
    assert caught.value.body == body


def test_non_json_error_body_still_maps(server, make_client) -> None:
    server.program(server.reply(404, None))
    with pytest.raises(NotFound) as caught:
        make_client(server.url).get_status("ob-123")
    assert caught.value.http_status == 404 and caught.value.body is None


def test_unexpected_status_is_a_gateway_error(server, make_client) -> None:
    server.program(server.reply(418, error_body("TEAPOT", "gl-418")))
    with pytest.raises(GatewayError) as caught:
        make_client(server.url).get_status("ob-123")
    assert type(caught.value) is GatewayError
    assert caught.value.http_status == 418 and caught.value.gid == "gl-418"


def test_logs_hold_no_secret_key_or_body(server, make_client, credentials, caplog) -> None:
    server.program(server.reply(503, error_body("SYSTEM_ERROR", "gl-log")))
    caplog.set_level(logging.DEBUG, logger="portal.gateway")
    with pytest.raises(GatewayUnavailable):
        make_client(server.url).create_onboarding(CREATE)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "gl-log" in logged and "503" in logged
    for secret in (credentials.api_secret, credentials.api_key, "ABCPE1234F", "ext-0001"):
        assert secret not in logged


# ---------------------------------------------------------------- pre-send validation


def test_invalid_request_is_refused_before_sending(server, make_client) -> None:
    client = make_client(server.url)
    with pytest.raises(ValidationFailed) as caught:
        client.create_onboarding({"externalOnboardingId": "has space", "panNumber": "ABCXE1234F"})
    assert {e.field for e in caught.value.field_errors} == {"externalOnboardingId", "panNumber"}
    assert caught.value.http_status is None
    with pytest.raises(ValidationFailed) as caught:
        client.update_auth_signatory(
            "ob-123", {**SIGNATORY, "contact": {"phone": "98765", "email": "x@"}}
        )
    assert [e.field for e in caught.value.field_errors] == ["contact.phone", "contact.email"]
    assert server.received == []


# ---------------------------------------------------------------- signatures on the wire


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
