"""A hold whose customer holds a live payment link (waiting, or being opened) is the link's to
send: the staff's hold form never prefills, changes or sends it, by any way in, and says why;
once the link is cancelled the form sends it again."""

from __future__ import annotations

from typing import Any

from bs4 import BeautifulSoup
from sqlalchemy import update

from portal.core.db import db
from portal.core.models.payment import ActionState, Payment
from portal.core.models.payment_link import LinkState, PaymentLink
from tests.payments.links.support import (
    counting_initiates,
    hold_page,
    open_page,
    payment_of,
    press_continue,
    sent_link,
    standing_on,
)
from tests.payments.support import hold_values, submit
from tests.support.browser import Browser, Page

AMOUNT = "paymentData-totalAmount"
STILL_LIVE = "it is still live"
CANCEL_FIRST = "cancel the link on the hold's page first"


def resume(browser: Browser, merchant_id: int, payment_id: int) -> Page:
    """The hold form opened to send the stored hold ``payment_id`` again."""
    return browser.get(f"/merchants/{merchant_id}/payments/new?resume={payment_id}")


def same_hold(browser: Browser, app, merchant_id: int, payment_id: int, action: str,
              **changes: Any) -> Page:
    """The new-hold form posted over the stored hold's identifiers (its merchantTxnId and
    merchantUniqueId), with ``changes`` and the button ``action``."""
    payment = payment_of(app, payment_id)
    values = hold_values(merchantTxnId=payment.merchant_txn_id,
                         merchantUniqueId=payment.merchant_unique_id, **changes)
    page = browser.get(f"/merchants/{merchant_id}/payments/new")
    response = submit(browser, page, "form.hold-form", values, action=action, follow=False)
    return Page(response, BeautifulSoup(response.data, "html.parser"))


def link_state(app, payment_id: int, state: LinkState, **payment_values: Any) -> None:
    """Put the hold's link in ``state`` (and the hold's columns to ``payment_values``)."""
    with app.app_context():
        db.session.execute(update(PaymentLink).where(PaymentLink.payment_id == payment_id)
                           .values(state=state))
        if payment_values:
            db.session.execute(update(Payment).where(Payment.id == payment_id)
                               .values(**payment_values))
        db.session.commit()


def test_resuming_a_hold_with_a_live_link_says_why_and_shows_no_form(app, browser, merchant_id,
                                                                     credentials, mail_sink):
    payment_id, _link = sent_link(browser, merchant_id, mail_sink,
                                  **{AMOUNT: "200.00"})
    page = resume(browser, merchant_id, payment_id)
    assert page.response.status_code == 409
    assert page.soup.select_one("form.hold-form") is None  # nothing prefilled, nothing to post
    refused = page.soup.select_one(".resume-refused").get_text(" ", strip=True)
    assert STILL_LIVE in refused and CANCEL_FIRST in refused
    assert page.soup.find("a", string="Go to the hold's page")["href"] == (
        f"/payments/{payment_id}")
    assert "200.00" not in page.response.get_data(as_text=True)


def test_resuming_a_hold_whose_link_is_being_opened_says_so(app, browser, merchant_id,
                                                            credentials, mail_sink):
    payment_id, _link = sent_link(browser, merchant_id, mail_sink)
    link_state(app, payment_id, LinkState.OPENING)
    page = resume(browser, merchant_id, payment_id)
    assert page.response.status_code == 409
    assert page.soup.select_one("form.hold-form") is None
    assert "is opening the payment link" in page.soup.select_one(".resume-refused").get_text()


def test_the_form_cannot_re_amount_and_send_a_linked_hold(app, browser, merchant_id,
                                                          credentials, mail_sink, sandbox,
                                                          monkeypatch):
    payment_id, link = sent_link(browser, merchant_id, mail_sink, **{AMOUNT: "200.00"})
    initiates = counting_initiates(monkeypatch, sandbox)
    page = same_hold(browser, app, merchant_id, payment_id, "send", **{AMOUNT: "999.00"})
    assert page.response.status_code == 200
    assert any(STILL_LIVE in error for error in page.top_errors())
    assert page.form("form.hold-form").find(attrs={"name": AMOUNT})["value"] == "999.00"
    assert initiates == []
    payment = payment_of(app, payment_id)
    assert (payment.gid, payment.amount) == (None, "200.00")
    customer = app.test_client()
    assert open_page(customer, link).soup.h1.get_text() == "Pay 200 INR to Chai Point"
    assert standing_on(hold_page(browser, payment_id)) == "waiting"
    assert press_continue(customer, link).status_code == 303  # the link still sends it
    assert len(initiates) == 1 and payment_of(app, payment_id).amount == "200.00"


def test_the_form_cannot_send_a_linked_hold_unchanged(app, browser, merchant_id, credentials,
                                                      mail_sink, sandbox, monkeypatch):
    payment_id, _link = sent_link(browser, merchant_id, mail_sink)
    initiates = counting_initiates(monkeypatch, sandbox)
    page = same_hold(browser, app, merchant_id, payment_id, "send")
    assert page.response.status_code == 200
    assert any(CANCEL_FIRST in error for error in page.top_errors())
    assert initiates == []
    assert payment_of(app, payment_id).gid is None


def test_emailing_the_link_again_cannot_change_its_amount(app, browser, merchant_id,
                                                          credentials, mail_sink):
    payment_id, _link = sent_link(browser, merchant_id, mail_sink, **{AMOUNT: "200.00"})
    page = same_hold(browser, app, merchant_id, payment_id, "email_link", **{AMOUNT: "999.00"})
    assert page.response.status_code == 200
    assert any(STILL_LIVE in error for error in page.top_errors())
    assert payment_of(app, payment_id).amount == "200.00"
    assert len(mail_sink.messages()) == 1
    unchanged = same_hold(browser, app, merchant_id, payment_id, "email_link",
                          **{AMOUNT: "200.00"})
    assert unchanged.response.status_code == 302  # the same form twice: one link, one email
    assert len(mail_sink.messages()) == 1


def test_a_lost_open_is_not_sent_again_from_the_form(app, browser, merchant_id, credentials,
                                                     mail_sink, sandbox, monkeypatch):
    payment_id, _link = sent_link(browser, merchant_id, mail_sink)
    link_state(app, payment_id, LinkState.OPENING, action_state=ActionState.UNKNOWN)
    initiates = counting_initiates(monkeypatch, sandbox)
    page = same_hold(browser, app, merchant_id, payment_id, "send")
    assert any("is opening the payment link" in error for error in page.top_errors())
    assert initiates == []


def test_once_the_link_is_cancelled_the_form_sends_the_hold(app, browser, merchant_id,
                                                            credentials, mail_sink, sandbox,
                                                            monkeypatch):
    payment_id, _link = sent_link(browser, merchant_id, mail_sink, **{AMOUNT: "200.00"})
    assert "it alone sends the hold" in hold_page(browser, payment_id).text()
    submit(browser, hold_page(browser, payment_id), "form.link-cancel", {"confirm": "y"})
    initiates = counting_initiates(monkeypatch, sandbox)
    page = resume(browser, merchant_id, payment_id)
    assert page.form("form.hold-form").find(attrs={"name": AMOUNT})["value"] == "200.00"
    sent = submit(browser, page, "form.hold-form", action="send", follow=False)
    assert sent.status_code == 302 and sent.headers["Location"].startswith(sandbox.url)
    assert len(initiates) == 1
