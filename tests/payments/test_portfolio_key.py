"""The partner's portfolio key through the pages: one parent-MID key, chosen by several approved
merchants, signs their payments at the sandbox over loopback HTTP (docs/gateway-contract.md,
portfolio keys)."""

from __future__ import annotations

import pytest
from cryptography.fernet import Fernet

from portal.core.config import SETTINGS_EXTENSION
from portal.core.db import db
from portal.core.models import AuditEvent, PortfolioKey
from tests.payments.support import (
    add_merchant,
    authorised_payment,
    backend,
    credentials_row,
    payment_row,
    post_hold,
    submit,
)
from tests.support.approvals import decide_all
from tests.support.rows import fresh

PARENT = "PARENTMID01"
PORTFOLIO_KID = "kid-portfolio-1"


def set_up_portfolio(browser, **changes):
    """Submit the portfolio key form (generating the key pair)."""
    page = browser.get("/payments/portfolio-key")
    return submit(browser, page, "form.portfolio-form",
                  {"parent_mid": PARENT, "kid": PORTFOLIO_KID, **changes})


def use_portfolio(browser, merchant_id: int, mid: str, **changes):
    """Choose the portfolio key on the merchant's credentials page, under its own MID."""
    page = browser.get(f"/merchants/{merchant_id}/payments/credentials")
    return submit(browser, page, "form.credentials-form",
                  {"mid": mid, "key_source": "portfolio", **changes})


def portfolio_row(app) -> PortfolioKey:
    return fresh(app, PortfolioKey)


@pytest.fixture
def portfolio(browser):
    """The portfolio key, set up through its page."""
    page = set_up_portfolio(browser)
    assert "registered with the sandbox automatically" in page.text()
    return page


def test_the_portfolio_key_is_stored_encrypted_and_registered(app, settings, sandbox, portfolio):
    row = portfolio_row(app)
    assert (row.parent_mid, row.kid, row.origin) == (PARENT, PORTFOLIO_KID, "generated")
    assert "PRIVATE KEY" not in row.private_key_encrypted
    assert b"PRIVATE KEY" in Fernet(settings.credentials_key).decrypt(
        row.private_key_encrypted.encode())
    assert portfolio.soup.select_one("pre.public-key").get_text() == row.public_key_pem
    assert backend(sandbox)._keys[PORTFOLIO_KID].mid == PARENT
    with app.app_context():
        event = db.session.query(AuditEvent).filter_by(action="payments.portfolio_key").one()
        assert event.detail == {"parent_mid": PARENT, "kid": PORTFOLIO_KID,
                                "origin": "generated", "replaced": False}


def test_merchants_sign_with_the_portfolio_key_under_their_own_mids(app, browser, sandbox,
                                                                    portfolio, merchant_id):
    second = add_merchant(app, "APPROVED", name="Dosa Hut")
    for merchant, mid in ((merchant_id, "SUBMID0001"), (second, "SUBMID0002")):
        page = use_portfolio(browser, merchant, mid)
        assert "signs with the partner's portfolio key" in page.text()
        row = credentials_row(app, merchant)
        assert row.portfolio_key_id is not None and row.kid is None
        assert row.private_key_encrypted is None
    assert backend(sandbox).sub_merchants(PARENT) == {"SUBMID0001", "SUBMID0002"}
    listing = browser.get("/payments/portfolio-key").text()
    assert "Chai Point" in listing and "Dosa Hut" in listing

    payment_id, _ = authorised_payment(browser, second)  # initiate, pay, callback, status read
    payment = payment_row(app, payment_id)
    assert payment.status == "AUTHORIZED"
    assert backend(sandbox).get(payment.gid).mid == "SUBMID0002"


def test_the_credentials_page_names_the_portfolio(app, browser, portfolio, merchant_id):
    use_portfolio(browser, merchant_id, "SUBMID0001")
    page = browser.get(f"/merchants/{merchant_id}/payments/credentials")
    shown = page.soup.select_one("[data-field=portfolio]").get_text(" ")
    assert PARENT in shown and PORTFOLIO_KID in shown
    assert page.soup.select_one("pre.public-key") is None


def test_choosing_the_portfolio_before_it_exists_is_refused(app, browser, merchant_id):
    page = use_portfolio(browser, merchant_id, "SUBMID0001")
    assert page.response.status_code == 400
    assert "No portfolio key is set up yet" in page.soup.select_one(".form-errors").get_text()
    assert page.soup.find("input", attrs={"name": "mid"})["value"] == "SUBMID0001"


def test_the_portfolio_choice_needs_no_kid(app, browser, portfolio, merchant_id):
    page = use_portfolio(browser, merchant_id, "SUBMID0001", kid="")
    assert page.response.status_code == 200
    assert credentials_row(app, merchant_id).portfolio_key_id is not None


def test_replacing_the_portfolio_key_moves_every_merchant(app, browser, sandbox, portfolio,
                                                          merchant_id):
    use_portfolio(browser, merchant_id, "SUBMID0001")
    refused = set_up_portfolio(browser, kid="kid-portfolio-2")
    assert refused.response.status_code == 400
    assert "Tick the box to replace the portfolio key" in refused.text()
    set_up_portfolio(browser, kid="kid-portfolio-2", replace="y", reason="Yearly rotation")
    assert portfolio_row(app).kid == PORTFOLIO_KID  # not before a second admin approves
    decide_all(app)
    assert portfolio_row(app).kid == "kid-portfolio-2"
    assert backend(sandbox)._keys["kid-portfolio-2"].mid == PARENT
    assert post_hold(browser, merchant_id).status_code == 302  # signed with the new key


def test_a_merchant_may_go_back_to_its_own_key(app, browser, sandbox, portfolio, merchant_id):
    use_portfolio(browser, merchant_id, "SUBMID0001")
    page = browser.get(f"/merchants/{merchant_id}/payments/credentials")
    submit(browser, page, "form.credentials-form",
           {"key_source": "own", "kid": "kid-own-1", "replace": "y", "reason": "Own key now"})
    decide_all(app)
    row = credentials_row(app, merchant_id)
    assert (row.portfolio_key_id, row.kid, row.origin) == (None, "kid-own-1", "generated")
    assert post_hold(browser, merchant_id).status_code == 302


def test_ops_see_the_portfolio_key_but_cannot_set_it_up(app, client, auth, portfolio):
    auth.logout()
    auth.login("ops")
    page = client.get("/payments/portfolio-key")
    assert page.status_code == 200
    assert b"Only an admin can set up or replace the portfolio key" in page.data
    refused = client.post("/payments/portfolio-key",
                          data={"parent_mid": "X1", "kid": "k2", "replace": "y"})
    assert refused.status_code == 403
    assert portfolio_row(app).parent_mid == PARENT


def test_register_sandbox_keys_registers_the_portfolio_and_its_merchants(app, browser, runner,
                                                                         sandbox, portfolio,
                                                                         merchant_id):
    use_portfolio(browser, merchant_id, "SUBMID0001")
    backend(sandbox)._portfolios.clear()  # as after a sandbox restart
    result = runner.invoke(args=["payments", "register-sandbox-keys"])
    assert result.exit_code == 0, result.output
    assert "Registered 2 of 2 payment keys" in result.output
    assert backend(sandbox).sub_merchants(PARENT) == {"SUBMID0001"}


def test_with_the_real_gateway_nothing_is_sent_to_a_sandbox(app, browser, sandbox, merchant_id):
    app.extensions[SETTINGS_EXTENSION] = app.extensions[SETTINGS_EXTENSION].with_changes(
        gateway_is_sandbox=False)
    page = set_up_portfolio(browser)
    assert f"Register this public key with the gateway for parent MID {PARENT}" in page.text()
    page = use_portfolio(browser, merchant_id, "SUBMID0001")
    assert "register the MID under the parent MID at the gateway" in page.text()
    assert PORTFOLIO_KID not in backend(sandbox)._keys
    assert backend(sandbox).sub_merchants(PARENT) == frozenset()
