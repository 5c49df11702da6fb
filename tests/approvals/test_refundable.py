""""Still refundable" on a payment's page counts the refunds waiting for a second admin, so
what it says can still be refunded is what will be left once they are approved."""

from __future__ import annotations

from tests.approvals.support import REASON, refund
from tests.payments.support import act


def test_still_refundable_counts_a_refund_waiting_for_approval(browser, captured):
    act(browser, captured, "refund", amount="200")
    page = refund(browser, captured, "1100.00", reason=REASON)
    assert "needs a second admin's approval" in page.soup.get_text()
    page = browser.get(f"/payments/{captured}")
    assert page.soup.select_one("[data-field=refundable]").get_text() == "200 INR"
    note = page.soup.select_one(".refundable-note").get_text(" ", strip=True)
    assert "1,100 INR more waits for a second admin's approval" in note
    form = page.form("form.action--refund")
    assert form.select_one("[name=amount]")["value"] == "200.00"
    assert "counting the 1,100 INR waiting for a second admin" in form.get_text(" ")
