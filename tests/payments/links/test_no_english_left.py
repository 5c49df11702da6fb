"""The customers of a merchant whose language is Hindi read no English sentence of the
catalogue: not in the payment link's email, nor on its page in any standing (waiting, paid,
not paid, already used, not available, refused), nor on the page they return to from the
hosted checkout; the order reference, amounts and names aside."""

from __future__ import annotations

import pytest

from tests.payments.links.support import merchant_speaks, press_continue, sent_link
from tests.payments.support import pay
from tests.support.languages import english_left, in_hindi
from tests.support.mail import body_of
from tests.support.pausing import stop_now

DECLINED_CARD = "4000000000000002"


@pytest.fixture
def hindi(app, merchant_id) -> int:
    """The approved merchant, its pages and emails set to Hindi by ops."""
    return merchant_speaks(app, merchant_id, "hi")


def test_the_email_and_the_waiting_page(app, browser, hindi, credentials, mail_sink):
    _, link = sent_link(browser, hindi, mail_sink)
    message = mail_sink.messages()[-1]
    said = f"{message['Subject']} {body_of(message)}"
    assert english_left(said) == [] and "पेमेंट" in said
    assert "Chai Point" in in_hindi(app.test_client().get(link))


@pytest.mark.parametrize("card", ["4111111111111111", DECLINED_CARD])
def test_the_return_page_and_the_link_page_after_paying(app, browser, hindi, credentials,
                                                         mail_sink, card):
    _, link = sent_link(browser, hindi, mail_sink)
    customer = app.test_client()
    returned = pay(press_continue(customer, link).headers["Location"], card)
    in_hindi(customer.post(returned.path, data={"x-gl-token": returned.token}))
    in_hindi(customer.get(link))


def test_a_used_link_a_paused_merchant_and_a_forged_link(app, browser, hindi, credentials,
                                                          mail_sink):
    _, link = sent_link(browser, hindi, mail_sink)
    customer = app.test_client()
    press_continue(customer, link)  # the hosted page opened, never paid
    in_hindi(customer.get(link))
    _, paused = sent_link(browser, hindi, mail_sink)
    assert stop_now(app, hindi).ok
    in_hindi(customer.get(paused))
    forged = customer.get(link.split("?")[0] + "?token=forged",
                          headers={"Accept-Language": "hi"})
    in_hindi(forged, 403)
    refused_return = customer.post("/payments/callback", data={"x-gl-token": "forged"},
                                   headers={"Accept-Language": "hi"})
    in_hindi(refused_return, 400)
