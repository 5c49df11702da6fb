"""Notices of life after go-live: a pause or deactivation by someone else, and a product the
gateway accepted, reach the merchant's owner in the portal and by email (the digest choice as
for every notice); an owner who paused it themself is not told."""

from __future__ import annotations

from portal.core.models.merchant_stop import StopKind
from portal.domain.audit.service import Actor
from tests.support.mail import body_of
from tests.support.pausing import stop_now
from tests.support.product_events import CARDS, accepted, ask_for, deliver
from tests.support.team import make_merchant, notices_of, page, user_id, words
from tests.support.workers import run_worker

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
