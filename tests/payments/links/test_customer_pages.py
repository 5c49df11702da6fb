"""The customer's pages (the result page after the hosted checkout, the payment link's page in
each of its states, the link's refusals): the same words for a payment not completed on both,
in the merchant's name, and no staff wording on any of them (the staff's words from the wording
tables: the link standings, the hold states, the actions)."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from portal.domain.payments.links.standing import (
    LABELS,
    NOT_SENT,
    WAITING_FOR_THE_CUSTOMER,
)
from portal.domain.payments.wording import NOT_PAID_HEADING, not_paid_words
from tests.payments.links.support import open_page, press_continue, sent_link
from tests.payments.support import authorised_payment, pay
from tests.support.browser import Page

DECLINED_CARD = "4000000000000002"
#: What only the partner's staff read: the link standings and hold states of the staff's pages,
#: their buttons, the gateway's ids and the portal itself.
STAFF_WORDS = (*LABELS.values(), WAITING_FOR_THE_CUSTOMER, NOT_SENT, "Refresh status",
               "merchantUniqueId", "merchantTxnId", "Merchant unique id", "sign-in",
               "in the portal", "Capture", "Reverse the hold", "Discard", "Resend the link",
               "Cancel the link", "For the merchant's staff", "Gateway reference")


def no_staff_words(page) -> None:
    text = page.soup.get_text(" ")
    found = [words for words in STAFF_WORDS if words.lower() in text.lower()]
    assert found == [], found
    assert page.soup.select("nav") == []
    assert [a["href"] for a in page.soup.select("a[href^='/payments']")] == []


def test_the_result_page_and_the_link_page_say_the_same_of_a_declined_payment(
        app, browser, merchant_id, credentials, mail_sink):
    _, result = authorised_payment(browser, merchant_id, DECLINED_CARD)
    assert result.soup.h1.get_text() == NOT_PAID_HEADING
    said = result.soup.select_one(".not-paid").get_text()
    assert said == not_paid_words("Chai Point") == (
        "Nothing was charged. To pay, ask Chai Point for a new payment link.")
    _, link = sent_link(browser, merchant_id, mail_sink)
    customer = app.test_client()
    returned = pay(press_continue(customer, link).headers["Location"], DECLINED_CARD)
    back = customer.post(returned.path, data={"x-gl-token": returned.token})
    assert "To pay, ask Chai Point for a new payment link." in back.get_data(as_text=True)
    page = open_page(customer, link)
    assert page.soup.h1.get_text() == NOT_PAID_HEADING
    assert page.soup.select_one(".not-paid").get_text() == said


@pytest.mark.parametrize("card", ["4111111111111111", DECLINED_CARD])
def test_no_result_page_shows_staff_wording(app, browser, merchant_id, credentials, card):
    _, result = authorised_payment(browser, merchant_id, card)
    no_staff_words(result)


def test_no_link_page_state_shows_staff_wording(app, browser, merchant_id, credentials,
                                                mail_sink):
    customer = app.test_client()
    _, waiting = sent_link(browser, merchant_id, mail_sink)
    no_staff_words(open_page(customer, waiting))  # waiting
    answer = press_continue(customer, waiting)
    no_staff_words(open_page(customer, waiting))  # opened, not paid yet
    returned = pay(answer.headers["Location"])
    paid = customer.post(returned.path, data={"x-gl-token": returned.token})
    assert paid.status_code == 200
    no_staff_words(open_page(customer, waiting))  # paid
    _, declined = sent_link(browser, merchant_id, mail_sink)
    returned = pay(press_continue(customer, declined).headers["Location"], DECLINED_CARD)
    customer.post(returned.path, data={"x-gl-token": returned.token})
    no_staff_words(open_page(customer, declined))  # not completed
    refused = open_page(customer, waiting.split("token=")[0] + "token=forged")
    assert refused.response.status_code == 403
    no_staff_words(refused)


def test_a_callback_that_cannot_be_read_shows_no_staff_wording(app):
    answer = app.test_client().post("/payments/callback", data={})
    assert answer.status_code == 400
    no_staff_words(Page(answer, BeautifulSoup(answer.data, "html.parser")))
