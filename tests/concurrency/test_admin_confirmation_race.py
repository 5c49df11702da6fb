"""The link that confirms a second administrator, pressed in several browsers at the same
moment over real HTTP to a served portal, on SQLite and PostgreSQL: one confirmation makes the
administrator, the others are told the request was already decided. Each request is held just
before its first write until the others reach theirs, so every one has checked the link and
found the request waiting before any of them claims it."""

from __future__ import annotations

import pytest
import requests
from sqlalchemy import func, select

from portal.core.config import Settings, current_settings
from portal.core.db import db
from portal.core.models import ApprovalRequest, AuditEvent, User
from portal.domain.users.accounts import find_user
from portal.features.team.admin_confirmation import hold
from tests.support.accounts import AuthActions
from tests.support.interleave import post_at_once, writes_held_together
from tests.support.mail import link_in, mail_sink, mailing
from tests.support.servers import serve

__all__ = ["mail_sink"]

CONFIRMER = "security@partner.example"
NEW_ADMIN = "new.admin@example.com"
BROWSERS = 3


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The suite's settings on each kind of database, mailing confirmations to the sink."""
    return mailing(settings, mail_sink).with_changes(admin_confirmation_email=CONFIRMER)


def test_confirmations_at_once_make_one_administrator(app, mail_sink):
    AuthActions(app, app.test_client()).create("admin")
    with app.app_context():
        held = hold(current_settings(), NEW_ADMIN, None, False, "Night shift",
                    find_user("admin@example.com")).id
    link = link_in(mail_sink.messages()[0])
    with serve(app) as url, writes_held_together(db.engine(app), BROWSERS):
        answers = post_at_once([(requests.Session(), url + link, {"confirmed": "yes"})
                                for _ in range(BROWSERS)])
    assert sorted(answer.status_code for answer in answers) == [200] + [410] * (BROWSERS - 1)
    with app.app_context():
        assert db.session.scalar(select(func.count(User.id)).where(
            User.email == NEW_ADMIN, User.role == "admin")) == 1
        assert db.session.get(ApprovalRequest, held).state == "done"
        audited = [e.action for e in db.session.scalars(select(AuditEvent))]
        assert audited.count("approval.approved") == 1
        assert audited.count("user.create") == 1
        assert audited.count("approval.approve") == BROWSERS - 1  # the refused presses
