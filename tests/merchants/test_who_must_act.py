"""The merchants list says who must act on each merchant (the worklist's items and actor rule):
us, the merchant or the gateway, since when and by when, overdue first; its filter "waiting for
us / the merchant / the gateway" keeps the other filters and the pagination."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.verification import MerchantLink
from tests.merchants.support import OWNER, seed
from tests.support.team import make_merchant, page, words


def rows(client, path: str = "/merchants") -> list[tuple[str, str, str]]:
    """Each row: the merchant's name, who must act (data-who, '' for nobody), the cell's
    words."""
    return [(tr.find("a").get_text(), tr.select_one(".who-acts").get("data-who", ""),
             words(tr.select_one(".who-acts")))
            for tr in page(client.get(path)).select("table.merchants tbody tr")]


def test_each_row_says_who_must_act_since_when_overdue_first(app, auth, client):
    auth.create("ops", OWNER)
    seed(app)
    auth.login("ops", OWNER)
    shown = rows(client)
    assert [(name, who) for name, who, _ in shown] == [
        ("Slow Signer", "merchant"),  # overdue, though idle longest
        ("All Well", ""), ("Stuck Send", "gateway"), ("Late Card", "us")]
    assert shown[0][2].startswith("Waiting for the merchant · overdue since")
    assert shown[1][2] == "Nothing open"
    assert shown[2][2].startswith("Waiting for the gateway · since")
    assert shown[3][2].startswith("Waiting for us · since")
    assert "(0 days)" in shown[3][2]


def test_the_filter_shows_only_those_waiting_for_each(app, auth, client):
    auth.create("ops", OWNER)
    seed(app)
    auth.login("ops", OWNER)
    assert [name for name, _, _ in rows(client, "/merchants?who=us")] == ["Late Card"]
    assert [name for name, _, _ in rows(client, "/merchants?who=merchant")] == ["Slow Signer"]
    assert [name for name, _, _ in rows(client, "/merchants?who=gateway")] == ["Stuck Send"]
    assert "1 merchant" in words(page(client.get("/merchants?who=gateway")))
    assert len(rows(client, "/merchants?who=nonsense")) == 4  # an unknown value filters nothing


def test_the_filter_keeps_the_other_filters_and_the_pages(app, auth, client):
    auth.create("ops", OWNER)
    seed(app)
    for n in range(22):
        make_merchant(app, f"Waiting Shop {n:02d}", owner=OWNER, status="IN_PROGRESS")
    with app.app_context():
        made = clock.utcnow() - timedelta(hours=10)
        for merchant_id in db.session.scalars(select(Merchant.id).where(
                Merchant.display_name.like("Waiting Shop%"))):
            db.session.add(MerchantLink(merchant_id=merchant_id, nonce=f"n-{merchant_id}",
                                        created_at=made, expires_at=made + timedelta(hours=72),
                                        created_by=OWNER))
        db.session.commit()
    auth.login("ops", OWNER)
    assert [name for name, _, _ in rows(client, "/merchants?who=merchant&status=APPROVED")] == []
    first = page(client.get("/merchants?who=merchant"))
    assert "Page 1 of 2" in words(first)
    following = first.find("a", rel="next")["href"]
    assert "who=merchant" in following
    second = rows(client, following)
    assert len(second) == 3 and {who for _, who, _ in second} == {"merchant"}
    assert [name for name, _, _ in rows(client, "/merchants?who=merchant&q=Slow")] == [
        "Slow Signer"]
