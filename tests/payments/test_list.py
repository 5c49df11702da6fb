"""The payments lists: per merchant and overall, filtered by status, in a fixed number of
queries however many payments there are."""

from __future__ import annotations

import threading

from sqlalchemy import event

from portal.core.db import db
from portal.core.models.payment import Payment
from portal.domain.payments.in_flight import claim
from portal.domain.payments.service import new_nonce
from tests.payments.support import add_merchant


def add_payments(app, merchant_id: int, count: int, status: str = "AUTHORIZED") -> None:
    with app.app_context():
        for index in range(count):
            db.session.add(Payment(
                merchant_id=merchant_id, merchant_txn_id=f"PT{merchant_id}{status}{index}",
                merchant_unique_id=f"PU{merchant_id}{status}{index:06d}",
                gid=f"gl_o-{merchant_id}-{status}-{index}", status=status, amount="10.00",
                currency="INR", action_nonce=new_nonce()))
        db.session.commit()


def rows(page) -> list[str]:
    return [tr.select_one("code").get_text() for tr in page.soup.select("table.payments tbody tr")]


def test_lists_per_merchant_and_overall_filtered_by_status(app, browser, merchant_id):
    other = add_merchant(app, "APPROVED", name="Dosa Corner")
    add_payments(app, merchant_id, 2)
    add_payments(app, other, 1)
    add_payments(app, other, 1, status="REVERSED")
    assert len(rows(browser.get("/payments"))) == 4
    assert len(rows(browser.get(f"/merchants/{merchant_id}/payments"))) == 2
    reversed_only = browser.get("/payments?status=REVERSED")
    assert rows(reversed_only) == [f"PT{other}REVERSED0"]
    assert "Dosa Corner" in reversed_only.text()
    assert rows(browser.get(f"/merchants/{merchant_id}/payments?status=REVERSED")) == []


def count_queries(app, browser, path: str) -> int:
    engine = db.engine(app)
    statements: list[str] = []

    def seen(conn, cursor, statement, *args) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", seen)
    try:
        assert browser.get(path).response.status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    return len(statements)


def test_the_list_needs_the_same_queries_for_many_payments(app, browser, merchant_id):
    other = add_merchant(app, "APPROVED", name="Dosa Corner")
    add_payments(app, merchant_id, 1)
    few = count_queries(app, browser, "/payments")
    add_payments(app, other, 20)
    add_payments(app, merchant_id, 20, status="REVERSED")
    assert count_queries(app, browser, "/payments") == few


def test_one_claim_wins_among_concurrent_ones(app, merchant_id):
    add_payments(app, merchant_id, 1)
    with app.app_context():
        payment = db.session.query(Payment).one()
        payment_id, nonce = payment.id, payment.action_nonce
    start = threading.Barrier(8)
    won: list[bool] = []

    def try_claim() -> None:
        with app.app_context():
            mine = db.session.get(Payment, payment_id)
            start.wait()
            won.append(claim(mine, "capture", nonce))

    threads = [threading.Thread(target=try_claim) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(won) == [False] * 7 + [True]
