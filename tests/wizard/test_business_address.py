"""Step 2 sends the addresses nested under ``address`` (contract revision 2) while the form keeps
its fields; the gateway's nested error paths land beside the field; old flat drafts migrate."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask, jsonify

from portal.core.migrate import upgrade
from portal.domain.onboarding import scenarios
from tests.support.rows import stored
from tests.support.servers import serve
from tests.wizard.support import point_gateway_at, typed

ADDRESS_FIELDS = {"isOperatingSameAsRegistered", "businessRegisteredAddress",
                  "businessOperatingAddress"}
OPERATING = {"address-isOperatingSameAsRegistered": None,  # unticked: it differs
             "address-businessOperatingAddress-streetAddress1": "7 Dock Road",
             "address-businessOperatingAddress-streetAddress2": "Colaba",
             "address-businessOperatingAddress-zipcode": "400005",
             "address-businessOperatingAddress-city": "Mumbai",
             "address-businessOperatingAddress-state": "Maharashtra",
             "address-businessOperatingAddress-stateCode": "MH"}


def step_url(merchant_id: int, step: str) -> str:
    return f"/merchants/{merchant_id}/steps/{step}"


def last_body(sandbox, suffix: str) -> dict:
    """The JSON body of the last PUT whose path ends with ``suffix``."""
    log = sandbox.state.onboarding.received_requests()
    return json.loads([r for r in log if r.raw_path.endswith(suffix)][-1].body)


def test_the_addresses_go_nested_and_the_answer_comes_back_flat(browser, app, new_merchant,
                                                                sandbox):
    page = browser.submit(browser.get(step_url(new_merchant, "business")),
                          typed(scenarios.HAPPY, "business", **OPERATING))
    assert "sent to the gateway" in page.text()
    body = last_body(sandbox, "/business-details")
    assert not ADDRESS_FIELDS & set(body)
    assert body["address"]["isOperatingSameAsRegistered"] is False
    assert body["address"]["businessRegisteredAddress"]["zipcode"] == "400021"
    assert body["address"]["businessOperatingAddress"]["streetAddress1"] == "7 Dock Road"
    row = stored(app, new_merchant)
    assert row.legal_name == "Sandbox Traders Private Limited"  # read from the flat answer
    assert row.documents_outstanding[0] == "OPERATING_ADDRESS_PROOF"


def test_registered_name_and_account_holder_name_may_be_left_blank(browser, app, new_merchant,
                                                                   sandbox):
    browser.submit(browser.get(step_url(new_merchant, "business")),
                   typed(scenarios.HAPPY, "business", registeredName=""))
    assert "registeredName" not in last_body(sandbox, "/business-details")
    page = browser.submit(browser.get(step_url(new_merchant, "bank")),
                          typed(scenarios.HAPPY, "bank", accountHolderName=""))
    assert "sent to the gateway" in page.text()
    assert "accountHolderName" not in last_body(sandbox, "/bank-details")
    row = stored(app, new_merchant)
    assert row.penny_drop_status == "VERIFIED"
    assert row.name_at_bank == "SANDBOX TRADERS"  # the bank's name: here the trade name


@pytest.fixture
def refusing_gateway() -> Iterator[str]:
    """A gateway that refuses business details on the registered PIN code, as the real one
    names nested fields (``fieldName``, dotted path under ``address``)."""
    app = Flask(__name__)

    @app.put("/gcc/v2/partner/merchant/onboard/<onboarding_id>/business-details")
    def refuse(onboarding_id: str):
        return jsonify({"gid": "gl-refused", "timestamp": "23/11/2026 10:00:00",
                        "reasonCode": "VALIDATION_ERROR", "data": {}, "errors": None,
                        "errorDetails": [{"fieldName": "address.businessRegisteredAddress.zipcode",
                                          "message": "PIN code is not serviceable"}]}), 400

    with serve(app) as url:
        yield url


def test_a_gateway_refusal_on_a_nested_path_lands_beside_the_field(browser, app, new_merchant,
                                                                   refusing_gateway):
    point_gateway_at(app, refusing_gateway)
    page = browser.submit(browser.get(step_url(new_merchant, "business")),
                          typed(scenarios.HAPPY, "business"))
    field = "address-businessRegisteredAddress-zipcode"
    assert page.errors_for(field) == ["PIN code is not serviceable"]
    assert page.soup.find(attrs={"name": field})["value"] == "400021"  # nothing typed is lost
    again = browser.get(step_url(new_merchant, "business"))  # the stored refusal, shown again
    assert again.errors_for(field) == ["PIN code is not serviceable"]


FLAT_DRAFT = {"registeredName": "Old Shape Ltd", "isOperatingSameAsRegistered": False,
              "businessRegisteredAddress": {"zipcode": "400021"},
              "businessOperatingAddress": {"zipcode": "400005"},
              "expectedMonthlyVolume": {"amount": "5", "currency": "USD"}}


def test_drafts_and_queued_sends_of_the_flat_shape_are_migrated(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0007")
    engine = sa.create_engine(url)
    refusal = {"kind": "refused", "message": "The gateway refused the request.",
               "fields": [{"field": "businessRegisteredAddress.zipcode", "message": "bad"},
                          {"field": "registeredName", "message": "odd"}]}
    with engine.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO merchants (id, external_onboarding_id, pan, display_name, legal_name, "
            "create_state, created_at, last_activity_at, checklist, documents_outstanding) "
            "VALUES (1, 'ext-1', 'ABCCE1234F', '', '', 'created', '2026-01-01 00:00:00', "
            "'2026-01-01 00:00:00', '{}', '[]')"))
        conn.execute(sa.text(
            "INSERT INTO step_drafts (merchant_id, step, payload, state, last_error, last_gid, "
            "updated_at, version) VALUES (1, 'business', :payload, 'needs_attention', :error, "
            "'', '2026-01-01 00:00:00', 3)"),
            {"payload": json.dumps(FLAT_DRAFT), "error": json.dumps(refusal)})
        conn.execute(sa.text(
            "INSERT INTO outbox_items (merchant_id, step, draft_version, payload, state, "
            "attempts, next_attempt_at, last_error, created_at) VALUES (1, 'business', 3, "
            ":payload, 'pending', 1, '2026-01-01 00:00:00', '', '2026-01-01 00:00:00')"),
            {"payload": json.dumps(FLAT_DRAFT)})
    upgrade(url, "0008")  # later revisions encrypt these columns (0012)
    with engine.connect() as conn:
        payload, error = conn.execute(sa.text(
            "SELECT payload, last_error FROM step_drafts")).one()
        queued = conn.execute(sa.text("SELECT payload FROM outbox_items")).scalar_one()
    engine.dispose()
    nested = {"registeredName": "Old Shape Ltd",
              "expectedMonthlyVolume": {"amount": "5", "currency": "USD"},
              "address": {key: FLAT_DRAFT[key] for key in ADDRESS_FIELDS}}
    assert json.loads(payload) == nested
    assert json.loads(queued) == nested
    assert [f["field"] for f in json.loads(error)["fields"]] == [
        "address.businessRegisteredAddress.zipcode", "registeredName"]
