"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

from datetime import timedelta

from portal.core import clock
from portal.core.db import db
from portal.core.models import Payment
from portal.core.models.verification import MerchantLink
from tests.support.team import page, words


def items(client, path: str = "/worklist") -> list[tuple[str, str, str]]:
    """Each item: its merchant, its words, where its button leads."""
    shown = page(client.get(path))
    return [(words(li.select_one(".work-item__merchant a")) if li.select_one(
                 ".work-item__merchant a") else "",
             words(li.select_one(".work-item__words")),
             li.select_one(".work-item__actions a")["href"])
            for li in shown.select(".work-item")]


def add(app, *rows) -> None:
    with app.app_context():
        db.session.add_all(rows)
        db.session.commit()


def hold(merchant_id: int, authorized_hours_ago: float, n: int = 1) -> Payment:
    """An authorised hold, as the payments pages leave one (enough columns for the list)."""
    now = clock.utcnow()
    return Payment(merchant_id=merchant_id, merchant_txn_id=f"txn-{merchant_id}-{n}",
                   merchant_unique_id=f"u-{merchant_id}-{n}", amount="100.00", currency="INR",
                   status="AUTHORIZED", authorized_at=now - timedelta(hours=authorized_hours_ago),
                   action_nonce=f"nonce-{merchant_id}-{n}", created_at=now)


def link(merchant_id: int, made_hours_ago: float, opened: bool = False) -> MerchantLink:
    made = clock.utcnow() - timedelta(hours=made_hours_ago)
    return MerchantLink(merchant_id=merchant_id, nonce=f"n-{merchant_id}-{made_hours_ago}",
                        created_at=made, expires_at=made + timedelta(hours=24),
                        created_by="ops@example.com", last_opened_at=made if opened else None)
