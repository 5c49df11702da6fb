"""Request ids: one per request, returned in X-Request-ID, on error pages and bodies, and in
each log line and each gateway call; a client's own id is believed only from a trusted proxy."""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup

from portal.app.factory import create_app
from portal.gateway.onboarding.hmac import hmac_digest
from tests.support.rows import stored
from tests.support.settings import API_SECRET
from tests.verification.support import backend_of, onboard

GENERATED = re.compile(r"[0-9a-f]{32}")


def test_every_request_gets_its_own_id(client):
    first = client.get("/healthz").headers["X-Request-ID"]
    second = client.get("/healthz").headers["X-Request-ID"]
    assert GENERATED.fullmatch(first) and GENERATED.fullmatch(second)
    assert first != second


def test_a_clients_id_is_ignored_without_a_trusted_proxy(client):
    answer = client.get("/healthz", headers={"X-Request-ID": "chosen-by-client"})
    assert GENERATED.fullmatch(answer.headers["X-Request-ID"])


@pytest.mark.parametrize(("offered", "kept"), [
    ("lb-7f3a-0001", True),
    ("a" * 129, False),
    ("two words", False),
    ('forged"} {"level":"ERROR', False),
])
def test_a_trusted_proxys_id_is_kept_when_well_formed(settings, offered, kept):
    client = create_app(settings.with_changes(trusted_proxies=1)).test_client()
    answered = client.get("/healthz", headers={"X-Request-ID": offered}).headers["X-Request-ID"]
    assert (answered == offered) == kept
    if not kept:
        assert GENERATED.fullmatch(answered)


def test_an_error_page_asks_to_quote_the_reference(client, auth):
    auth.login("ops")
    answer = client.get("/no/such/page")
    assert answer.status_code == 404
    reference = BeautifulSoup(answer.data, "html.parser").select_one(".error-reference")
    assert reference is not None
    assert "quote this reference" in reference.get_text()
    assert reference.code.get_text() == answer.headers["X-Request-ID"]


def test_a_json_error_carries_the_reference(client):
    answer = client.get("/no/such/page", headers={"Accept": "application/json"})
    assert answer.status_code == 404
    assert answer.get_json()["reference"] == answer.headers["X-Request-ID"]


def test_the_gateway_calls_of_a_request_carry_its_id(app, client, sandbox):
    onboarding_id = stored(app, onboard(app)).onboarding_id  # calls made outside a request
    received = backend_of(sandbox).received_requests
    before = len(received())
    body = json.dumps({"onboarding_id": onboarding_id, "event_id": "evt_ops_1",
                       "onboarding_status": "APPROVED"}).encode()
    answer = client.post("/webhooks/onboarding", data=body, headers={
        "Content-Type": "application/json", "x-gl-digest": hmac_digest(API_SECRET, body)})
    assert answer.status_code == 200
    setup, during = received()[:before], received()[before:]
    assert [r.method for r in during] == ["GET"]  # the webhook's status re-read

    def has_id(names: tuple[str, ...]) -> bool:
        return "x-request-id" in {name.lower() for name in names}

    assert has_id(during[0].header_names)
    assert not any(has_id(r.header_names) for r in setup)
