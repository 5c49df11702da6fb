"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

import uuid

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.step import StepDraft

COMPLETE_SECTIONS = {"businessDetails": "COMPLETE", "beneficialOwners": "COMPLETE",
                     "bankDetails": "PENDING", "authorisedSignatory": "PENDING",
                     "documents": "PENDING", "products": "PENDING", "tncAcknowledged": "PENDING",
                     "digiLocker": "PENDING", "vkyc": "PENDING"}


def _add_merchants(app, count: int, status: str | None = "IN_PROGRESS",
                   name: str = "Trader", outstanding: tuple[str, ...] = ("CANCELLED_CHEQUE",),
                   ) -> list[int]:
    """Merchants with two steps sent, straight into the database (counted per status by the
    database's triggers, as every merchant is)."""
    ids = []
    with app.app_context():
        for _ in range(count):
            merchant = Merchant(external_onboarding_id=f"ext-{uuid.uuid4().hex[:12]}", pan="",
                                legal_name=name, status=status,
                                onboarding_id=f"pg_onboard_{uuid.uuid4().hex[:12]}",
                                create_state="created", checklist=dict(COMPLETE_SECTIONS),
                                documents_outstanding=list(outstanding))
            db.session.add(merchant)
            db.session.flush()
            for step in ("business", "owners"):
                db.session.add(StepDraft(merchant_id=merchant.id, step=step, state="sent",
                                         payload={"x": 1}, last_error={}, version=1))
            ids.append(merchant.id)
        db.session.commit()
    return ids
