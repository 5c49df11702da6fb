"""Daily reminders to merchants stuck in PENDING_VERIFICATION: at most N, a day apart, audited."""

from __future__ import annotations

from sqlalchemy import select

from portal.core.config import SETTINGS_EXTENSION, current_settings
from portal.core.db import db
from portal.core.models import AuditEvent
from portal.domain.merchant_mail.reminders import send_reminders
from tests.support.mail import body_of, link_in
from tests.support.workers import run_worker

HOUR = 3600
DAY = 24 * HOUR


def _run(app) -> str:
    with app.app_context():
        return send_reminders(current_settings()).summary()


def _reminder_events(app) -> list[dict]:
    with app.app_context():
        return [e.detail for e in db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "verification.reminder").order_by(AuditEvent.id))]


def test_reminders_go_daily_after_a_day_of_waiting_at_most_n_times(
        app, client, mail_sink, merchant_id, portal_clock):
    assert app.extensions[SETTINGS_EXTENSION].reminder_max == 3
    assert _run(app).startswith("reminders: 0 sent")
    portal_clock.advance(DAY - 60)
    assert _run(app).startswith("reminders: 0 sent"), "not before a whole day of waiting"
    portal_clock.advance(60)
    assert _run(app).startswith("reminders: 1 sent")
    assert _run(app).startswith("reminders: 0 sent"), "never twice in one day"
    portal_clock.advance(DAY - HOUR)
    assert _run(app).startswith("reminders: 0 sent")
    portal_clock.advance(HOUR)
    assert _run(app).startswith("reminders: 1 sent")
    portal_clock.advance(DAY)
    assert _run(app).startswith("reminders: 1 sent")
    # each reminder carries a fresh link: it opens the merchant's page
    assert client.get(link_in(mail_sink.messages()[-1])).status_code == 200
    portal_clock.advance(DAY)
    assert _run(app).startswith("reminders: 0 sent"), "at most REMINDER_MAX"
    messages = mail_sink.messages()
    assert len(messages) == 3
    assert all(m["Subject"].strip().startswith("Reminder: ") for m in messages)
    assert [(d["number"], d["limit"], d["to"]) for d in _reminder_events(app)] == [
        (n, 3, "a***@merchant.example.com") for n in (1, 2, 3)]
    assert "is waiting for your verification" in body_of(messages[0])


def test_the_reminders_command_and_the_limit_from_config(app, runner, mail_sink, merchant_id,
                                                         portal_clock):
    app.extensions[SETTINGS_EXTENSION] = app.extensions[SETTINGS_EXTENSION].with_changes(
        reminder_max=1)
    portal_clock.advance(DAY)
    result = runner.invoke(args=["reminders", "send"])
    assert result.exit_code == 0, result.output
    assert "reminders: 1 sent, 0 failed" in result.output
    portal_clock.advance(DAY)
    assert "reminders: 0 sent" in runner.invoke(args=["reminders", "send"]).output
    assert len(mail_sink.messages()) == 1


def test_every_sync_pass_sends_due_reminders(runner, mail_sink, merchant_id, portal_clock):
    portal_clock.advance(DAY)
    result = runner.invoke(args=["sync"])
    assert result.exit_code == 0, result.output
    assert "reminders: 1 sent" in result.output
    assert [m["To"] for m in mail_sink.messages()] == ["asha.rao@merchant.example.com"]


def test_the_worker_sends_due_reminders_every_hour(app, mail_sink, merchant_id, portal_clock):
    portal_clock.advance(DAY - HOUR // 2)
    run_worker(app)  # each schedule's first run is due at once: no merchant is due yet
    portal_clock.advance(HOUR // 2)
    run_worker(app)
    assert mail_sink.messages() == [], "the merchant is due, the next run an hour after the first"
    portal_clock.advance(HOUR // 2)
    run_worker(app)
    assert [m["To"] for m in mail_sink.messages()] == ["asha.rao@merchant.example.com"]
