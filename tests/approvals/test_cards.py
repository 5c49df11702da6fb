"""A request's card on the Approvals page names what it is about: the merchant and, for a
refund, the payment (its order reference, amount and capture), each a link to its page."""

from __future__ import annotations

from bs4 import BeautifulSoup

from tests.approvals.support import REASON, refund
from tests.payments.support import payment_row
from tests.support.approvals import second_admin


def test_a_refund_card_names_the_merchant_and_the_payment(app, browser, merchant_id, captured):
    refund(browser, captured, "1200.00", reason=REASON)
    soup = BeautifulSoup(second_admin(app).get("/approvals/").data, "html.parser")
    [card] = soup.select("article.approval")
    assert card.select_one("h3").get_text() == "Large refund for Chai Point"
    subject = card.select_one(".approval__subject")
    merchant = subject.select_one(f"a[href='/merchants/{merchant_id}']")
    assert merchant.get_text() == "Chai Point"
    payment = subject.select_one(f"a[href='/payments/{captured}']")
    assert payment_row(app, captured).merchant_txn_id in payment.get_text()
    assert "1,500 INR authorised · Captured: 1,500 INR" in subject.get_text(" ", strip=True)
