"""The MID the gateway gave a merchant on approval (MERCHANT_STATUS_ACCEPTED's merchant_id, kept
once a status read confirmed it: tests/webhooks/test_merchant_facts.py) is offered on the payment
credentials page: prefilled, said where it comes from, and still editable."""

from __future__ import annotations

import pytest

from portal.core.db import db
from portal.core.models.merchant import Merchant
from tests.payments.support import credentials_row, submit

GATEWAY_MID = "merchant_xyz789"


@pytest.fixture
def approved_with_mid(app, merchant_id) -> int:
    with app.app_context():
        db.session.get(Merchant, merchant_id).gateway_mid = GATEWAY_MID
        db.session.commit()
    return merchant_id


def page(browser, merchant_id):
    return browser.get(f"/merchants/{merchant_id}/payments/credentials")


def test_the_gateways_mid_is_prefilled_and_said_where_it_comes_from(browser, approved_with_mid):
    shown = page(browser, approved_with_mid)
    field = shown.form("form.credentials-form").find("input", attrs={"name": "mid"})
    assert field["value"] == GATEWAY_MID
    help_text = shown.soup.find(id=field["aria-describedby"].split()[0]).get_text(" ", strip=True)
    assert help_text == (f"The gateway approved this merchant as MID {GATEWAY_MID}: prefilled "
                         "here; change it only if the gateway told you another.")


def test_the_offered_mid_is_saved_as_offered(app, browser, approved_with_mid):
    submit(browser, page(browser, approved_with_mid), "form.credentials-form")
    assert credentials_row(app, approved_with_mid).mid == GATEWAY_MID


def test_the_offered_mid_can_be_changed_before_saving(app, browser, approved_with_mid):
    saved = submit(browser, page(browser, approved_with_mid), "form.credentials-form",
                   {"mid": "MID-FROM-SUPPORT-1"})
    assert credentials_row(app, approved_with_mid).mid == "MID-FROM-SUPPORT-1"
    assert "The gateway approved this merchant as MID merchant_xyz789." in saved.text()


def test_without_a_mid_from_the_gateway_the_sandbox_values_are_offered(browser, merchant_id):
    field = page(browser, merchant_id).form("form.credentials-form").find(
        "input", attrs={"name": "mid"})
    assert field["value"].startswith("SBX")
