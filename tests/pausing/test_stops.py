"""Pausing and deactivating a live merchant through its page (``portal.domain.pausing``): a
reason from the list and a note, audited; refusals beside their field with nothing typed lost;
any staff pauses, only an admin deactivates or lifts; the health says who paused and why; a
deactivation revokes unopened links, stops reminders and starts the retention clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from portal.core import clock
from portal.core.db import db
from portal.core.models.document import StoredDocument
from portal.core.models.merchant_stop import MerchantStop, StopKind
from portal.core.models.status_change import StatusChange
from portal.domain.documents.retention import expired_documents
from portal.domain.merchant_mail.reminders import send_reminders
from portal.domain.pausing.gate import pass_gate
from tests.support.browser import Browser, form_values
from tests.support.pausing import followed, stop_now, stop_through_page
from tests.support.product_events import ask_for
from tests.support.rows import fresh, stored
from tests.support.team import audited, errors_beside, make_merchant, words


@pytest.fixture
def live(app) -> int:
    merchant_id = make_merchant(app, "Lotus Traders", status="APPROVED")
    ask_for(app, merchant_id)
    return merchant_id


def signed_in(auth, client, role: str) -> Browser:
    auth.login(role)
    return Browser(client)


def test_ops_pauses_with_a_reason_and_a_note_and_the_health_says_who_and_why(
        app, auth, client, live):
    browser = signed_in(auth, client, "ops")
    shown = followed(browser, stop_through_page(browser, live))
    assert "Lotus Traders is paused: new holds and payment links are refused" in shown.text()
    assert stored(app, live).payments_stopped_at is not None
    [entry] = audited(app, "merchant.pause")
    assert entry.detail["reason"] == "fraud_review"
    assert entry.detail["note"] == "Card testing suspected"
    banner = followed(browser, browser.client.get(f"/merchants/{live}")).soup.select_one(
        ".health-banner")
    assert "New payments: not yet, waiting for us since" in words(banner)
    assert ("paused by ops@example.com: Suspected fraud under review (Card testing suspected)"
            in words(banner))
    assert shown.soup.select("form.lift-form") == []  # ops may not lift
    assert "Only an admin can lift it." in shown.text()


def test_a_pause_without_a_reason_is_refused_beside_the_field_and_keeps_the_note(
        app, auth, client, live):
    browser = signed_in(auth, client, "ops")
    answer = stop_through_page(browser, live, reason="", note="Chargeback spike")
    assert answer.status_code == 400
    shown = followed(browser, answer)
    assert errors_beside(shown.soup, "pause-reason") == ["Choose a reason."]
    assert shown.soup.find(id="pause-note").get_text().strip() == "Chargeback spike"
    other = followed(browser, stop_through_page(browser, live, reason="other", note=""))
    assert errors_beside(other.soup, "pause-note") == ["Say the reason in the note."]
    assert stored(app, live).payments_stopped_at is None and audited(app, "merchant.pause") == []


def test_only_an_admin_deactivates_or_lifts(app, auth, client, live):
    browser = signed_in(auth, client, "ops")
    assert stop_through_page(browser, live).status_code == 302
    assert browser.client.post(f"/merchants/{live}/deactivate", data={}).status_code == 403
    stop_id = fresh(app, MerchantStop, merchant_id=live).id
    assert browser.client.post(f"/merchants/{live}/stops/{stop_id}/lift",
                               data={}).status_code == 403
    auth.logout()
    admin = signed_in(auth, client, "admin")
    form = admin.get(f"/merchants/{live}/pause").form("form.lift-form")
    values = {**form_values(form), f"lift{stop_id}-note": "Reviewed: genuine orders"}
    lifted = followed(admin, admin.client.post(form["action"], data=values))
    assert "Lifted: Lotus Traders takes new payments again." in lifted.text()
    assert stored(app, live).payments_stopped_at is None
    [entry] = audited(app, "merchant.stop_lifted")
    assert entry.detail == {"kind": "pause", "reason": "fraud_review",
                            "note": "Reviewed: genuine orders"}
    banner = admin.get(f"/merchants/{live}").soup.select_one(".health-banner")
    assert "New payments" not in (words(banner) if banner else "")


def test_a_paused_merchant_fails_the_holds_gate_until_lifted(app, live):
    with app.app_context():
        assert pass_gate(live)
        db.session.rollback()
    stop_now(app, live)
    with app.app_context():
        assert not pass_gate(live)
        db.session.rollback()


def test_deactivating_stops_reminders_and_starts_the_retention_clock(app, settings):
    merchant_id = make_merchant(app, "Waiting Traders", status="PENDING_VERIFICATION")
    with app.app_context():
        db.session.add(StatusChange(merchant_id=merchant_id, from_status="IN_PROGRESS",
                                    to_status="PENDING_VERIFICATION", source="poll",
                                    at=clock.utcnow() - timedelta(days=3)))
        db.session.commit()
    assert stop_now(app, merchant_id, StopKind.DEACTIVATE).ok
    assert stored(app, merchant_id).deactivated_at is not None
    with app.app_context():
        report = send_reminders(settings)
    assert (report.sent, report.failed, report.no_email) == (0, 0, 0)


def test_a_deactivated_merchants_documents_fall_to_retention_from_the_deactivation(app):
    merchant_id = make_merchant(app, "Leaving Traders", status="IN_PROGRESS")
    with app.app_context():
        db.session.add(StoredDocument(merchant_id=merchant_id, doc_type="PAN",
                                      original_filename="pan.pdf", stored_name="leaving-pan",
                                      sha256="0" * 64, size=1, content_type="application/pdf"))
        db.session.commit()
    assert stop_now(app, merchant_id, StopKind.DEACTIVATE).ok
    later = clock.utcnow() + timedelta(days=31)
    with app.app_context():
        assert expired_documents(30, clock.utcnow()) == []
        assert [d.stored_name for d in expired_documents(30, later)] == ["leaving-pan"]
