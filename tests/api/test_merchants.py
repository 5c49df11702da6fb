"""The API's merchants against the loopback sandbox: created and sent through step 1's own
service, read with their status and products, listed with the list's filters by cursor."""

from __future__ import annotations

from sqlalchemy import select

from portal.core.db import db
from portal.core.models import AuditEvent, Merchant
from tests.api.support import Api, new_merchant_body


def test_a_merchant_is_created_and_sent_as_the_wizard_sends_it(app, api: Api):
    body = new_merchant_body()
    answer = api.post("/merchants", body)
    assert answer.status_code == 201, answer.json
    created = answer.json
    assert created["externalOnboardingId"] == body["externalOnboardingId"]
    assert created["onboardingId"]  # the gateway's record exists
    assert answer.headers["Location"] == f"/api/v1/merchants/{created['id']}"
    assert api.get(f"/merchants/{created['id']}").json == created
    with app.app_context():
        actors = set(db.session.scalars(select(AuditEvent.actor_label).where(
            AuditEvent.merchant_id == created["id"])))
        calls = db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "api.call")).all()
    assert len(actors) == 1 and actors.pop().startswith("API key Partner ")
    assert [c.detail["operation"] for c in calls] == ["api.create_merchant",
                                                      "api.read_merchant"]


def test_a_bad_field_is_a_problem_naming_the_gateway_path(app, api: Api):
    answer = api.post("/merchants", {"externalOnboardingId": "pop-x1", "panNumber": "ABC"})
    assert answer.status_code == 422
    assert answer.mimetype == "application/problem+json"
    problem = answer.json
    assert problem["status"] == 422 and problem["title"]
    fields = {e["field"]: e["message"] for e in problem["errors"]}
    assert list(fields) == ["panNumber"]
    assert "pattern" not in fields["panNumber"].lower()
    with app.app_context():
        assert db.session.scalar(select(Merchant.id)) is None  # nothing was stored


def test_an_unknown_merchant_is_a_404_problem(api: Api):
    answer = api.get("/merchants/999")
    assert answer.status_code == 404 and answer.json["detail"] == "There is no merchant 999."


def test_the_list_filters_as_the_page_does_and_pages_by_cursor(api: Api):
    ids = [api.post("/merchants", new_merchant_body(f"pop-list-{n}")).json["id"]
           for n in range(3)]
    first = api.get("/merchants", limit=2).json
    assert [m["id"] for m in first["data"]] == ids[:2] and first["nextCursor"]
    second = api.get("/merchants", limit=2, cursor=first["nextCursor"]).json
    assert [m["id"] for m in second["data"]] == ids[2:] and second["nextCursor"] is None
    exact = api.get("/merchants", q="pop-list-1").json
    assert [m["id"] for m in exact["data"]] == [ids[1]]
    assert api.get("/merchants", status="APPROVED").json["data"] == []


def test_a_cursor_not_given_out_is_refused_beside_its_name(api: Api):
    answer = api.get("/merchants", cursor="bm9wZQ")
    assert answer.status_code == 422
    assert [e["field"] for e in answer.json["errors"]] == ["cursor"]


def test_a_bad_limit_is_refused_beside_its_name(api: Api):
    answer = api.get("/merchants", limit="500")
    assert answer.status_code == 422
    assert [e["field"] for e in answer.json["errors"]] == ["limit"]


def test_a_get_of_a_post_only_api_address_is_a_problem_not_a_redirect(client):
    response = client.get("/api/v1/merchants/1/payments", headers={"Accept": "text/html"})
    assert response.status_code in (401, 405)
    assert response.mimetype == "application/problem+json"
