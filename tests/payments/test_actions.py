"""Capture, reverse, refund and refresh on a payment's page: each confirmed, audited, sent at
most once, and never resent blindly after a lost answer."""

from __future__ import annotations

import threading
from decimal import Decimal

from bs4 import BeautifulSoup

from portal.core.db import db
from portal.core.models import AuditEvent, Payment
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.payments.support import act, backend, counting, flashes, payment_row
from tests.support.accounts import AuthActions
from tests.support.browser import form_values


def test_full_capture(app, browser, sandbox, authorised, monkeypatch):
    captures = counting(monkeypatch, sandbox, "capture")
    page = act(browser, authorised, "capture")
    assert "The capture was sent; the payment is now captured" in flashes(page)
    assert page.soup.select_one("[data-field=captured]").get_text() == "1,500 INR"
    assert page.soup.select_one("form.action--capture") is None
    assert len(captures) == 1


def test_partial_capture_then_a_second_capture_is_refused(app, browser, sandbox, authorised,
                                                          monkeypatch):
    captures = counting(monkeypatch, sandbox, "capture")
    act(browser, authorised, "capture", amount="1000")
    assert payment_row(app, authorised).captured_amount == "1000"
    # the refund form's nonce is fresh; posted to capture it still cannot capture again
    page = browser.get(f"/payments/{authorised}")
    values = {**form_values(page.form("form.action--refund")), "confirm": "y"}
    response = browser.client.post(f"/payments/{authorised}/capture", data=values,
                                   follow_redirects=True)
    assert "already captured (1000 INR)" in response.get_data(as_text=True)
    assert len(captures) == 1


def test_capture_above_the_authorised_amount_is_refused(browser, sandbox, authorised,
                                                        monkeypatch):
    captures = counting(monkeypatch, sandbox, "capture")
    page = act(browser, authorised, "capture", amount="1500.01")
    assert "At most 1500.00 INR can be captured" in flashes(page)
    assert captures == []


def test_an_action_needs_its_confirmation(browser, sandbox, authorised, monkeypatch):
    captures = counting(monkeypatch, sandbox, "capture")
    page = act(browser, authorised, "capture", confirm=False)
    assert "Tick the confirmation box" in flashes(page)
    assert captures == []


def test_two_partial_refunds_then_an_over_refund_is_refused(app, browser, sandbox, authorised,
                                                            monkeypatch):
    act(browser, authorised, "capture")
    refunds = counting(monkeypatch, sandbox, "refund")
    act(browser, authorised, "refund", amount="500")
    page = act(browser, authorised, "refund", amount="700.50")
    assert payment_row(app, authorised).status == "SENT_FOR_REFUND"
    assert page.soup.select_one("[data-field=refundable]").get_text() == "299.50 INR"
    assert len(page.soup.select("table.refunds tbody tr")) == 2
    page = act(browser, authorised, "refund", amount="300")
    assert "At most 299.50 INR can be refunded" in flashes(page)
    assert len(refunds) == 2
    assert backend(sandbox).get(payment_row(app, authorised).gid).refunded == Decimal("1200.50")


def test_refund_is_offered_only_after_capture(browser, authorised):
    page = browser.get(f"/payments/{authorised}")
    assert page.soup.select_one("form.action--refund") is None
    response = browser.client.post(f"/payments/{authorised}/refund", follow_redirects=True,
                                   data={"nonce": "x", "confirm": "y", "amount": "10"})
    assert "Only a captured payment can be refunded" in response.get_data(as_text=True)


def test_reversal_releases_the_hold(app, browser, sandbox, authorised):
    page = act(browser, authorised, "reverse")
    assert "The reversal was sent; the payment is now released" in flashes(page)
    assert page.soup.select("form.action") == []
    assert backend(sandbox).get(payment_row(app, authorised).gid).status == "REVERSED"


def test_an_expired_hold_cannot_be_captured(app, browser, sandbox, authorised):
    sandbox.clock.advance(sandbox.state.config.holdExpiryHours * 3600 + 60)
    page = browser.get(f"/payments/{authorised}")
    page.response = browser.client.post(f"/payments/{authorised}/refresh",
                                        follow_redirects=True)
    page.soup = BeautifulSoup(page.response.data, "html.parser")
    assert page.soup.select_one("[data-field=status]")["data-status"] == "EXPIRED"
    assert page.soup.select_one("[data-field=status]").get_text() == "Expired"
    assert page.soup.select_one("form.action--capture") is None


def test_the_same_nonce_twice_sends_once(app, browser, sandbox, authorised, monkeypatch):
    act(browser, authorised, "capture")
    refunds = counting(monkeypatch, sandbox, "refund")
    page = browser.get(f"/payments/{authorised}")
    values = {**form_values(page.form("form.action--refund")), "confirm": "y", "amount": "10"}
    first = browser.client.post(f"/payments/{authorised}/refund", data=values,
                                follow_redirects=True)
    second = browser.client.post(f"/payments/{authorised}/refund", data=values,
                                 follow_redirects=True)
    assert "The refund was sent" in first.get_data(as_text=True)
    assert "This form was already used, so nothing was sent again" in \
        second.get_data(as_text=True)
    assert len(refunds) == 1


def test_two_concurrent_captures_send_one(app, auth, client, browser, sandbox, authorised,
                                          monkeypatch):
    captures = counting(monkeypatch, sandbox, "capture")
    sandbox.state.faults.set(Fault(FaultKind.LATENCY, operation="capture", seconds=0.3))
    second = app.test_client()
    AuthActions(app, second).login("admin")
    page = browser.get(f"/payments/{authorised}")
    values = {**form_values(page.form("form.action--capture")), "confirm": "y"}
    start = threading.Barrier(2)
    answers: list[str] = []

    def press(who) -> None:
        start.wait()
        answer = who.post(f"/payments/{authorised}/capture", data=values, follow_redirects=True)
        answers.append(answer.get_data(as_text=True))

    threads = [threading.Thread(target=press, args=(who,)) for who in (client, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(answers) == 2
    assert len(captures) == 1
    assert sum("The capture was sent" in text for text in answers) == 1
    assert payment_row(app, authorised).action_state == "idle"


def test_a_lost_capture_answer_is_not_resent_and_refresh_settles_it(app, browser, sandbox,
                                                                    authorised, monkeypatch):
    captures = counting(monkeypatch, sandbox, "capture")
    sandbox.state.faults.set(Fault(FaultKind.LOST, operation="capture", times=1))
    form = form_values(browser.get(f"/payments/{authorised}").form("form.action--capture"))
    page = act(browser, authorised, "capture")
    assert "cannot tell whether the capture happened" in flashes(page)
    assert page.soup.select_one(".outcome-unknown") is not None
    assert page.soup.select("form.action") == []
    assert page.soup.select_one("form.refresh") is not None
    # the same form, posted again, is refused without reaching the gateway
    response = browser.client.post(f"/payments/{authorised}/capture", follow_redirects=True,
                                   data={**form, "confirm": "y"})
    assert "use Refresh status" in response.get_data(as_text=True)
    browser.client.post(f"/payments/{authorised}/refresh")
    payment = payment_row(app, authorised)
    assert (payment.status, payment.action_state, payment.captured_amount) == (
        "SENT_FOR_CAPTURE", "idle", "1500.00")
    assert len(captures) == 1


def test_a_lost_refund_answer_is_settled_by_a_status_read_of_its_id(app, browser, sandbox,
                                                                    authorised):
    act(browser, authorised, "capture")
    sandbox.state.faults.set(Fault(FaultKind.LOST, operation="refund", times=1))
    act(browser, authorised, "refund", amount="250")
    assert payment_row(app, authorised).action_state == "unknown"
    page = browser.get(f"/payments/{authorised}")
    assert page.soup.select_one("table.refunds td:nth-of-type(3)")["data-state"] == "unknown"
    browser.client.post(f"/payments/{authorised}/refresh")
    page = browser.get(f"/payments/{authorised}")
    assert page.soup.select_one("table.refunds td:nth-of-type(3)")["data-state"] == "sent"
    assert page.soup.select_one("[data-field=refundable]").get_text() == "1,250 INR"


def test_actions_are_audited_with_gid_and_outcome(app, browser, sandbox, authorised):
    act(browser, authorised, "capture", amount="1600")
    act(browser, authorised, "capture")
    gid = payment_row(app, authorised).gid
    with app.app_context():
        events = [(e.action, e.outcome, e.gid) for e in db.session.query(AuditEvent)
                  .filter(AuditEvent.action.like("payment.%")).order_by(AuditEvent.id)]
    assert ("payment.initiate", "ok", gid) in events
    assert ("payment.capture", "refused", gid) in events
    assert events[-1] == ("payment.capture", "ok", gid)


def test_a_call_stuck_sending_is_settled_by_refresh_once_stale(app, browser, authorised,
                                                               portal_clock):
    with app.app_context():
        payment = db.session.get(Payment, authorised)
        payment.action_state, payment.action_name = "sending", "capture"
        payment.action_started_at = portal_clock.now()
        db.session.commit()
    browser.client.post(f"/payments/{authorised}/refresh")
    assert payment_row(app, authorised).action_state == "sending"  # may still be in flight
    portal_clock.advance(6 * 60)
    browser.client.post(f"/payments/{authorised}/refresh")
    payment = payment_row(app, authorised)
    assert (payment.action_state, payment.status) == ("idle", "AUTHORIZED")
    assert browser.get(f"/payments/{authorised}").soup.select_one("form.action--capture")
