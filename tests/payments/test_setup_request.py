"""Asking an admin to set up payments (issue 36.3): an ops user on an approved merchant's
credentials page asks once; every admin is told and finds it on their worklist; saving the
credentials closes it and tells the asker."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from sqlalchemy import select

from portal.core.db import db
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.payment_setup import PaymentSetupRequest
from portal.core.models.user import User
from tests.payments.support import add_merchant, flashes, submit
from tests.support.accounts import AuthActions
from tests.support.approvals import decide_all
from tests.support.browser import Browser
from tests.support.team import audited, words

ADMINS = ("admin@example.com", "second-admin@example.com")


@pytest.fixture
def ops(auth, client) -> Browser:
    """Signed in as an ops user, with two admins in the team."""
    for email in ADMINS:
        auth.create("admin", email)
    auth.login("ops")
    return Browser(client)


def page_of(browser: Browser, merchant_id: int):
    return browser.get(f"/merchants/{merchant_id}/payments/credentials")


def ask(browser: Browser, merchant_id: int):
    return submit(browser, page_of(browser, merchant_id), "form.setup-ask")


def requests_of(app, merchant_id: int) -> list[PaymentSetupRequest]:
    with app.app_context():
        rows = list(db.session.scalars(select(PaymentSetupRequest).where(
            PaymentSetupRequest.merchant_id == merchant_id)))
        db.session.expunge_all()
        return rows


def notices(app, kind: NoticeKind) -> list[tuple[str, int | None]]:
    """(whose, by whom) of every notice of ``kind``."""
    with app.app_context():
        return [(db.session.get(User, n.user_id).email, n.by_user_id) for n in
                db.session.scalars(select(Notice).where(Notice.kind == kind)
                                   .order_by(Notice.id))]


def test_ops_see_a_button_to_ask_instead_of_a_dead_end(ops, merchant_id):
    page = page_of(ops, merchant_id)
    button = page.soup.select_one("form.setup-ask button")
    assert button.get_text(strip=True) == "Ask an admin to set up payments"
    assert page.soup.select_one("form.credentials-form") is None
    assert page.soup.select_one(".setup-asked") is None


def test_asking_tells_every_admin_and_shows_when_it_was_asked(app, ops, merchant_id):
    page = ask(ops, merchant_id)
    assert "The admins were asked to set up payments" in flashes(page)
    [request] = requests_of(app, merchant_id)
    asked = page.soup.select_one(".setup-asked").get_text(" ", strip=True)
    assert asked.startswith(f"Asked {request.asked_at:%Y-%m-%d %H:%M} UTC — an admin will "
                            "set it up")
    assert page.soup.select_one("form.setup-ask") is None
    assert sorted(who for who, _ in notices(app, NoticeKind.PAYMENTS_ASKED)) == sorted(ADMINS)
    assert [e.actor_label for e in audited(app, "payments.setup_asked")] == ["ops@example.com"]


def test_asking_twice_keeps_one_request(app, ops, merchant_id):
    ask(ops, merchant_id)
    response = ops.client.post(f"/merchants/{merchant_id}/payments/setup-request",
                               follow_redirects=True)
    assert "An admin was asked already" in response.get_data(as_text=True)
    assert len(requests_of(app, merchant_id)) == 1
    assert len(notices(app, NoticeKind.PAYMENTS_ASKED)) == len(ADMINS)


def test_another_ops_user_sees_who_asked(app, auth, ops, merchant_id):
    ask(ops, merchant_id)
    auth.logout()
    auth.login("ops", "bala@example.com")
    asked = page_of(ops, merchant_id).soup.select_one(".setup-asked").get_text(" ", strip=True)
    assert "by ops@example.com — an admin will set it up" in asked


def test_the_request_is_on_every_admins_worklist_and_counted(app, auth, ops, merchant_id):
    ask(ops, merchant_id)
    auth.logout()
    auth.login("admin", ADMINS[1])
    page = ops.get("/worklist")
    [item] = page.soup.select("[data-reason=payments_setup]")
    assert "ops@example.com asked on" in item.get_text(" ", strip=True)
    assert item.select_one("a.button")["href"] == f"/merchants/{merchant_id}/payments/credentials"
    assert item["data-who"] == "us"
    assert words(page.soup.select_one("nav a[href='/worklist']")) == "Needs my action 1 waiting"


def test_saving_the_credentials_closes_it_and_tells_the_asker(app, auth, ops, merchant_id):
    ask(ops, merchant_id)
    auth.logout()
    auth.login("admin")
    saved = submit(ops, page_of(ops, merchant_id), "form.credentials-form")
    assert saved.soup.select_one(".current-credentials") is not None
    [request] = requests_of(app, merchant_id)
    assert request.closed_at is not None
    assert ops.get("/worklist").soup.select("[data-reason=payments_setup]") == []
    assert [who for who, _ in notices(app, NoticeKind.PAYMENTS_SET_UP)] == ["ops@example.com"]
    assert [e.actor_label for e in audited(app, "payments.setup_done")] == [ADMINS[0]]
    auth.logout()
    auth.login("ops")
    told = ops.get("/notices").soup.select_one("[data-kind=payments_set_up]")
    assert "Payments are set up for Chai Point" in told.get_text(" ", strip=True)
    assert ops.get(f"/merchants/{merchant_id}/payments/credentials").soup.select_one(
        "form.setup-ask") is None


def test_the_admins_notice_leads_to_the_credentials_page(app, auth, ops, merchant_id):
    ask(ops, merchant_id)
    auth.logout()
    auth.login("admin")
    notice = ops.get("/notices").soup.select_one("[data-kind=payments_asked]")
    assert "ops@example.com asks an admin to set up payments for Chai Point" in \
        notice.get_text(" ", strip=True)
    assert notice.select_one("a")["href"] == f"/merchants/{merchant_id}/payments/credentials"


def test_a_merchant_not_approved_cannot_be_asked_for(app, ops):
    pending = add_merchant(app, "PENDING_REVIEW", "Lotus Traders")
    response = ops.client.post(f"/merchants/{pending}/payments/setup-request",
                               follow_redirects=True)
    assert "once the gateway has approved the merchant" in response.get_data(as_text=True)
    assert requests_of(app, pending) == []


def test_a_merchant_with_credentials_offers_no_asking(app, auth, client, credentials,
                                                      merchant_id):
    auth.logout()
    auth.login("ops")
    page = page_of(Browser(client), merchant_id)
    assert page.soup.select_one("form.setup-ask") is None
    assert "Only an admin can replace payment credentials." in page.text()
    response = client.post(f"/merchants/{merchant_id}/payments/setup-request",
                                 follow_redirects=True)
    assert "payments are set up already" in response.get_data(as_text=True)
    assert requests_of(app, merchant_id) == []


def test_asking_needs_the_forms_token(app, csrf_app, csrf_client, merchant_id):
    AuthActions(csrf_app, csrf_client).login("ops")
    refused = csrf_client.post(f"/merchants/{merchant_id}/payments/setup-request")
    assert refused.status_code == 400 and requests_of(app, merchant_id) == []
    asked = ask(Browser(csrf_client), merchant_id)
    assert asked.soup.select_one(".setup-asked") is not None
    assert len(requests_of(app, merchant_id)) == 1


def test_an_imported_key_closes_the_request_once_a_second_admin_approves(app, auth, ops,
                                                                          merchant_id):
    ask(ops, merchant_id)
    auth.logout()
    auth.login("admin")
    key = rsa.generate_private_key(65537, 2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()).decode()
    submit(ops, page_of(ops, merchant_id), "form.credentials-form",
           {"kid": "kid-imported-1", "private_key_pem": key, "reason": "Its key from before"})
    assert requests_of(app, merchant_id)[0].closed_at is None  # waits for the second admin
    decide_all(app)
    assert requests_of(app, merchant_id)[0].closed_at is not None
    assert [who for who, _ in notices(app, NoticeKind.PAYMENTS_SET_UP)] == ["ops@example.com"]
