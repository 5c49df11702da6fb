"""The payments list as CSV: the filtered payments, every one of them (not one page), newest
first, read in batches that neither repeat nor skip a payment; spreadsheet formulas defused;
audited."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

from sqlalchemy import select

from portal.core.db import db
from portal.core.models import AuditEvent
from portal.domain.payments.search.finding import PaymentFilters, every_payment
from tests.payments.search.support import add_payment
from tests.payments.support import add_merchant


def exported(client, path: str) -> list[dict[str, str]]:
    answer = client.get(path)
    assert answer.status_code == 200
    assert answer.mimetype == "text/csv"
    assert answer.headers["Content-Disposition"].startswith("attachment; filename=payments-")
    return list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))


def test_the_export_holds_every_filtered_payment_in_words(app, browser, merchant_id):
    formula = add_merchant(app, "APPROVED", name="=HYPERLINK(\"http://x\")")
    for n in range(60):  # more than a page
        add_payment(app, merchant_id, f"PT{n:02d}", "1,250.5".replace(",", ""),
                    f"c{n}@example.com", datetime(2026, 3, 1, 0, n, tzinfo=UTC))
    add_payment(app, merchant_id, "PTOTHER", "3")
    add_payment(app, formula, "PTFORMULA", "1250.50", "-x@example.com")
    rows = exported(browser.client, "/payments/export.csv?amount=1250.5")
    assert exported(browser.client, "/payments/export.csv?q=c1%40example.com")[0][
        "Customer email"] == "c1@example.com"
    assert len(rows) == 61
    first = rows[0]
    assert first["Merchant"] == "'=HYPERLINK(\"http://x\")"  # not run by a spreadsheet
    assert first["Customer email"] == "'-x@example.com"
    assert [row["Order reference"] for row in rows[1:3]] == ["PT59", "PT58"]
    assert rows[1] == {
        "Merchant": "Chai Point", "Order reference": "PT59", "Gateway reference": "gl_o-PT59",
        "Amount": "1250.5", "Currency": "INR", "Captured": "", "Refunded": "",
        "Status": "Authorised (held)", "Status code": "AUTHORIZED", "Guest": "",
        "Customer email": "c59@example.com", "Payment link": "",
        "Created (UTC)": "2026-03-01 00:59:00", "Authorised (UTC)": ""}
    with app.app_context():
        events = db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "payments.export").order_by(AuditEvent.id)).all()
    assert [(e.actor_label, e.detail) for e in events] == [
        ("admin@example.com", {"filters": {"amount": "1250.5"}}),
        ("admin@example.com", {"filters": {"q": "c***@example.com"}})]  # no customer's email


def test_one_merchants_export_is_its_own(app, browser, merchant_id):
    other = add_merchant(app, "APPROVED", name="Dosa Corner")
    add_payment(app, merchant_id, "PTMINE", "1")
    add_payment(app, other, "PTTHEIRS", "1")
    rows = exported(browser.client, f"/merchants/{merchant_id}/payments/export.csv")
    assert [row["Order reference"] for row in rows] == ["PTMINE"]
    page = browser.get(f"/merchants/{merchant_id}/payments?amount=1")
    assert page.soup.select_one("a.export-csv")["href"] == (
        f"/merchants/{merchant_id}/payments/export.csv?amount=1")


def test_batches_neither_repeat_nor_skip_payments_created_at_once(app, merchant_id):
    same_moment = datetime(2026, 3, 1, 12, tzinfo=UTC)
    for n in range(10):
        add_payment(app, merchant_id, f"PT{n}", "1", created=same_moment)
    add_payment(app, merchant_id, "PTLATER", "1", created=datetime(2026, 3, 2, tzinfo=UTC))
    with app.app_context():
        found = [row.payment.merchant_txn_id for row in every_payment(PaymentFilters(),
                                                                      batch=3)]
    assert found == ["PTLATER", *(f"PT{n}" for n in range(9, -1, -1))]


def test_the_export_needs_a_signed_in_user(app, merchant_id):
    add_payment(app, merchant_id, "PT1", "1")
    answer = app.test_client().get("/payments/export.csv")
    assert answer.status_code == 302 and "/login" in answer.headers["Location"]
