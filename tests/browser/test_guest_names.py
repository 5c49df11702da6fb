"""A front desk finds a payment by the guest's name, in Chromium: typed in the payments search,
found, shown on the list and on the payment page; axe-clean and no wider than a 375 px phone
(``PORTAL_SCREENSHOTS`` saves both pages)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.core.db import db
from portal.core.models.payment import Payment
from portal.domain.payments.service import new_nonce
from tests.browser.support import Axe, Servers, Widths, log_in
from tests.support.team import make_merchant

pytestmark = pytest.mark.browser


def test_a_payment_is_found_by_the_guests_name(page: Page, servers: Servers, auth, csrf_app,
                                               axe: Axe) -> None:
    merchant = make_merchant(csrf_app, "Lotus Residency", status="APPROVED")
    with csrf_app.app_context():
        for reference, first, last in (("ROOM-101", "Asha", "Ramakrishnan Venkataraman"),
                                       ("ROOM-102", "Vikram", "Mehta")):
            db.session.add(Payment(
                merchant_id=merchant, merchant_txn_id=reference, merchant_unique_id=reference,
                gid=f"gl_o-{reference}", status="AUTHORIZED", amount="4500.00", currency="INR",
                action_nonce=new_nonce(), request_payload={"paymentData": {
                    "totalAmount": "4500.00", "txnCurrency": "INR",
                    "billingData": {"firstName": first, "lastName": last}}}))
        db.session.commit()
    log_in(page, auth.create("ops"))
    widths = Widths(page)
    page.goto("/payments")
    page.get_by_label("Guest name, order reference or customer email").fill("ramakrishnan")
    page.get_by_role("button", name="Search").click()
    rows = page.locator("table.payments tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.locator("td.guest")).to_have_text("Asha Ramakrishnan Venkataraman")
    widths.measure("guest-search")
    axe.check(page)
    rows.get_by_role("link").click()
    expect(page.locator("[data-field=guest]")).to_have_text("Asha Ramakrishnan Venkataraman")
    widths.measure("guest-payment")
    axe.check(page)
    assert widths.too_wide == {}
