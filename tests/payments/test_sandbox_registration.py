"""The sandbox's key registration route that the portal calls in sandbox mode."""

from __future__ import annotations

from portal.sandbox.app import create_sandbox_app
from portal.sandbox.common.config import config_from

PEM_BODY = {"mid": "SBX1", "kid": "kid-1", "publicKeyPem": "not a key"}


def test_registration_is_for_loopback_callers_only():
    app = create_sandbox_app(config_from({}))
    response = app.test_client().post("/_sandbox/merchants", json=PEM_BODY,
                                      environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert response.status_code == 403


def test_a_key_that_is_not_a_pem_is_refused():
    app = create_sandbox_app(config_from({}))
    response = app.test_client().post("/_sandbox/merchants", json=PEM_BODY,
                                      environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert response.status_code == 400
    assert response.json["errorDetails"][0]["field"] == "publicKeyPem"
