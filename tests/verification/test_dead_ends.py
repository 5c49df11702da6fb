"""No dead ends once the gateway has decided: an approved merchant's pages lead to setting up
payments, a rejected one's say why and what next (and colour nothing green), and during an RFI
the documents step takes the requested upload instead of reading "Locked"."""

from __future__ import annotations

from bs4 import BeautifulSoup

from portal.domain.onboarding import scenarios
from tests.support.rows import stored
from tests.verification.support import reviewed


def page(client, path: str) -> BeautifulSoup:
    response = client.get(path)
    assert response.status_code == 200
    return BeautifulSoup(response.data, "html.parser")


def test_an_approved_merchant_leads_to_setting_up_payments(app, client, auth, sandbox,
                                                          portal_server):
    auth.login("ops")
    merchant_id = reviewed(app, client, sandbox, scenarios.HAPPY)
    assert stored(app, merchant_id).status == "APPROVED"
    soup = page(client, f"/merchants/{merchant_id}/status")
    link = soup.select_one(".next-step a.button")
    assert link.get_text() == "Set up payments"
    assert link["href"] == f"/merchants/{merchant_id}/payments/credentials"
    assert "by an admin" in soup.select_one(".next-step").get_text()
    summary = page(client, f"/merchants/{merchant_id}")
    assert summary.select_one("a.button[href$='/payments/credentials']").get_text() == \
        "Set up payments"


def test_a_rejected_merchant_shows_its_reason_a_next_step_and_nothing_green(
        app, client, auth, sandbox, portal_server):
    auth.login("ops")
    merchant_id = reviewed(app, client, sandbox, scenarios.REVIEW_REJECTED)
    assert stored(app, merchant_id).status == "REJECTED"
    soup = page(client, f"/merchants/{merchant_id}/status")
    rejection = soup.select_one(".rejection")
    assert soup.select_one(".rejection-reason").get_text() == (
        "Rejected after the compliance review")
    assert "(Compliance review: Review)" in rejection.get_text()
    assert stored(app, merchant_id).onboarding_id in rejection.get_text()
    assert rejection.select_one("a[href='/merchants/new']") is not None
    status_tile = soup.select_one(".stepper__step[data-step='status']")
    assert status_tile["data-state"] == "needs_attention"
    assert "stepper__step--sent" not in status_tile["class"]
    assert soup.select(".flash--success") == []
    summary = page(client, f"/merchants/{merchant_id}")
    assert "rejected this merchant" in summary.select_one("#payments-heading").parent.get_text()


def test_without_a_webhook_a_rejection_says_no_reason_was_given(app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = reviewed(app, client, sandbox, scenarios.REVIEW_REJECTED)
    soup = page(client, f"/merchants/{merchant_id}/status")  # the read learns REJECTED
    assert "The gateway gave no reason with its answer." in soup.select_one(
        ".rejection").get_text(" ")


def test_during_an_rfi_the_documents_step_takes_the_requested_upload(app, client, auth,
                                                                    sandbox, portal_server):
    auth.login("ops")
    merchant_id = reviewed(app, client, sandbox, scenarios.REVIEW_RFI)
    assert stored(app, merchant_id).status == "RFI"
    soup = page(client, f"/merchants/{merchant_id}/steps/documents")
    assert soup.select_one(".lock-reason") is None
    assert "Locked" not in soup.select_one(".wizard-step").get_text()
    assert "Bank statement" in soup.select_one(".rfi-request").get_text()
    assert soup.select_one("form.upload[data-slot='BANK_STATEMENT']") is not None
    tile = soup.select_one(".stepper__step[data-step='documents']")
    assert tile["data-state"] == "needs_attention"
