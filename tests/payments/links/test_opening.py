"""The customer opens an emailed payment link: the page in their words headed with
PARTNER_NAME, the gateway's checkout minted only on "Continue", once; what a gateway that is
busy, or whose answer is lost, leaves; forged and foreign tokens."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

from sqlalchemy import update

from portal.core import clock
from portal.core.db import db
from portal.core.models.payment import ActionState, Payment
from portal.core.models.payment_link import LinkState, PaymentLink
from portal.domain.payments.status_poll import poll_once
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.payments.links.support import (
    counting_initiates,
    hold_page,
    link_row,
    open_page,
    payment_of,
    press_continue,
    sent_link,
    standing_on,
)
from tests.payments.support import pay


def test_the_customer_opens_pays_and_the_hold_page_says_so(app, browser, merchant_id,
                                                            credentials, mail_sink, sandbox,
                                                            monkeypatch):
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    initiates = counting_initiates(monkeypatch, sandbox)
    customer = app.test_client()
    page = open_page(customer, link)
    assert page.response.status_code == 200
    assert page.soup.select_one(".partner-header").get_text(strip=True) == "Acme Payments"
    assert page.soup.h1.get_text() == "Pay 1,500 INR to Chai Point"
    assert "asha" not in page.text().lower()  # nothing of the customer's details is shown
    assert initiates == []  # looking at the page mints nothing (mail scanners open links)
    answer = press_continue(customer, link)
    assert answer.status_code == 303
    assert answer.headers["Location"].startswith(sandbox.url)
    assert len(initiates) == 1
    staff = hold_page(browser, payment_id)
    assert standing_on(staff) == "opened"
    assert staff.soup.select_one("[data-field='link-opened']").get_text() != "Not yet"
    returned = pay(answer.headers["Location"])
    customer.post(returned.path, data={"x-gl-token": returned.token})
    staff = hold_page(browser, payment_id)
    assert standing_on(staff) == "paid"
    assert staff.soup.select_one("[data-field='link-paid']").get_text(strip=True) == (
        "Yes: the gateway authorised the amount")
    again = open_page(customer, link)
    assert again.soup.h1.get_text() == "Thank you: your payment is authorised"
    assert press_continue(customer, link).status_code == 200
    assert len(initiates) == 1  # a used link mints no second checkout
    assert "Link opened and paid" in browser.get("/payments").text()


def test_a_used_link_does_not_open_a_second_checkout(app, browser, merchant_id, credentials,
                                                     mail_sink, sandbox, monkeypatch):
    _payment_id, link = sent_link(browser, merchant_id, mail_sink)
    initiates = counting_initiates(monkeypatch, sandbox)
    assert press_continue(app.test_client(), link).status_code == 303
    other_browser = app.test_client()
    second = open_page(other_browser, link)
    assert second.soup.h1.get_text() == "This link was already used"
    assert "ask Chai Point for a new payment link" in second.text()
    assert press_continue(other_browser, link).status_code == 200
    assert len(initiates) == 1


def test_a_busy_gateway_leaves_the_link_to_try_again(app, browser, merchant_id, credentials,
                                                     mail_sink, sandbox):
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    sandbox.state.faults.set(Fault(FaultKind.ERROR, status=429, operation="initiate", times=1))
    customer = app.test_client()
    answer = press_continue(customer, link)
    assert answer.status_code == 200
    assert "could not be opened just now. Nothing was charged" in answer.get_data(as_text=True)
    staff = hold_page(browser, payment_id)
    assert standing_on(staff) == "waiting"
    assert "busy" in staff.soup.select_one("[data-field='link-failure']").get_text()
    assert press_continue(customer, link).status_code == 303  # the next try opens it
    assert link_row(app, payment_id).failure == ""


def test_a_lost_answer_is_settled_by_the_status_poll(app, browser, merchant_id, credentials,
                                                     mail_sink, sandbox, settings):
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    sandbox.state.faults.set(Fault(FaultKind.LOST, operation="initiate", times=1))
    customer = app.test_client()
    answer = press_continue(customer, link)
    assert "we are checking with the payment gateway" in answer.get_data(as_text=True)
    assert link_row(app, payment_id).state == LinkState.OPENING
    assert payment_of(app, payment_id).action_state == ActionState.UNKNOWN
    again = open_page(customer, link)  # never a second initiate while the outcome is unknown
    assert again.soup.h1.get_text() == "Your payment page is being opened"
    with app.app_context():
        poll_once(settings, clock.utcnow() + timedelta(minutes=1))
    assert payment_of(app, payment_id).gid is not None  # the gateway had made it
    assert open_page(customer, link).soup.h1.get_text() == "This link was already used"
    assert standing_on(hold_page(browser, payment_id)) == "opened"


def test_an_open_left_by_a_dead_process_is_judged_by_its_hold(app, browser, merchant_id,
                                                              credentials, mail_sink):
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    with app.app_context():  # claimed, then the process died before the hold was sent
        db.session.execute(update(PaymentLink).values(
            state=LinkState.OPENING, opened_at=clock.utcnow() - timedelta(minutes=1)))
        db.session.commit()
    customer = app.test_client()
    assert open_page(customer, link).soup.h1.get_text() == "Your payment page is being opened"
    with app.app_context():
        db.session.execute(update(PaymentLink).values(
            opened_at=clock.utcnow() - timedelta(minutes=6)))
        db.session.commit()
    page = open_page(customer, link)  # older than any call in flight: open again
    assert page.soup.h1.get_text() == "Pay 1,500 INR to Chai Point"
    assert press_continue(customer, link).status_code == 303
    assert link_row(app, payment_id).state == LinkState.OPENED


def test_forged_and_foreign_tokens_open_nothing(app, browser, merchant_id, credentials,
                                                mail_sink, sandbox, monkeypatch):
    _first, link = sent_link(browser, merchant_id, mail_sink)
    _second, other = sent_link(browser, merchant_id, mail_sink)
    initiates = counting_initiates(monkeypatch, sandbox)
    customer = app.test_client()
    path, token = urlsplit(link).path, urlsplit(other).query
    for forged in (f"{path}?{token}", f"{path}?token=x{token[7:]}", path):
        assert customer.get(forged).status_code == 403
        assert customer.post(forged).status_code == 403
    with app.app_context():
        gone = db.session.get(Payment, _first)
        db.session.delete(gone)
        db.session.commit()
    assert customer.get(link).status_code == 403
    assert initiates == []


def test_the_continue_button_needs_its_csrf_token(csrf_app, browser, merchant_id, credentials,
                                                  mail_sink, sandbox, monkeypatch):
    _payment_id, link = sent_link(browser, merchant_id, mail_sink)
    initiates = counting_initiates(monkeypatch, sandbox)
    customer = csrf_app.test_client()
    page = open_page(customer, link)
    assert customer.post(link, data={}).status_code == 400
    token = page.form("form.link-continue").find(attrs={"name": "csrf_token"})["value"]
    assert customer.post(link, data={"csrf_token": token}).status_code == 303
    assert len(initiates) == 1
