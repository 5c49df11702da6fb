"""Dormant merchants (``portal.domain.health.dormancy``): a live merchant with no hold for
DORMANT_AFTER_DAYS is on its owner's worklist, counted on the dashboard, and the count opens the
merchants list filtered to them; a recent hold, a pause or the setting's 0 keep it off."""

from __future__ import annotations

from datetime import timedelta

from portal.core import clock
from portal.core.db import db
from portal.core.models import Payment
from portal.domain.health.dormancy import dormant_count
from tests.support.pausing import stop_now
from tests.support.team import make_merchant, page, words

OWNER = "ops@example.com"
LONG_AGO = timedelta(days=40)


def live(app, name: str, age: timedelta = LONG_AGO) -> int:
    """An APPROVED merchant owned by OWNER, created ``age`` ago."""
    return make_merchant(app, name, owner=OWNER, status="APPROVED",
                         created_at=clock.utcnow() - age)


def hold_made(app, merchant_id: int, age: timedelta) -> None:
    with app.app_context():
        db.session.add(Payment(merchant_id=merchant_id, merchant_txn_id=f"txn-{merchant_id}",
                               merchant_unique_id=f"u-{merchant_id}", amount="100.00",
                               currency="INR", action_nonce=f"n-{merchant_id}",
                               created_at=clock.utcnow() - age))
        db.session.commit()


def dormant_items(client) -> list[str]:
    return [words(li) for li in page(client.get("/worklist")).select(".work-item")
            if "No payment since" in words(li)]


def test_a_live_merchant_without_a_hold_for_long_is_on_its_owners_worklist(app, auth, client):
    auth.create("ops", OWNER)
    quiet = live(app, "Quiet Traders")
    busy = live(app, "Busy Traders")
    hold_made(app, busy, timedelta(days=2))
    lapsed = live(app, "Lapsed Traders")
    hold_made(app, lapsed, timedelta(days=35))
    live(app, "New Traders", age=timedelta(days=3))
    paused = live(app, "Paused Traders")
    assert stop_now(app, paused).ok
    auth.login("ops", OWNER)
    found = dormant_items(client)
    assert len(found) == 2
    assert any("Quiet Traders" in item for item in found)
    assert any("Lapsed Traders" in item for item in found)
    [link] = [a["href"] for li in page(client.get("/worklist")).select(".work-item")
              if "Quiet Traders" in words(li) for a in li.select(".work-item__actions a")]
    assert link == f"/merchants/{quiet}/payments"


def test_the_dashboard_counts_them_and_the_count_opens_the_list(app, auth, client):
    auth.create("ops", OWNER)
    live(app, "Quiet Traders")
    busy = live(app, "Busy Traders")
    hold_made(app, busy, timedelta(days=2))
    auth.login("admin")
    count = page(client.get("/admin/")).select_one(".dormant-count a")
    assert words(count) == "1 dormant merchant"
    listed = page(client.get(count["href"]))
    assert [words(a) for a in listed.select("table.merchants tbody a")] == ["Quiet Traders"]


def test_the_settings_zero_turns_dormancy_off(app, auth):
    auth.create("ops", OWNER)
    live(app, "Quiet Traders")
    with app.app_context():
        assert dormant_count(30, clock.utcnow()) == 1
        assert dormant_count(0, clock.utcnow()) == 0
