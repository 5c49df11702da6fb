"""'Email the customer a payment link' on the new-hold page: the hold stored but not sent, its
link emailed; resend, cancel and expiry as the staff and the customer see them."""

from __future__ import annotations

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.config import SETTINGS_EXTENSION
from portal.core.db import db
from portal.core.models import AuditEvent, Merchant
from portal.core.models.payment import PENDING
from tests.payments.links.support import (
    CUSTOMER,
    counting_initiates,
    email_link,
    hold_page,
    link_row,
    open_page,
    payment_of,
    sent_link,
    standing_on,
)
from tests.payments.support import act, flashes, hold_values, submit
from tests.support.browser import Page
from tests.support.mail import body_of, link_in
from tests.wizard.support import closed_port

__all__ = ["closed_port"]


def actions(app) -> list[tuple[str, str]]:
    with app.app_context():
        return [(e.action, e.outcome) for e in db.session.scalars(
            select(AuditEvent).where(AuditEvent.action.startswith("payment_link."))
            .order_by(AuditEvent.id))]


def test_the_hold_is_stored_unsent_and_its_link_emailed(app, browser, merchant_id, credentials,
                                                        mail_sink, sandbox, monkeypatch):
    initiates = counting_initiates(monkeypatch, sandbox)
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    page = hold_page(browser, payment_id)
    assert "A payment link was emailed to a***@example.com" in flashes(page)
    assert standing_on(page) == "waiting"
    assert page.soup.select_one("[data-field='link-email']").get_text() == CUSTOMER
    assert page.soup.select_one("[data-field='link-paid']").get_text(strip=True) == "Not yet"
    assert page.soup.select_one("[data-field='status']").get_text(strip=True) == (
        "Not sent yet: waits for the customer to open the payment link")
    assert initiates == []  # the checkout is minted when the customer opens the link
    payment = payment_of(app, payment_id)
    assert (payment.gid, payment.status, payment.customer_email) == (None, PENDING, CUSTOMER)
    [message] = mail_sink.messages()
    assert message["To"] == CUSTOMER
    assert message["Subject"] == "Chai Point asks you to pay 1,500 INR"
    text = body_of(message)
    assert text.startswith("Dear Asha Rao,")
    assert f"order {payment.merchant_txn_id}" in text and "Acme Payments, for Chai Point" in text
    assert link.startswith(f"/pay/{link_row(app, payment_id).id}?token=")
    assert actions(app) == [("payment_link.send", "ok")]
    # nobody may discard or send it from the staff's form while the customer holds a link
    assert page.soup.select_one("form.action--discard") is None
    assert "Open the hold form to send it again" not in page.text()


def test_a_link_needs_the_customer_email_beside_its_field(app, browser, merchant_id,
                                                          credentials, mail_sink):
    answer = email_link(browser, merchant_id, **{"paymentData-billingData-emailId": ""})
    assert answer.status_code == 200
    page = Page(answer, BeautifulSoup(answer.data, "html.parser"))
    assert page.errors_for("paymentData-billingData-emailId") == [
        "Enter the customer's email: the payment link is sent to it."]
    assert page.form("form.hold-form").find(attrs={"name": "paymentData-totalAmount"})[
        "value"] == "1500.00"  # nothing typed is lost
    assert mail_sink.messages() == []
    assert browser.get("/payments").soup.select("table.payments tbody tr") == []


def test_the_same_form_sent_twice_makes_one_hold_one_link_one_email(app, browser, merchant_id,
                                                                    credentials, mail_sink):
    page = browser.get(f"/merchants/{merchant_id}/payments/new")
    first = submit(browser, page, "form.hold-form", action="email_link", follow=False,
                   changes=hold_values())
    again = submit(browser, page, "form.hold-form", action="email_link", follow=True,
                   changes=hold_values())
    assert first.headers["Location"] == again.response.request.path
    assert "already emailed to a***@example.com" in flashes(again)
    assert len(mail_sink.messages()) == 1
    assert len(browser.get("/payments").soup.select("table.payments tbody tr")) == 1


def test_a_refused_email_keeps_the_hold_and_its_link_to_resend(app, browser, merchant_id,
                                                               credentials, mail_sink,
                                                               closed_port):
    settings = app.extensions[SETTINGS_EXTENSION]
    app.extensions[SETTINGS_EXTENSION] = settings.with_changes(
        mail_port=int(closed_port.rsplit(":", 1)[1]))
    answer = email_link(browser, merchant_id)
    page = browser.get(answer.headers["Location"])
    assert "could not be sent: the mail server did not accept it" in flashes(page)
    assert standing_on(page) == "not_emailed"
    assert "The customer has no working link" in page.text()
    assert actions(app) == [("payment_link.send", "failed")]
    app.extensions[SETTINGS_EXTENSION] = settings
    resent = submit(browser, page, "form.link-resend")
    assert "A payment link was emailed to a***@example.com" in flashes(resent)
    assert standing_on(resent) == "waiting"
    assert len(mail_sink.messages()) == 1


def test_resend_replaces_the_link_and_starts_its_time_again(portal_clock, app, browser,
                                                            merchant_id, credentials,
                                                            mail_sink):
    payment_id, first = sent_link(browser, merchant_id, mail_sink)
    expires = link_row(app, payment_id).expires_at
    portal_clock.advance(1200)
    page = submit(browser, hold_page(browser, payment_id), "form.link-resend")
    assert "A payment link was emailed" in flashes(page)
    second = link_in(mail_sink.messages()[-1])
    assert second != first
    assert (link_row(app, payment_id).expires_at - expires).total_seconds() == 1200
    assert "(the newest of 2 emails; only its link works)" in page.text()
    customer = app.test_client()
    old = open_page(customer, first)
    assert old.response.status_code == 410
    assert "A newer payment link was sent for this payment" in old.text()
    assert "Acme Payments" in old.soup.select_one(".partner-header").get_text()
    assert open_page(customer, second).response.status_code == 200
    assert actions(app) == [("payment_link.send", "ok"), ("payment_link.resend", "ok")]


def test_cancel_withdraws_the_link_and_then_the_hold_can_be_discarded(app, browser, merchant_id,
                                                                      credentials, mail_sink):
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    page = hold_page(browser, payment_id)
    refused = submit(browser, page, "form.link-cancel")  # the box is not ticked
    assert "Tick the box to cancel the link." in flashes(refused)
    assert standing_on(refused) == "waiting"
    cancelled = submit(browser, page, "form.link-cancel", {"confirm": "y"})
    assert "The payment link was cancelled" in flashes(cancelled)
    assert standing_on(cancelled) == "cancelled"
    assert cancelled.soup.select_one("[data-field='status']").get_text(strip=True) == (
        "Not sent: its payment link was cancelled")
    assert cancelled.soup.select_one("form.link-resend") is None
    customer = app.test_client()
    withdrawn = open_page(customer, link)
    assert withdrawn.response.status_code == 410
    assert "This payment link was withdrawn." in withdrawn.text()
    assert customer.post(link).status_code == 410
    again = browser.client.post(f"/payments/{payment_id}/link/resend", follow_redirects=True)
    assert b"was cancelled already" in again.data
    resent_form = browser.client.post(  # the same hold form sent again after the cancel
        f"/merchants/{merchant_id}/payments/new", follow_redirects=True,
        data={**hold_values(), "merchantTxnId": payment_of(app, payment_id).merchant_txn_id,
              "merchantUniqueId": payment_of(app, payment_id).merchant_unique_id,
              "action": "email_link"})
    assert b"link was cancelled; start a new hold" in resent_form.data
    assert len(mail_sink.messages()) == 1
    discarded = act(browser, payment_id, "discard")
    assert "was discarded" in flashes(discarded)
    assert actions(app) == [("payment_link.send", "ok"), ("payment_link.cancel", "ok")]


def test_an_expired_link_is_refused_and_can_be_sent_anew(portal_clock, app, auth, browser,
                                                         merchant_id, credentials, mail_sink):
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    portal_clock.advance(168 * 3600)  # PAYMENT_LINK_HOURS
    expired = open_page(app.test_client(), link)
    assert expired.response.status_code == 410
    assert "This payment link has expired." in expired.text()
    auth.login("admin")  # a week later: signed in again
    page = hold_page(browser, payment_id)
    assert standing_on(page) == "expired"
    renewed = submit(browser, page, "form.link-resend")
    assert standing_on(renewed) == "waiting"
    fresh_link = link_in(
        mail_sink.messages()[-1])
    assert open_page(app.test_client(), fresh_link).response.status_code == 200


def test_the_staff_pages_of_a_link_need_a_signed_in_user(app, client, browser, merchant_id,
                                                         credentials, mail_sink):
    payment_id, _ = sent_link(browser, merchant_id, mail_sink)
    anonymous = app.test_client()
    for action in ("resend", "cancel"):
        answer = anonymous.post(f"/payments/{payment_id}/link/{action}", data={"confirm": "y"})
        assert answer.status_code == 302 and "/login" in answer.headers["Location"]
    assert standing_on(hold_page(browser, payment_id)) == "waiting"
    assert len(mail_sink.messages()) == 1


def test_a_name_stored_with_a_line_break_is_one_line_in_the_subject(app, browser, merchant_id,
                                                                    credentials, mail_sink):
    with app.app_context():  # as a database written before names were refused with one
        merchant = db.session.get(Merchant, merchant_id)
        merchant.legal_name = merchant.display_name = "Chai\r\nPoint"
        db.session.commit()
    sent_link(browser, merchant_id, mail_sink)
    assert mail_sink.messages()[0]["Subject"] == "Chai Point asks you to pay 1,500 INR"
