"""A finished merchant whose steps hold long values, as real ones do: the read-only step pages'
subject (tests/wizard/test_readonly_steps.py, the browser's widths, ``make screenshots``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import update

from portal.core.db import db
from portal.core.models.merchant import CreateState, Merchant
from portal.domain.audit.service import SYSTEM
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.create import start_merchant
from portal.domain.onboarding.service import save_step_draft
from portal.domain.onboarding.steps import BY_KEY

LONG_NAME = "Sree Lakshmi Venkateswara Handloom Textiles Exports and Imports Private Limited"
LONG_STREET = ("Plot 12/4B, Survey No. 221/3A-1, Near Sri Venkateswara Swamy Temple Arch, "
               "Opposite Government Girls High School")
LONG_WEBSITE = ("https://www.sree-lakshmi-venkateswara-handloom-textiles-exports.example.com/"
                "about-us/our-company-and-its-history")
LONG_EMAIL = ("venkata.satya.surya.narayana.murthy@sree-lakshmi-venkateswara-handloom"
              ".example.com")
LONG_OWNER = "Venkata Satya Surya Narayana Murthy Chowdary Kondapalli"
#: The form data of each step, beside the happy scenario's, with long values.
CHANGES: dict[str, dict[str, Any]] = {
    "create": {"displayName": LONG_NAME},
    "business": {"registeredName": LONG_NAME, "tradeName": "Sree Lakshmi Handloom Textiles",
                 "websiteUrl": LONG_WEBSITE},
    "signatory": {"authSignatoryName": LONG_OWNER,
                  "contact": {"phone": "+919876543210", "email": LONG_EMAIL}},
}


def step_data(step: str) -> dict[str, Any]:
    """The happy scenario's data of ``step`` with the long values."""
    data = {**scenarios.form_data(scenarios.HAPPY, step), **CHANGES.get(step, {})}
    if step == "business":
        data["address"]["businessRegisteredAddress"].update(
            streetAddress1=LONG_STREET, state="Andaman and Nicobar Islands", stateCode="AN")
    if step == "owners":
        data["owners"][0]["name"] = LONG_OWNER
    return data


def finished_merchant(app, status: str = "APPROVED") -> int:
    """A merchant created at the gateway (as far as the portal knows) with every step's draft
    holding long values, now at ``status``; its id. Nothing is sent."""
    with app.app_context():
        merchant, errors = start_merchant(step_data("create"), actor=SYSTEM)
        assert merchant is not None, errors
        for key in ("business", "owners", "bank", "signatory", "products"):
            assert save_step_draft(merchant, BY_KEY[key], step_data(key), actor=SYSTEM).ok, key
        db.session.execute(update(Merchant).where(Merchant.id == merchant.id).values(
            status=status, create_state=CreateState.CREATED,
            onboarding_id=f"pg_onboard_{merchant.id:08d}", legal_name=LONG_NAME))
        db.session.commit()
        return merchant.id
