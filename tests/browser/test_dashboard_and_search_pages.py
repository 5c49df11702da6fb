"""The dashboard's counts lead to their lists in Chromium (a status's row, the merchants without
progress, the holds close to expiry), and the payments search reads well empty, refusing a
filter beside its field, and with long values; axe on every page, at 1280 and 375 px."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import update

from portal.core import clock
from portal.core.db import db
from portal.core.models.payment import Payment
from tests.admin.support import _add_merchants
from tests.browser.support import Axe, log_in, screenshot
from tests.payments.search.support import add_payment
from tests.payments.support import add_merchant

pytestmark = pytest.mark.browser
LONG_NAME = "Sri Venkateswara Lakshmi Narasimha Handloom Silk Sarees and Textiles Emporium"


def test_each_dashboard_count_opens_its_list(page: Page, servers, axe: Axe, auth, app,
                                             portal_clock, settings) -> None:
    _add_merchants(app, 3, "IN_PROGRESS")
    _add_merchants(app, 2, None)
    approved = add_merchant(app, "APPROVED", name=LONG_NAME)
    portal_clock.advance((settings.stale_after_days + 1) * 86400)
    hold = add_payment(app, approved, "PTSOON", "1250.50", "asha@example.com")
    with app.app_context():
        db.session.execute(update(Payment).values(
            authorized_at=clock.utcnow() - timedelta(hours=150)))
        db.session.commit()
    log_in(page, auth.create("admin"), app=app)
    page.goto("/admin/")
    axe.check(page)
    screenshot(page, "dashboard-links")

    # the number itself: the row's link lies over it (a click there is the link's)
    page.locator(".status-chart__row[data-status='IN_PROGRESS'] .status-chart__count").click(
        force=True)
    page.wait_for_url("**/merchants?status=IN_PROGRESS")
    expect(page.locator(".result-count")).to_have_text("3 merchants")
    page.go_back()
    page.locator(".stale-count a").click()
    page.wait_for_url("**/merchants?stale=y")
    expect(page.locator(".result-count")).to_have_text("5 merchants")
    expect(page.get_by_label("Only those without progress for more than 7 days")).to_be_checked()
    axe.check(page)
    screenshot(page, "merchants-stale")
    page.go_back()
    page.locator(".expiring-holds a").click()
    page.wait_for_url("**/payments?status=expiring")
    expect(page.locator("tr[data-payment]")).to_have_attribute("data-payment", str(hold))
    axe.check(page)
    screenshot(page, "payments-expiring")


def test_the_payments_search_empty_refused_and_long(page: Page, servers, axe: Axe, auth,
                                                    app) -> None:
    log_in(page, auth.create("ops"), app=app)
    page.goto("/payments")
    expect(page.locator(".result-count")).to_have_text("0 payments")
    expect(page.locator("a.export-csv")).to_have_count(0)
    axe.check(page)
    screenshot(page, "payments-search-empty")

    merchant = add_merchant(app, "APPROVED", name=LONG_NAME)
    for n in range(3):
        add_payment(app, merchant, f"PTLONGREFERENCE{n:02d}ABCDEFGHIJ", "1250000.5",
                    f"accounts.payable.department.{n}@example-customer-company.co.in")
    page.goto("/payments")
    page.get_by_label("Amount").fill("twelve")
    page.get_by_label("Merchant").fill("Lakshmi")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("#amount-errors")).to_have_text(
        "Enter an amount in digits with at most 4 decimal places, e.g. 1250.50.")
    expect(page.get_by_label("Amount")).to_have_value("twelve")
    expect(page.locator("table.payments tbody tr")).to_have_count(3)  # the merchant still filters
    axe.check(page)
    screenshot(page, "payments-search-refused")

    page.get_by_label("Amount").fill("12,50,000.50")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("table.payments tbody tr")).to_have_count(3)
    export = page.locator("a.export-csv")
    assert parse_qs(urlsplit(export.get_attribute("href")).query) == {
        "merchant": ["Lakshmi"], "amount": ["12,50,000.50"]}
    axe.check(page)
    screenshot(page, "payments-search-long-values")
