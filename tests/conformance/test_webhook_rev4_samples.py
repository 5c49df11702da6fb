"""The webhook samples behind contract revision 4's "Approval per product" and "Merchant ids"
(``shared/spec/samples-rev4/webhook-*.docs.json``, docs/gateway-facts.md section E), posted to the
portal's receiver byte for byte, unsigned as the real gateway sends them, from an address the
portal lists as the gateway's (``GATEWAY_WEBHOOK_SOURCES``). Every test names its sample's
``_source`` and checks that the sample still cites it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from portal.app.factory import create_app
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.product_acceptance import MerchantProductAcceptance
from portal.core.models.webhook_event import WebhookEvent
from portal.domain.onboarding.product_approvals import Standing, product_states
from tests.conformance.rev4_samples import Sample, sample
from tests.support.product_events import ask_for
from tests.support.rows import stored
from tests.support.team import make_merchant

#: The onboarding id of the per-product samples (one merchant, MCA accepted 82 s before cards).
PRODUCTS_ID = "a2230a44bdb2693a"
CARDS_SOURCE = ("PayGlocal-Technologies/payglocal-dev-docs mca/webhooks.mdx@0705850 "
                "(MERCHANT_CARDS_ACCEPTED), verbatim. 'A merchant onboarding for multiple "
                "products fires one MERCHANT_<PRODUCT>_ACCEPTED event per product as each is "
                "approved.' The page is the MCA webhook page (URL set through the account "
                "manager); whether these arrive at the onboarding webhook is not said")
MCA_SOURCE = ("PayGlocal-Technologies/payglocal-dev-docs mca/webhooks.mdx@0705850 "
              "(MERCHANT_MCA_ACCEPTED), verbatim: the same merchant as the Cards event, accepted "
              "for MCA 82 s earlier")
VAP_SOURCE = ("PayGlocal-Technologies/payglocal-dev-docs mca/webhooks.mdx@0705850 "
              "(VIRTUAL_ACCOUNT_PROVISIONED), verbatim: merchant_id and ucic_id are two fields "
              "with different values. 'It must be explicitly enabled for your partner account'; "
              "fires once per merchant")


@pytest.fixture
def portal(settings):
    """The portal with webhooks unsigned, as the real gateway sends them, from a listed source
    address (the test client's)."""
    return create_app(settings.with_changes(webhook_secrets=(),
                                            webhook_sources=("127.0.0.1",)))


def cited(name: str, source: str) -> Sample:
    """The sample ``name``, checked to still cite ``source``."""
    found = sample(name)
    assert found.source == source
    return found


def post(app, found: Sample) -> str:
    """Post a webhook sample's bytes to the portal's receiver; the outcome it answered."""
    answer = app.test_client().post("/webhooks/onboarding", data=found.raw(),
                                    headers={"Content-Type": "application/json"})
    assert answer.status_code == 200
    return answer.json["outcome"]


def approved(app, onboarding_id: str) -> int:
    """An APPROVED merchant known to the gateway as ``onboarding_id``, asking for every
    product."""
    merchant_id = make_merchant(app, "Madhav Traders", status="APPROVED",
                                onboarding_id=onboarding_id)
    ask_for(app, merchant_id)
    return merchant_id


def standings(app, merchant_id: int) -> dict[str, Standing]:
    with app.app_context():
        return {str(state.product): state.standing
                for state in product_states(db.session.get(Merchant, merchant_id))}


def test_merchant_mca_accepted_sample(portal):
    """Source: PayGlocal-Technologies/payglocal-dev-docs mca/webhooks.mdx@0705850
    (MERCHANT_MCA_ACCEPTED), verbatim. MCA covers the global fund transfer; the card products
    now wait for their own event; its merchant_id is kept as the MID."""
    found = cited("webhook-merchant-mca-accepted.docs.json", MCA_SOURCE)
    merchant_id = approved(portal, PRODUCTS_ID)
    assert post(portal, found) == ("already APPROVED; the event said ACCEPTED (APPROVED); MCA "
                                   "acceptance kept; merchant id kept")
    assert standings(portal, merchant_id) == {
        "GLOBAL_FUND_TRANSFER": Standing.ACCEPTED,
        "INTERNATIONAL_CARDS_AND_ALT_PAYS": Standing.WAITING,
        "DOMESTIC_CARDS_UPI_AND_INB": Standing.WAITING}
    assert stored(portal, merchant_id).gateway_mid == "madhavsh317311"


def test_merchant_cards_accepted_sample(portal):
    """Source: PayGlocal-Technologies/payglocal-dev-docs mca/webhooks.mdx@0705850
    (MERCHANT_CARDS_ACCEPTED), verbatim. CARDS covers both card products, accepted at the
    event's time; the global fund transfer still waits for MCA's."""
    found = cited("webhook-merchant-cards-accepted.docs.json", CARDS_SOURCE)
    merchant_id = approved(portal, PRODUCTS_ID)
    post(portal, found)
    assert standings(portal, merchant_id) == {
        "GLOBAL_FUND_TRANSFER": Standing.WAITING,
        "INTERNATIONAL_CARDS_AND_ALT_PAYS": Standing.ACCEPTED,
        "DOMESTIC_CARDS_UPI_AND_INB": Standing.ACCEPTED}
    with portal.app_context():
        row = db.session.scalars(select(MerchantProductAcceptance)).one()
        assert (row.product, row.accepted_at) == (
            "CARDS", datetime(2026, 7, 28, 10, 5, 49, 987000, tzinfo=UTC))
    assert post(portal, found) == "duplicate"


def test_both_product_samples_in_either_order_accept_each_product_once(portal):
    """Sources: PayGlocal-Technologies/payglocal-dev-docs mca/webhooks.mdx@0705850
    (MERCHANT_CARDS_ACCEPTED and MERCHANT_MCA_ACCEPTED), verbatim, delivered cards first."""
    merchant_id = approved(portal, PRODUCTS_ID)
    post(portal, cited("webhook-merchant-cards-accepted.docs.json", CARDS_SOURCE))
    post(portal, cited("webhook-merchant-mca-accepted.docs.json", MCA_SOURCE))
    assert set(standings(portal, merchant_id).values()) == {Standing.ACCEPTED}
    with portal.app_context():
        assert [e.verified_by for e in db.session.scalars(select(WebhookEvent))] == [
            "source", "source"]


def test_virtual_account_provisioned_sample(portal):
    """Source: PayGlocal-Technologies/payglocal-dev-docs mca/webhooks.mdx@0705850
    (VIRTUAL_ACCOUNT_PROVISIONED), verbatim. merchant_id and ucic_id are kept apart, neither
    written into the other; merchant_id is the one offered as the MID."""
    found = cited("webhook-virtual-account-provisioned.docs.json", VAP_SOURCE)
    merchant_id = approved(portal, "ONB123456")
    assert post(portal, found).endswith("; merchant id kept; UCIC id kept")
    merchant = stored(portal, merchant_id)
    assert (merchant.gateway_mid, merchant.gateway_ucic_id) == ("M1000234", "UCIC7890")
