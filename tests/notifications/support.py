"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.status_change import StatusSource
from portal.domain.audit.service import SYSTEM
from portal.domain.onboarding.status_history import change_status

OWNER = "owner@example.com"


#: Longer than the notices job's interval: the next worker pass runs it again.
NEXT_PASS = 31


def move(app, merchant_id: int, status: str) -> None:
    """Move the merchant as a status read does."""
    with app.app_context():
        change_status(db.session.get(Merchant, merchant_id), status, StatusSource.POLL,
                      actor=SYSTEM)
        db.session.commit()
