"""Forgotten passwords: a single-use 30-minute link by email, no account enumeration, throttled."""

from __future__ import annotations

from datetime import timedelta

from bs4 import BeautifulSoup
from sqlalchemy import event, select

from portal.core import clock
from portal.core.db import db
from portal.core.models import AuditEvent, Job
from portal.domain.jobs import account_mail
from portal.domain.jobs.queue import claim
from portal.domain.users.accounts import authenticate
from portal.features.team import reset
from tests.support.accounts import TEST_PASSWORD
from tests.support.mail import PORTAL_URL, body_of, link_in
from tests.support.workers import run_worker

NEW_PASSWORD = "a fresh passphrase 42"


def _ask(client, email: str, **kwargs) -> str:
    """Ask for a reset link, then let a worker send what the request queued; the answer."""
    response = client.post("/password/forgot", data={"email": email}, **kwargs)
    assert response.status_code == 200
    run_worker(client.application)
    return BeautifulSoup(response.data, "html.parser").select_one(".reset-answer").get_text(
        " ", strip=True)


def _can_sign_in(app, email: str, password: str) -> bool:
    with app.app_context():
        return authenticate(email, password, "127.0.0.1") is not None


def _audited(app) -> list[tuple[str, str]]:
    with app.app_context():
        return [(e.outcome, e.detail["email"]) for e in db.session.scalars(
            select(AuditEvent).where(AuditEvent.action == "password_reset.request")
            .order_by(AuditEvent.id))]


def test_the_sign_in_page_offers_a_reset(client):
    page = BeautifulSoup(client.get("/login").data, "html.parser")
    assert page.find("a", string="Forgotten your password?")["href"] == "/password/forgot"


def test_a_reset_link_arrives_and_works_once(app, client, auth, mail_sink):
    email = auth.create("ops")
    _ask(client, "OPS@example.com")
    [message] = mail_sink.messages()
    assert message["To"] == email
    assert "30 minutes" in body_of(message)
    link = link_in(message)
    assert link.startswith("/password/reset?token=")
    assert client.get(link).status_code == 200
    mismatch = client.post(link, data={"password": NEW_PASSWORD, "confirm_password": "other"})
    errors = BeautifulSoup(mismatch.data, "html.parser").select_one("#confirm_password-errors")
    assert errors.get_text(strip=True) == "The two passwords differ."
    short = client.post(link, data={"password": "short", "confirm_password": "short"})
    errors = BeautifulSoup(short.data, "html.parser").select_one("#password-errors")
    assert errors.get_text(strip=True) == "Passwords need at least 12 characters."
    done = client.post(link, data={"password": NEW_PASSWORD, "confirm_password": NEW_PASSWORD})
    assert done.headers["Location"] == "/login"
    assert _can_sign_in(app, email, NEW_PASSWORD)
    assert not _can_sign_in(app, email, TEST_PASSWORD)
    again = client.get(link)
    assert again.status_code == 410
    assert "no longer works" in again.get_data(as_text=True)
    assert client.post(link, data={"password": "another passphrase 1",
                                   "confirm_password": "another passphrase 1"}).status_code == 410
    with app.app_context():
        actions = [e.action for e in db.session.scalars(select(AuditEvent))]
    assert {"password_reset.request", "password_reset.complete"} <= set(actions)


def test_the_answer_is_the_same_for_unknown_and_inactive_emails(app, client, auth, mail_sink):
    auth.create("ops")
    auth.create("admin", active=False)
    known = _ask(client, "ops@example.com")
    unknown = _ask(client, "nobody@example.com")
    inactive = _ask(client, "admin@example.com")
    assert known.replace("ops@", "X@") == unknown.replace("nobody@", "X@") == \
        inactive.replace("admin@", "X@")
    assert [m["To"] for m in mail_sink.messages()] == ["ops@example.com"]
    assert _audited(app) == [("ok", "ops@example.com"), ("unknown", "nobody@example.com"),
                             ("unknown", "admin@example.com")]


def test_the_link_lasts_30_minutes_on_the_portal_clock(client, auth, mail_sink, portal_clock):
    auth.create("ops")
    _ask(client, "ops@example.com")
    link = link_in(mail_sink.messages()[0])
    portal_clock.advance(29 * 60)
    assert client.get(link).status_code == 200
    portal_clock.advance(2 * 60)
    assert client.get(link).status_code == 410


def test_a_tampered_link_is_refused(client, auth, mail_sink):
    auth.create("ops")
    _ask(client, "ops@example.com")
    link = link_in(mail_sink.messages()[0])
    assert client.get(link[:-2] + ("AA" if not link.endswith("AA") else "BB")).status_code == 410
    assert client.get("/password/reset").status_code == 410


def test_requests_are_throttled_per_email_and_per_address(app, client, auth, mail_sink,
                                                          portal_clock):
    auth.create("ops")
    answers = {_ask(client, "ops@example.com") for _ in range(reset.PER_EMAIL + 1)}
    assert len(answers) == 1, "a throttled request answers like any other"
    assert len(mail_sink.messages()) == reset.PER_EMAIL
    assert _audited(app)[-1] == ("throttled", "ops@example.com")
    portal_clock.advance(reset.WINDOW.total_seconds() + 1)
    _ask(client, "ops@example.com")
    assert len(mail_sink.messages()) == reset.PER_EMAIL + 1
    for n in range(reset.PER_ADDRESS):
        _ask(client, f"someone{n}@example.com")
    _ask(client, "ops@example.com")
    assert len(mail_sink.messages()) == reset.PER_EMAIL + 1, "this address asked too often"


def test_a_bad_email_is_explained_beside_the_field(client, mail_sink):
    response = client.post("/password/forgot", data={"email": "ops at example"})
    page = BeautifulSoup(response.data, "html.parser")
    assert page.select_one("#email-errors").get_text(strip=True) == \
        "Enter an email address like name@example.com."
    assert page.select_one("#email")["value"] == "ops at example"
    assert mail_sink.messages() == []


def test_the_link_uses_the_configured_address_not_the_host_header(client, auth, mail_sink):
    auth.create("ops")
    _ask(client, "ops@example.com", headers={"Host": "evil.example"})
    body = body_of(mail_sink.messages()[0])
    assert f"{PORTAL_URL}/password/reset?token=" in body
    assert "evil.example" not in body


def test_the_forgot_form_needs_its_csrf_token(csrf_client, mail_sink):
    response = csrf_client.post("/password/forgot", data={"email": "ops@example.com"})
    assert BeautifulSoup(response.data, "html.parser").select_one(".reset-answer") is None
    assert mail_sink.messages() == []


def test_a_reset_ends_the_users_other_sessions(app, client, auth, mail_sink):
    auth.login("ops")
    assert client.get("/merchants").status_code == 200
    stranger = app.test_client()
    _ask(stranger, "ops@example.com")
    link = link_in(mail_sink.messages()[0])
    stranger.post(link, data={"password": NEW_PASSWORD, "confirm_password": NEW_PASSWORD})
    assert client.get("/merchants").status_code == 302, "the old session ended"


def _work_of(app, client, email: str) -> list[str]:
    """The SQL statements one 'forgot password' request runs (without its worker)."""
    seen: list[str] = []

    def note(_conn, _cursor, statement, *_rest) -> None:
        seen.append(statement)

    event.listen(db.engine(app), "before_cursor_execute", note)
    try:
        assert client.post("/password/forgot", data={"email": email}).status_code == 200
    finally:
        event.remove(db.engine(app), "before_cursor_execute", note)
    return seen


def test_a_known_and_an_unknown_email_cost_the_request_the_same_work(app, client, auth,
                                                                     mail_sink, monkeypatch):
    """Counted, not timed: the same statements in the same order, no account read, no password
    hashed and nothing sent while the request runs; the worker sends the one email after."""
    auth.create("ops")
    hashed: list[str] = []
    monkeypatch.setattr("portal.domain.users.passwords.verify_password",
                        lambda *args: hashed.append("verify") or False)
    known = _work_of(app, client, "ops@example.com")
    unknown = _work_of(app, client, "nobody@example.com")
    assert known == unknown
    assert not any("users" in statement for statement in known), "the account is not looked up"
    assert hashed == []
    assert mail_sink.messages() == []
    run_worker(app)
    assert [m["To"] for m in mail_sink.messages()] == ["ops@example.com"]


def test_a_worker_that_died_while_sending_is_not_followed_by_a_second_email(app, client, auth,
                                                                          mail_sink):
    auth.create("ops")
    client.post("/password/forgot", data={"email": "ops@example.com"})
    with app.app_context():  # a worker claimed the job, then was killed before it ended
        claim("dead-worker", timedelta(seconds=1))
    with app.app_context():
        job = db.session.scalar(select(Job).where(Job.kind == account_mail.KIND))
        job.lease_until = clock.utcnow() - timedelta(seconds=1)
        db.session.commit()
    run_worker(app)
    assert mail_sink.messages() == []
    assert _audited(app) == [("interrupted", "ops@example.com")]
