"""Who reaches the payments pages: staff sign in first, only admins set credentials, and the
callback alone is public."""

from __future__ import annotations

import pytest

from tests.payments.support import authorised_payment
from tests.support.accounts import AuthActions

PAGES = [
    ("get", "/payments"),
    ("get", "/merchants/{m}/payments"),
    ("get", "/merchants/{m}/payments/credentials"),
    ("post", "/merchants/{m}/payments/credentials"),
    ("get", "/merchants/{m}/payments/new"),
    ("post", "/merchants/{m}/payments/new"),
    ("get", "/payments/{p}"),
    ("post", "/payments/{p}/capture"),
    ("post", "/payments/{p}/reverse"),
    ("post", "/payments/{p}/refund"),
    ("post", "/payments/{p}/refresh"),
]


@pytest.mark.parametrize(("method", "path"), PAGES)
def test_anonymous_users_are_sent_to_sign_in(app, merchant_id, method, path):
    anonymous = app.test_client()
    response = getattr(anonymous, method)(path.format(m=merchant_id, p=1))
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login")


def test_ops_take_holds_and_capture_but_cannot_set_credentials(app, auth, client, browser,
                                                               merchant_id, credentials):
    auth.logout()
    auth.login("ops")
    payment_id, _ = authorised_payment(browser, merchant_id)
    page = browser.get(f"/payments/{payment_id}")
    assert page.soup.select_one("form.action--capture") is not None
    response = client.post(f"/merchants/{merchant_id}/payments/credentials",
                           data={"mid": "SBX1", "kid": "kid-ops"})
    assert response.status_code == 403


def test_action_forms_need_a_csrf_token(app, csrf_app, merchant_id):
    signed_in = csrf_app.test_client()
    AuthActions(csrf_app, signed_in).login("admin")
    response = signed_in.post("/payments/1/capture", data={"nonce": "x", "confirm": "y"})
    assert response.status_code == 400


def test_an_unknown_payment_is_not_found(browser):
    assert browser.get("/payments/999").response.status_code == 404
    assert browser.client.post("/payments/999/capture").status_code == 404
