"""The attack of issue 22, item 1, over real HTTP: the only admin asks to import a key, adds a
second admin on the team page, signs in as it in another browser, sets up its authenticator,
and tries to approve their own request. Since issue 35 the second admin is only held until the
link emailed to ADMIN_CONFIRMATION_EMAIL confirms it; even confirmed in good faith, the account
the asker added never approves the asker's request."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
from pyotp import TOTP

from portal.core import clock
from portal.core.db import db
from portal.core.models import ApprovalRequest, PortfolioKey
from portal.domain.four_eyes.queries import VOUCHED
from portal.domain.four_eyes.requests import request_portfolio_key
from portal.domain.users.accounts import find_user
from tests.approvals.support import a_pem
from tests.support.accounts import TEST_PASSWORD, AuthActions, current_code
from tests.support.mail import link_in
from tests.support.servers import page_of, serve, sign_in

SOCK_PUPPET = "second.me@example.com"
CHOSEN = "a passphrase the asker chose"
#: ADMIN_CONFIRMATION_EMAIL in this module's tests (tests/team/conftest.py reads it).
CONFIRMER = "security@partner.example"



@pytest.fixture
def url(app) -> Iterator[str]:
    """The portal (CSRF checks off, as in ``app``) served on loopback."""
    with serve(app) as base:
        yield base


def become(url: str, one_time_password: str) -> requests.Session:
    """Sign in as the new admin with its one-time password, choose a password, set up an
    authenticator: everything the asker can do alone with what the team page showed."""
    browser = requests.Session()
    browser.post(url + "/login", data={"email": SOCK_PUPPET, "password": one_time_password},
                 timeout=10)
    enrolment = browser.post(url + "/account/password", timeout=10, data={
        "current_password": one_time_password, "new_password": CHOSEN,
        "confirm_password": CHOSEN})  # followed to the authenticator page, which shows its key
    key = page_of(enrolment).select_one(".totp-key")
    done = browser.post(url + "/account/authenticator", timeout=10,
                        data={"code": TOTP(key.get_text()).at(clock.utcnow())})
    assert page_of(done).select(".recovery-codes code"), "the second account is fully set up"
    return browser


def test_one_admin_cannot_approve_their_own_request_with_an_account_they_added(app, url,
                                                                              portal_clock,
                                                                              mail_sink):
    asker = AuthActions(app, app.test_client()).create("admin")
    browser = sign_in(url, asker, TEST_PASSWORD,
                      code=lambda: current_code(app, asker))
    with app.app_context():
        request_id = request_portfolio_key("PARENT9", "kid-portfolio-9", a_pem(), False,
                                           "The partner's existing key", find_user(asker).id).id
    shown = browser.post(url + "/admin/team", timeout=10, data={
        "email": SOCK_PUPPET, "role": "admin", "reason": "Covers the night shift"})
    assert page_of(shown).select_one("#one-time-password") is None, "no password shown"
    with app.app_context():
        assert find_user(SOCK_PUPPET) is None, "held until confirmed"
    [confirmation] = mail_sink.messages()
    assert confirmation["To"] == CONFIRMER
    link = url + link_in(confirmation)  # its holder confirms, in good faith
    assert requests.post(link, data={"confirmed": "yes"}, timeout=10).ok
    with app.app_context():
        puppet_id = find_user(SOCK_PUPPET).id
    shown = browser.post(f"{url}/admin/team/{puppet_id}/one-time-password", timeout=10)
    one_time_password = page_of(shown).select_one("#one-time-password")["value"]
    second = become(url, one_time_password)
    card = page_of(second.get(url + "/approvals/", timeout=10)).select_one(
        f"article[data-request='{request_id}']")
    assert card.select_one("button[value='approve']") is None
    refused = second.post(f"{url}/approvals/{request_id}", timeout=10,
                          data={"decision": "approve", "reason": "Looks right"})
    assert VOUCHED in page_of(refused).select_one(".flash--error").get_text(" ", strip=True)
    with app.app_context():
        assert db.session.get(ApprovalRequest, request_id).state == "pending"
        assert db.session.query(PortfolioKey).count() == 0
