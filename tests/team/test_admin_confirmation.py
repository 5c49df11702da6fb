"""With ADMIN_CONFIRMATION_EMAIL set, a second administrator the only one asks for is held until
the link emailed there confirms it (issue 35, item 5): the page needs no sign-in and shows who
asks for whom and why; confirming is a POST with its CSRF token; the link works once, for the
request's 24 hours, only while the setting names its address; every step is audited."""

from __future__ import annotations

from sqlalchemy import select

from portal.app.factory import create_app
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models import ApprovalRequest
from portal.domain.users.accounts import find_user
from portal.features.team.admin_confirmation import EXPIRED, NOT_VALID, USED, hold
from tests.support.accounts import AuthActions
from tests.support.mail import body_of, link_in
from tests.support.servers import free_port
from tests.support.team import audited, errors_beside, page, user_id, words
from tests.support.workers import run_worker

#: ADMIN_CONFIRMATION_EMAIL in this module's tests (tests/team/conftest.py reads it).
CONFIRMER = "security@partner.example"
NEW_ADMIN = "new.admin@example.com"
REASON = "Runs the Delhi team from Monday"



def _ask(app, client, **data: str) -> None:
    """The only admin asks for NEW_ADMIN on the team page, and is told where it waits."""
    AuthActions(app, client).login("admin")
    asked = client.post("/admin/team", data={"email": NEW_ADMIN, "role": "admin",
                                             "reason": REASON, **data}, follow_redirects=True)
    assert f"waits for the link emailed to {CONFIRMER}" in words(page(asked).select_one(
        ".flash--success"))


def _user(app, email: str):
    with app.app_context():
        user = find_user(email)
        if user is not None:
            db.session.expunge(user)
        return user


def _request(app) -> ApprovalRequest:
    with app.app_context():
        [request] = db.session.scalars(select(ApprovalRequest)).all()
        db.session.expunge(request)
        return request


def test_a_new_admin_waits_for_the_emailed_link_which_confirms_once(app, client, mail_sink):
    _ask(app, client, invite="y")
    assert _user(app, NEW_ADMIN) is None, "held: no account, no password shown"
    held = _request(app)
    assert (held.state, held.payload["confirm_to"]) == ("pending", CONFIRMER)
    [message] = mail_sink.messages()
    assert message["To"] == CONFIRMER
    assert "admin@example.com is the only administrator" in body_of(message)
    assert REASON in body_of(message)
    link = link_in(message)
    assert link.startswith(f"/team/confirm-admin/{held.id}?token=")

    confirmer = app.test_client()  # nobody signed in
    shown = page(confirmer.get(link))
    assert words(shown.select_one(".asker")) == "admin@example.com"
    assert words(shown.select_one(".summary")) == f"Add {NEW_ADMIN} as an administrator"
    assert words(shown.select_one(".reason")) == REASON
    assert _user(app, NEW_ADMIN) is None, "opening the link changes nothing"
    done = confirmer.post(link, data={"confirmed": "yes"})
    assert done.status_code == 200 and "Confirmed" in words(page(done).select_one("h1"))
    made = _user(app, NEW_ADMIN)
    assert made.role == "admin"
    assert made.created_by_id == _user(app, "admin@example.com").id, "the asker vouched for it"
    assert _request(app).state == "done" and _request(app).decided_by_id is None

    again = confirmer.post(link, data={"confirmed": "yes"})
    assert again.status_code == 410 and words(page(again).select_one(".outcome")) == USED
    assert confirmer.get(link).status_code == 410
    run_worker(app)
    assert [m["To"] for m in mail_sink.messages()] == [CONFIRMER, NEW_ADMIN], "invited"
    assert [e.outcome for e in audited(app, "admin_confirmation.email")] == ["ok"]
    assert [e.outcome for e in audited(app, "admin_confirmation.open")] == [
        "ok", "refused"]
    assert [e.outcome for e in audited(app, "admin_confirmation.confirm")] == ["refused"]
    [approved] = audited(app, "approval.approved")
    assert approved.actor_label == f"{CONFIRMER} (emailed confirmation)"
    assert [e.outcome for e in audited(app, "approval.carried_out")] == ["ok"]


def test_a_member_made_an_admin_by_the_emailed_link(app, client, mail_sink):
    AuthActions(app, client).login("admin")
    member = AuthActions(app, app.test_client()).create("ops", "asha@example.com")
    promote = f"/admin/team/{user_id(app, member)}/promote"
    assert CONFIRMER in words(page(client.get(promote)).select_one(".confirmation-by-email"))
    client.post(promote, data={"reason": "Leads onboarding"})
    assert _user(app, member).role == "ops"
    [message] = mail_sink.messages()
    app.test_client().post(link_in(message), data={"confirmed": "yes"})
    promoted = _user(app, member)
    assert (promoted.role, promoted.promoted_by_id) == (
        "admin", _user(app, "admin@example.com").id)


def test_an_expired_link_is_refused(app, client, mail_sink, portal_clock):
    _ask(app, client)
    link = link_in(mail_sink.messages()[0])
    portal_clock.advance(24 * 3600 + 1)
    confirmer = app.test_client()
    assert words(page(confirmer.get(link)).select_one(".outcome")) == EXPIRED
    refused = confirmer.post(link, data={"confirmed": "yes"})
    assert refused.status_code == 410 and words(page(refused).select_one(".outcome")) == EXPIRED
    assert _user(app, NEW_ADMIN) is None


def test_a_tampered_link_or_a_changed_address_is_refused(app, client, mail_sink, settings):
    _ask(app, client)
    link = link_in(mail_sink.messages()[0])
    held = _request(app)
    confirmer = app.test_client()
    for forged in (link[:-3] + "abc", link.replace(f"/{held.id}?", f"/{held.id + 1}?")):
        assert confirmer.post(forged, data={"confirmed": "yes"}).status_code == 410
    moved = create_app(settings.with_changes(admin_confirmation_email="it@partner.example"))
    moved.config["WTF_CSRF_ENABLED"] = False
    refused = moved.test_client().post(link, data={"confirmed": "yes"})
    assert words(page(refused).select_one(".outcome")) == NOT_VALID
    assert _user(app, NEW_ADMIN) is None and _request(app).state == "pending"


def test_confirming_needs_its_csrf_token(csrf_app, mail_sink):
    actions = AuthActions(csrf_app, csrf_app.test_client())
    actions.create("admin")
    with csrf_app.app_context():
        hold(current_settings(), NEW_ADMIN, None, False, REASON, find_user("admin@example.com"))
    link = link_in(mail_sink.messages()[0])
    confirmer = csrf_app.test_client()
    assert confirmer.post(link, data={"confirmed": "yes"}).status_code == 400
    assert _user(csrf_app, NEW_ADMIN) is None
    form = page(confirmer.get(link)).select_one("form")
    token = form.select_one("input[name=csrf_token]")["value"]
    assert confirmer.post(link, data={"confirmed": "yes", "csrf_token": token}).status_code == 200
    assert _user(csrf_app, NEW_ADMIN).role == "admin"


def test_a_confirmation_that_cannot_be_emailed_withdraws_the_request(settings):
    unmailed = create_app(settings.with_changes(mail_port=free_port(), mail_timeout=1.0))
    unmailed.config["WTF_CSRF_ENABLED"] = False
    client = unmailed.test_client()
    AuthActions(unmailed, client).login("admin")
    refused = client.post("/admin/team", data={"email": NEW_ADMIN, "role": "admin",
                                               "reason": REASON})
    assert refused.status_code == 400
    assert f"could not be emailed to {CONFIRMER}" in " ".join(
        errors_beside(page(refused), "email"))
    assert _request(unmailed).state == "rejected", "withdrawn: nobody holds a link"
    assert [e.outcome for e in audited(unmailed, "admin_confirmation.email")] == ["failed"]
