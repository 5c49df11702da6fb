"""FOUR_EYES_REFUND_ABOVE is a budget per payment: the refunds of a payment sent without a
second admin may add up to it within 30 days, so a large refund cannot be split into small
ones; what a second admin approved does not count, nor what is older than the window."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from portal.core.db import db
from portal.core.models.payment import PaymentRefund
from portal.domain.four_eyes.refund_allowance import WINDOW
from tests.approvals.support import REASON, refund, requests_of
from tests.payments.support import counting, flashes
from tests.support.approvals import decide_all


def test_small_refunds_add_up_and_the_one_past_the_amount_waits(app, browser, sandbox,
                                                                 captured, monkeypatch):
    refunds = counting(monkeypatch, sandbox, "refund")
    assert "The refund was sent" in flashes(refund(browser, captured, "600.00"))
    page = refund(browser, captured, "600.00", again="y")  # 1200.00 in all: past 1000
    assert page.response.status_code == 400
    assert "another admin reads it" in " ".join(page.errors_for("reason"))
    assert len(refunds) == 1 and requests_of(app) == []
    left = page.soup.select_one("[data-field=left-without-approval]").get_text(strip=True)
    assert left == "400 INR"

    page = refund(browser, captured, "600.00", again="y", reason=REASON)
    assert "needs a second admin's approval" in flashes(page)
    assert len(refunds) == 1
    [request] = requests_of(app)
    assert request.payload["amount"] == "600.00"


def test_refunds_up_to_the_amount_in_all_are_sent_at_once(app, browser, sandbox, captured,
                                                          monkeypatch):
    refunds = counting(monkeypatch, sandbox, "refund")
    for amount in ("400.00", "350.00", "250.00"):  # 1000.00 in all: not more than the amount
        assert "The refund was sent" in flashes(refund(browser, captured, amount, again="y"))
    assert len(refunds) == 3 and requests_of(app) == []
    page = refund(browser, captured, "0.01")
    assert page.response.status_code == 400 and len(refunds) == 3


def test_an_approved_refund_does_not_use_up_the_amount(app, browser, sandbox, captured,
                                                       monkeypatch):
    refunds = counting(monkeypatch, sandbox, "refund")
    refund(browser, captured, "1200.00", reason=REASON)
    [approved] = decide_all(app)
    assert "Approved and carried out" in approved.get_data(as_text=True)
    with app.app_context():
        [sent] = db.session.query(PaymentRefund).all()
        assert sent.approval_request_id == requests_of(app)[0].id
    assert "The refund was sent" in flashes(refund(browser, captured, "300.00"))
    assert len(refunds) == 2


def test_refunds_older_than_the_window_no_longer_count(app, browser, sandbox, captured,
                                                       monkeypatch):
    refunds = counting(monkeypatch, sandbox, "refund")
    refund(browser, captured, "900.00")
    with app.app_context():  # as if it had been sent a day more than the window ago
        [sent] = db.session.query(PaymentRefund).all()
        sent.created_at -= WINDOW + timedelta(days=1)
        db.session.commit()
    assert "The refund was sent" in flashes(refund(browser, captured, "600.00"))
    assert len(refunds) == 2


def test_a_failed_refund_gives_its_amount_back(app, browser, sandbox, captured, monkeypatch):
    refund(browser, captured, "900.00")
    with app.app_context():  # as a status read finds when the refund never reached the gateway
        [sent] = db.session.query(PaymentRefund).all()
        sent.state = "failed"
        db.session.commit()
    page = browser.get(f"/payments/{captured}")
    left = page.soup.select_one("[data-field=left-without-approval]").get_text(strip=True)
    assert Decimal(left.split()[0].replace(",", "")) == Decimal("1000.00")
