"""A payment-link payment the card issuer declined: "Send a new link" on its page emails the
customer a new link for the same amount (a new hold), the old payment kept as declined, the two
linked on both pages; a second press sends no second hold."""

from __future__ import annotations

from sqlalchemy import func, select

from portal.core.db import db
from portal.core.models.payment import Payment
from portal.core.models.payment_link import PaymentLink
from tests.payments.links.support import (
    hold_page,
    link_row,
    open_page,
    payment_of,
    press_continue,
    sent_link,
    standing_on,
)
from tests.payments.support import flashes, pay, submit
from tests.support.mail import link_in

#: The sandbox's card the issuer declines (docs/developer/sandbox.md).
DECLINED_CARD = "4000000000000002"


def declined_link(app, browser, merchant_id, mail_sink) -> tuple[int, str, object]:
    """A link payment the customer tried to pay with a declined card: (payment id, its link,
    the customer's result page)."""
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    customer = app.test_client()
    returned = pay(press_continue(customer, link).headers["Location"], DECLINED_CARD)
    result = customer.post(returned.path, data={"x-gl-token": returned.token})
    return payment_id, link, result


def test_a_declined_link_payment_gets_a_new_link_linked_both_ways(app, browser, merchant_id,
                                                                  credentials, mail_sink):
    old_id, _, _ = declined_link(app, browser, merchant_id, mail_sink)
    page = hold_page(browser, old_id)
    assert standing_on(page) == "not_paid"
    declined_as = payment_of(app, old_id).status
    assert page.soup.select_one("form.link-renew button").get_text() == "Send a new link"
    emails = len(mail_sink.messages())
    new = submit(browser, page, "form.link-renew")
    assert "A payment link was emailed to" in flashes(new)
    assert len(mail_sink.messages()) == emails + 1
    new_id = int(new.response.request.path.rsplit("/", 1)[1])
    assert new_id != old_id
    assert new.soup.select_one("[data-field='replaces']")["href"] == f"/payments/{old_id}"
    assert standing_on(new) == "waiting"
    old, fresh = payment_of(app, old_id), payment_of(app, new_id)
    assert (fresh.amount, fresh.currency, fresh.customer_email) == (
        old.amount, old.currency, old.customer_email)
    assert old.status == declined_as  # kept as it ended
    again = hold_page(browser, old_id)
    assert again.soup.select_one("[data-field='replaced-by']")["href"] == f"/payments/{new_id}"
    assert again.soup.select_one("form.link-renew") is None  # one new link per payment
    assert standing_on(again) == "not_paid"
    assert link_row(app, old_id).state == "opened"


def test_a_second_press_of_the_same_form_sends_no_second_hold(app, browser, merchant_id,
                                                              credentials, mail_sink):
    old_id, _, _ = declined_link(app, browser, merchant_id, mail_sink)
    page = hold_page(browser, old_id)
    submit(browser, page, "form.link-renew")
    second = submit(browser, page, "form.link-renew")  # the same page's form, pressed again
    assert "already emailed" in flashes(second)
    with app.app_context():
        assert db.session.scalar(select(func.count(Payment.id)).where(
            Payment.replaces_payment_id == old_id)) == 1
        assert db.session.scalar(select(func.count(PaymentLink.id))) == 2


def test_the_new_link_opens_for_the_same_amount(app, browser, merchant_id, credentials,
                                                mail_sink):
    old_id, _, _ = declined_link(app, browser, merchant_id, mail_sink)
    submit(browser, hold_page(browser, old_id), "form.link-renew")
    page = open_page(app.test_client(), link_in(mail_sink.messages()[-1]))
    assert page.soup.h1.get_text() == "Pay 1,500 INR to Chai Point"


def test_an_authorised_payment_offers_no_new_link(app, browser, merchant_id, credentials,
                                                  mail_sink):
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    customer = app.test_client()
    returned = pay(press_continue(customer, link).headers["Location"])
    customer.post(returned.path, data={"x-gl-token": returned.token})
    page = hold_page(browser, payment_id)
    assert page.soup.select_one("form.link-renew") is None
    refused = browser.client.post(f"/payments/{payment_id}/link/new",
                                  data={"csrf_token": page.soup.select_one(
                                      "input[name=csrf_token]")["value"]},
                                  follow_redirects=True)
    assert "not close to its expiry yet, so it needs no new authorisation" in refused.get_data(
        as_text=True)  # a hold close to it is held again (test_holding_again)
