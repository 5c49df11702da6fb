"""Approval per product (docs/gateway-contract.md, "Approval per product"): a product is
accepted by its verified event, once; never for a rejected onboarding; before any per-product
event an APPROVED merchant counts as approved for what it asked, "the gateway named no
product"; then the events alone decide; an open pendency flagged for a product holds it up."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from portal.app.factory import create_app
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.pendency import MerchantPendency
from portal.core.models.product_acceptance import MerchantProductAcceptance
from portal.domain.onboarding.product_approvals import (
    BLOCKING_COLUMNS,
    Standing,
    card_approval,
    product_states,
)
from portal.gateway.onboarding.product_events import APPROVALS
from tests.support.product_events import (
    CARDS,
    MCA,
    accepted,
    ask_for,
    deliver,
    pendency,
    signed,
)
from tests.support.rows import stored
from tests.support.team import audited, make_merchant

GFT, INTERNATIONAL, DOMESTIC = ("GLOBAL_FUND_TRANSFER", "INTERNATIONAL_CARDS_AND_ALT_PAYS",
                                "DOMESTIC_CARDS_UPI_AND_INB")


@pytest.fixture
def merchant(app) -> int:
    """An APPROVED merchant that asked for every product."""
    merchant_id = make_merchant(app, "Lotus Traders", status="APPROVED")
    ask_for(app, merchant_id)
    return merchant_id


def oid(app, merchant_id: int) -> str:
    return stored(app, merchant_id).onboarding_id


def states(app, merchant_id: int) -> dict[str, tuple[Standing, int]]:
    """Each product asked for: its standing and how many pendencies hold it up."""
    with app.app_context():
        found = product_states(db.session.get(Merchant, merchant_id))
        return {str(s.product): (s.standing, len(s.held_up_by)) for s in found}


def acceptances(app) -> list[tuple[int, str, int]]:
    with app.app_context():
        return [(row.merchant_id, row.product, row.webhook_event_id) for row in db.session.scalars(
            select(MerchantProductAcceptance).order_by(MerchantProductAcceptance.id))]


def test_every_approval_names_a_pendency_column_and_covers_every_product():
    assert all(hasattr(MerchantPendency, column) for column in BLOCKING_COLUMNS.values())
    covered = [product for approval in APPROVALS for product in approval.covers]
    assert sorted(covered) == sorted([GFT, INTERNATIONAL, DOMESTIC])


def test_until_a_product_is_named_the_approval_covers_what_was_asked(app, merchant):
    assert states(app, merchant) == {p: (Standing.NAMED_NO_PRODUCT, 0)
                                     for p in (GFT, INTERNATIONAL, DOMESTIC)}


def test_the_first_product_event_makes_the_events_alone_decide(app, merchant):
    assert deliver(app, accepted(oid(app, merchant), MCA, "e1")).startswith("already APPROVED")
    assert states(app, merchant) == {GFT: (Standing.ACCEPTED, 0),
                                     INTERNATIONAL: (Standing.WAITING, 0),
                                     DOMESTIC: (Standing.WAITING, 0)}
    deliver(app, accepted(oid(app, merchant), CARDS, "e2"))
    assert {standing for standing, _ in states(app, merchant).values()} == {Standing.ACCEPTED}
    assert [event.detail for event in audited(app, "merchant.product_accepted")] == [
        {"product": "MCA"}, {"product": "CARDS"}]


def test_a_product_is_accepted_once_however_often_it_is_told(app, merchant):
    for event_id in ("e1", "e1", "e2"):  # a redelivery, then another event of the product
        deliver(app, accepted(oid(app, merchant), CARDS, event_id))
    [(merchant_id, product, _)] = acceptances(app)
    assert (merchant_id, product) == (merchant, "CARDS")
    assert len(audited(app, "merchant.product_accepted")) == 1


def test_an_unverified_product_event_accepts_nothing(settings, app, merchant):
    unsigned = create_app(settings.with_changes(webhook_secrets=()))
    raw, _ = signed(accepted(oid(app, merchant), CARDS, "e1"))
    answer = unsigned.test_client().post("/webhooks/onboarding", data=raw,
                                         headers={"Content-Type": "application/json"})
    assert answer.status_code == 200 and "not verified" in answer.json["outcome"]
    assert acceptances(app) == []
    assert states(app, merchant)[INTERNATIONAL] == (Standing.NAMED_NO_PRODUCT, 0)


def test_a_rejected_onboarding_is_accepted_for_nothing(app):
    merchant_id = make_merchant(app, "Refused Traders", status="REJECTED")
    ask_for(app, merchant_id)
    deliver(app, accepted(oid(app, merchant_id), CARDS, "e1"))
    assert acceptances(app) == []
    assert {s for s, _ in states(app, merchant_id).values()} == {Standing.REJECTED}


def test_an_open_pendency_holds_up_the_product_it_names_until_resolved(app, merchant):
    deliver(app, accepted(oid(app, merchant), MCA, "e1"))
    deliver(app, pendency(oid(app, merchant), "p1", cards="true", mca="false"))
    assert states(app, merchant) == {GFT: (Standing.ACCEPTED, 0),
                                     INTERNATIONAL: (Standing.WAITING, 1),
                                     DOMESTIC: (Standing.WAITING, 1)}
    deliver(app, pendency(oid(app, merchant), "p2", status="RESOLVED", at="1767700000000"))
    assert states(app, merchant)[INTERNATIONAL] == (Standing.WAITING, 0)


def test_the_cards_approval_of_a_merchant(app, merchant):
    def cards():
        with app.app_context():
            found = card_approval(db.session.get(Merchant, merchant))
            return found.asked, found.standing, len(found.held_up_by), found.accepted_for

    assert cards() == (True, Standing.NAMED_NO_PRODUCT, 0, [])
    deliver(app, accepted(oid(app, merchant), MCA, "e1"))
    assert cards() == (True, Standing.WAITING, 0, ["MCA"])
    deliver(app, pendency(oid(app, merchant), "p1"))
    deliver(app, accepted(oid(app, merchant), CARDS, "e2"))
    assert cards() == (True, Standing.ACCEPTED, 1, ["MCA"])


def test_a_merchant_that_asked_for_no_card_product_has_no_cards_approval(app):
    merchant_id = make_merchant(app, "Remit Traders", status="APPROVED")
    ask_for(app, merchant_id, (GFT,))
    with app.app_context():
        assert card_approval(db.session.get(Merchant, merchant_id)).asked is False
    assert list(states(app, merchant_id)) == [GFT]


def test_products_not_known_to_the_portal_leave_cards_to_the_overall_approval(app):
    merchant_id = make_merchant(app, "Imported Traders", status="APPROVED")
    with app.app_context():
        approval = card_approval(db.session.get(Merchant, merchant_id))
        assert (approval.asked, approval.standing) == (True, Standing.NAMED_NO_PRODUCT)
        assert product_states(db.session.get(Merchant, merchant_id)) == []


def test_the_virtual_account_keeps_both_ids_apart(app, merchant):
    deliver(app, {"event_id": "v1", "onboarding_id": oid(app, merchant),
                  "onboarding_status": "ACCEPTED", "event_timestamp": "1752480000000",
                  "status": "VIRTUAL_ACCOUNT_PROVISIONED", "merchant_id": "M1000234",
                  "ucic_id": "UCIC7890", "virtual_account_provisioned": "true"})
    assert (stored(app, merchant).gateway_mid, stored(app, merchant).gateway_ucic_id) == (
        "M1000234", "UCIC7890")
    deliver(app, accepted(oid(app, merchant), MCA, "e1", merchant_id="OTHER1"))
    assert stored(app, merchant).gateway_mid == "M1000234"  # set once
