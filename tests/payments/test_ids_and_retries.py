"""Ids and retries (contract revision 4): each action answer's own gid on the payment's page, an
answer naming another payment left unknown, a second hold for the same order refused while the
first one's outcome is unknown, and the poll's pace (5 seconds between reads, rate limits
backed off per merchant)."""

from __future__ import annotations

from datetime import timedelta

from portal.core import clock
from portal.core.db import db
from portal.core.models.payment import Payment
from portal.domain.payments.status_poll import poll_once
from portal.sandbox.common.fault_plans import Fault, FaultKind
from portal.sandbox.payments.answers import Answers
from tests.payments.support import act, authorised_payment, backend, payment_row, post_hold


def test_a_captures_own_answer_gid_is_kept_and_shown(app, browser, authorised, answer_dialect):
    act(browser, authorised, "capture")
    payment = payment_row(app, authorised)
    page = browser.get(f"/payments/{authorised}")
    shown = page.soup.select_one('[data-field="capture-gid"]').get_text(strip=True)
    if answer_dialect == "docs":  # the docs' gateway answers with an id of the answer's own
        assert payment.capture_gid and payment.capture_gid != payment.gid
        assert shown == payment.capture_gid
    else:  # the contract's answer echoes the payment's gid: no id of its own to keep
        assert (payment.capture_gid, shown) == (None, "—")
    assert page.soup.select_one('tr[data-row="capture"] code').get_text() == \
        payment.capture_txn_id


def test_a_refund_answer_naming_another_payment_is_outcome_unknown(app, browser, authorised,
                                                                  monkeypatch):
    act(browser, authorised, "capture")
    answer = Answers.refund

    def elsewhere(self, payment, refund):
        body, status = answer(self, payment, refund)
        body.setdefault("data", {})["originalGid"] = "gl_o-someone-else"
        return body, status

    monkeypatch.setattr(Answers, "refund", elsewhere)
    act(browser, authorised, "refund", amount="100")
    payment = payment_row(app, authorised)
    assert payment.action_state == "unknown"
    page = browser.get(f"/payments/{authorised}")
    assert page.soup.select_one('td[data-state="unknown"]') is not None


def test_a_second_hold_for_the_same_order_waits_for_the_first_ones_outcome(
        app, browser, sandbox, merchant_id, credentials):
    sandbox.state.faults.set(Fault(FaultKind.LOST, operation="initiate", times=1))
    first = post_hold(browser, merchant_id)
    assert first.status_code == 200  # the answer was lost: the page says it may exist
    again = post_hold(browser, merchant_id)  # a new form: new ids, the same order
    text = again.get_data(as_text=True)
    assert again.status_code == 200 and "may exist. Nothing was sent now" in text
    assert len(backend(sandbox)._payments) == 1
    other = post_hold(browser, merchant_id, **{"paymentData-totalAmount": "99.00"})
    assert other.status_code == 302  # another order is not held back


def test_the_poll_reads_a_payment_no_faster_than_every_5_seconds(app, browser, merchant_id,
                                                                 credentials):
    payment_id, _ = authorised_payment(browser, merchant_id)  # the return read it just now
    read_at = payment_row(app, payment_id).last_read_at
    with app.app_context():
        db.session.get(Payment, payment_id).next_poll_at = clock.utcnow()
        db.session.commit()
        summary = poll_once(app.extensions["portal_settings"], clock.utcnow())
    assert (summary.read, summary.skipped) == (0, 1)
    assert payment_row(app, payment_id).last_read_at == read_at


def test_a_rate_limit_backs_off_and_spares_the_merchants_other_payments(
        app, browser, sandbox, merchant_id, credentials):
    ids = [authorised_payment(browser, merchant_id)[0] for _ in range(2)]
    later = clock.utcnow() + timedelta(seconds=10)
    with app.app_context():
        for payment_id in ids:
            db.session.get(Payment, payment_id).next_poll_at = later
        db.session.commit()
    # every try of the client's (it retries a 429 twice) is answered 429
    sandbox.state.faults.set(Fault(FaultKind.ERROR, status=429, retryAfter=30,
                                   operation="status", times=3))
    with app.app_context():
        summary = poll_once(app.extensions["portal_settings"], later)
    assert (summary.read, summary.failed, summary.skipped) == (1, 1, 1)
    first, second = (payment_row(app, i) for i in ids)
    assert first.rate_limited_reads == 1
    assert first.next_poll_at - first.last_read_at == timedelta(seconds=30)  # its Retry-After
    assert second.next_poll_at == later + timedelta(seconds=5)
