"""Work finds its owner: whoever creates a merchant in the wizard owns it (its work reaches their
worklist); a new ops user's empty landing offers a way on; the merchants list names each
merchant's owner and filters to "Mine" or to those nobody owns."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from sqlalchemy import update

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.onboarding import scenarios
from tests.support.browser import Browser, flatten
from tests.support.rows import stored
from tests.support.team import audited, make_merchant, page, user_id, words

ASHA, BALA = "asha@example.com", "bala@example.com"


def test_the_ops_user_who_creates_a_merchant_in_the_wizard_owns_it(app, auth, client):
    auth.login("ops", ASHA)
    browser = Browser(client)
    step = browser.submit(browser.get("/merchants/new"),
                          flatten(scenarios.form_data(scenarios.HAPPY, "create")))
    merchant_id = int(step.response.request.path.split("/")[2])
    assert stored(app, merchant_id).owner_id == user_id(app, ASHA)
    summary = page(client.get(f"/merchants/{merchant_id}"))
    assert "Owner: asha@example.com (you)" in words(summary.select_one("#owner"))
    [started] = audited(app, "merchant.start")
    assert started.detail["owner"] == ASHA
    with app.app_context():  # the gateway asks for more: it reaches her landing page
        db.session.execute(update(Merchant).where(Merchant.id == merchant_id).values(
            status="RFI", documents_outstanding=["CANCELLED_CHEQUE"]))
        db.session.commit()
    landing = page(client.get("/worklist"))
    assert [a["href"] for a in landing.select(".work-item__merchant a")] == [
        f"/merchants/{merchant_id}"]


def test_a_new_ops_users_empty_landing_offers_to_start_or_take_a_merchant(app, auth, client):
    auth.login("ops", ASHA)
    landing = page(client.get("/worklist"))
    links = {a.get_text(strip=True): a["href"] for a in landing.select(".way-on a")}
    assert urlsplit(links["Start a merchant"]).path == "/merchants/new"
    taking = urlsplit(links["Take a merchant"])
    assert (taking.path, parse_qs(taking.query)) == ("/merchants", {"owner": ["nobody"]})


def test_the_landing_offers_no_way_on_while_work_is_waiting(app, auth, client):
    auth.create("ops", ASHA)
    make_merchant(app, "Lotus Traders", owner=ASHA, status="RFI",
                  documents_outstanding=["CANCELLED_CHEQUE"])
    auth.login("ops", ASHA)
    landing = page(client.get("/worklist"))
    assert landing.select(".work-item") and landing.select_one(".way-on") is None


def test_the_merchants_list_names_owners_and_filters_to_mine_or_nobodys(app, auth, client):
    auth.create("ops", BALA)
    auth.create("ops", ASHA)
    make_merchant(app, "Lotus Traders", owner=ASHA)
    make_merchant(app, "Banyan Stores", owner=BALA)
    make_merchant(app, "Cedar Crafts")
    auth.login("ops", ASHA)

    def listed(query: str = "") -> dict[str, str]:
        rows = page(client.get(f"/merchants{query}")).select("table.merchants tbody tr")
        return {row.select_one("td[data-label=Merchant]").get_text(strip=True):
                row.select_one("td[data-label=Owner]").get_text(strip=True) for row in rows}

    assert listed() == {"Lotus Traders": "You", "Banyan Stores": BALA, "Cedar Crafts": "Nobody"}
    assert listed("?owner=mine") == {"Lotus Traders": "You"}
    assert listed("?owner=nobody") == {"Cedar Crafts": "Nobody"}
    chosen = page(client.get("/merchants?owner=mine")).select_one(
        "select[name=owner] option[selected]")
    assert chosen.get_text(strip=True) == "Mine"
