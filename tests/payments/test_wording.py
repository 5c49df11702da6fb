"""A payment's words match the portal's ledger: a partial refund reads "Partly refunded: 250 of
1,500 INR" in the list, on the page and in the message after it, and the page names one
customer-facing reference, the one the customer was shown."""

from __future__ import annotations

from decimal import Decimal

import pytest

from portal.core.models.payment import Payment, PaymentRefund, RefundState
from portal.domain.payments.wording import money, status_words
from tests.payments.support import act, authorised_payment, flashes, payment_row


def _payment(status: str, captured: str | None, amount: str = "18000.00") -> Payment:
    return Payment(status=status, amount=amount, currency="INR", captured_amount=captured)


def _refunds(*amounts_and_states: tuple[str, RefundState]) -> list[PaymentRefund]:
    return [PaymentRefund(amount=amount, state=state) for amount, state in amounts_and_states]


@pytest.mark.parametrize(("status", "captured", "refunds", "words"), [
    ("SENT_FOR_REFUND", "18000.00", [("2000", RefundState.SENT)],
     "Partly refunded: 2,000 of 18,000 INR"),
    ("SENT_FOR_REFUND", "18000.00", [("2000", RefundState.SENT), ("16000", RefundState.SENT)],
     "Refunded: 18,000 INR"),
    # a refund that failed or is still in doubt is not counted as refunded
    ("SENT_FOR_REFUND", "18000.00", [("2000", RefundState.SENT), ("500", RefundState.FAILED),
                                     ("700", RefundState.UNKNOWN)],
     "Partly refunded: 2,000 of 18,000 INR"),
    ("SENT_FOR_CAPTURE", "18000.00", [], "Captured: 18,000 INR"),
    ("SENT_FOR_CAPTURE", "1000.50", [], "Captured: 1,000.50 of 18,000 INR"),
    ("AUTHORIZED", None, [], "Authorised (held)"),
    ("ISSUER_DECLINE", None, [], "Declined by the card issuer"),
])
def test_status_words_follow_the_ledger(status, captured, refunds, words):
    assert status_words(_payment(status, captured), _refunds(*refunds)) == words


def test_money_groups_thousands_and_drops_whole_decimals():
    assert money("18000.00", "INR") == "18,000 INR"
    assert money(Decimal("299.5"), "INR") == "299.50 INR"
    assert money("1234567.25", "USD") == "1,234,567.25 USD"


def test_a_partial_refund_reads_partly_refunded_everywhere(app, browser, authorised):
    act(browser, authorised, "capture")
    page = act(browser, authorised, "refund", amount="250")
    assert payment_row(app, authorised).status == "SENT_FOR_REFUND"
    assert "the payment is now partly refunded: 250 of 1,500 INR." in flashes(page)
    status = page.soup.select_one("[data-field=status]")
    assert status.get_text(strip=True) == "Partly refunded: 250 of 1,500 INR"
    assert page.soup.select_one("[data-field=refunded]").get_text() == "250 INR"
    assert page.soup.select_one("[data-field=refundable]").get_text() == "1,250 INR"
    listed = browser.get("/payments").soup.select_one(f"tr[data-payment='{authorised}'] .status")
    assert listed.get_text(strip=True) == "Partly refunded: 250 of 1,500 INR"
    page = act(browser, authorised, "refund", amount="1250")
    assert "the payment is now refunded: 1,500 INR." in flashes(page)


def test_the_page_names_the_reference_the_customer_was_shown(app, browser, merchant_id,
                                                            credentials):
    payment_id, result = authorised_payment(browser, merchant_id)
    told = result.soup.select_one(".merchant-txn-id").get_text()
    payment = payment_row(app, payment_id)
    assert told == payment.merchant_txn_id
    page = browser.get(f"/payments/{payment_id}")
    assert page.soup.select_one("h1 .order-reference").get_text() == told
    rows = {dt.get_text(strip=True): dt.find_next_sibling("dd")
            for dt in page.soup.select("dl.readonly dt")}
    assert rows["Order reference"].select_one("code").get_text() == told
    assert "shown on the checkout and result pages" in rows["Order reference"].get_text()
    assert rows["Merchant unique id"].select_one("code").get_text() == payment.merchant_unique_id
    listed = browser.get("/payments").soup
    assert "Order reference" in [th.get_text() for th in listed.select("table.payments th")]
