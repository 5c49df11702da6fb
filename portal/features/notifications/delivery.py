"""Emailing notices, by a worker (the periodic ``notices`` job, never in a request): each at
once to those who chose so, the others in one daily digest at NOTICE_DIGEST_HOUR; at most once
each, every email audited.

A notice is emailed only after a committed claim (``pending`` -> ``sending``), and marked
``sent`` only once the mail server took it; nothing ever puts it back to ``pending``. So where
a worker killed with SIGKILL stops, what it leaves is safe:

- before its claim is committed: the notice is still pending, and the next run sends it;
- after the claim, before or during the SMTP conversation, or after the server took the
  message but before ``sent`` is committed: the notice stays ``sending``. One worker holds the
  job at a time (its lease), so the next run finds it there only because the worker that
  claimed it died: it marks it ``interrupted`` ("may not have gone", audited) and never sends
  it again. Nothing is sent twice, and nothing is called sent that the server did not take.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from sqlalchemy import ColumnElement, and_, or_, select, update

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.languages import DEFAULT
from portal.core.mail.sender import MailError, compose, send
from portal.core.mail.urls import absolute_url
from portal.core.models.notice import MailState, Notice
from portal.core.models.user import User
from portal.domain.audit.service import Actor, record
from portal.domain.merchant_mail import templates
from portal.features.notifications.preferences import DIGEST
from portal.features.notifications.words import NoticeWords, words_for

log = logging.getLogger("portal.notifications")

#: Who the audit trail says emailed the notices.
ACTOR = Actor("notices")
#: The team's emails are in the staff pages' language, one version each.
TEAM_LANGUAGE = DEFAULT
#: The most notices one run emails one by one (the rest wait for the next run).
BATCH = 100


@dataclass
class DeliveryReport:
    """What one run did."""

    sent: int = 0
    digests: int = 0
    failed: int = 0
    interrupted: int = 0
    skipped: int = 0

    def summary(self) -> str:
        """One line for the log."""
        return (f"notices: {self.sent} emailed, {self.digests} digests, {self.failed} failed, "
                f"{self.interrupted} interrupted earlier, {self.skipped} with nobody to email")


def last_digest_time(now: datetime, hour: int) -> datetime:
    """The latest time of day ``hour``:00 UTC not after ``now``: notices from before it go in
    the digest due then."""
    today = datetime.combine(now.date(), time(hour), tzinfo=now.tzinfo)
    return today if today <= now else today - timedelta(days=1)


def deliver(settings: Settings, now: datetime, stopping: threading.Event) -> DeliveryReport:
    """One run: note what a dead worker left half-sent, email the notices due one by one, then
    the digests due; stops between two emails once ``stopping`` is set. Commits."""
    report = DeliveryReport(interrupted=_mark_interrupted())
    for notice_id in db.session.scalars(select(Notice.id).join(User, User.id == Notice.user_id)
                                        .where(_pending(), _at_once()).order_by(Notice.id)
                                        .limit(BATCH)).all():
        if stopping.is_set():
            return report
        _email_one(settings, notice_id, report)
    boundary = last_digest_time(now, settings.notice_digest_hour)
    for user_id in db.session.scalars(select(Notice.user_id).distinct()
                                      .join(User, User.id == Notice.user_id)
                                      .where(_pending(), User.notice_mode == DIGEST,
                                             User.active.is_(True),
                                             Notice.created_at < boundary)).all():
        if stopping.is_set():
            return report
        _email_digest(settings, user_id, boundary, report)
    return report


def _pending() -> ColumnElement[bool]:
    return Notice.mail_state == MailState.PENDING


def _at_once() -> ColumnElement[bool]:
    """Notices emailed one by one: their owner chose so (or is gone: they are skipped)."""
    return or_(User.notice_mode != DIGEST, User.active.is_(False))


def _mark_interrupted() -> int:
    """Every notice left ``sending`` by a worker that died is ``interrupted``; audited; how
    many. Commits."""
    left = list(db.session.execute(select(Notice.id, Notice.merchant_id, User.email)
                                   .join(User, User.id == Notice.user_id)
                                   .where(Notice.mail_state == MailState.SENDING)))
    for notice_id, merchant_id, email in left:
        if _move(Notice.id == notice_id, MailState.SENDING, MailState.INTERRUPTED):
            record("notice.email", outcome="interrupted", merchant_id=merchant_id,
                   actor=ACTOR, detail={"notice": notice_id, "to": email})
    db.session.commit()
    return len(left)


def _move(which: ColumnElement[bool], before: MailState, after: MailState,
          **values: object) -> int:
    """Move the notices ``which`` from ``before`` to ``after``; how many moved. No commit."""
    return db.session.execute(
        update(Notice).where(which, Notice.mail_state == before)
        .values(mail_state=after, **values),
        execution_options={"synchronize_session": False}).rowcount


def _email_one(settings: Settings, notice_id: int, report: DeliveryReport) -> None:
    notice = db.session.get(Notice, notice_id, populate_existing=True)
    owner = db.session.get(User, notice.user_id) if notice is not None else None
    if notice is None or owner is None:
        return
    if not owner.active:
        _move(Notice.id == notice_id, MailState.PENDING, MailState.SKIPPED)
        db.session.commit()
        report.skipped += 1
        return
    if not _move(Notice.id == notice_id, MailState.PENDING, MailState.SENDING,
                 mail_claimed_at=clock.utcnow()):
        db.session.rollback()
        return
    db.session.commit()  # claimed: from here on it is never sent again by anyone
    [said] = words_for([notice])
    subject, body = templates.render("owner_notice", {
        "business_name": said.merchant_name, "headline": said.headline,
        "details": said.details, "link": _url(said)}, TEAM_LANGUAGE)
    outcome = _send(settings, owner.email, subject, body)
    _finish(Notice.id == notice_id, outcome, report)
    record("notice.email", outcome=outcome, merchant_id=notice.merchant_id, actor=ACTOR,
           detail={"notice": notice_id, "to": owner.email, "kind": notice.kind})
    db.session.commit()
    report.sent += outcome == "ok"


def _email_digest(settings: Settings, user_id: int, boundary: datetime,
                  report: DeliveryReport) -> None:
    owner = db.session.get(User, user_id)
    mine = and_(Notice.user_id == user_id, Notice.created_at < boundary)
    if owner is None or not _move(mine, MailState.PENDING, MailState.SENDING,
                                  mail_claimed_at=clock.utcnow()):
        db.session.rollback()
        return
    db.session.commit()  # claimed, as one email
    claimed = and_(Notice.user_id == user_id, Notice.mail_state == MailState.SENDING)
    notices = list(db.session.scalars(select(Notice).where(claimed).order_by(Notice.id)))
    said = words_for(notices)
    subject, body = templates.render("owner_digest", {
        "count": f"{len(said)} notice{'s' if len(said) != 1 else ''}",
        "link": absolute_url("notifications.index"),
        "notices": "\n\n".join(f"{s.merchant_name}: {s.headline}\n{s.details}\n{_url(s)}"
                               for s in said)}, TEAM_LANGUAGE)
    outcome = _send(settings, owner.email, subject, body)
    _finish(claimed, outcome, report)
    record("notice.digest", outcome=outcome, actor=ACTOR,
           detail={"email": owner.email, "notices": len(said)})
    db.session.commit()
    report.digests += outcome == "ok"


def _url(said: NoticeWords) -> str:
    """The notice's page, absolute (on PORTAL_URL), its anchor kept."""
    values = dict(said.values)
    anchor = values.pop("_anchor", "")
    return absolute_url(said.endpoint, **values) + (f"#{anchor}" if anchor else "")


def _send(settings: Settings, to: str, subject: str, body: str) -> str:
    """Hand the message to the mail server: 'ok', or 'failed' when it would not take it."""
    try:
        send(settings, compose(settings, to, subject, body))
    except MailError:
        return "failed"
    return "ok"


def _finish(which: ColumnElement[bool], outcome: str, report: DeliveryReport) -> None:
    """Record how the claimed notices' email went (a notice another run already called
    interrupted stays so); no commit."""
    if outcome == "ok":
        _move(which, MailState.SENDING, MailState.SENT, mailed_at=clock.utcnow())
    else:
        _move(which, MailState.SENDING, MailState.FAILED)
        report.failed += 1
        log.warning("notices: an email to a notice's owner was refused by the mail server")
