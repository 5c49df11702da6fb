"""Notices of life after go-live: a pause or deactivation by someone else, a product the gateway
accepted, a product blocked or unblocked by a pendency, and a new pendency after go-live reach
the merchant's owner in the portal and by email (the digest choice as for every notice); an
owner who paused it themself is not told."""

from __future__ import annotations

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.merchant_stop import StopKind
from portal.core.models.user import User
from portal.domain.audit.service import Actor
from portal.domain.onboarding import scenarios
from tests.support.mail import body_of
from tests.support.pausing import stop_now
from tests.support.product_events import CARDS, accepted, ask_for, deliver, pendency
from tests.support.team import make_merchant, notices_of, page, user_id, words
from tests.support.workers import run_worker
from tests.verification.support import onboard

OWNER = "owner@example.com"


def test_a_pause_by_someone_else_tells_the_owner_who_and_why(app, auth, client, mail_sink):
    auth.create("ops", OWNER)
    merchant = make_merchant(app, "Lotus Traders", owner=OWNER, status="APPROVED")
    assert stop_now(app, merchant).ok
    assert [n.kind for n in notices_of(app, OWNER)] == ["stop"]
    run_worker(app)
    [mail] = mail_sink.messages()
    assert mail["Subject"] == "Lotus Traders: paused"
    assert ("admin@example.com paused Lotus Traders: Suspected fraud under review. New holds "
            "and payment links are refused until an admin lifts it.") in body_of(mail)
    auth.login("ops", OWNER)
    [item] = page(client.get("/notices")).select(".notice")
    assert item.select_one("a")["href"] == f"/merchants/{merchant}/pause"
    assert "Card testing suspected" in words(item)


def test_an_owner_who_deactivates_it_themself_is_not_told(app, auth):
    auth.create("admin", OWNER)
    merchant = make_merchant(app, "Lotus Traders", owner=OWNER, status="APPROVED")
    assert stop_now(app, merchant, StopKind.DEACTIVATE, Actor(OWNER, user_id(app, OWNER))).ok
    assert notices_of(app, OWNER) == []


def test_a_product_accepted_tells_the_owner(app, auth, mail_sink):
    auth.create("ops", OWNER)
    merchant = make_merchant(app, "Lotus Traders", owner=OWNER, status="APPROVED")
    ask_for(app, merchant)
    deliver(app, accepted("pg_onboard_lotus_traders", CARDS, "e1"))
    assert [n.kind for n in notices_of(app, OWNER)] == ["product"]
    run_worker(app)
    [mail] = mail_sink.messages()
    assert mail["Subject"] == "Lotus Traders: a product accepted"
    assert "The gateway accepted Lotus Traders for cards." in body_of(mail)


def live_merchant(app, auth) -> int:
    """An approved merchant accepted for cards, owned by OWNER (its acceptance notice read)."""
    auth.create("ops", OWNER)
    merchant = make_merchant(app, "Lotus Traders", owner=OWNER, status="APPROVED")
    ask_for(app, merchant)
    deliver(app, accepted("pg_onboard_lotus_traders", CARDS, "e1"))
    return merchant


def test_a_pendency_blocking_cards_after_go_live_tells_the_owner(app, auth, client, mail_sink):
    merchant = live_merchant(app, auth)
    deliver(app, pendency("pg_onboard_lotus_traders", "e2", cards="true"))
    assert [n.kind for n in notices_of(app, OWNER)] == ["product", "blocked"]
    assert notices_of(app, OWNER)[1].status == "CARDS"
    run_worker(app)
    mail = mail_sink.messages()[-1]
    assert mail["Subject"] == "Lotus Traders: a product blocked"
    assert "It blocks Lotus Traders's approval for cards: those payments are refused" \
        in body_of(mail)
    auth.login("ops", OWNER)
    item = page(client.get("/notices")).select(".notice")[0]
    assert "a product blocked" in words(item)
    assert item.select_one("a")["href"] == f"/merchants/{merchant}/status"


def test_the_pendency_resolved_tells_the_owner_the_product_is_unblocked(app, auth, mail_sink):
    live_merchant(app, auth)
    deliver(app, pendency("pg_onboard_lotus_traders", "e2", cards="true"))
    deliver(app, pendency("pg_onboard_lotus_traders", "e3", status="RESOLVED", cards="true",
                          at="1767700000000"))
    assert [n.kind for n in notices_of(app, OWNER)] == ["product", "blocked", "unblocked"]
    run_worker(app)
    mail = mail_sink.messages()[-1]
    assert mail["Subject"] == "Lotus Traders: a product unblocked"
    assert "Lotus Traders's approval for cards is no longer held up" in body_of(mail)


def test_a_new_pendency_after_go_live_that_blocks_nothing_is_told_as_such(app, auth,
                                                                          mail_sink):
    live_merchant(app, auth)
    deliver(app, pendency("pg_onboard_lotus_traders", "e2", cards="false"))
    assert [n.kind for n in notices_of(app, OWNER)] == ["product", "live_pendency"]
    run_worker(app)
    mail = mail_sink.messages()[-1]
    assert mail["Subject"] == "Lotus Traders: a new pendency after go-live"
    assert "Lotus Traders is live and this blocks none of its products" in body_of(mail)


def test_a_pendency_during_onboarding_is_told_as_before(app, auth, sandbox):
    auth.create("ops", OWNER)
    merchant_id = onboard(app, scenarios.REVIEW_RFI)
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        merchant.owner_id = user_id(app, OWNER)
        onboarding_id, status = merchant.onboarding_id, merchant.status
        db.session.commit()
    deliver(app, {**pendency(onboarding_id, "e2", cards="true"), "onboarding_status": status})
    assert [n.kind for n in notices_of(app, OWNER)] == ["pendency"]


def test_the_live_notices_wait_for_the_digest_of_an_owner_who_chose_it(app, auth, mail_sink,
                                                                        portal_clock):
    live_merchant(app, auth)
    with app.app_context():
        db.session.get(User, user_id(app, OWNER)).notice_mode = "digest"
        db.session.commit()
    deliver(app, pendency("pg_onboard_lotus_traders", "e2", cards="true"))
    deliver(app, pendency("pg_onboard_lotus_traders", "e3", status="RESOLVED", cards="true",
                          at="1767700000000"))
    run_worker(app)
    assert mail_sink.messages() == []
    portal_clock.advance(24 * 3600)
    run_worker(app)
    [digest] = mail_sink.messages()
    body = body_of(digest)
    assert "Lotus Traders: a product blocked" in body
    assert "Lotus Traders: a product unblocked" in body
