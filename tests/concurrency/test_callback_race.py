"""The gateway's callback posted several times at once (contract revision 4: "callbacks can
occasionally arrive more than once", also from the gateway's own servers), through a served
portal on SQLite and PostgreSQL: each answers within its 5 seconds, needs no session or CSRF
token, and the late authorisation it reports is booked once (one move, one notice, one audit
entry)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import requests
from sqlalchemy import func, select

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.notice import Notice
from portal.core.models.payment import Payment
from portal.domain.payments.status_apply import LATE_ACTION
from tests.payments.support import (
    LATER_CARD,
    authorised_payment,
    backend,
    browser,
    credentials,
    merchant_id,
    own_merchant,
)
from tests.support.interleave import post_at_once, writes_held_together
from tests.support.servers import serve
from tests.support.settings import with_payments

__all__ = ["browser", "credentials", "merchant_id"]

REPEATS = 4


@pytest.fixture
def settings(settings: Settings, sandbox, tmp_path: Path) -> Settings:
    """The suite's settings (on each kind of database) with payments."""
    return with_payments(settings, sandbox, tmp_path)


def test_a_callback_posted_at_once_books_a_late_authorisation_once(
        app, browser, sandbox, merchant_id, credentials):
    own_merchant(app, merchant_id)
    payment_id, _ = authorised_payment(browser, merchant_id, LATER_CARD)
    with app.app_context():
        gid = db.session.get(Payment, payment_id).gid
    gateway = backend(sandbox)
    token = gateway.callback_token(gateway.get(gid), "")  # signed now, on the portal's time
    sandbox.clock.advance(31 * 60)  # the sandbox's issuer authorises it after all
    with serve(app) as url:
        posts = [(requests.Session(), url + "/payments/callback", {"x-gl-token": token})
                 for _ in range(REPEATS)]
        started = time.monotonic()
        with writes_held_together(db.engine(app), REPEATS, seconds=3):
            answers = post_at_once(posts)
        took = time.monotonic() - started
    assert [a.status_code for a in answers] == [200] * REPEATS
    assert took < 5 * REPEATS  # each within its 5 seconds, even held together
    with app.app_context():
        payment = db.session.get(Payment, payment_id)
        assert (payment.status, payment.late_authorised_at is not None) == ("AUTHORIZED", True)
        assert db.session.scalar(select(func.count(Notice.id))) == 1
        assert db.session.scalar(select(func.count(AuditEvent.id)).where(
            AuditEvent.action == LATE_ACTION)) == 1
