"""The API's steps 2 to 7: a draft saved and then sent through the wizard's own service, a
stale version refused as a conflict, a bad field refused at its gateway path."""

from __future__ import annotations

from portal.domain.onboarding.scenarios import HAPPY, form_data
from tests.api.support import Api, new_merchant_body


def put_draft(api: Api, merchant_id: int, step: str, body: dict):
    """PUT a step's draft."""
    return api.client.put(f"/api/v1/merchants/{merchant_id}/steps/{step}/draft", json=body,
                          headers=api.headers())


def test_a_draft_is_saved_then_sent(api: Api):
    merchant = api.post("/merchants", new_merchant_body()).json["id"]
    saved = put_draft(api, merchant, "bank", {"data": form_data(HAPPY, "bank")})
    assert saved.status_code == 200, saved.json
    assert saved.json["step"] == "bank" and saved.json["version"] == 1
    sent = api.post(f"/merchants/{merchant}/steps/bank/send",
                    {"data": form_data(HAPPY, "bank"), "version": 1})
    assert sent.status_code == 200, sent.json
    assert sent.json["merchant"]["id"] == merchant


def test_a_stale_version_is_a_conflict(api: Api):
    merchant = api.post("/merchants", new_merchant_body()).json["id"]
    put_draft(api, merchant, "bank", {"data": form_data(HAPPY, "bank")})
    put_draft(api, merchant, "bank", {"data": form_data(HAPPY, "bank"), "version": 1})
    stale = put_draft(api, merchant, "bank", {"data": form_data(HAPPY, "bank"), "version": 1})
    assert stale.status_code == 409 and "version 2" in stale.json["detail"]


def test_a_bad_field_is_refused_at_its_gateway_path(api: Api):
    merchant = api.post("/merchants", new_merchant_body()).json["id"]
    data = {**form_data(HAPPY, "bank"), "bankIfscCode": "NOPE"}
    sent = api.post(f"/merchants/{merchant}/steps/bank/send", {"data": data})
    assert sent.status_code == 422
    assert "bankIfscCode" in [e["field"] for e in sent.json["errors"]]


def test_an_unknown_step_is_a_404_problem(api: Api):
    answer = api.post("/merchants/1/steps/documents/send", {"data": {}})
    assert answer.status_code == 404 and answer.mimetype == "application/problem+json"
