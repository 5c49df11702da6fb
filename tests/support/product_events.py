"""Approval per product in tests: the products a merchant asked for (its step-7 draft), and the
gateway's per-product and pendency webhooks, delivered signed as the sandbox signs them."""

from __future__ import annotations

import json

from flask import Flask

from portal.core.db import db
from portal.core.models.step import StepDraft, StepState
from portal.gateway.onboarding.hmac import hmac_digest
from tests.support.settings import API_SECRET

CARDS = "MERCHANT_CARDS_ACCEPTED"
MCA = "MERCHANT_MCA_ACCEPTED"
#: Every product of step 7.
EVERY_PRODUCT = ("GLOBAL_FUND_TRANSFER", "INTERNATIONAL_CARDS_AND_ALT_PAYS",
                 "DOMESTIC_CARDS_UPI_AND_INB")


def ask_for(app: Flask, merchant_id: int, products: tuple[str, ...] = EVERY_PRODUCT) -> None:
    """Give the merchant a sent products step asking for ``products``."""
    with app.app_context():
        db.session.add(StepDraft(merchant_id=merchant_id, step="products", state=StepState.SENT,
                                 payload={"products": list(products), "productFees": {}},
                                 last_error={}, version=1))
        db.session.commit()


def accepted(onboarding_id: str, event: str, event_id: str, merchant_id: str = "M1000234",
             at: str = "1767600000000") -> dict[str, str]:
    """A MERCHANT_<PRODUCT>_ACCEPTED payload, flat as the docs show it."""
    return {"event_id": event_id, "onboarding_id": onboarding_id, "onboarding_status": "ACCEPTED",
            "event_timestamp": at, "status": event, "merchant_id": merchant_id}


def pendency(onboarding_id: str, event_id: str, status: str = "OPEN", cards: str = "true",
             mca: str = "false", at: str = "1767600000000") -> dict[str, str]:
    """A MERCHANT_PENDENCY_STATUS_UPDATED payload about the merchant's website."""
    return {"event_id": event_id, "onboarding_id": onboarding_id,
            "onboarding_status": "APPROVED", "event_timestamp": at,
            "status": "MERCHANT_PENDENCY_STATUS_UPDATED",
            "pendency_info_category": "COMPLIANCE", "pendency_info_sub_category": "WEBSITE",
            "pendency_info_reason": "Show the refund policy on the website",
            "pendency_info_status": status, "pendency_info_creation_time": "1767500000000",
            "pendency_info_cards_approval_blocking": cards,
            "pendency_info_mca_approval_blocking": mca}


def signed(payload: dict[str, str]) -> tuple[bytes, dict[str, str]]:
    """The payload's bytes and headers as the sandbox delivers them."""
    raw = json.dumps(payload, separators=(",", ":")).encode()
    return raw, {"Content-Type": "application/json", "x-gl-digest": hmac_digest(API_SECRET, raw)}


def deliver(app: Flask, payload: dict[str, str]) -> str:
    """Post ``payload`` to the portal's receiver, signed; the outcome it answered."""
    raw, headers = signed(payload)
    answer = app.test_client().post("/webhooks/onboarding", data=raw, headers=headers)
    assert answer.status_code == 200, answer.data
    return answer.json["outcome"]
