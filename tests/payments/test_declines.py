"""Answers judged by what they say, on the payment's page (docs/gateway-contract.md, "Reading
answers"), with the
sandbox's scenario cards, in both answer dialects: a 2xx that declines books nothing and says why;
a 2xx that does not say is settled by a status read of the call's own merchantTxnId."""

from __future__ import annotations

from tests.payments.support import (
    CAPTURE_DECLINED_CARD,
    CAPTURE_QUEUED_CARD,
    act,
    authorised_payment,
    backend,
    flashes,
    payment_row,
    poll,
)

REFUND_DECLINED_CARD = "4000000000000267"


def test_a_capture_declined_with_a_2xx_books_nothing_and_says_why(app, browser, sandbox,
                                                                  merchant_id, credentials):
    payment_id, _ = authorised_payment(browser, merchant_id, CAPTURE_DECLINED_CARD)
    page = act(browser, payment_id, "capture")
    assert flashes(page) == ("The gateway declined the capture: The card issuer declined the "
                             "payment. Nothing was captured.")
    payment = payment_row(app, payment_id)
    assert (payment.status, payment.captured_amount, payment.action_state) == (
        "AUTHORIZED", None, "idle")
    assert backend(sandbox).get(payment.gid).captured is None
    # the decline was no capture: the one capture an authorisation allows is still to be made
    assert page.soup.select_one("form.action--capture") is not None


def test_a_refund_declined_with_a_2xx_leaves_the_amount_refundable(app, browser, sandbox,
                                                                  merchant_id, credentials):
    payment_id, _ = authorised_payment(browser, merchant_id, REFUND_DECLINED_CARD)
    act(browser, payment_id, "capture")
    page = act(browser, payment_id, "refund", amount="200")
    assert flashes(page).startswith("The gateway declined the refund: The refund was declined")
    assert page.soup.select_one("[data-field=refundable]").get_text() == "1,500 INR"
    assert [row.select("td")[2].get_text() for row in page.soup.select(
        "table.refunds tbody tr")] == ["Not made: nothing was refunded"]
    assert payment_row(app, payment_id).status == "SENT_FOR_CAPTURE"


def test_a_capture_answered_with_an_unknown_word_is_settled_by_the_poll(
        app, browser, sandbox, merchant_id, credentials):
    payment_id, _ = authorised_payment(browser, merchant_id, CAPTURE_QUEUED_CARD)
    page = act(browser, payment_id, "capture", amount="1000")
    assert "did not say whether it was done" in flashes(page)
    assert payment_row(app, payment_id).action_state == "unknown"
    assert page.soup.select_one("form.action--capture") is None  # nothing sent twice
    poll(app)
    payment = payment_row(app, payment_id)
    assert (payment.status, payment.captured_amount, payment.action_state) == (
        "SENT_FOR_CAPTURE", "1000", "idle")
