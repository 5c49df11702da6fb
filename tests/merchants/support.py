"""What the folder's tests share, for them and the browser suite's to import: merchants with
something open for each party."""

from __future__ import annotations

from datetime import timedelta

from portal.core import clock
from portal.core.db import db
from portal.core.models import Payment
from portal.core.models.outbox import OutboxItem
from portal.core.models.verification import MerchantLink
from tests.support.team import make_merchant

OWNER = "ops@example.com"


def seed(app) -> None:
    """An overdue verification link (the merchant's, idle longest), a hold a person must look
    at (ours), a step queued for long (the gateway's), and a merchant with nothing open (the
    most recently active)."""
    now = clock.utcnow()
    verifying = make_merchant(app, "Slow Signer", owner=OWNER,
                              last_activity_at=now - timedelta(days=3))
    held = make_merchant(app, "Late Card", owner=OWNER, status="APPROVED",
                         last_activity_at=now - timedelta(days=2))
    queued = make_merchant(app, "Stuck Send", owner=OWNER, last_activity_at=now - timedelta(days=1))
    make_merchant(app, "All Well", owner=OWNER, status="APPROVED", last_activity_at=now)
    made = now - timedelta(hours=48)
    with app.app_context():
        db.session.add_all([
            MerchantLink(merchant_id=verifying, nonce="n-slow", created_at=made,
                         expires_at=made + timedelta(hours=24), created_by=OWNER),
            Payment(merchant_id=held, merchant_txn_id="txn-late", merchant_unique_id="u-late",
                    amount="100.00", currency="INR", status="AUTHORIZED",
                    authorized_at=now - timedelta(hours=3),
                    late_authorised_at=now - timedelta(hours=3),
                    action_nonce="nonce-late", created_at=now),
            OutboxItem(merchant_id=queued, step="business", draft_version=1, payload={},
                       state="pending", attempts=5, next_attempt_at=now,
                       created_at=now - timedelta(hours=2))])
        db.session.commit()
