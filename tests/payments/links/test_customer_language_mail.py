"""The customer's pick and the emails: the first email goes before any pick, in the merchant's
language; once the customer picked one on the link's page, a resent email and a new link for
the same payment (an unpaid payment's) follow it, and the new link opens in it."""

from __future__ import annotations

from bs4 import BeautifulSoup

from tests.payments.links.support import (
    hold_page,
    link_row,
    merchant_speaks,
    open_page,
    pick_language,
    press_continue,
    sent_link,
)
from tests.payments.support import DECLINED_CARD, pay, submit
from tests.support.languages import english_left
from tests.support.mail import body_of, link_in

ENGLISH_SUBJECT = "Chai Point asks you to pay 1,500 INR"


def said(message) -> str:
    return f"{message['Subject']} {body_of(message)}"


def declined(app, customer, link: str) -> None:
    """The customer pays the link with a card the issuer declines, and comes back."""
    returned = pay(press_continue(customer, link).headers["Location"], DECLINED_CARD)
    back = customer.post(returned.path, data={"x-gl-token": returned.token})
    assert back.status_code == 200


def test_the_first_email_is_in_the_merchants_language_a_resend_in_the_pick(
        app, browser, merchant_id, credentials, mail_sink):
    merchant_speaks(app, merchant_id, "hi")
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    first = mail_sink.messages()[-1]
    assert english_left(said(first)) == [] and "पेमेंट" in first["Subject"]
    customer = app.test_client()
    pick_language(customer, link, "en")
    submit(browser, hold_page(browser, payment_id), "form.link-resend")
    resent = mail_sink.messages()[-1]
    assert resent["Subject"] == ENGLISH_SUBJECT
    assert "Pay on the secure payment page:" in body_of(resent)
    assert open_page(customer, link_in(resent)).soup.html["lang"] == "en"


def test_a_new_link_for_an_unpaid_payment_keeps_the_customers_pick(app, browser, merchant_id,
                                                                   credentials, mail_sink):
    merchant_speaks(app, merchant_id, "hi")
    old_id, link = sent_link(browser, merchant_id, mail_sink)
    customer = app.test_client()
    pick_language(customer, link, "en")
    declined(app, customer, link)
    new = submit(browser, hold_page(browser, old_id), "form.link-renew")
    new_id = int(new.response.request.path.rsplit("/", 1)[1])
    assert new_id != old_id
    assert link_row(app, new_id).language == "en"
    message = mail_sink.messages()[-1]
    assert message["Subject"] == ENGLISH_SUBJECT
    renewed = link_in(message)
    assert open_page(customer, renewed).soup.html["lang"] == "en"
    returned = pay(press_continue(customer, renewed).headers["Location"])
    back = BeautifulSoup(customer.post(returned.path, data={"x-gl-token": returned.token}).data,
                         "html.parser")
    assert back.html["lang"] == "en"
    assert back.h1.get_text() == "Thank you: your payment is authorised"


def test_without_a_pick_the_new_link_stays_in_the_merchants_language(app, browser, merchant_id,
                                                                     credentials, mail_sink):
    merchant_speaks(app, merchant_id, "hi")
    old_id, link = sent_link(browser, merchant_id, mail_sink)
    declined(app, app.test_client(), link)
    new = submit(browser, hold_page(browser, old_id), "form.link-renew")
    new_id = int(new.response.request.path.rsplit("/", 1)[1])
    assert link_row(app, new_id).language is None
    message = mail_sink.messages()[-1]
    assert english_left(said(message)) == []
    assert open_page(app.test_client(), link_in(message)).soup.html["lang"] == "hi"
