"""The worker's payment status poll (docs/gateway-contract.md, "Polling"): a customer whose return
never reaches the portal, a call whose answer was lost and a hold whose initiate answer was lost
are all settled by the next run of the poll job, without anyone pressing Refresh status."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import delete, func, select

from portal.core import clock
from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.payment import Payment, PaymentCredentials
from portal.domain.payments import polling
from portal.domain.payments.status_poll import POLL_ACTOR
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.payments.support import act, backend, pay, payment_row, poll, post_hold
from tests.support.rows import fresh
from tests.support.workers import run_worker


def only_payment(app) -> Payment:
    with app.app_context():
        payment = db.session.query(Payment).one()
        db.session.expunge(payment)
        return payment


def test_a_customer_who_never_returns_is_settled_by_the_next_run_of_the_job(
        app, browser, merchant_id, credentials):
    response = post_hold(browser, merchant_id)
    pay(response.headers["Location"])  # paid on the hosted page; the return never arrives
    payment = only_payment(app)
    assert (payment.status, payment.next_poll_at is not None) == ("INPROGRESS", True)
    assert run_worker(app) >= 1  # the worker's first pass runs every periodic job once
    payment = payment_row(app, payment.id)
    assert payment.status == "AUTHORIZED" and payment.authorized_at is not None
    assert payment.next_poll_at is not None  # authorised, not captured: still watched


def test_an_unknown_capture_is_settled_by_the_poll_with_the_amount_sent(
        app, browser, sandbox, authorised):
    sandbox.state.faults.set(Fault(FaultKind.LOST, operation="capture", times=1))
    act(browser, authorised, "capture", amount="1000")
    assert payment_row(app, authorised).action_state == "unknown"
    poll(app)
    payment = payment_row(app, authorised)
    assert (payment.status, payment.action_state, payment.captured_amount) == (
        "SENT_FOR_CAPTURE", "idle", "1000")
    assert payment.next_poll_at is None  # captured: nothing more moves on its own
    assert len(backend(sandbox).get(payment.gid).actions) == 1  # never sent twice


def test_a_lost_initiate_answer_is_settled_by_merchant_txn_id(app, browser, sandbox,
                                                              merchant_id, credentials):
    sandbox.state.faults.set(Fault(FaultKind.LOST, operation="initiate", times=1))
    assert post_hold(browser, merchant_id).status_code == 200
    assert only_payment(app).gid is None
    poll(app)
    payment = only_payment(app)
    [gid] = list(backend(sandbox)._payments)
    assert (payment.gid, payment.status, payment.action_state) == (gid, "INPROGRESS", "idle")


def test_an_initiate_the_gateway_never_got_is_freed_to_be_sent_again(
        app, browser, sandbox, merchant_id, credentials):
    sandbox.state.faults.set(Fault(FaultKind.RESET, operation="initiate", times=1))
    post_hold(browser, merchant_id)
    assert only_payment(app).action_state == "unknown"
    poll(app)
    payment = only_payment(app)
    assert (payment.gid, payment.action_state, payment.next_poll_at) == (None, "idle", None)
    assert backend(sandbox)._payments == {}


def test_a_read_that_changes_nothing_waits_longer_each_time(portal_clock, app, browser,
                                                           merchant_id, credentials):
    post_hold(browser, merchant_id)  # the customer does not pay: it stays in progress
    waits = []
    for _ in range(8):
        due = only_payment(app).next_poll_at
        portal_clock.advance((due - portal_clock.now()).total_seconds())
        poll(app)
        waits.append(round((only_payment(app).next_poll_at - due).total_seconds() / 60))
    assert waits == [1, 1, 1, 1, 2, 4, 8, 16]
    with app.app_context():
        events = db.session.scalar(select(func.count(AuditEvent.id)).where(
            AuditEvent.actor_label == POLL_ACTOR))
    assert events == 8


@pytest.mark.parametrize(("unchanged", "minutes"), [
    (0, 1), (1, 1), (4, 1), (5, 2), (6, 4), (7, 8), (10, 60), (50, 60)])
def test_the_wait_after_unchanged_reads(unchanged, minutes):
    assert polling.wait_after(unchanged, timedelta(minutes=1)) == timedelta(minutes=minutes)


def test_a_payment_without_usable_credentials_waits_the_longest(app, browser, authorised):
    with app.app_context():
        payment = db.session.get(Payment, authorised)
        payment.next_poll_at = clock.utcnow()
        db.session.execute(delete(PaymentCredentials))
        db.session.commit()
    poll(app)
    payment = fresh(app, Payment, id=authorised)
    assert payment.next_poll_at > clock.utcnow() + polling.LONGEST_WAIT - timedelta(minutes=1)
