"""The verification page in a real chromium, framed by a partner page on another origin."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.sandbox.payloads import fill_every_step
from tests.support.chromium import click_through_verification
from tests.support.servers import serve

pytestmark = pytest.mark.browser


PARENT_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Partner</title>
<script>
  window.__messages = [];
  window.addEventListener("message", (event) => {
    window.__messages.push({origin: event.origin, data: event.data});
  });
</script></head>
<body><h1>Partner portal</h1>
<iframe title="Verification" src="%s" width="700" height="700"></iframe>
</body></html>"""


@pytest.fixture
def partner_site() -> Iterator[dict[str, str]]:
    """A throwaway partner site on its own loopback origin; ``frame`` sets the iframe's src."""
    site: dict[str, str] = {"frame": "about:blank"}
    app = Flask(__name__)

    @app.get("/onboarding")
    def parent() -> str:
        return PARENT_PAGE % site["frame"]

    with serve(app, host="localhost") as url:
        site["url"] = url
        yield site


def test_parent_receives_each_step_and_complete_from_the_sandbox_origin(
        chromium, sandbox_server, partner, onboarding_id, partner_site):
    fill_every_step(partner, onboarding_id)
    callback = partner_site["url"] + "/onboarding/done"
    link = partner.get_verification_redirect(onboarding_id, {"callBackUrl": callback})
    partner_site["frame"] = link.redirectLink
    page = chromium.new_page()
    violations: list[str] = []
    page.on("console", lambda msg: violations.append(msg.text)
            if "Content Security Policy" in msg.text else None)
    try:
        page.goto(partner_site["url"] + "/onboarding")
        frame = page.frame_locator("iframe")
        click_through_verification(frame)
        frame.get_by_role("heading", name="Verification complete").wait_for()
        page.wait_for_function("window.__messages.length >= 4")
        messages: list[dict[str, Any]] = page.evaluate("window.__messages")
    finally:
        page.close()

    assert {m["origin"] for m in messages} == {sandbox_server.url}
    data = {"onboardingId": onboarding_id}
    assert [m["data"] for m in messages] == [
        {"eventName": "PARTNER_MERCHANT_VERIFICATION_STEP",
         "eventData": {**data, "stepName": "TNC"}},
        {"eventName": "PARTNER_MERCHANT_VERIFICATION_STEP",
         "eventData": {**data, "stepName": "DIGILOCKER"}},
        {"eventName": "PARTNER_MERCHANT_VERIFICATION_STEP",
         "eventData": {**data, "stepName": "VKYC"}},
        {"eventName": "PARTNER_MERCHANT_VERIFICATION_COMPLETE", "eventData": data},
    ]
    assert violations == []
    assert partner.get_status(onboarding_id).merchantInfo.onboardingStatus == "PENDING_REVIEW"
