"""A hold from the form to the hosted page and back, then capture, refunds and reversal."""

from __future__ import annotations

from tests.payments.support import (
    DECLINED_CARD,
    act,
    authorised_payment,
    backend,
    payment_row,
    post_hold,
)


def test_initiate_stores_the_payment_and_redirects_to_the_hosted_page(
        app, browser, sandbox, merchant_id, credentials, answer_dialect):
    response = post_hold(browser, merchant_id)
    assert response.status_code == 302
    assert response.headers["Location"].startswith(sandbox.url + "/gl/payflow-ui/")
    payment = payment_row(app, 1)
    assert payment.status == "INPROGRESS"
    assert payment.gid and payment.amount == "1500.00"
    # the docs' initiate answer has no statusUrl: the status is then read by gid, signed
    assert (payment.status_url is not None) is (answer_dialect == "contract")
    assert payment.redirect_url == response.headers["Location"]


def test_approved_card_is_confirmed_authorised(app, browser, merchant_id, credentials):
    payment_id, result = authorised_payment(browser, merchant_id)
    assert result.response.status_code == 200
    assert "your payment is authorised" in result.text()
    payment = payment_row(app, payment_id)
    assert payment.status == "AUTHORIZED"
    assert payment.merchant_txn_id in result.text()
    assert result.soup.select_one(".site-nav") is None  # a customer's page: no portal navigation


def test_capture_once_then_the_button_is_gone(app, browser, sandbox, merchant_id, credentials):
    payment_id, _ = authorised_payment(browser, merchant_id)
    page = act(browser, payment_id, "capture")
    assert "now captured" in page.text()
    assert payment_row(app, payment_id).captured_amount == "1500.00"
    assert page.soup.select_one("form.action--capture") is None
    assert page.soup.select_one("form.action--reverse") is None
    assert backend(sandbox).get(payment_row(app, payment_id).gid).status == "SENT_FOR_CAPTURE"


def test_declined_card_shows_payment_failed(app, browser, merchant_id, credentials):
    payment_id, result = authorised_payment(browser, merchant_id, card=DECLINED_CARD)
    assert "Your payment was not completed" in result.text()
    assert payment_row(app, payment_id).status == "ISSUER_DECLINE"
    page = browser.get(f"/payments/{payment_id}")
    assert page.soup.select("form.action") == []
