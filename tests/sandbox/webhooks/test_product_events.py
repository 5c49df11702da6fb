"""An approval's webhooks: the contract's dialect says it once (MERCHANT_STATUS_ACCEPTED), the
docs' also once per product asked for (MCA at once with its virtual account, cards a
``cardsAcceptedSeconds`` later), every event naming the same merchant id; a business name with
CARDSBLOCKED keeps the cards approval waiting on a pendency, in both."""

from __future__ import annotations

from typing import Any

import pytest

from portal.gateway.onboarding.vocabulary import Product
from tests.sandbox.payloads import business, products
from tests.sandbox.webhook_deliveries import ACCEPTED, PENDENCY, verify_all
from tests.support.sandbox import speak

MCA, CARDS, VAP = "MERCHANT_MCA_ACCEPTED", "MERCHANT_CARDS_ACCEPTED", "VIRTUAL_ACCOUNT_PROVISIONED"
STEPS = ["MERCHANT_TERMS_AND_CONDITIONS_ACKNOWLEDGED", "MERCHANT_DIGILOCKER_CKYC_COMPLETED",
         "MERCHANT_VKYC_COMPLETED"]
#: What the cards acceptance waits for after the MCA one (the sandbox config's default).
CARDS_LATER = 60


def every_product() -> dict[str, Any]:
    """The payloads' products plus the global fund transfer."""
    body = products()
    body["products"].insert(0, Product.GLOBAL_FUND_TRANSFER.value)
    body["productFees"][Product.GLOBAL_FUND_TRANSFER.value] = {"feeType": "FIXED", "fee": 25}
    return body


def approve(sandbox, partner, onboarding_id: str, name: str = "Acme Widgets Ltd",
            asked: dict[str, Any] | None = None) -> None:
    partner.update_business_details(onboarding_id, business(registeredName=name))
    partner.configure_products(onboarding_id, asked or every_product())
    verify_all(sandbox, onboarding_id)
    sandbox.backend.tick()


def after_steps(receiver) -> list[dict[str, str]]:
    return [r.payload for r in receiver.received if r.payload["status"] not in STEPS]


def test_the_contract_dialect_says_the_approval_once(hooked, receiver, partner, ready):
    approve(hooked, partner, ready)
    [accepted] = after_steps(receiver)
    assert accepted["status"] == ACCEPTED and accepted["merchant_id"].startswith("UCIC")


def test_the_docs_dialect_accepts_mca_first_and_cards_later(hooked, receiver, partner, ready):
    speak(hooked, "docs")
    approve(hooked, partner, ready)
    overall, mca, provisioned = after_steps(receiver)
    assert (overall["status"], mca["status"], provisioned["status"]) == (ACCEPTED, MCA, VAP)
    assert overall["merchant_id"] == mca["merchant_id"]
    assert set(mca) == {"event_id", "onboarding_id", "onboarding_status", "event_timestamp",
                        "status", "merchant_id"}
    assert provisioned["merchant_id"] == mca["merchant_id"] != provisioned["ucic_id"]
    assert provisioned["virtual_account_provisioned"] == "true"
    assert partner.get_status(ready).merchantInfo.onboardingStatus == "APPROVED"
    hooked.clock.advance(CARDS_LATER - 1)
    hooked.backend.tick()
    assert len(after_steps(receiver)) == 3  # cards not yet
    hooked.clock.advance(1)
    hooked.backend.tick()
    cards = after_steps(receiver)[3]
    assert (cards["status"], cards["merchant_id"]) == (CARDS, mca["merchant_id"])
    assert int(cards["event_timestamp"]) - int(mca["event_timestamp"]) == CARDS_LATER * 1000


def test_without_mca_the_docs_dialect_accepts_cards_at_once(hooked, receiver, partner, ready):
    speak(hooked, "docs")
    approve(hooked, partner, ready, asked=products())
    assert [p["status"] for p in after_steps(receiver)] == [ACCEPTED, CARDS]


@pytest.mark.parametrize(("dialect", "accepted"), [("contract", [ACCEPTED]),
                                                   ("docs", [ACCEPTED, MCA, VAP])])
def test_cardsblocked_keeps_the_cards_approval_waiting_on_a_pendency(
        hooked, receiver, partner, ready, dialect, accepted):
    speak(hooked, dialect)
    approve(hooked, partner, ready, name="Acme CARDSBLOCKED Widgets Ltd")
    hooked.clock.advance(CARDS_LATER * 10)
    hooked.backend.tick()
    events = after_steps(receiver)
    assert [p["status"] for p in events] == [*accepted, PENDENCY]
    pendency = events[-1]
    assert (pendency["pendency_info_status"], pendency["pendency_info_cards_approval_blocking"],
            pendency["pendency_info_mca_approval_blocking"]) == ("OPEN", "true", "false")
    assert partner.get_status(ready).merchantInfo.onboardingStatus == "APPROVED"
