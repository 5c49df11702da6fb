"""The merchant's link page in each state of what the gateway asks (issue 39.6): nothing
asked, asked, uploaded and waiting for ops' review, refused with a reason, sent; and the
sandbox's review moving on once ops send the upload."""

from __future__ import annotations

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.document import DocumentStatus, StoredDocument
from portal.gateway.onboarding.vocabulary import OnboardingStatus
from tests.asks.support import PDF, asked_merchant, asks_on, link_page, post_upload
from tests.support.rows import stored
from tests.verification.support import merchant_link, onboard

BANK_STATEMENT = "A recent statement of your business bank account"


def _uploads(app, merchant_id: int) -> list[StoredDocument]:
    with app.app_context():
        return list(db.session.scalars(select(StoredDocument).where(
            StoredDocument.merchant_id == merchant_id, StoredDocument.link_id.is_not(None))))


def _actions(app, merchant_id: int) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(AuditEvent.action).where(
            AuditEvent.merchant_id == merchant_id)))


def _sandbox_status(app, client, merchant_id: int) -> str:
    """The status the sandbox reports, read by the status page."""
    assert client.get(f"/merchants/{merchant_id}/status").status_code == 200
    return stored(app, merchant_id).status or ""


def test_nothing_asked_shows_no_list(app, client, auth):
    auth.login("ops")
    merchant_id = onboard(app)
    soup = link_page(app.test_client(), merchant_link(app, merchant_id))
    assert soup.select_one("section.asks") is None
    assert soup.select_one("form.ask__form") is None


def test_asked_uploaded_refused_and_sent(app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = asked_merchant(app, client, sandbox)
    path = merchant_link(app, merchant_id)
    merchant = app.test_client()

    asked = link_page(merchant, path)  # asked: the merchant's words, an upload
    assert asks_on(asked) == [("asked", BANK_STATEMENT)]
    assert asked.select_one("form.ask__form input[type=file]") is not None
    assert "Only the documents above are still needed." in asked.get_text()

    response = post_upload(merchant, path, asked, PDF, "march.pdf")
    assert response.status_code == 303
    waiting = link_page(merchant, path)  # uploaded: waiting for ops, nothing to upload
    assert asks_on(waiting) == [("waiting", BANK_STATEMENT)]
    assert waiting.select_one("form.ask__form") is None
    assert "Received, thank you." in waiting.select_one(".ask__state").get_text()
    [upload] = _uploads(app, merchant_id)
    assert upload.status == DocumentStatus.FROM_MERCHANT and upload.doc_type == "BANK_STATEMENT"
    assert _sandbox_status(app, client, merchant_id) == OnboardingStatus.RFI  # not sent yet

    ops_page = BeautifulSoup(client.get(f"/merchants/{merchant_id}").data, "html.parser")
    panel = ops_page.select_one("section.asks")
    assert "Received from the merchant, waiting for review" in panel.get_text()
    client.post(f"/merchants/{merchant_id}/asks/{upload.id}/refuse",
                data={"reason": "The statement is cut off at the bottom: send every page."})
    refused = link_page(merchant, path)  # refused: the reason, an upload again
    assert asks_on(refused) == [("refused", BANK_STATEMENT)]
    assert refused.select_one(".ask__reason").get_text(strip=True) == \
        "The statement is cut off at the bottom: send every page."
    assert refused.select_one("form.ask__form input[type=file]") is not None

    assert post_upload(merchant, path, refused, PDF, "march-whole.pdf").status_code == 303
    newest = max(_uploads(app, merchant_id), key=lambda d: d.id)
    sent = client.post(f"/merchants/{merchant_id}/asks/{newest.id}/send",
                       follow_redirects=True)
    assert "Bank statement sent to the gateway." in sent.get_data(as_text=True)
    assert _sandbox_status(app, client, merchant_id) == OnboardingStatus.PENDING_REVIEW
    after = link_page(merchant, path)  # sent: passed on, nothing more asked
    assert asks_on(after) == [("sent", BANK_STATEMENT)]
    assert after.select_one("form.ask__form") is None
    assert {"document.review_refuse", "document.review_send"} <= set(_actions(app, merchant_id))


def test_only_a_waiting_upload_can_be_sent_or_refused(app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = asked_merchant(app, client, sandbox)
    path = merchant_link(app, merchant_id)
    merchant = app.test_client()
    post_upload(merchant, path, link_page(merchant, path), PDF, "march.pdf")
    [upload] = _uploads(app, merchant_id)
    assert client.post(f"/merchants/{merchant_id}/asks/{upload.id}/send").status_code == 302
    assert client.post(f"/merchants/{merchant_id}/asks/{upload.id}/send").status_code == 404
    assert client.post(f"/merchants/{merchant_id}/asks/{upload.id}/refuse",
                       data={"reason": "late"}).status_code == 404


def test_a_refusal_without_a_reason_says_so_beside_it_and_keeps_the_upload_waiting(
        app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = asked_merchant(app, client, sandbox)
    path = merchant_link(app, merchant_id)
    merchant = app.test_client()
    assert post_upload(merchant, path, link_page(merchant, path), PDF,
                       "march.pdf").status_code == 303
    upload = _uploads(app, merchant_id)[0]
    response = client.post(f"/merchants/{merchant_id}/asks/{upload.id}/refuse",
                           data={"reason": "   "})
    assert response.status_code == 200
    page = BeautifulSoup(response.data, "html.parser")
    assert page.select_one("h1").get_text(strip=True) == "Refuse march.pdf"
    reason = page.select_one("textarea[name=reason]")
    assert reason["aria-invalid"] == "true"
    assert page.select_one(f"#refuse-{upload.id}-errors").get_text(strip=True).startswith(
        "Say why, in words the merchant understands")
    assert _uploads(app, merchant_id)[0].status == "from_merchant"
    too_long = client.post(f"/merchants/{merchant_id}/asks/{upload.id}/refuse",
                           data={"reason": "Blurred. " * 60})
    kept = BeautifulSoup(too_long.data, "html.parser").select_one("textarea[name=reason]")
    assert kept.get_text().strip() == ("Blurred. " * 60).strip()
