"""The portal's own ledger: every capture, reversal and refund goes under a merchantTxnId of its
own, and a lost or unreadable answer is settled by a status read of that merchantTxnId, never
by running totals and never by sending the call again."""

from __future__ import annotations

from decimal import Decimal

import pytest
import requests

from portal.core.db import db
from portal.core.models.payment import Payment
from portal.gateway.payments.requests import AuthReversalRequest
from portal.sandbox.common.fault_plans import Fault, FaultKind
from portal.sandbox.payments.answers import Answers
from portal.sandbox.payments.auth import CHECKOUT_SCOPE, TOKEN_PARAM
from portal.sandbox.payments.records import Payment as GatewayPayment
from tests.payments.support import act, backend, counting, flashes, pay, payment_row, post_hold


@pytest.fixture
def captured(browser, authorised) -> int:
    """The hold, captured in full."""
    act(browser, authorised, "capture")
    return authorised


def refund_rows(browser, payment_id: int) -> list[tuple[str, str]]:
    """(amount, state) of each refund row on the payment's page."""
    page = browser.get(f"/payments/{payment_id}")
    return [(row.select("td")[1].get_text(), row.select("td")[2]["data-state"])
            for row in page.soup.select("table.refunds tbody tr")]


def refresh(browser, payment_id: int):
    return browser.client.post(f"/payments/{payment_id}/refresh", follow_redirects=True)


def test_each_call_has_its_own_merchant_txn_id(app, browser, sandbox, captured):
    act(browser, captured, "refund", amount="100")
    payment = payment_row(app, captured)
    actions = backend(sandbox).get(payment.gid).actions
    ids = [a.merchant_txn_id for a in actions]
    assert len(set(ids)) == 2
    assert payment.merchant_txn_id not in ids
    assert payment.captured_amount == "1500.00"  # what we sent, not what an answer said


def test_a_refund_the_gateway_never_got_is_freed_after_refresh(app, browser, sandbox, captured,
                                                              monkeypatch):
    refunds = counting(monkeypatch, sandbox, "refund")
    sandbox.state.faults.set(Fault(FaultKind.RESET, operation="refund", times=1))
    page = act(browser, captured, "refund", amount="250")
    assert "cannot tell whether the refund happened" in flashes(page)
    assert refund_rows(browser, captured) == [("250 INR", "unknown")]
    refresh(browser, captured)
    assert refund_rows(browser, captured) == [("250 INR", "failed")]
    page = browser.get(f"/payments/{captured}")
    assert page.soup.select_one("[data-field=refundable]").get_text() == "1,500 INR"
    assert refunds == []


def test_an_unreadable_refund_answer_is_settled_not_failed(app, browser, sandbox, captured,
                                                           monkeypatch):
    refunds = counting(monkeypatch, sandbox, "refund")
    # taken by the gateway, answered with a success word around a body nobody can read
    monkeypatch.setattr(Answers, "refund", lambda self, payment, refund: (
        {"status": "SENT_FOR_REFUND", "data": "accepted"}, 200))
    page = act(browser, captured, "refund", amount="250")
    assert "cannot tell whether the refund happened" in flashes(page)
    assert refund_rows(browser, captured) == [("250 INR", "unknown")]
    # nothing more is sent until the status is read, whatever is posted
    again = browser.client.post(f"/payments/{captured}/refund", follow_redirects=True,
                                data={"nonce": payment_row(app, captured).action_nonce,
                                      "confirm": "y", "amount": "250"})
    assert "use Refresh status" in again.get_data(as_text=True)
    refresh(browser, captured)
    assert refund_rows(browser, captured) == [("250 INR", "sent")]
    page = browser.get(f"/payments/{captured}")
    assert page.soup.select_one("[data-field=refundable]").get_text() == "1,250 INR"
    assert len(refunds) == 1
    assert backend(sandbox).get(payment_row(app, captured).gid).refunded == Decimal("250")


def test_a_refund_answered_in_the_docs_shape_is_recorded(app, browser, sandbox, captured,
                                                         monkeypatch):
    def docs_shape(self, refund):
        return {"Amount": str(refund.amount), "Currency": self.currency,
                "merchantTxnId": refund.merchant_txn_id}

    monkeypatch.setattr(GatewayPayment, "refund_data", docs_shape)
    page = act(browser, captured, "refund", amount="250")
    assert "the payment is now partly refunded: 250 of 1,500 INR" in flashes(page)
    assert refund_rows(browser, captured) == [("250 INR", "sent")]


def test_a_capture_the_gateway_never_got_can_be_sent_after_refresh(app, browser, sandbox,
                                                                   authorised, monkeypatch):
    captures = counting(monkeypatch, sandbox, "capture")
    sandbox.state.faults.set(Fault(FaultKind.RESET, operation="capture", times=1))
    act(browser, authorised, "capture", amount="1000")
    assert payment_row(app, authorised).action_state == "unknown"
    refresh(browser, authorised)
    payment = payment_row(app, authorised)
    assert (payment.status, payment.action_state, payment.captured_amount) == (
        "AUTHORIZED", "idle", None)
    page = act(browser, authorised, "capture", amount="1000")
    assert "The capture was sent" in flashes(page)
    assert payment_row(app, authorised).captured_amount == "1000"
    assert len(captures) == 1


def test_a_lost_partial_capture_is_settled_with_the_amount_sent(app, browser, sandbox,
                                                                 authorised):
    sandbox.state.faults.set(Fault(FaultKind.LOST, operation="capture", times=1))
    act(browser, authorised, "capture", amount="1000")
    refresh(browser, authorised)
    payment = payment_row(app, authorised)
    assert (payment.status, payment.captured_amount) == ("SENT_FOR_CAPTURE", "1000")


def test_a_refusal_without_fields_shows_the_gateways_display_message(app, browser, sandbox,
                                                                     authorised):
    gateway = backend(sandbox)
    payment = payment_row(app, authorised)
    gateway.reverse(gateway.get(payment.gid).mid, payment.gid, AuthReversalRequest())
    page = act(browser, authorised, "capture")
    assert ("The gateway refused the capture: A payment in status REVERSED cannot be captured"
            in flashes(page))


def test_a_callback_finds_a_hold_whose_initiate_answer_was_lost(app, browser, sandbox,
                                                                 merchant_id, credentials):
    sandbox.state.faults.set(Fault(FaultKind.LOST, operation="initiate", times=1))
    response = post_hold(browser, merchant_id)
    assert response.status_code == 200
    with app.app_context():
        payment = db.session.query(Payment).one()
        assert payment.gid is None
        unique_id = payment.merchant_unique_id
    gateway = backend(sandbox)
    [gid] = [g for g, p in gateway._payments.items()
             if p.request.merchantUniqueId == unique_id]
    token = gateway.scoped_token(gid, CHECKOUT_SCOPE)
    returned = pay(f"{sandbox.url}/gl/payflow-ui/?{TOKEN_PARAM}={requests.utils.quote(token)}")
    result = browser.client.post(returned.path, data={"x-gl-token": returned.token})
    assert b"your payment is authorised" in result.data
    payment = payment_row(app, 1)
    assert (payment.gid, payment.status, payment.action_state) == (gid, "AUTHORIZED", "idle")
