"""The daily digest (one email a day at NOTICE_DIGEST_HOUR with every notice since the last),
the account page where each user chooses it, and the notices page with its count in the
navigation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from portal.core.db import db
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.user import User
from portal.features.notifications.delivery import last_digest_time
from portal.features.notifications.inbox import PER_PAGE
from tests.notifications.support import NEXT_PASS, OWNER, move
from tests.support.mail import PORTAL_URL, body_of
from tests.support.team import (
    audited,
    errors_beside,
    make_merchant,
    notices_of,
    page,
    user_id,
    words,
)
from tests.support.workers import run_worker


def choose_digest(app) -> None:
    with app.app_context():
        db.session.get(User, user_id(app, OWNER)).notice_mode = "digest"
        db.session.commit()


def test_the_digest_time_is_the_latest_digest_hour_gone_by():
    at = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    assert last_digest_time(at, 3) == datetime(2026, 1, 5, 3, 0, tzinfo=UTC)
    assert last_digest_time(at, 9) == at
    assert last_digest_time(at, 10) == datetime(2026, 1, 4, 10, 0, tzinfo=UTC)


def test_a_digest_goes_once_a_day_with_every_notice_since_the_last(app, auth, mail_sink,
                                                                  portal_clock):
    auth.create("ops", OWNER)
    choose_digest(app)
    approved = make_merchant(app, "Lotus Traders", owner=OWNER, status="PENDING_REVIEW")
    rejected = make_merchant(app, "Ganga Textiles", owner=OWNER, status="PENDING_REVIEW")
    move(app, approved, "APPROVED")  # at 09:00, after today's 03:00 digest
    move(app, rejected, "REJECTED")
    run_worker(app)
    assert mail_sink.messages() == []
    assert {n.mail_state for n in notices_of(app, OWNER)} == {"pending"}
    portal_clock.advance(18 * 3600)  # 03:00 the next day
    run_worker(app)
    [digest] = mail_sink.messages()
    assert digest["Subject"] == "2 notices about the merchants you own"
    body = body_of(digest)
    assert "Lotus Traders: approved" in body and "Ganga Textiles: rejected" in body
    assert f"{PORTAL_URL}/notices" in body
    assert {n.mail_state for n in notices_of(app, OWNER)} == {"sent"}
    [event] = audited(app, "notice.digest")
    assert (event.outcome, event.detail) == ("ok", {"email": OWNER, "notices": 2})
    portal_clock.advance(NEXT_PASS)
    run_worker(app)
    assert len(mail_sink.messages()) == 1


def test_each_user_chooses_on_their_account_page(app, auth, client):
    auth.login("ops", OWNER)
    shown = page(client.get("/account"))
    assert shown.select_one("input[name=mode][value=immediate]").has_attr("checked")
    assert "08:30" not in words(shown) and "03:00 UTC" in words(shown)
    answer = client.post("/account", data={"mode": "digest"}, follow_redirects=True)
    assert "Saved: email me one digest a day." in words(page(answer))
    with app.app_context():
        assert db.session.get(User, user_id(app, OWNER)).notice_mode == "digest"
    [event] = audited(app, "user.notice_mode")
    assert (event.actor_label, event.detail) == (OWNER, {"mode": "digest"})
    refused = client.post("/account", data={"mode": "weekly"})
    assert refused.status_code == 400
    assert errors_beside(page(refused), "mode-0") == ["Choose how you want to be emailed."]


def test_the_notices_page_lists_them_and_the_navigation_counts_the_unread(app, auth, client):
    auth.login("ops", OWNER)
    merchant = make_merchant(app, "Lotus Traders", owner=OWNER, status="PENDING_REVIEW")
    move(app, merchant, "APPROVED")
    home = page(client.get("/merchants"))
    link = home.select_one("nav a[href='/notices']")
    assert words(link) == "Notices 1 waiting"
    listed = page(client.get("/notices"))
    [item] = listed.select(".notice")
    assert words(item.select_one(".notice__headline")) == "New Lotus Traders: approved"
    assert item.select_one("a")["href"] == f"/merchants/{merchant}/status"
    assert "Not emailed yet" in words(item.select_one(".notice__meta"))
    client.post("/notices/read")
    assert words(page(client.get("/merchants")).select_one("nav a[href='/notices']")) == \
        "Notices"
    assert page(client.get("/notices")).select_one(".notice--unread") is None


def test_an_admin_rewords_the_notice_with_its_own_placeholders(app, auth, client, mail_sink):
    auth.login("admin")
    edit = "/admin/emails/owner_notice"
    refused = client.post(edit, data={"subject": "$business_name", "body": "Hi $signatory_name"})
    assert errors_beside(page(refused), "body") == [
        "Unknown placeholder $signatory_name. Use one of: $business_name, $headline, $details, "
        "$link."]
    no_link = client.post(edit, data={"subject": "$business_name", "body": "$details"})
    assert errors_beside(page(no_link), "body") == [
        "The body must contain $link, or the reader cannot open the page it is about."]
    client.post(edit, data={"subject": "[Portal] $business_name is $headline",
                            "body": "$details\n\nOpen: $link"})
    auth.create("ops", OWNER)
    merchant = make_merchant(app, "Lotus Traders", owner=OWNER, status="PENDING_REVIEW")
    move(app, merchant, "APPROVED")
    run_worker(app)
    [message] = mail_sink.messages()
    assert message["Subject"] == "[Portal] Lotus Traders is approved"
    assert body_of(message).startswith("The gateway approved Lotus Traders")


def test_older_notices_are_a_page_away(app, auth, client):
    auth.login("ops", OWNER)
    merchant = make_merchant(app, "Lotus Traders", owner=OWNER, status="PENDING_REVIEW")
    with app.app_context():
        owner = user_id(app, OWNER)
        db.session.add_all(Notice(user_id=owner, merchant_id=merchant, kind=NoticeKind.STATUS,
                                  status="RFI" if n == 0 else "APPROVED",
                                  created_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(
                                      minutes=n)) for n in range(PER_PAGE + 5))
        db.session.commit()
    first = page(client.get("/notices"))
    assert len(first.select(".notice")) == PER_PAGE
    assert words(first.select_one(".pagination span")) == "Page 1 of 2"
    older = page(client.get(first.select_one(".pagination a[rel=next]")["href"]))
    assert len(older.select(".notice")) == 5
    assert words(older.select(".notice__headline")[-1]) == \
        "New Lotus Traders: more information requested"
    assert older.select_one(".pagination a[rel=prev]") is not None
