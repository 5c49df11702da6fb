"""Gateway errors mapped to exceptions: status, reason, gid and field paths, and nothing secret.

Against the real loopback HTTP server (conftest.py); requests refused before sending are here too.
"""

from __future__ import annotations

import logging

import pytest

from portal.gateway.errors import (
    Conflict,
    Forbidden,
    GatewayError,
    GatewayUnavailable,
    NotFound,
    Unauthorized,
    ValidationFailed,
)
from tests.gateway.support import CREATE, SIGNATORY, error_body

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


# ---------------------------------------------------------------- revision 3 dialects


@pytest.mark.parametrize("operation", ["get", "put", "post"])
def test_a_400_with_reason_gl_400_999_is_not_found(server, make_client, operation) -> None:
    """standalone-capture.mdx: "Transaction not found" is a 400 with reasonCode GL-400-999."""
    server.program(server.reply(400, {"status": "REQUEST_ERROR", "reasonCode": "GL-400-999",
                                      "message": "Transaction not found", "errors": {
                                          "displayMessage": "Transaction not found"}}))
    client = make_client(server.url)
    call = {"get": lambda: client.get_status("ob-123"),
            "put": lambda: client.update_auth_signatory("ob-123", SIGNATORY),
            "post": lambda: client.create_onboarding(CREATE)}[operation]
    with pytest.raises(NotFound) as caught:
        call()
    assert (caught.value.reason_code, caught.value.display_message) == (
        "GL-400-999", "Transaction not found")


@pytest.mark.parametrize(("retry_after", "seconds"), [("30", 30.0), (None, None),
                                                      ("soon", None)])
def test_a_429_is_unavailable_with_its_retry_after_never_a_refusal(
        server, make_client, sleeper, retry_after, seconds) -> None:
    headers = {"Retry-After": retry_after} if retry_after else {}
    server.program(*[server.reply(429, error_body("TOO_MANY_REQUESTS", "gl-429"), headers)] * 3)
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(server.url).update_auth_signatory("ob-123", SIGNATORY)
    assert (caught.value.http_status, caught.value.retry_after) == (429, seconds)
    assert not caught.value.outcome_unknown
    assert len(server.received) == 3  # a PUT is retried, then given up as unavailable


def test_a_429_to_a_post_is_not_outcome_unknown(server, make_client) -> None:
    """A POST is never retried; a 429 means it was not taken, so nothing is left to settle."""
    server.program(server.reply(429, error_body("TOO_MANY_REQUESTS", "gl-429"),
                                {"Retry-After": "5"}))
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(server.url).create_onboarding(CREATE)
    assert (caught.value.retry_after, caught.value.outcome_unknown) == (5.0, False)


def test_a_501_to_a_post_is_unavailable_and_outcome_unknown(server, make_client) -> None:
    """response-codes.mdx: system errors come as HTTP 501 with GL-501-000."""
    server.program(server.reply(501, {"status": "SYSTEM_ERROR", "reasonCode": "GL-501-000",
                                      "message": "Declined by System"}))
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(server.url).create_onboarding(CREATE)
    assert caught.value.outcome_unknown and caught.value.reason_code == "GL-501-000"
