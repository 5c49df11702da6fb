"""Authentication comes first: every 401 case of spec section 5, each with its own test."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest
import requests

from portal.gateway.errors import Unauthorized
from portal.gateway.onboarding.hmac import AUTH_HEADER, DIGEST_HEADER, HmacAuth, hmac_digest
from portal.gateway.onboarding.operations import OPERATIONS
from tests.sandbox.payloads import signatory
from tests.sandbox.support import (
    KEY,
    OTHER_KEY,
    RETIRED_KEY,
    RETIRED_SECRET,
    SECOND_KEY,
    SECOND_SECRET,
    SECRET,
    client_of,
)
from tests.support.sandbox import RunningSandbox

TIMEOUT = 5


def status_path(onboarding_id: str) -> str:
    """The status operation's path for a record."""
    return OPERATIONS["get_status"].url_path(onboardingId=onboarding_id)


def signatory_path(onboarding_id: str) -> str:
    """The signatory operation's path for a record."""
    return OPERATIONS["update_auth_signatory"].url_path(onboardingId=onboarding_id)


def compact(value: object) -> bytes:
    """The compact JSON bytes the client would send."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def put(sandbox: RunningSandbox, path: str, body: bytes,
        headers: dict[str, str]) -> requests.Response:
    """A raw PUT with exactly these bytes and headers."""
    return requests.put(sandbox.url + path, data=body, timeout=TIMEOUT,
                        headers={"Content-Type": "application/json", **headers})


def assert_unauthorized(response: requests.Response) -> None:
    """401 with the gateway's envelope and reasonCode."""
    assert response.status_code == 401, response.text
    assert response.json()["reasonCode"] == "UNAUTHORIZED"


def test_correctly_signed_raw_request_is_accepted(sandbox_server, onboarding_id):
    body = compact(signatory())
    response = put(sandbox_server, signatory_path(onboarding_id), body,
                   {AUTH_HEADER: KEY, DIGEST_HEADER: hmac_digest(SECRET, body)})
    assert response.status_code == 200, response.text


def test_missing_key_header_is_401(sandbox_server, onboarding_id):
    body = compact(signatory())
    response = put(sandbox_server, signatory_path(onboarding_id), body,
                   {DIGEST_HEADER: hmac_digest(SECRET, body)})
    assert_unauthorized(response)


def test_missing_digest_header_is_401(sandbox_server, onboarding_id):
    response = put(sandbox_server, signatory_path(onboarding_id), compact(signatory()),
                   {AUTH_HEADER: KEY})
    assert_unauthorized(response)


def test_unknown_key_is_401(sandbox_server, onboarding_id):
    body = compact(signatory())
    response = put(sandbox_server, signatory_path(onboarding_id), body,
                   {AUTH_HEADER: "no-such-key", DIGEST_HEADER: hmac_digest(SECRET, body)})
    assert_unauthorized(response)


def test_deactivated_key_is_401(sandbox_server, onboarding_id):
    body = compact(signatory())
    response = put(sandbox_server, signatory_path(onboarding_id), body,
                   {AUTH_HEADER: RETIRED_KEY, DIGEST_HEADER: hmac_digest(RETIRED_SECRET, body)})
    assert_unauthorized(response)


def test_hex_digest_is_401(sandbox_server, onboarding_id):
    body = compact(signatory())
    hex_digest = hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    response = put(sandbox_server, signatory_path(onboarding_id), body,
                   {AUTH_HEADER: KEY, DIGEST_HEADER: hex_digest})
    assert_unauthorized(response)


def test_digest_over_reserialized_json_is_401(sandbox_server, onboarding_id):
    sent = compact(signatory())
    reserialized = json.dumps(json.loads(sent)).encode("utf-8")  # default separators
    assert reserialized != sent
    response = put(sandbox_server, signatory_path(onboarding_id), sent,
                   {AUTH_HEADER: KEY, DIGEST_HEADER: hmac_digest(SECRET, reserialized)})
    assert_unauthorized(response)


def test_digest_over_full_url_is_401(sandbox_server, onboarding_id):
    url = sandbox_server.url + status_path(onboarding_id)
    response = requests.get(url, timeout=TIMEOUT, headers={
        AUTH_HEADER: KEY, DIGEST_HEADER: hmac_digest(SECRET, url.encode("ascii"))})
    assert_unauthorized(response)


def test_digest_over_get_body_is_401(sandbox_server, onboarding_id):
    body = b"{}"
    response = requests.get(sandbox_server.url + status_path(onboarding_id), data=body,
                            timeout=TIMEOUT,
                            headers={AUTH_HEADER: KEY, DIGEST_HEADER: hmac_digest(SECRET, body)})
    assert_unauthorized(response)


def test_digest_keyed_with_api_key_is_401(sandbox_server, onboarding_id):
    body = compact(signatory())
    response = put(sandbox_server, signatory_path(onboarding_id), body,
                   {AUTH_HEADER: KEY, DIGEST_HEADER: hmac_digest(KEY, body)})
    assert_unauthorized(response)


def test_another_keys_secret_is_401(sandbox_server, onboarding_id):
    body = compact(signatory())
    response = put(sandbox_server, signatory_path(onboarding_id), body,
                   {AUTH_HEADER: KEY, DIGEST_HEADER: hmac_digest(SECOND_SECRET, body)})
    assert_unauthorized(response)


@pytest.mark.parametrize("path", [
    "/gcc/v2/partner/merchant/onboard/pg_onboard_unknown/status",
    "/gcc/v2/partner/merchant/no-such-operation",
])
def test_authentication_comes_before_not_found(sandbox_server, path):
    unsigned = requests.get(sandbox_server.url + path, timeout=TIMEOUT)
    assert_unauthorized(unsigned)
    signed = requests.get(sandbox_server.url + path, timeout=TIMEOUT, auth=HmacAuth(KEY, SECRET))
    assert signed.status_code == 404
    assert signed.json()["reasonCode"] == "NOT_FOUND"


def test_authentication_comes_before_validation(sandbox_server, onboarding_id):
    response = put(sandbox_server, signatory_path(onboarding_id), b"not json", {AUTH_HEADER: KEY})
    assert_unauthorized(response)


def test_authentication_comes_before_ownership(sandbox_server, onboarding_id):
    response = requests.get(sandbox_server.url + status_path(onboarding_id), timeout=TIMEOUT,
                            headers={AUTH_HEADER: OTHER_KEY, DIGEST_HEADER: "AAAA"})
    assert_unauthorized(response)


def test_two_active_keys_of_one_partner_both_work(sandbox_server, onboarding_id):
    for key, secret in ((KEY, SECRET), (SECOND_KEY, SECOND_SECRET)):
        status = client_of(sandbox_server, key, secret).get_status(onboarding_id)
        assert status.merchantInfo.onboardingId == onboarding_id


def test_deactivating_a_key_takes_effect_at_once(sandbox_server, partner, onboarding_id):
    partner.get_status(onboarding_id)
    sandbox_server.backend.set_key_active(KEY, False)
    with pytest.raises(Unauthorized):
        partner.get_status(onboarding_id)
    # the rotation partner: the partner's other key keeps working meanwhile
    client_of(sandbox_server, SECOND_KEY, SECOND_SECRET).get_status(onboarding_id)
    sandbox_server.backend.set_key_active(KEY, True)
    assert partner.get_status(onboarding_id).merchantInfo.onboardingId == onboarding_id


def test_non_ascii_body_with_odd_whitespace_is_signed_byte_exactly(sandbox_server,
                                                                   onboarding_id):
    text = ('{ "authSignatoryName":\t"Zoë\u00a0Ñúñez 山田" ,\r\n'
            '  "authSignatoryPan" : "ABCPE1234F",\n\n '
            '"contact": {"phone": "+919876543210",   "email": "zoe@example.com"}\n}\n')
    body = text.encode("utf-8")
    digest = hmac_digest(SECRET, body)
    response = put(sandbox_server, signatory_path(onboarding_id), body,
                   {AUTH_HEADER: KEY, DIGEST_HEADER: digest})
    assert response.status_code == 200, response.text
    received = sandbox_server.backend.received_requests()[-1]
    assert received.body == body
    assert hmac_digest(SECRET, received.body) == digest
    stored = response.json()["data"]["merchantInfo"]["authorisedSignatoryDetails"]
    assert stored["authSignatoryName"] == "Zoë\u00a0Ñúñez 山田"


def test_client_signs_the_bytes_the_server_receives(sandbox_server, partner, onboarding_id):
    prepared = partner.prepare("update_auth_signatory", signatory(name="Zoë  Ñúñez"),
                               onboardingId=onboarding_id)
    partner.transport.send(prepared, "update_auth_signatory")
    received = sandbox_server.backend.received_requests()[-1]
    assert received.body == prepared.body
    assert hmac_digest(SECRET, received.body) == prepared.headers[DIGEST_HEADER]


def test_get_signature_covers_percent_encoded_query_as_sent(sandbox_server, onboarding_id):
    path = status_path(onboarding_id) + "?note=a%20b%2Fc&name=Zo%C3%AB"
    response = requests.get(sandbox_server.url + path, timeout=TIMEOUT,
                            auth=HmacAuth(KEY, SECRET))
    assert response.status_code == 200, response.text
    received = sandbox_server.backend.received_requests()[-1]
    assert received.raw_path == path
    sent_digest = response.request.headers[DIGEST_HEADER]
    assert hmac_digest(SECRET, received.raw_path.encode("ascii")) == sent_digest


def test_get_digest_over_decoded_query_is_401(sandbox_server, onboarding_id):
    path = status_path(onboarding_id)
    decoded = (path + "?note=a b/c").encode("utf-8")
    response = requests.get(sandbox_server.url + path + "?note=a%20b%2Fc", timeout=TIMEOUT,
                            headers={AUTH_HEADER: KEY, DIGEST_HEADER: hmac_digest(SECRET, decoded)})
    assert_unauthorized(response)


def test_request_log_keeps_header_names_not_values(sandbox_server, partner, onboarding_id):
    partner.get_status(onboarding_id)
    received = sandbox_server.backend.received_requests()[-1]
    names = {name.lower() for name in received.header_names}
    assert {AUTH_HEADER, DIGEST_HEADER} <= names
    assert KEY not in repr(received)


def test_digest_header_must_be_base64(sandbox_server, onboarding_id):
    body = compact(signatory())
    raw = hmac.new(SECRET.encode(), body, hashlib.sha256).digest()
    urlsafe = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    response = put(sandbox_server, signatory_path(onboarding_id), body,
                   {AUTH_HEADER: KEY, DIGEST_HEADER: urlsafe})
    assert_unauthorized(response)
