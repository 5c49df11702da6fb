"""The checklist sample behind contract revision 4, "Checklist words"
(``shared/spec/samples-rev4/checklist-not-applicable.docs.json``, docs/gateway-facts.md section E),
replayed over loopback HTTP: a stub gateway answers the status call with the sample's body byte
for byte, and the portal reads it as an individual's checklist whose verification link may be
asked for. The test names the sample's ``_source`` and checks that the sample still cites it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask, Response

from portal.app.factory import create_app
from portal.core.clients import onboarding_client
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.labels import Kind, label
from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.step import StepState
from portal.domain.audit.service import SYSTEM
from portal.domain.onboarding.progress import stepper
from portal.domain.onboarding.status_reads import read_status
from portal.domain.onboarding.verification_link import gate
from portal.features.verification.service import progress
from portal.gateway.onboarding.operations import PREFIX
from tests.conformance.rev4_samples import sample
from tests.support.servers import serve

NAME = "checklist-not-applicable.docs.json"
SOURCE = ("PayGlocal-Technologies/payglocal-dev-docs reference/response-structure.mdx@3912e80 "
          "(the same at aee391b), Common Success Response")
#: The onboarding id the docs' example uses.
DOCS_ID = "pg_onboard_abc123"


@pytest.fixture
def gateway() -> Iterator[str]:
    """A gateway whose status call answers the sample, as the docs show it."""
    app = Flask(__name__)

    @app.get(f"{PREFIX}/onboard/<onboarding_id>/status")
    def status(onboarding_id: str) -> Response:
        found = sample(NAME)
        return Response(found.raw(), found.http, mimetype="application/json")

    with serve(app) as url:
        yield url


@pytest.fixture
def portal(settings, gateway):
    """The portal talking to the stub."""
    return create_app(settings.with_changes(onboarding_url=gateway))


def test_checklist_not_applicable_sample(portal):
    """Source: payglocal-dev-docs reference/response-structure.mdx@3912e80, Common Success
    Response. NOT_APPLICABLE is done (not needed), INCOMPLETE to do; the verification page's
    own items (INCOMPLETE) hold nothing back, so the link is offered."""
    found = sample(NAME)
    assert found.source.startswith(SOURCE)
    with portal.app_context():
        merchant = Merchant(external_onboarding_id="partner-merchant-001", onboarding_id=DOCS_ID,
                            pan="ABCPR1234K", display_name="Asha Rao", status="IN_PROGRESS",
                            create_state=CreateState.CREATED, checklist={},
                            documents_outstanding=[])
        db.session.add(merchant)
        db.session.commit()
        read = read_status(onboarding_client(current_settings()), merchant, "poll",
                           actor=SYSTEM)
        assert read.ok, read.error
        assert merchant.checklist["beneficialOwners"] == "NOT_APPLICABLE"
        assert [merchant.checklist[key] for key in ("vkyc", "digiLocker", "tncAcknowledged")] \
            == ["PENDING"] * 3
        assert label(merchant.checklist["beneficialOwners"], Kind.CHECKLIST_STATE) == \
            "Not needed for this merchant"
        assert label(merchant.checklist["vkyc"], Kind.CHECKLIST_STATE) == "To do"
        assert gate(merchant).open and gate(merchant).missing == []
        assert [p.done for p in progress(merchant)] == [False] * 3
        states = {entry.step.key: entry.state for entry in stepper(merchant, {})}
        assert states["owners"] == StepState.NOT_NEEDED
        assert states["bank"] == StepState.NOT_STARTED  # no draft: the portal sent nothing
