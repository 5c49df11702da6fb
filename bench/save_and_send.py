"""'Save and send' of business details through the portal (gunicorn, 2 workers, over HTTP)
vs the same PUT made directly with OnboardingClient against the same sandbox."""

from __future__ import annotations

from sqlalchemy import insert

from bench.measure import Row, info_row, paired, percentile, ratio_row
from bench.stack import Bench, app_for, csrf_token, gunicorn, signed_in
from portal.db import db
from portal.models.merchant import CreateState, Merchant
from portal.onboarding import scenarios
from portal.onboarding.steps import BY_KEY
from tests.wizard.browser import flatten

SAMPLES = 80
WARMUP = 10


def run(bench: Bench) -> list[Row]:
    """Time both calls in alternation and compare their p50 and p95."""
    client = bench.client()
    env = bench.portal_env("save-and-send")
    created = client.create_onboarding(
        BY_KEY["create"].request(scenarios.form_data(scenarios.HAPPY, "create")))  # type: ignore[misc]
    onboarding_id = created.merchantInfo.onboardingId
    app = app_for(env)
    with app.app_context():
        merchant_id = db.session.execute(insert(Merchant).values(
            external_onboarding_id=created.merchantInfo.partnerOnboardingId or "bench-send",
            onboarding_id=onboarding_id, pan="AAACB0001C", display_name="Bench",
            legal_name="", create_state=CreateState.CREATED, checklist={},
            documents_outstanding=[])).inserted_primary_key[0]
        db.session.commit()
    form = scenarios.form_data(scenarios.HAPPY, "business")
    body = BY_KEY["business"].request(form)  # type: ignore[misc]
    with gunicorn(env) as url:
        browser = signed_in(url)
        page = f"{url}/merchants/{merchant_id}/steps/business"
        fields = {**flatten(form), "action": "send",
                  "csrf_token": csrf_token(browser.get(page, timeout=10).content)}

        def through_portal() -> None:
            answer = browser.post(page, data=fields, allow_redirects=False, timeout=30)
            assert answer.status_code == 302, answer.status_code

        def direct() -> None:
            client.update_business_details(onboarding_id, body)

        paired(through_portal, direct, WARMUP)
        portal, raw = paired(through_portal, direct, SAMPLES)
    ms = 1000
    return [ratio_row("Save and send business details: p50, portal over HTTP vs direct client",
                      percentile(portal, 50) * ms, percentile(raw, 50) * ms, "ms", 1.5),
            info_row("Save and send business details: p95, portal over HTTP vs direct client",
                     percentile(portal, 95) * ms, percentile(raw, 95) * ms, "ms")]
