"""Notices emailed by the worker: the gateway's status read moving a merchant to RFI, REJECTED
or APPROVED, or a pendency kept, tells the merchant's owner in the portal at once and by email
from the notices job (never in the request), at most once each, every email audited."""

from __future__ import annotations

import json

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.notice import MailState, Notice
from portal.domain.onboarding import scenarios
from portal.gateway.onboarding.hmac import hmac_digest
from tests.notifications.support import NEXT_PASS, OWNER, move
from tests.support.mail import PORTAL_URL, body_of
from tests.support.settings import API_SECRET
from tests.support.team import audited, make_merchant, notices_of, user_id
from tests.support.workers import run_worker
from tests.verification.support import onboard


def own(app, merchant_id: int, email: str = OWNER) -> None:
    """Make ``email`` the merchant's owner."""
    owner = user_id(app, email)
    with app.app_context():
        db.session.get(Merchant, merchant_id).owner_id = owner
        db.session.commit()


def deliver_webhook(app, body: dict[str, str]) -> None:
    raw = json.dumps(body).encode()
    answer = app.test_client().post("/webhooks/onboarding", data=raw, headers={
        "Content-Type": "application/json", "x-gl-digest": hmac_digest(API_SECRET, raw)})
    assert answer.status_code == 200


def test_the_gateway_asking_for_more_emails_the_owner_once(app, auth, sandbox, mail_sink,
                                                            portal_clock):
    auth.create("ops", OWNER)
    merchant_id = onboard(app, scenarios.REVIEW_RFI)
    own(app, merchant_id)
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        onboarding_id, name = merchant.onboarding_id, merchant.name
    backend = sandbox.state.onboarding
    backend.complete_verification(onboarding_id)
    backend.finish_review(onboarding_id)
    assert mail_sink.messages() == []
    run_worker(app)  # the sync reads RFI; the notices job emails it in the same pass
    [told] = notices_of(app, OWNER)
    assert (told.kind, told.status, told.mail_state) == ("status", "RFI", "sent")
    [message] = mail_sink.messages()
    assert message["To"] == OWNER
    assert message["Subject"] == f"{name}: more information requested"
    body = body_of(message)
    assert f"The gateway asks for more information about {name}: " in body
    assert f"{PORTAL_URL}/merchants/{merchant_id}/status" in body
    [event] = audited(app, "notice.email")
    assert (event.outcome, event.actor_label, event.merchant_id) == ("ok", "notices",
                                                                    merchant_id)
    assert event.detail["to"] == OWNER
    portal_clock.advance(NEXT_PASS)
    run_worker(app)
    assert len(mail_sink.messages()) == 1  # at most once


def test_every_told_status_and_a_pendency_reach_the_owner(app, auth, mail_sink):
    auth.create("ops", OWNER)
    approved = make_merchant(app, "Lotus Traders", owner=OWNER, status="PENDING_REVIEW")
    rejected = make_merchant(app, "Ganga Textiles", owner=OWNER, status="PENDING_REVIEW")
    move(app, approved, "APPROVED")
    move(app, rejected, "REJECTED")
    deliver_webhook(app, {
        "event_id": "e1", "onboarding_id": "pg_onboard_lotus_traders",
        "onboarding_status": "PENDING_REVIEW", "event_timestamp": "1767600000000",
        "status": "MERCHANT_PENDENCY_STATUS_UPDATED", "pendency_info_category": "DOCUMENT",
        "pendency_info_sub_category": "CANCELLED_CHEQUE", "pendency_info_status": "OPEN",
        "pendency_info_reason": "The cheque's name does not match."})
    # approved first, so the pendency came after go-live (test_live_notices)
    assert [n.kind for n in notices_of(app, OWNER)] == ["status", "status", "live_pendency"]
    run_worker(app)
    subjects = sorted(m["Subject"] for m in mail_sink.messages())
    assert subjects == ["Ganga Textiles: rejected", "Lotus Traders: a new pendency after go-live",
                        "Lotus Traders: approved"]
    pendency = next(body_of(m) for m in mail_sink.messages() if "pendency" in m["Subject"])
    assert ("The gateway reported a pendency on Lotus Traders: Document: Cancelled cheque "
            "(Open: the gateway is waiting for it).") in pendency
    assert "The cheque's name does not match." in pendency


def test_moves_to_other_statuses_and_merchants_nobody_owns_tell_nobody(app, auth, mail_sink):
    auth.create("ops", OWNER)
    owned = make_merchant(app, "Lotus Traders", owner=OWNER, status="IN_PROGRESS")
    nobodys = make_merchant(app, "Ganga Textiles", status="PENDING_REVIEW")
    move(app, owned, "PENDING_VERIFICATION")
    move(app, nobodys, "APPROVED")
    with app.app_context():
        assert db.session.query(Notice).count() == 0
    run_worker(app)
    assert mail_sink.messages() == []


def test_a_refused_email_is_not_tried_again_and_says_so(app, auth, settings, portal_clock):
    auth.create("ops", OWNER)
    merchant = make_merchant(app, "Lotus Traders", owner=OWNER, status="PENDING_REVIEW")
    move(app, merchant, "APPROVED")
    app.extensions["portal_settings"] = settings.with_changes(mail_port=1)  # nothing listens
    run_worker(app)
    [told] = notices_of(app, OWNER)
    assert told.mail_state == MailState.FAILED
    assert [e.outcome for e in audited(app, "notice.email")] == ["failed"]
    portal_clock.advance(NEXT_PASS)
    run_worker(app)
    assert [e.outcome for e in audited(app, "notice.email")] == ["failed"]


def test_a_deactivated_owner_is_not_emailed(app, auth, mail_sink):
    auth.create("ops", OWNER, active=False)
    merchant = make_merchant(app, "Lotus Traders", owner=OWNER, status="PENDING_REVIEW")
    move(app, merchant, "APPROVED")
    run_worker(app)
    assert [n.mail_state for n in notices_of(app, OWNER)] == [MailState.SKIPPED]
    assert mail_sink.messages() == []


def test_a_notice_left_sending_by_a_dead_worker_is_never_sent_again(app, auth, mail_sink):
    auth.create("ops", OWNER)
    merchant = make_merchant(app, "Lotus Traders", owner=OWNER, status="PENDING_REVIEW")
    move(app, merchant, "APPROVED")
    with app.app_context():  # as a worker killed between its claim and its "sent" leaves it
        db.session.query(Notice).update({"mail_state": MailState.SENDING})
        db.session.commit()
    run_worker(app)
    assert [n.mail_state for n in notices_of(app, OWNER)] == [MailState.INTERRUPTED]
    assert mail_sink.messages() == []
    [event] = audited(app, "notice.email")
    assert (event.outcome, event.detail["to"]) == ("interrupted", OWNER)
