"""The API's merchant health, as the merchant's page tells it (portal.domain.health): none while
onboarding, lines once live, a pause at the top of them."""

from __future__ import annotations

from tests.api.support import Api, new_merchant_body
from tests.support.pausing import stop_now


def test_an_onboarding_merchant_has_no_health_yet(api: Api):
    merchant = api.post("/merchants", new_merchant_body()).json["id"]
    assert api.get(f"/merchants/{merchant}/health").json == {
        "live": False, "status": api.get(f"/merchants/{merchant}").json["status"], "lines": []}


def test_a_live_merchant_has_health_and_a_pause_comes_first(app, api: Api,
                                                                 approved_merchant):
    live = api.get(f"/merchants/{approved_merchant}/health").json
    assert live["live"] is True and live["status"] == "APPROVED"
    assert all(line["sentence"] for line in live["lines"])
    assert stop_now(app, approved_merchant).ok
    paused = api.get(f"/merchants/{approved_merchant}/health").json["lines"]
    assert paused[0]["product"] == "" and paused[0]["ready"] is False
    assert "not yet" in paused[0]["sentence"]
    assert len(paused) == len(live["lines"]) + 1


def test_an_unknown_merchant_is_a_404_problem(api: Api):
    answer = api.get("/merchants/999/health")
    assert answer.status_code == 404 and answer.mimetype == "application/problem+json"
