"""A front desk works by name: payments are found by part of the guest's first or last name (the
billing details, else the customer data), case folded; the name is on the list, the payment page
and the export."""

from __future__ import annotations

import csv
import io

from portal.core.db import db
from portal.core.models.payment import Payment
from tests.payments.search.support import add_payment, references


def named(app, merchant_id: int, reference: str, part: str, first: str, last: str) -> int:
    """A payment whose body names its guest in ``part`` (billingData or customerData)."""
    payment_id = add_payment(app, merchant_id, reference)
    with app.app_context():
        payment = db.session.get(Payment, payment_id)
        body = {**payment.request_payload}
        names = {"firstName": first, "lastName": last}
        if part == "billingData":
            body["paymentData"] = {**body["paymentData"], "billingData": names}
        else:
            body["customerData"] = names
        payment.request_payload = body
        db.session.commit()
    return payment_id


def test_payments_are_found_by_the_guests_first_or_last_name(app, browser, merchant_id):
    named(app, merchant_id, "PTASHA", "billingData", "Asha", "Rao")
    named(app, merchant_id, "PTRAVI", "customerData", "Ravi", "Raonic")
    add_payment(app, merchant_id, "PTNONAME")

    def found(q: str) -> list[str]:
        return references(browser.get(f"/payments?q={q}"))

    assert found("asha") == ["PTASHA"]
    assert found("Asha%20%20Rao") == ["PTASHA"]  # first and last, spaces as typed
    assert sorted(found("RAO")) == ["PTASHA", "PTRAVI"]
    assert found("Ravi") == ["PTRAVI"]
    assert found("PTNONAME") == ["PTNONAME"]  # an order reference still finds its payment
    assert found("100%25") == []  # a LIKE wildcard typed is a character


def test_the_guests_name_is_on_the_list_the_payment_page_and_the_export(app, browser,
                                                                        merchant_id):
    payment_id = named(app, merchant_id, "PTASHA", "billingData", "Asha", "Rao")
    page = browser.get("/payments")
    assert [td.get_text(strip=True) for td in page.soup.select("td.guest")] == ["Asha Rao"]
    detail = browser.get(f"/payments/{payment_id}")
    assert detail.soup.select_one("[data-field=guest]").get_text(strip=True) == "Asha Rao"
    [row] = csv.DictReader(io.StringIO(
        browser.client.get("/payments/export.csv").get_data(as_text=True)))
    assert row["Guest"] == "Asha Rao"
