"""What a status read may change (docs/gateway-contract.md, "Reading answers"): forward only,
whatever the order in
which reads and actions arrive; a word the portal does not know is shown, never applied; the
customer's return names the payment in any of the recorded ways."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.domain.audit.service import Actor
from portal.domain.payments import credentials as creds
from portal.domain.payments.status_read import refresh
from portal.gateway.payments.client import PaymentsClient
from tests.payments.support import act, backend, pay, payment_row, post_hold

DASHBOARD = "/admin/"


def test_a_word_the_portal_does_not_know_is_shown_and_moves_nothing(app, browser, sandbox,
                                                                     authorised):
    backend(sandbox).get(payment_row(app, authorised).gid).status = "ON_HOLD"
    page = browser.client.post(f"/payments/{authorised}/refresh", follow_redirects=True)
    payment = payment_row(app, authorised)
    assert (payment.status, payment.gateway_status) == ("AUTHORIZED", "ON_HOLD")
    assert ("The gateway reported “ON_HOLD”, a status the portal does not know; the payment "
            "stays authorised (held).") in page.get_data(as_text=True)
    shown = browser.get(f"/payments/{authorised}").soup.select_one("[data-field=gateway-status]")
    assert "“ON_HOLD”, a status the portal does not know" in shown.get_text()
    assert "capture" in [f["data-action"] for f in
                         browser.get(f"/payments/{authorised}").soup.select("form.action")]


class HeldStatusReads:
    """A payments client whose status reads are held back after the gateway answered them, until
    ``release`` is set: a read that arrives after newer changes."""

    def __init__(self, client: PaymentsClient) -> None:
        self._client = client
        self.answered = threading.Event()
        self.release = threading.Event()

    def status_by_url(self, url: str):
        return self._held(self._client.status_by_url(url))

    def status(self, gid: str):
        return self._held(self._client.status(gid))

    def _held(self, answer):
        self.answered.set()
        assert self.release.wait(10)
        return answer


def test_an_older_read_never_takes_a_payment_back(app, browser, merchant_id, credentials):
    """A poll reads AUTHORIZED while the customer is still "in progress" in the portal; before
    it applies that, the customer's return and a capture land. The late read must not move the
    captured payment back to authorised (which would offer a second capture)."""
    response = post_hold(browser, merchant_id)
    returned = pay(response.headers["Location"])
    with app.app_context():
        payment = db.session.query(Payment).one()
        payment_id = payment.id
        client = creds.client_for(app.extensions["portal_settings"],
                                  creds.credentials_of(db.session.get(Merchant, merchant_id)))
    held = HeldStatusReads(client)

    def late_poll() -> None:
        with app.app_context():
            refresh(held, db.session.get(Payment, payment_id), Actor("status poll"))  # type: ignore

    poller = threading.Thread(target=late_poll)
    poller.start()
    assert held.answered.wait(10)
    browser.client.post(returned.path, data={"x-gl-token": returned.token})
    act(browser, payment_id, "capture")
    assert payment_row(app, payment_id).status == "SENT_FOR_CAPTURE"
    held.release.set()
    poller.join(10)
    payment = payment_row(app, payment_id)
    assert (payment.status, payment.captured_amount) == ("SENT_FOR_CAPTURE", "1500.00")
    assert "capture" not in [f["data-action"] for f in
                             browser.get(f"/payments/{payment_id}").soup.select("form.action")]


def test_a_return_naming_the_payment_by_x_gl_order_id_with_no_status_and_iat_in_seconds(
        app, browser, sandbox, merchant_id, credentials):
    """The pre-signed token of 2025 (revision 4): ``x-gl-orderId`` the initiate's id,
    ``x-gl-gid`` a second, transaction id, no ``status``, ``iat`` in seconds. The transaction
    id alone names no payment until a token has shown it beside the order id."""
    response = post_hold(browser, merchant_id)
    pay(response.headers["Location"])
    gid = payment_row(app, 1).gid
    sign = backend(sandbox).gateway_key.sign
    alone = sign({"x-gl-gid": "gl_transaction1", "iat": int(time.time()), "exp": 300000})
    assert browser.client.post("/payments/callback",
                               data={"x-gl-token": alone}).status_code == 404
    token = sign({"x-gl-orderId": gid, "x-gl-gid": "gl_transaction1", "iat": int(time.time()),
                  "exp": 300000})
    result = browser.client.post("/payments/callback", data={"x-gl-token": token})
    assert result.status_code == 200
    assert b"your payment is authorised" in result.data
    assert payment_row(app, 1).status == "AUTHORIZED"
    assert payment_row(app, 1).transaction_gid == "gl_transaction1"
    assert browser.client.post("/payments/callback",
                               data={"x-gl-token": alone}).status_code == 200


def test_payment_bodies_go_encrypted_to_the_gateways_key(app, browser, sandbox, monkeypatch,
                                                         authorised):
    gateway = backend(sandbox)
    decode = gateway.decode_body
    flags: list[bool] = []
    monkeypatch.setattr(gateway, "decode_body",
                        lambda raw, encrypted: flags.append(encrypted) or decode(raw, encrypted))
    act(browser, authorised, "capture")
    act(browser, authorised, "refund", amount="100")
    assert flags == [True, True]


def test_the_initiate_path_is_a_setting(app, settings, credentials, merchant_id):
    paycollect = "/gl/v1/payments/initiate/paycollect"
    with app.app_context():
        stored = creds.credentials_of(db.session.get(Merchant, merchant_id))
        client = creds.client_for(settings.with_changes(gateway_initiate_path=paycollect), stored)
    prepared = client.prepare("initiate", {
        "merchantTxnId": "ORDER1", "captureTxn": False,
        "paymentData": {"totalAmount": "10.00", "txnCurrency": "INR"},
        "merchantCallbackURL": "https://merchant.example/back"})
    assert prepared.path_url == paycollect
    assert prepared.headers["Content-Type"] == "text/plain"


def test_holds_close_to_expiry_are_flagged_on_the_payment_the_list_and_the_dashboard(
        app, browser, authorised):
    with app.app_context():
        payment = db.session.get(Payment, authorised)
        payment.authorized_at = clock.utcnow() - timedelta(hours=150)
        db.session.commit()
    page = browser.get(f"/payments/{authorised}")
    assert "This hold expires in 18 hours" in page.soup.select_one(".hold-expiry").get_text()
    listed = browser.get("/payments?status=expiring")
    assert [row["data-payment"] for row in listed.soup.select("tr[data-payment]")] == [
        str(authorised)]
    assert "Expires in 18 h" in listed.soup.select_one("tr[data-payment] .hold-expiry").get_text()
    board = browser.get(DASHBOARD)
    assert "1 authorised hold expires within 48 hours" in \
        board.soup.select_one(".expiring-holds").get_text(" ", strip=True)
    act(browser, authorised, "capture")
    assert browser.get("/payments?status=expiring").soup.select("tr[data-payment]") == []
    assert browser.get(DASHBOARD).soup.select_one(".expiring-holds") is None
