"""The customer's result page after the hosted checkout leads the ops person who took the hold
on: a link to the payment in the portal (which asks for sign-in), and nothing else of it."""

from __future__ import annotations

from tests.payments.support import authorised_payment


def test_the_result_page_links_staff_to_the_payment(browser, merchant_id, credentials):
    payment_id, result = authorised_payment(browser, merchant_id)
    link = result.soup.select_one(".staff-link a")
    assert link["href"] == f"/payments/{payment_id}"
    assert "sign-in needed" in result.soup.select_one(".staff-link").get_text()
    assert browser.get(link["href"]).soup.select_one("h1 .order-reference") is not None
    assert result.soup.select("nav") == []  # still no portal navigation for the customer
