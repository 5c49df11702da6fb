"""Late outcomes and partial approvals (contract revision 4): a payment declined for now is read
again and, authorised after all, becomes a live hold its owner is told of; a partial approval is
flagged and never captured beyond what a status read confirmed; a capture refused once the hold's
expiry is flagged shows the hold as expired."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.payment import Payment
from portal.domain.payments import polling
from portal.domain.payments.status_poll import poll_once
from tests.payments.support import (
    LATER_CARD,
    act,
    authorised_payment,
    flashes,
    own_merchant,
    payment_row,
)

PARTIAL_CARD = "4000000000000291"


def poll_later(app, seconds: float = 60) -> None:
    """One run of the worker's poll, ``seconds`` from now."""
    with app.app_context():
        poll_once(app.extensions["portal_settings"], clock.utcnow() + timedelta(seconds=seconds))


def test_a_conditional_decline_authorised_later_is_told_and_on_the_worklist(
        app, browser, sandbox, merchant_id, credentials):
    own_merchant(app, merchant_id)
    payment_id, result = authorised_payment(browser, merchant_id, LATER_CARD)
    assert b"Your payment was not completed" in result.response.data
    declined = payment_row(app, payment_id)
    assert declined.status == "CONDITIONAL_DECLINE" and declined.soft_declined_at is not None
    assert declined.next_poll_at is not None  # still read: it may turn
    page = browser.get(f"/payments/{payment_id}")
    assert "Declined for now" in page.soup.select_one(".soft-decline").get_text()
    poll_later(app)
    assert payment_row(app, payment_id).status == "CONDITIONAL_DECLINE"
    sandbox.clock.advance(31 * 60)  # the sandbox's issuer approves it after all
    poll_later(app, 120)
    held = payment_row(app, payment_id)
    assert (held.status, held.late_authorised_at is not None) == ("AUTHORIZED", True)
    with app.app_context():
        notices = db.session.scalars(select(Notice).where(
            Notice.kind == NoticeKind.LATE_HOLD)).all()
        assert [(n.payment_id, n.merchant_id) for n in notices] == [(payment_id, merchant_id)]
    page = browser.get(f"/payments/{payment_id}")
    assert "Authorised after all" in page.soup.select_one(".late-authorisation").get_text()
    assert "capture" in [f["data-action"] for f in page.soup.select("form.action")]
    work = browser.get("/worklist").soup.select('li[data-reason="hold_to_look_at"]')
    assert len(work) == 1 and "Capture it or release it" in work[0].get_text()
    notice_page = browser.get("/notices").text()
    assert "declined for now, then authorised after all" in notice_page
    act(browser, payment_id, "reverse")
    assert browser.get("/worklist").soup.select('li[data-reason="hold_to_look_at"]') == []


def test_a_conditional_decline_is_read_no_longer_than_its_window(app, browser, merchant_id,
                                                                 credentials):
    payment_id, _ = authorised_payment(browser, merchant_id, LATER_CARD)
    with app.app_context():
        payment = db.session.get(Payment, payment_id)
        payment.soft_declined_at = clock.utcnow() - timedelta(hours=73)
        assert not polling.needs_polling(payment, clock.utcnow(),
                                         polling.rules_of(app.extensions["portal_settings"]))


def test_a_partial_approval_is_flagged_and_captured_only_up_to_what_was_confirmed(
        app, browser, merchant_id, credentials):
    own_merchant(app, merchant_id)
    payment_id, _ = authorised_payment(browser, merchant_id, PARTIAL_CARD)
    payment = payment_row(app, payment_id)
    assert (payment.status, payment.partial_approval, payment.confirmed_amount) == (
        "AUTHORIZED", True, "750.00")
    page = browser.get(f"/payments/{payment_id}")
    assert "750 of 1,500 INR" in page.soup.select_one(".partial-approval").get_text()
    assert page.soup.select_one("#capture-amount")["value"] == "750.00"
    assert len(browser.get("/worklist").soup.select('li[data-reason="hold_to_look_at"]')) == 1
    refused = act(browser, payment_id, "capture", amount="1500.00")
    assert "At most 750.00 INR can be captured (what the gateway approved)" in flashes(refused)
    assert payment_row(app, payment_id).captured_amount is None
    act(browser, payment_id, "capture", amount="750.00")
    assert payment_row(app, payment_id).captured_amount == "750.00"


def test_a_capture_refused_once_the_hold_is_flagged_shows_it_expired(app, browser, sandbox,
                                                                    merchant_id, credentials):
    payment_id, _ = authorised_payment(browser, merchant_id)
    with app.app_context():  # day 6 of 7 for the portal; past the issuer's 7 days for the gateway
        db.session.get(Payment, payment_id).authorized_at = clock.utcnow() - timedelta(hours=150)
        db.session.commit()
    sandbox.clock.advance(169 * 3600)
    page = act(browser, payment_id, "capture")
    assert "it now shows as expired" in flashes(page)
    assert payment_row(app, payment_id).status == "EXPIRED"


def test_a_capture_refused_before_the_flag_leaves_the_hold_as_it_was(app, browser, sandbox,
                                                                     merchant_id, credentials):
    payment_id, _ = authorised_payment(browser, merchant_id)
    sandbox.clock.advance(169 * 3600)  # the gateway says expired; the portal's day 1
    page = act(browser, payment_id, "capture")
    assert "The gateway refused the capture" in flashes(page)
    assert payment_row(app, payment_id).status == "AUTHORIZED"
