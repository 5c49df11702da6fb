"""Deleting an abandoned merchant: only one whose create never reached the gateway; audited;
its drafts, documents and their files go too; CSRF and the confirmation box are required."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select

from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.document import StoredDocument
from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.step import StepDraft
from portal.domain.audit.service import SYSTEM
from portal.domain.documents.service import store
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.create import start_merchant
from portal.domain.onboarding.service import send_step
from portal.domain.onboarding.steps import BY_KEY
from portal.features.merchants.removal import can_delete
from portal.gateway.errors import ValidationFailed
from tests.support.accounts import AuthActions
from tests.support.browser import Browser, Page
from tests.wizard.support import merchant_id_from, point_gateway_at, typed

DELETE_FORM = "form.delete-merchant"


def saved_draft(browser: Browser) -> int:
    """A merchant whose step 1 was saved, never sent; returns its id."""
    page = browser.submit(browser.get("/merchants/new"), typed(scenarios.HAPPY, "create"),
                          action="draft")
    return merchant_id_from(page)


def with_document(app, merchant_id: int) -> Path:
    """Store an uploaded file for the merchant (as the documents page does); its path."""
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        document = store(current_settings(), merchant, "GST_CERTIFICATE", "gst.pdf",
                         scenarios.sample_pdf("GST_CERTIFICATE"), "application/pdf", actor=SYSTEM)
        db.session.commit()
        return Path(current_settings().upload_folder) / document.stored_name


def rows_of(app, merchant_id: int) -> dict[str, int]:
    with app.app_context():
        return {model.__name__: db.session.scalar(
            select(func.count()).select_from(model).where(model.merchant_id == merchant_id))
            for model in (StepDraft, StoredDocument)} | {
            "Merchant": db.session.scalar(
                select(func.count()).select_from(Merchant).where(Merchant.id == merchant_id))}


def confirm_delete(browser: Browser, merchant_id: int, tick: bool = True) -> Page:
    page = browser.get(f"/merchants/{merchant_id}")
    return browser.submit(page, {"confirm": "y" if tick else None}, action="",
                          selector=DELETE_FORM)


def test_a_merchant_never_created_is_deleted_with_its_drafts_documents_and_files(
        csrf_app, csrf_client):
    AuthActions(csrf_app, csrf_client).login("ops")
    browser = Browser(csrf_client)  # CSRF on: the form's own token is posted
    merchant_id = saved_draft(browser)
    stored_file = with_document(csrf_app, merchant_id)
    assert stored_file.exists()

    page = confirm_delete(browser, merchant_id)
    assert page.response.request.path == "/merchants"
    assert "Deleted" in page.text()
    assert rows_of(csrf_app, merchant_id) == {"StepDraft": 0, "StoredDocument": 0, "Merchant": 0}
    assert not stored_file.exists()
    with csrf_app.app_context():
        event = db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "merchant.delete")).one()
    assert (event.merchant_id, event.actor_label, event.outcome) == (
        merchant_id, "ops@example.com", "ok")
    assert event.detail["documents"] == 1
    assert browser.get(f"/merchants/{merchant_id}").response.status_code == 404


def test_the_box_must_be_ticked_and_the_csrf_token_sent(csrf_app, csrf_client):
    AuthActions(csrf_app, csrf_client).login("ops")
    browser = Browser(csrf_client)
    merchant_id = saved_draft(browser)
    page = confirm_delete(browser, merchant_id, tick=False)
    assert page.response.status_code == 400
    assert page.errors_for("confirm") == ["Tick the box to confirm the deletion."]
    no_token = csrf_client.post(f"/merchants/{merchant_id}/delete", data={"confirm": "y"})
    assert no_token.status_code == 400
    assert rows_of(csrf_app, merchant_id)["Merchant"] == 1


def test_a_created_merchant_offers_no_delete_and_refuses_one(browser, app, new_merchant):
    assert browser.get(f"/merchants/{new_merchant}").soup.select_one(DELETE_FORM) is None
    response = browser.client.post(f"/merchants/{new_merchant}/delete", data={"confirm": "y"},
                                   follow_redirects=True)
    assert "cannot be deleted" in response.get_data(as_text=True)
    assert rows_of(app, new_merchant)["Merchant"] == 1
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(AuditEvent).where(
            AuditEvent.action == "merchant.delete")) == 0


def test_a_create_whose_outcome_is_unknown_cannot_be_deleted(browser, app, lossy):
    point_gateway_at(app, lossy.url)  # the create lands, but its answer is lost
    page = browser.submit(browser.get("/merchants/new"), typed(scenarios.HAPPY, "create"))
    merchant_id = merchant_id_from(page)
    with app.app_context():
        assert db.session.get(Merchant, merchant_id).create_state == CreateState.OUTCOME_UNKNOWN
    assert browser.get(f"/merchants/{merchant_id}").soup.select_one(DELETE_FORM) is None
    browser.client.post(f"/merchants/{merchant_id}/delete", data={"confirm": "y"})
    assert rows_of(app, merchant_id)["Merchant"] == 1


class RefusedAfterALook:
    """A gateway that, while the create is on the wire, notes the merchant's committed create
    state as another process would read it, then refuses the create."""

    def __init__(self, merchant_id: int) -> None:
        self.merchant_id = merchant_id
        self.states_seen: list[str] = []

    def create_onboarding(self, _body) -> None:
        with db.engine().connect() as connection:
            self.states_seen.append(connection.scalar(
                select(Merchant.create_state).where(Merchant.id == self.merchant_id)))
        raise ValidationFailed("refused", field_errors=[])


def test_a_create_in_flight_cannot_be_deleted_and_a_refused_one_can(app):
    data = scenarios.form_data(scenarios.HAPPY, "create")
    with app.app_context():
        merchant, _errors = start_merchant(data, actor=SYSTEM)
        gateway = RefusedAfterALook(merchant.id)
        result = send_step(gateway, merchant, BY_KEY["create"], data, actor=SYSTEM)
        assert not result.ok
        assert gateway.states_seen == [CreateState.OUTCOME_UNKNOWN]  # in flight: keep it
        assert merchant.create_state == CreateState.DRAFT  # refused: nothing was created
        assert can_delete(merchant)
