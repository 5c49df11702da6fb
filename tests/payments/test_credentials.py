"""Payment credentials: generated or imported, encrypted at rest, registered with the sandbox."""

from __future__ import annotations

import pytest
from cryptography.fernet import Fernet
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from portal.core.config import SETTINGS_EXTENSION
from portal.core.db import db
from portal.core.models import AuditEvent, PaymentCredentials
from portal.domain.payments import credentials as key_making
from tests.payments.support import add_merchant, credentials_row, submit
from tests.support.approvals import decide_all

GOOD_KID = "kid-imported-1"


def pem(key) -> str:
    """An unencrypted PKCS8 PEM of ``key``."""
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def credentials_page(browser, merchant_id):
    return browser.get(f"/merchants/{merchant_id}/payments/credentials")


def save(browser, merchant_id, **changes):
    return submit(browser, credentials_page(browser, merchant_id), "form.credentials-form",
                  changes)


def test_sandbox_mode_prefills_a_mid_and_kid(browser, merchant_id):
    form = credentials_page(browser, merchant_id).form("form.credentials-form")
    assert form.find("input", attrs={"name": "mid"})["value"].startswith("SBX")
    assert form.find("input", attrs={"name": "kid"})["value"].startswith("kid-")


def test_generated_private_key_is_encrypted_at_rest(app, settings, browser, merchant_id,
                                                    credentials):
    assert "registered with the sandbox automatically" in credentials.text()
    row = credentials_row(app, merchant_id)
    assert row.origin == "generated"
    assert "PRIVATE KEY" not in row.private_key_encrypted
    decrypted = Fernet(settings.credentials_key).decrypt(row.private_key_encrypted.encode())
    key = serialization.load_pem_private_key(decrypted, password=None)
    assert isinstance(key, rsa.RSAPrivateKey) and key.key_size == 2048
    shown = credentials.soup.select_one("pre.public-key").get_text()
    assert shown == row.public_key_pem
    assert "PRIVATE KEY" not in credentials.text()


def test_the_sandbox_accepts_the_generated_key(app, sandbox, merchant_id, credentials):
    row = credentials_row(app, merchant_id)
    payments = sandbox.state.payments
    assert payments._keys[row.kid].mid == row.mid


def test_saving_is_audited(app, merchant_id, credentials):
    with app.app_context():
        event = db.session.query(AuditEvent).filter_by(action="payments.credentials").one()
        assert event.merchant_id == merchant_id and event.actor_label == "admin@example.com"
        assert event.detail["origin"] == "generated"


def test_import_of_an_rsa_2048_key_waits_for_a_second_admin(app, browser, merchant_id):
    key = pem(rsa.generate_private_key(65537, 2048))
    refused = save(browser, merchant_id, kid=GOOD_KID, private_key_pem=key)
    assert refused.response.status_code == 400
    assert "another admin reads it" in " ".join(refused.errors_for("reason"))
    assert "BEGIN PRIVATE KEY" in refused.text()  # what was typed is kept
    page = save(browser, merchant_id, kid=GOOD_KID, private_key_pem=key,
                reason="The merchant moves its existing key from its old provider")
    assert "waits for another admin" in page.text()
    with app.app_context():
        assert db.session.query(PaymentCredentials).count() == 0
    [approved] = decide_all(app)
    assert "Key imported" in approved.get_data(as_text=True)
    assert credentials_row(app, merchant_id).origin == "imported"


UNUSABLE_KEYS = {
    "garbage": (lambda: "not a key", "This is not a PEM private key"),
    "short": (lambda: pem(rsa.generate_private_key(65537, 1024)),  # noqa: S505 - the point
              "The key has 1024 bits; use at least 2048"),
    "not-rsa": (lambda: pem(ec.generate_private_key(ec.SECP256R1())),
                "The key must be an RSA key"),
    "encrypted": (lambda: rsa.generate_private_key(65537, 2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"secret")).decode(), "protected by a passphrase"),
}


@pytest.mark.parametrize("kind", UNUSABLE_KEYS)
def test_import_of_an_unusable_key_is_refused(app, browser, merchant_id, kind):
    make_key, message = UNUSABLE_KEYS[kind]
    page = save(browser, merchant_id, private_key_pem=make_key())
    assert page.response.status_code == 400
    assert any(message in error for error in page.top_errors())
    with app.app_context():
        assert db.session.query(AuditEvent).filter_by(action="payments.credentials").count() == 0


def test_a_missing_credentials_key_is_named(app, browser, merchant_id):
    app.extensions[SETTINGS_EXTENSION] = app.extensions[SETTINGS_EXTENSION].with_changes(
        credentials_key="")
    page = save(browser, merchant_id)
    assert page.response.status_code == 400
    assert any("CREDENTIALS_KEY is not set" in error for error in page.top_errors())


@pytest.mark.parametrize(("field", "value", "message"), [
    ("mid", "", "Enter the MID"),
    ("mid", "MID 1;drop", "1 to 64 letters, digits"),
    ("kid", "k" * 129, "1 to 128 letters, digits"),
])
def test_mid_and_kid_are_checked_beside_their_fields(browser, merchant_id, field, value, message):
    page = save(browser, merchant_id, **{field: value})
    assert page.response.status_code == 400
    assert any(message in error for error in page.errors_for(field))


def test_replacing_needs_the_box_ticked(app, browser, merchant_id, credentials):
    before = credentials_row(app, merchant_id)
    page = save(browser, merchant_id, kid="kid-second")
    assert any("Tick the box" in error for error in page.top_errors())
    page = save(browser, merchant_id, kid="kid-second", replace="y", reason="Key leaked")
    assert credentials_row(app, merchant_id).kid == before.kid  # not before a second admin
    decide_all(app)
    after = credentials_row(app, merchant_id)
    assert after.kid == "kid-second" and after.public_key_pem != before.public_key_pem


def test_ops_see_the_public_key_but_cannot_set_credentials(app, auth, client, browser,
                                                           merchant_id, credentials):
    auth.logout()
    auth.login("ops")
    page = browser.get(f"/merchants/{merchant_id}/payments/credentials")
    assert "Only an admin can replace payment credentials." in page.text()
    assert page.soup.select_one("form.credentials-form") is None
    assert page.soup.select_one("pre.public-key") is not None
    response = client.post(f"/merchants/{merchant_id}/payments/credentials",
                           data={"mid": "SBX1", "kid": "kid-ops", "replace": "y"})
    assert response.status_code == 403
    assert credentials_row(app, merchant_id).kid != "kid-ops"


@pytest.mark.parametrize("status", [None, "IN_PROGRESS", "PENDING_REVIEW", "REJECTED"])
def test_a_merchant_not_approved_cannot_take_payments(app, browser, status):
    merchant_id = add_merchant(app, status, name="Not Yet")
    for path in ("/payments/credentials", "/payments/new", "/payments"):
        page = browser.get(f"/merchants/{merchant_id}{path}")
        assert "Payments unavailable" in page.text()
        assert "once the gateway has approved the merchant" in page.text()
    assert browser.get(f"/merchants/{merchant_id}/payments/new").soup.select_one(
        "form.hold-form") is None
    response = browser.client.post(f"/merchants/{merchant_id}/payments/credentials",
                                   data={"mid": "SBX1", "kid": "kid-1"})
    assert response.status_code == 400
    assert b"once the gateway has approved the merchant" in response.data


def test_keys_generated_in_one_test_are_distinct_and_full_size():
    # the suite's pool (tests/support/key_pool.py) stands in for generation: never one key twice
    first, second = key_making.generate_key(), key_making.generate_key()
    assert first is not second
    assert first.private_numbers() != second.private_numbers()
    assert first.key_size == second.key_size == key_making.KEY_SIZE
