"""The onboarding samples behind contract revision 3 (``shared/spec/samples-rev3``,
docs/gateway-facts.md section D), replayed over loopback HTTP: each answer sample is served to the
portal, as the gateway's documentation shows it, from a stub gateway; each webhook sample is posted
to the portal's receiver byte for byte, unsigned as the real gateway sends it, from an address the
portal lists as the gateway's (``GATEWAY_WEBHOOK_SOURCES``). Every test names its sample's
``_source`` and checks that the sample still cites it."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, Response
from sqlalchemy import select

from portal.app.factory import create_app
from portal.core.clients import onboarding_client
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.pendency import MerchantPendency
from portal.core.models.step import StepState
from portal.core.models.webhook_event import WebhookEvent
from portal.domain.audit.service import SYSTEM
from portal.domain.documents import service as documents
from portal.domain.onboarding import locks, scenarios
from portal.domain.onboarding.drafts import draft_for
from portal.domain.onboarding.pendencies import pendencies
from portal.domain.onboarding.service import send_step
from portal.domain.onboarding.status_reads import read_status
from portal.domain.onboarding.steps import BY_KEY
from portal.gateway.onboarding.operations import PREFIX
from portal.gateway.onboarding.vocabulary import PennyDropStatus
from tests.conformance.rev3_samples import Sample, sample
from tests.support.servers import serve

ONBOARD = PREFIX + "/onboard"
#: The onboarding id the docs' examples use.
DOCS_ID = "pg_onboard_abc123"
#: Which sample a PUT to a record's section answers with.
SECTION_SAMPLES = {"bank-details": "bank-details.docs.json",
                   "docs": "upload-documents.docs.json"}


class StubGateway:
    """Answers the record sections with their samples and the status with a contract record
    whose status the test sets (its checklist: the openapi sample's, once a test loads it)."""

    def __init__(self) -> None:
        self.url = ""
        self.status = "PENDING_VERIFICATION"
        self.checklist: dict[str, Any] = {}
        self.served: list[str] = []

    def app(self) -> Flask:
        app = Flask(__name__)

        @app.put(f"{ONBOARD}/<onboarding_id>/<section>")
        def section(onboarding_id: str, section: str) -> Response:
            answer = sample(SECTION_SAMPLES[section])
            self.served.append(section)
            return Response(answer.raw(), answer.http, mimetype="application/json")

        @app.get(f"{ONBOARD}/<onboarding_id>/status")
        def status(onboarding_id: str) -> Response:
            self.served.append("status")
            return Response(json.dumps({"gid": "gl_status_1", "data": {
                "merchantInfo": {"onboardingId": onboarding_id,
                                 "partnerOnboardingId": "partner-rev3",
                                 "onboardingStatus": self.status},
                "merchantOnboardingCheckListStatus": self.checklist}}),
                mimetype="application/json")

        return app


@pytest.fixture
def gateway() -> Iterator[StubGateway]:
    stub = StubGateway()
    with serve(stub.app()) as url:
        stub.url = url
        yield stub


@pytest.fixture
def portal(settings, gateway):
    """The portal talking to the stub; webhooks unsigned, as the real gateway sends them, from
    a listed source address (the test client's)."""
    app = create_app(settings.with_changes(onboarding_url=gateway.url, webhook_secrets=(),
                                           webhook_sources=("127.0.0.1",)))
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def merchant_at(app, status: str, onboarding_id: str = DOCS_ID, **columns: Any) -> int:
    """A merchant created at the gateway as ``onboarding_id``, at ``status``; its id."""
    with app.app_context():
        merchant = Merchant(external_onboarding_id="partner-rev3", onboarding_id=onboarding_id,
                            pan="ABCCE1234F", display_name="Rev3 Traders", status=status,
                            create_state=CreateState.CREATED,
                            **{"checklist": {}, "documents_outstanding": [], **columns})
        db.session.add(merchant)
        db.session.commit()
        return merchant.id


def cited(name: str, source: str) -> Sample:
    """The sample ``name``, checked to still cite ``source``."""
    found = sample(name)
    assert found.source == source
    return found


def post(app, found: Sample):
    """Post a webhook sample's bytes to the portal's receiver, unsigned."""
    return app.test_client().post("/webhooks/onboarding", data=found.raw(),
                                  headers={"Content-Type": "application/json"})


def test_bank_details_sample(portal, gateway):
    """Source: payglocal-dev-docs api-reference/update-bank-details.mdx (Response 200).
    ``data{onboardingId, bankVerificationStatus}`` is the penny drop's outcome; the step is
    sent and the status read fills in the record."""
    cited("bank-details.docs.json",
          "payglocal-dev-docs api-reference/update-bank-details.mdx (Response 200)")
    merchant_id = merchant_at(portal, "IN_PROGRESS")
    with portal.app_context():
        client = onboarding_client(current_settings())
        answer = client.update_bank_details(DOCS_ID, scenarios.form_data(scenarios.HAPPY, "bank"))
        assert (answer.onboarding_id, answer.penny_drop, answer.record) == (
            DOCS_ID, PennyDropStatus.VERIFIED, None)
        merchant = db.session.get(Merchant, merchant_id)
        result = send_step(client, merchant, BY_KEY["bank"],
                           scenarios.form_data(scenarios.HAPPY, "bank"), actor=SYSTEM)
        assert result.ok, result.message
        assert "The penny drop verified the account" in result.message
        assert merchant.penny_drop_status == PennyDropStatus.VERIFIED
        assert draft_for(merchant, BY_KEY["bank"]).state == StepState.SENT
    assert gateway.served[-2:] == ["bank-details", "status"]


def test_upload_documents_sample(portal, gateway):
    """Source: payglocal-dev-docs api-reference/upload-documents.mdx (Response 200).
    ``data{onboardingId, merchantDocType, documentStatus}``: the document is sent and its
    status kept with it."""
    cited("upload-documents.docs.json",
          "payglocal-dev-docs api-reference/upload-documents.mdx (Response 200)")
    merchant_id = merchant_at(portal, "IN_PROGRESS", documents_outstanding=["PAN_CARD"])
    with portal.app_context():
        client = onboarding_client(current_settings())
        merchant = db.session.get(Merchant, merchant_id)
        result = documents.upload(client, current_settings(), merchant, "PAN_CARD", "pan.pdf",
                                  io.BytesIO(scenarios.sample_pdf("PAN_CARD")), actor=SYSTEM)
        assert result.ok, result.message
        [document] = documents.documents_of(merchant)
        assert (document.status, document.gateway_status) == ("sent", "UPLOADED")
        assert document.gateway_answer.endswith("reports the document as uploaded")
    assert gateway.served[-2:] == ["docs", "status"]


def test_checklist_variants_sample(portal, gateway):
    """Source: openapi.yaml ChecklistStatus example (vkyc PENDING_REVIEW, digiLocker SUCCESS),
    per docs/gateway-facts.md D. SUCCESS is done; PENDING_REVIEW is done, awaiting the gateway's
    review: verification is complete and its steps lock."""
    # The sample's own _source, as the shared folder spells it.
    found = cited("checklist-variants.openapi.json", "openapi.yaml ChecklistStatus example "
                  "(vkyc PENDING_REVIEW, digiLocker SUCCESS), per gateway-facts D")
    gateway.checklist = found.body
    merchant_id = merchant_at(portal, "PENDING_VERIFICATION")
    with portal.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        read = read_status(onboarding_client(current_settings()), merchant, "poll", actor=SYSTEM)
        assert read.ok, read.error
        assert merchant.checklist["digiLocker"] == merchant.checklist["tncAcknowledged"] == \
            "COMPLETE"
        assert merchant.checklist["vkyc"] == "PENDING_REVIEW"
        assert locks.tnc_acknowledged(merchant) and locks.verification_complete(merchant)
        assert locks.lock_reason(merchant, BY_KEY["bank"]) == locks.VERIFICATION_REASON


def test_webhook_merchant_accepted_sample(portal, gateway):
    """Source: payglocal-dev-docs guides/partner-onboarding-events.mdx (Example payload:
    Merchant accepted). Its merchant_id is kept once the status read says APPROVED."""
    found = cited("webhook-merchant-accepted.docs.json", "payglocal-dev-docs "
                  "guides/partner-onboarding-events.mdx (Example payload: Merchant accepted)")
    merchant_id = merchant_at(portal, "PENDING_REVIEW")
    gateway.status = "APPROVED"
    assert post(portal, found).status_code == 200
    with portal.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        assert (merchant.status, merchant.gateway_mid) == ("APPROVED", "merchant_xyz789")


def test_webhook_pendency_sample(portal, gateway):
    """Source: payglocal-dev-docs guides/partner-onboarding-events.mdx
    (MERCHANT_PENDENCY_STATUS_UPDATED fields; values illustrative). Every pendency_info_* is
    kept and read in words."""
    found = cited("webhook-pendency.docs.json", "payglocal-dev-docs "
                  "guides/partner-onboarding-events.mdx (MERCHANT_PENDENCY_STATUS_UPDATED "
                  "fields; values illustrative)")
    merchant_id = merchant_at(portal, "PENDING_REVIEW")
    gateway.status = "RFI"
    assert post(portal, found).status_code == 200
    with portal.app_context():
        row = db.session.scalars(select(MerchantPendency)).one()
        assert (row.category, row.sub_category, row.reason, row.status) == (
            "DOCUMENT", "BANK_STATEMENT", "Statement older than 3 months", "OPEN")
        assert (row.cards_approval_blocking, row.mca_approval_blocking) == (True, False)
        assert row.raised_at is not None and row.reported_at is not None
        [shown] = pendencies(db.session.get(Merchant, merchant_id))
        assert (shown.what, shown.state, shown.holds_up) == (
            "Document: Bank statement", "Open: the gateway is waiting for it",
            "It holds up the cards approval.")


def test_webhook_vkyc_completed_sample(portal, gateway):
    """Source: payglocal-dev-docs guides/partner-onboarding-events.mdx (Example payload: VKYC
    completed). A hint: the status comes from the read (UNDER_REVIEW is PENDING_REVIEW)."""
    found = cited("webhook-vkyc-completed.docs.json", "payglocal-dev-docs "
                  "guides/partner-onboarding-events.mdx (Example payload: VKYC completed)")
    merchant_id = merchant_at(portal, "PENDING_VERIFICATION")
    gateway.status = "UNDER_REVIEW"
    assert post(portal, found).status_code == 200
    with portal.app_context():
        assert db.session.get(Merchant, merchant_id).status == "PENDING_REVIEW"
        outcome = db.session.scalars(select(WebhookEvent.outcome)).one()
    assert outcome == ("status PENDING_REVIEW (moved); the event said UNDER_REVIEW "
                       "(PENDING_REVIEW)")
