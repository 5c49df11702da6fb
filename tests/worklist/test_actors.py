"""Who each worklist item waits for (``portal.domain.worklist.actors``), since when and due when,
overdue first, with the filters "waiting for us / the merchant / the gateway"."""

from __future__ import annotations

from datetime import timedelta

from portal.core import clock
from portal.core.db import db
from portal.core.models import Payment
from portal.core.models.verification import MerchantLink
from portal.domain.worklist.actors import WAITS_FOR
from portal.domain.worklist.reasons import Reason
from tests.support.team import make_merchant, page, words

OWNER = "ops@example.com"


def test_every_reason_says_who_it_waits_for():
    assert set(WAITS_FOR) == set(Reason)


def shown(client, path: str = "/worklist") -> list[tuple[str, str, str]]:
    """Each item: its reason, who it waits for, its when-line."""
    return [(li["data-reason"], li["data-who"], words(li.select_one(".work-item__when")))
            for li in page(client.get(path)).select(".work-item")]


def seed(app) -> None:
    """One merchant whose verification link ran out a day ago (the merchant's, overdue), one
    with a hold a person must look at (ours, no due date)."""
    verifying = make_merchant(app, "Slow Signer", owner=OWNER)
    held = make_merchant(app, "Late Card", owner=OWNER, status="APPROVED")
    made = clock.utcnow() - timedelta(hours=48)
    with app.app_context():
        db.session.add_all([
            MerchantLink(merchant_id=verifying, nonce="n-slow", created_at=made,
                         expires_at=made + timedelta(hours=24), created_by=OWNER),
            Payment(merchant_id=held, merchant_txn_id="txn-late", merchant_unique_id="u-late",
                    amount="100.00", currency="INR", status="AUTHORIZED",
                    authorized_at=clock.utcnow() - timedelta(hours=3),
                    late_authorised_at=clock.utcnow() - timedelta(hours=3),
                    action_nonce="nonce-late", created_at=clock.utcnow())])
        db.session.commit()


def test_items_say_who_must_act_since_when_and_due_overdue_first(app, auth, client):
    auth.create("ops", OWNER)
    seed(app)
    auth.login("ops", OWNER)
    items = shown(client)
    assert [(reason, who) for reason, who, _ in items] == [
        ("link_ending", "merchant"), ("hold_to_look_at", "us")]  # overdue before reason order
    assert items[0][2].startswith("Waiting for the merchant · overdue since")
    assert items[1][2].startswith("Waiting for us · since")


def test_the_filters_show_only_what_waits_for_each(app, auth, client):
    auth.create("ops", OWNER)
    seed(app)
    auth.login("ops", OWNER)
    assert [who for _, who, _ in shown(client, "/worklist?who=us")] == ["us"]
    assert [who for _, who, _ in shown(client, "/worklist?who=merchant")] == ["merchant"]
    assert shown(client, "/worklist?who=gateway") == []
    assert "Nothing here waits for the gateway." in words(page(client.get(
        "/worklist?who=gateway")))
    assert len(shown(client, "/worklist?who=nonsense")) == 2  # an unknown filter shows all
