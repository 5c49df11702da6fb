"""A merchant whose stored name holds a carriage return (as a database written before names
were refused with one could hold) is still told of by email: the notices job sends the notice,
its subject on one line."""

from __future__ import annotations

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.notice import MailState
from portal.core.models.status_change import StatusSource
from portal.domain.audit.service import SYSTEM
from portal.domain.onboarding.status_history import change_status
from tests.support.mail import body_of
from tests.support.team import audited, make_merchant, notices_of
from tests.support.workers import run_worker

OWNER = "owner@example.com"
STORED_NAME = "Chai\rPoint\r\nPvt Ltd"
FOLDED_NAME = "Chai Point Pvt Ltd"


def test_the_notices_job_emails_a_notice_about_a_name_with_a_carriage_return(app, auth,
                                                                             mail_sink):
    auth.create("ops", OWNER)
    merchant_id = make_merchant(app, STORED_NAME, owner=OWNER)
    with app.app_context():  # the gateway asks for more: its owner is told
        change_status(db.session.get(Merchant, merchant_id), "RFI", StatusSource.POLL,
                      actor=SYSTEM)
        db.session.commit()
    run_worker(app)
    [told] = notices_of(app, OWNER)
    assert told.mail_state == MailState.SENT
    [message] = mail_sink.messages()
    assert message["Subject"] == f"{FOLDED_NAME}: more information requested"
    assert "more information about Chai" in body_of(message)
    assert [e.outcome for e in audited(app, "notice.email")] == ["ok"]
