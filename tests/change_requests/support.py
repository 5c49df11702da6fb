"""What the change request tests share: a merchant the sandbox approved (its bank details and
signatory locked), and a change asked through the merchant's page."""

from __future__ import annotations

import io

from sqlalchemy import select

from portal.core.db import db
from portal.core.models.change_request import ChangeRequest
from portal.core.models.merchant import Merchant
from portal.domain.onboarding.scenarios import sample_pdf
from tests.verification.support import backend_of, onboard

SUPPORT = "merchant-support@gateway.example"
NEW_BANK = {"bankAccountNumber": "998877665544", "bankIfscCode": "HDFC0001234",
            "accountHolderName": "Sandbox Traders Private Limited"}
REASON = "The merchant moved its settlement account to HDFC (their letter of 1 December)."


def approved_merchant(app, sandbox) -> int:
    """A merchant sent through every step, verified and approved by the sandbox, its status
    read by the portal; its id."""
    merchant_id = onboard(app)
    with app.app_context():
        onboarding_id = db.session.get(Merchant, merchant_id).onboarding_id
    backend_of(sandbox).complete_verification(onboarding_id)
    backend_of(sandbox).tick()
    return merchant_id


def bank_form(values: dict[str, str] | None = None, proof: bytes | None = None,
              reason: str = REASON) -> dict[str, object]:
    """The bank change form's fields, with a cancelled cheque unless ``proof`` says otherwise."""
    fields: dict[str, object] = {**(values if values is not None else NEW_BANK),
                                 "reason": reason}
    content = sample_pdf("CANCELLED_CHEQUE") if proof is None else proof
    if content:
        fields["proof"] = (io.BytesIO(content), "cheque.pdf")
    return fields


def ask_bank_change(client, merchant_id: int, **changes: object):
    """Post the bank change form as ops would; the response (not followed)."""
    return client.post(f"/merchants/{merchant_id}/changes/new/bank", data=bank_form(**changes),
                       content_type="multipart/form-data")


def change_of(app, merchant_id: int) -> ChangeRequest:
    """The merchant's newest change request, detached."""
    with app.app_context():
        change = db.session.scalars(select(ChangeRequest).where(
            ChangeRequest.merchant_id == merchant_id).order_by(ChangeRequest.id.desc())).first()
        assert change is not None
        db.session.expunge(change)
        return change
