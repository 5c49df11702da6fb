"""Every count on the admin dashboard is a link to the list it counts, filtered: the merchants
of each status, the merchants without progress, the holds close to expiry; each list says the
same number the dashboard does."""

from __future__ import annotations

from datetime import timedelta

from bs4 import BeautifulSoup
from sqlalchemy import update

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.domain.payments import expiry
from tests.admin.support import _add_merchants
from tests.payments.search.support import add_payment
from tests.payments.support import add_merchant


def soup_of(client, path: str) -> BeautifulSoup:
    answer = client.get(path)
    assert answer.status_code == 200, path
    return BeautifulSoup(answer.data, "html.parser")


def listed(client, path: str) -> str:
    """The list's own count line ('3 merchants')."""
    return soup_of(client, path).select_one(".result-count").get_text(" ", strip=True)


def test_each_count_leads_to_the_list_it_counts(app, client, auth, portal_clock, settings):
    _add_merchants(app, 3, "IN_PROGRESS")
    _add_merchants(app, 2, None)
    [approved] = _add_merchants(app, 1, "APPROVED")
    _add_merchants(app, 1, "REJECTED")
    portal_clock.advance((settings.stale_after_days + 1) * 86400)
    [active] = _add_merchants(app, 1, "IN_PROGRESS")  # busy today: not stale
    with app.app_context():
        expiring = add_payment(app, approved, "PTSOON", "10")
        add_payment(app, approved, "PTLATER", "10")
        db.session.execute(update(Payment).values(authorized_at=clock.utcnow()))
        db.session.execute(update(Payment).where(Payment.id == expiring).values(
            authorized_at=clock.utcnow() - timedelta(hours=150)))
        db.session.execute(update(Merchant).where(Merchant.id == active).values(
            last_activity_at=clock.utcnow()))
        db.session.commit()
    auth.login("admin")
    board = soup_of(client, "/admin/")

    rows = board.select(".status-chart__row")
    assert {row["data-status"] for row in rows} >= {"NOT_CREATED", "IN_PROGRESS", "APPROVED"}
    for row in rows:
        count = int(row["data-count"])
        link = row.select_one("a.status-chart__label")
        assert f"status={row['data-status']}" in link["href"]
        assert listed(client, link["href"]) == f"{count} merchant{'' if count == 1 else 's'}"

    stale = board.select_one(".stale-count a")
    assert stale.get_text() == "5 merchants"  # the IN_PROGRESS and not-created idle ones
    stale_list = soup_of(client, stale["href"])
    assert stale_list.select_one(".result-count").get_text(strip=True) == "5 merchants"
    assert stale_list.find("input", attrs={"name": "stale"}).has_attr("checked")
    assert str(active) not in {tr["data-merchant"] for tr in stale_list.select("tr")
                               if tr.has_attr("data-merchant")}

    holds = board.select_one(".expiring-holds a")
    assert holds.get_text() == "1 authorised hold"
    assert listed(client, holds["href"]) == "1 payment"
    assert soup_of(client, holds["href"]).select_one("tr[data-payment]")["data-payment"] == str(
        expiring)


def test_holds_close_to_expiry_are_counted_to_a_cap(app, client, auth, monkeypatch):
    monkeypatch.setattr(expiry, "COUNT_CAP", 2)
    merchant_id = add_merchant(app, "APPROVED")
    for n in range(3):
        add_payment(app, merchant_id, f"PTOLD{n}", "10")
    with app.app_context():
        db.session.execute(update(Payment).values(
            authorized_at=clock.utcnow() - timedelta(hours=150)))
        db.session.commit()
    auth.login("admin")
    holds = soup_of(client, "/admin/").select_one(".expiring-holds a")
    assert holds.get_text() == "More than 2 authorised holds"
    assert listed(client, holds["href"]) == "3 payments"  # the list counts to its own cap
