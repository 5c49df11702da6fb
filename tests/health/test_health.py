"""A live merchant's health per product, in words (``portal.domain.health``): can it take
payments now, if not why, who must act, since when and the one thing to do; the banner on every
staff page of the merchant while something is open, nothing when all is well, never on a
customer's page."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import PaymentCredentials
from portal.domain.health.parties import Party
from portal.domain.health.service import health_of
from tests.support.product_events import CARDS, MCA, accepted, ask_for, deliver, pendency
from tests.support.rows import stored
from tests.support.team import make_merchant

GFT, INTERNATIONAL, DOMESTIC = ("GLOBAL_FUND_TRANSFER", "INTERNATIONAL_CARDS_AND_ALT_PAYS",
                                "DOMESTIC_CARDS_UPI_AND_INB")


def give_credentials(app, merchant_id: int) -> None:
    """A stored credentials row: health only asks whether the merchant has one."""
    with app.app_context():
        db.session.add(PaymentCredentials(merchant_id=merchant_id, mid="M1000234", kid="k1",
                                          public_key_pem="-", private_key_encrypted="-",
                                          origin="generated"))
        db.session.commit()


@pytest.fixture
def live(app) -> int:
    """An APPROVED merchant that asked for every product and has payment credentials."""
    merchant_id = make_merchant(app, "Lotus Traders", status="APPROVED")
    ask_for(app, merchant_id)
    give_credentials(app, merchant_id)
    return merchant_id


def lines(app, merchant_id: int) -> dict[str, tuple[bool, Party | None, str]]:
    """Each product's line: ready, who must act, its sentence."""
    with app.app_context():
        health = health_of(db.session.get(Merchant, merchant_id))
        assert health is not None
        return {line.product: (line.ready, line.who, line.sentence) for line in health.lines}


def oid(app, merchant_id: int) -> str:
    return stored(app, merchant_id).onboarding_id


def banner(client, path: str):
    return BeautifulSoup(client.get(path).data, "html.parser").select_one(".health-banner")


def test_a_merchant_still_onboarding_has_no_health_yet(app):
    merchant_id = make_merchant(app, "Early Traders", status="IN_PROGRESS")
    ask_for(app, merchant_id)
    with app.app_context():
        assert health_of(db.session.get(Merchant, merchant_id)) is None


def test_accepted_for_mca_and_held_up_for_cards_waits_for_the_merchant(app, live):
    deliver(app, accepted(oid(app, live), MCA, "e1"))
    deliver(app, pendency(oid(app, live), "p1", cards="true", mca="false"))
    found = lines(app, live)
    assert found[GFT][:2] == (True, None)
    assert found[GFT][2].startswith("Global fund transfer: yes, takes payments since 5 Jan 2026")
    assert found[INTERNATIONAL] == (
        False, Party.MERCHANT, "International cards and alternative payments: not yet, waiting "
                               "for the merchant since 4 Jan 2026")
    with app.app_context():
        [line] = [line for line in health_of(db.session.get(Merchant, live)).open
                  if line.product == DOMESTIC]
    assert line.why == "an open pendency holds up the cards approval: Compliance review: Website"
    assert line.action == ("Ask the merchant for what the gateway asks: Show the refund policy "
                           "on the website")


def test_a_product_the_gateway_has_not_accepted_waits_for_the_gateway(app, live):
    deliver(app, accepted(oid(app, live), MCA, "e1"))
    assert lines(app, live)[INTERNATIONAL][:2] == (False, Party.GATEWAY)


def test_a_card_product_without_credentials_waits_for_us(app):
    merchant_id = make_merchant(app, "Keyless Traders", status="APPROVED")
    ask_for(app, merchant_id)
    found = lines(app, merchant_id)
    assert found[INTERNATIONAL][:2] == (False, Party.US)
    assert found[GFT][:2] == (True, None)  # the fund transfer takes no card holds


def test_a_resolved_pendency_and_accepted_products_leave_nothing_open(app, live, auth, client):
    deliver(app, accepted(oid(app, live), MCA, "e1"))
    deliver(app, accepted(oid(app, live), CARDS, "e2"))
    auth.login("ops")
    assert {ready for ready, _, _ in lines(app, live).values()} == {True}
    assert banner(client, f"/merchants/{live}") is None
    page = BeautifulSoup(client.get(f"/merchants/{live}").data, "html.parser")
    assert len(page.select(".health-lines .health-line--ready")) == 3


def test_the_banner_shows_on_every_staff_page_of_the_merchant(app, live, auth, client):
    deliver(app, accepted(oid(app, live), MCA, "e1"))
    deliver(app, pendency(oid(app, live), "p1", cards="true", mca="false"))
    auth.login("ops")
    for path in (f"/merchants/{live}", f"/merchants/{live}/status",
                 f"/merchants/{live}/payments", f"/merchants/{live}/steps/products"):
        shown = banner(client, path)
        assert shown is not None, path
        text = shown.get_text(" ", strip=True)
        assert "International cards and alternative payments: not yet, waiting for the " \
               "merchant since 4 Jan 2026" in text, path
        assert "Global fund transfer" not in text  # only what is open
    assert banner(client, "/merchants") is None  # not a page of one merchant
