"""Importing or replacing a key waits for a second admin; the key waiting is encrypted at rest
and dropped from the request once decided. Generating a first key does not wait."""

from __future__ import annotations

import hashlib

from bs4 import BeautifulSoup
from cryptography.hazmat.primitives import serialization
from sqlalchemy import text

from portal.core.db import db
from portal.core.models import ApprovalRequest, PaymentCredentials, PortfolioKey
from tests.approvals.support import a_pem
from tests.payments.support import credentials_row, submit
from tests.support.approvals import decide_all, second_admin

KID = "kid-imported-7"


def import_key(browser, merchant_id: int, pem: str):
    page = browser.get(f"/merchants/{merchant_id}/payments/credentials")
    return submit(browser, page, "form.credentials-form",
                  {"kid": KID, "private_key_pem": pem, "reason": "Moving from the old portal"})


def stored(app) -> tuple[str, dict]:
    """The only request's payload column as stored, and as the model reads it."""
    with app.app_context():
        raw = db.session.execute(text("SELECT payload FROM approval_requests")).scalar_one()
        return raw, db.session.query(ApprovalRequest).one().payload


def test_a_key_waiting_is_encrypted_and_dropped_once_approved(app, browser, merchant_id):
    pem = a_pem()
    import_key(browser, merchant_id, pem)
    raw, payload = stored(app)
    assert "PRIVATE KEY" not in raw and KID not in raw
    assert payload["private_key_pem"] == pem.strip()
    decide_all(app)
    assert credentials_row(app, merchant_id).kid == KID
    raw, payload = stored(app)
    assert payload["private_key_pem"] is None


def test_a_rejected_key_is_dropped_and_never_stored(app, browser, merchant_id):
    import_key(browser, merchant_id, a_pem())
    decide_all(app, "reject", "We generate keys here, never import them")
    with app.app_context():
        assert db.session.query(PaymentCredentials).count() == 0
    assert stored(app)[1]["private_key_pem"] is None


def test_a_first_generated_key_needs_no_second_admin(app, browser, merchant_id, credentials):
    assert "Credentials saved" in credentials.text()
    with app.app_context():
        assert db.session.query(ApprovalRequest).count() == 0


def test_importing_a_portfolio_key_waits_for_a_second_admin(app, browser):
    page = browser.get("/payments/portfolio-key")
    waiting = submit(browser, page, "form.portfolio-form", {
        "parent_mid": "PARENT9", "kid": "kid-portfolio-9", "private_key_pem": a_pem(),
        "reason": "The partner's existing portfolio key"})
    assert "The portfolio key was not changed yet" in waiting.text()
    with app.app_context():
        assert db.session.query(PortfolioKey).count() == 0
    [approved] = decide_all(app)
    assert "Key imported" in approved.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(PortfolioKey).one().origin == "imported"


def test_the_approvals_page_shows_the_fingerprint_beside_the_kid(app, browser, merchant_id):
    """The admin approving compares it with the partner's: openssl pkey -pubout -outform DER
    | sha256sum of the key they sent."""
    pem = a_pem()
    import_key(browser, merchant_id, pem)
    public = serialization.load_pem_private_key(pem.encode(), None).public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    client = second_admin(app)
    shown = BeautifulSoup(client.get("/approvals/").data, "html.parser").select_one(
        ".approval .approval__fingerprint").get_text(" ", strip=True)
    assert KID in shown and hashlib.sha256(public).hexdigest() in shown
    decide_all(app)
    decided = BeautifulSoup(client.get("/approvals/").data, "html.parser").select_one(
        ".approvals-decided .approval__fingerprint")
    assert hashlib.sha256(public).hexdigest() in decided.get_text(), "kept once the key is gone"
