"""A hold that never reached the gateway (its initiate refused) can be discarded from its page,
once, with the box ticked and an audit entry; one whose answer was lost may exist at the
gateway and is never discarded."""

from __future__ import annotations

from sqlalchemy import select

from portal.core.db import db
from portal.core.models import AuditEvent, Payment
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.payments.support import backend, credentials_row, flashes, post_hold, submit
from tests.support.keys import new_key_pair


def stored(app) -> list[Payment]:
    with app.app_context():
        rows = list(db.session.scalars(select(Payment)))
        for row in rows:
            db.session.expunge(row)
        return rows


def refused_hold(app, browser, sandbox, merchant_id) -> int:
    """A hold whose initiate the gateway refused (a key it does not know); its id."""
    mine = credentials_row(app, merchant_id)
    backend(sandbox).register_key(mine.mid, mine.kid, new_key_pair().public_pem)
    response = post_hold(browser, merchant_id)
    assert response.status_code == 200
    [payment] = stored(app)
    assert (payment.status, payment.gid, payment.action_state) == ("PENDING", None, "idle")
    return payment.id


def test_a_refused_hold_is_discarded_once_with_its_audit_entry(app, browser, sandbox,
                                                               merchant_id, credentials):
    payment_id = refused_hold(app, browser, sandbox, merchant_id)
    page = browser.get(f"/payments/{payment_id}")
    assert page.soup.select_one("[data-field=status]").get_text(strip=True) == (
        "Waiting for the gateway's answer")
    unticked = submit(browser, page, "form.action--discard")
    assert "Tick the confirmation box" in flashes(unticked)
    assert len(stored(app)) == 1
    done = submit(browser, page, "form.action--discard", {"confirm": "y"})
    assert "was discarded; it never reached the gateway" in flashes(done)
    assert done.response.request.path == f"/merchants/{merchant_id}/payments"
    assert stored(app) == []
    with app.app_context():
        [event] = db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "payment.discard"))
        assert event.detail["amount"] == "1500.00"
    again = browser.client.post(f"/payments/{payment_id}/discard", data={"confirm": "y"})
    assert again.status_code == 404


def test_a_hold_whose_answer_was_lost_is_not_discarded(app, browser, sandbox, merchant_id,
                                                       credentials):
    sandbox.state.faults.set(Fault(FaultKind.LOST, operation="initiate", times=1))
    post_hold(browser, merchant_id)
    [payment] = stored(app)
    assert payment.action_state == "unknown"
    page = browser.get(f"/payments/{payment.id}")
    assert page.soup.select_one("form.action--discard") is None
    forced = browser.client.post(f"/payments/{payment.id}/discard", follow_redirects=True,
                                 data={"confirm": "y", "nonce": payment.action_nonce})
    assert "the hold may exist there" in forced.get_data(as_text=True)
    assert len(stored(app)) == 1
