"""A refund above FOUR_EYES_REFUND_ABOVE waits for a second admin; below it, it runs as today."""

from __future__ import annotations

from decimal import Decimal

from bs4 import BeautifulSoup

from portal.core.db import db
from portal.core.models import AuditEvent
from tests.approvals.support import REASON, refund, requests_of
from tests.payments.support import act, backend, counting, flashes, payment_row
from tests.support.approvals import SECOND_ADMIN, decide_all, second_admin
from tests.support.browser import Page, form_values


def actions_audited(app, prefix: str = "approval.") -> list[tuple[str, str, str]]:
    with app.app_context():
        return [(e.action, e.outcome, e.actor_label) for e in db.session.query(AuditEvent)
                .filter(AuditEvent.action.startswith(prefix)).order_by(AuditEvent.id)]


def test_a_refund_at_or_below_the_amount_is_sent_at_once(app, browser, sandbox, captured,
                                                         monkeypatch):
    refunds = counting(monkeypatch, sandbox, "refund")
    page = refund(browser, captured, "1000.00")
    assert "The refund was sent" in flashes(page)
    assert len(refunds) == 1
    assert requests_of(app) == []


def test_a_large_refund_waits_then_a_second_admin_sends_it_once(app, browser, sandbox, captured,
                                                                monkeypatch):
    refunds = counting(monkeypatch, sandbox, "refund")
    page = refund(browser, captured, "1200.00", reason=REASON)
    assert "needs a second admin's approval" in flashes(page)
    assert refunds == []
    [request] = requests_of(app)
    assert (request.state, request.kind, request.reason) == ("pending", "refund", REASON)
    row = page.soup.select_one(f"tr[data-request='{request.id}']")
    assert "Waiting for a second admin" in row.get_text()

    [approved] = decide_all(app)
    assert "Approved and carried out" in approved.get_data(as_text=True)
    assert len(refunds) == 1
    assert backend(sandbox).get(payment_row(app, captured).gid).refunded == Decimal("1200.00")
    assert requests_of(app)[0].state == "done"
    late = second_admin(app, "third-admin@example.com").post(
        f"/approvals/{request.id}", data={"decision": "approve"}, follow_redirects=True)
    assert ("already decided (approved and done, by second-admin@example.com)"
            in late.get_data(as_text=True))
    again = decide_all(app)  # nothing is left to approve
    assert again == [] and len(refunds) == 1
    assert [a for a, _, _ in actions_audited(app)] == [
        "approval.requested", "approval.approved", "approval.carried_out",
        "approval.approve"]  # the late press, refused
    assert actions_audited(app, "payment.refund")[0][2] == SECOND_ADMIN


def test_without_a_reason_the_refund_form_comes_back_with_what_was_typed(app, browser,
                                                                         captured):
    page = refund(browser, captured, "1200.00", again="y")
    assert page.response.status_code == 400
    assert "another admin reads it" in " ".join(page.errors_for("reason"))
    form = page.form("form.action--refund")
    assert form.find("input", attrs={"name": "amount"})["value"] == "1200.00"
    assert form.find("input", attrs={"name": "confirm"}).has_attr("checked")
    assert requests_of(app) == []


def test_an_amount_above_what_is_refundable_is_said_beside_the_amount(app, browser, captured):
    page = refund(browser, captured, "1600.00", reason=REASON)
    assert page.response.status_code == 400
    assert "At most 1500.00 INR" in " ".join(page.errors_for("amount"))
    assert page.form("form.action--refund").find("textarea").get_text() == REASON
    assert requests_of(app) == []


def test_the_same_form_posted_twice_stores_one_request(app, browser, captured):
    page = browser.get(f"/payments/{captured}")
    values = {**form_values(page.form("form.action--refund")), "confirm": "y",
              "amount": "1200.00", "reason": REASON}
    for _ in range(2):
        browser.client.post(f"/payments/{captured}/refund", data=values)
    assert len(requests_of(app)) == 1


def test_the_requester_cannot_approve_their_own(app, browser, auth, sandbox, captured,
                                                monkeypatch):
    refunds = counting(monkeypatch, sandbox, "refund")
    refund(browser, captured, "1200.00", reason=REASON)
    [request] = requests_of(app)
    page = browser.get("/approvals/")
    card = page.soup.select_one(f"article[data-request='{request.id}']")
    assert card.select_one("button[value=approve]") is None
    assert "You asked for this yourself" in card.get_text()
    answer = browser.client.post(f"/approvals/{request.id}",
                                 data={"decision": "approve"}, follow_redirects=True)
    assert "another admin must approve it" in answer.get_data(as_text=True)
    assert refunds == [] and requests_of(app)[0].state == "pending"
    assert ("approval.approve", "refused", "admin@example.com") in actions_audited(app)


def test_a_rejection_needs_a_reason_and_runs_nothing(app, browser, sandbox, captured,
                                                     monkeypatch):
    refunds = counting(monkeypatch, sandbox, "refund")
    refund(browser, captured, "1200.00", reason=REASON)
    [request] = requests_of(app)
    client = second_admin(app)
    refused = client.post(f"/approvals/{request.id}", data={"decision": "reject", "reason": ""})
    assert refused.status_code == 400
    page = Page(refused, BeautifulSoup(refused.data, "html.parser"))
    box = page.soup.select_one(f"#reason-{request.id}").find_parent(class_="field")
    assert "Say why you reject it" in box.get_text()
    decide_all(app, "reject", "Customer was refunded by bank transfer")
    row = requests_of(app)[0]
    assert (row.state, row.decision_reason) == ("rejected",
                                                "Customer was refunded by bank transfer")
    assert refunds == []
    page = browser.get(f"/payments/{captured}")
    assert "Rejected" in page.soup.select_one(f"tr[data-request='{request.id}']").get_text()


def test_a_request_expires_after_24_hours(app, browser, sandbox, captured, portal_clock,
                                          monkeypatch):
    refunds = counting(monkeypatch, sandbox, "refund")
    refund(browser, captured, "1200.00", reason=REASON)
    portal_clock.advance(24 * 3600 - 1)
    waiting = BeautifulSoup(second_admin(app).get("/approvals/").data, "html.parser")
    assert len(waiting.select("form.decision-form")) == 1
    portal_clock.advance(1)
    client = second_admin(app, "third-admin@example.com")
    page = BeautifulSoup(client.get("/approvals/").data, "html.parser")
    assert page.select("form.decision-form") == []
    assert "Expired unapproved" in page.select_one("table.approvals-table").get_text()
    [request] = requests_of(app)
    answer = client.post(f"/approvals/{request.id}", data={"decision": "approve"},
                         follow_redirects=True)
    assert "expired after 24 hours without a second admin" in answer.get_data(as_text=True)
    assert refunds == []
    assert ("approval.expired", "ok", "third-admin@example.com") in actions_audited(app)


def test_an_approval_made_stale_by_a_later_refund_is_refused_by_the_payment(app, browser,
                                                                            sandbox, captured):
    refund(browser, captured, "1200.00", reason=REASON)
    act(browser, captured, "refund", amount="400")  # small: sent at once
    [approved] = decide_all(app)
    assert "Approved, but not carried out: At most 1100.00 INR" in approved.get_data(
        as_text=True)
    assert requests_of(app)[0].state == "failed"


def test_ops_may_ask_and_see_the_state_on_the_merchants_payments_page(app, auth, browser,
                                                                       merchant_id, captured):
    auth.logout()
    auth.login("ops")
    refund(browser, captured, "1200.00", reason=REASON)
    page = browser.get(f"/merchants/{merchant_id}/payments")
    row = page.soup.select_one("section.approvals-of tbody tr")
    assert "Refund 1200.00 INR" in row.get_text() and row["data-state"] == "pending"
    assert "Waiting for a second admin" in row.get_text()
    assert browser.get("/approvals/").response.status_code == 403
    decide_all(app)
    page = browser.get(f"/merchants/{merchant_id}/payments")
    assert "Approved and done" in page.soup.select_one("section.approvals-of").get_text()


def test_the_navigation_counts_what_waits_for_the_admin(app, browser, captured):
    refund(browser, captured, "1200.00", reason=REASON)
    mine = browser.get("/payments").soup.select_one(".site-nav a[href='/approvals/']")
    assert mine.select_one(".nav-count") is None  # their own request is not theirs to decide
    other = BeautifulSoup(second_admin(app).get("/payments").data, "html.parser")
    link = other.select_one(".site-nav a[href='/approvals/']")
    assert link.select_one(".nav-count").get_text(" ", strip=True) == "1 waiting"


def test_refunds_awaiting_approval_count_against_what_is_left(app, browser, captured):
    refund(browser, captured, "1200.00", reason=REASON)
    page = refund(browser, captured, "1100.00", reason="A second ticket")
    assert page.response.status_code == 400
    assert ("Refunds of 1200.00 INR already await a second admin; at most 300.00 INR more"
            in " ".join(page.errors_for("amount")))
    assert len(requests_of(app)) == 1
