"""The verification page in headless Chromium: only the gateway iframe's messages count, and
completion is confirmed by the portal reading the status server-side."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
from flask import Flask
from playwright.sync_api import Frame, Page, Request
from sqlalchemy import select

from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.status_change import StatusChange
from portal.domain.audit.service import Actor
from portal.domain.onboarding import merchant_links as links
from portal.domain.onboarding import scenarios
from tests.support.chromium import accept_terms, allow_camera, click_through_verification
from tests.support.rows import stored
from tests.support.servers import serve
from tests.verification.support import onboard

pytestmark = pytest.mark.browser

#: A page on another origin that opens the portal's page and posts it forged messages.
OPENER = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Opener</title>
<script>
  window.openPortal = (url) => { window.portal = window.open(url, "portal"); };
  window.forge = (onboardingId) => {
    const data = {onboardingId: onboardingId};
    for (const step of ["TNC", "DIGILOCKER", "VKYC"]) {
      window.portal.postMessage({eventName: "PARTNER_MERCHANT_VERIFICATION_STEP",
                                 eventData: {...data, stepName: step}}, "*");
    }
    window.portal.postMessage({eventName: "PARTNER_MERCHANT_VERIFICATION_COMPLETE",
                               eventData: data}, "*");
    window.portal.postMessage("PARTNER_MERCHANT_VERIFICATION_COMPLETE", "*");
    window.portal.postMessage({eventName: "PARTNER_MERCHANT_VERIFICATION_REDIRECT",
                               eventData: {uri: location.origin + "/phish",
                                           stepName: "DIGILOCKER"}}, "*");
  };
</script></head><body><h1>Somebody else</h1></body></html>"""
FORGED_PER_OPENER = 6
REDIRECT = "PARTNER_MERCHANT_VERIFICATION_REDIRECT"


@dataclass
class Opened:
    """The merchant's verification page open in the browser, with what it asked the portal."""

    page: Page
    merchant_id: int
    onboarding_id: str
    url: str
    confirms: list[str] = field(default_factory=list)
    csp_violations: list[str] = field(default_factory=list)


@pytest.fixture
def portal_url(csrf_app) -> Iterator[str]:
    """The portal, CSRF checks on, on its own loopback origin."""
    with serve(csrf_app) as url:
        yield url


@pytest.fixture
def merchant_page(app, csrf_app, chromium, portal_url) -> Iterator[Opened]:
    """A merchant at PENDING_VERIFICATION and a browser context holding its link's URL."""
    with opened_page(app, csrf_app, chromium, portal_url, scenarios.HAPPY) as opened:
        yield opened


@pytest.fixture
def outside_page(app, csrf_app, chromium, portal_url) -> Iterator[Opened]:
    """The same for a merchant whose gateway page speaks the iframe docs' dialect: DigiLocker
    outside the frame (REDIRECT), completion as the bare string."""
    with opened_page(app, csrf_app, chromium, portal_url,
                     scenarios.DIGILOCKER_OUTSIDE) as opened:
        yield opened


@contextmanager
def opened_page(app, csrf_app, chromium, portal_url, scenario: str) -> Iterator[Opened]:
    """A merchant of ``scenario`` at PENDING_VERIFICATION, a context holding its link's URL."""
    merchant_id = onboard(app, scenario)
    with csrf_app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        _link, token = links.issue(current_settings().secret_key, merchant,
                                   Actor("ops@example.com"))
    context = chromium.new_context()
    page = context.new_page()
    opened = Opened(page, merchant_id, stored(app, merchant_id).onboarding_id,
                    f"{portal_url}/verify/{merchant_id}?token={token}")

    def watch(request: Request) -> None:
        if request.method == "POST" and urlsplit(request.url).path.endswith("/confirm"):
            opened.confirms.append(request.url)

    context.on("request", watch)
    context.on("console", lambda msg: opened.csp_violations.append(msg.text)
               if "Content Security Policy" in msg.text else None)
    context.set_default_timeout(15_000)
    try:
        yield opened
    finally:
        context.close()


def _progress(page: Page) -> dict[str, str]:
    return page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('.verification-progress__step')]
          .map((li) => [li.dataset.step, li.dataset.state]))""")


def test_completing_the_framed_page_confirms_the_status_server_side(app, merchant_page):
    page = merchant_page.page
    page.goto(merchant_page.url)
    allow_camera(page)
    click_through_verification(page.frame_locator("#verification-frame"))
    page.locator(".verification-result[data-state='confirmed']").wait_for()

    assert page.locator(".verification-result").inner_text() == (
        "Thank you: your verification is complete.")
    assert "will let you know the outcome" in page.locator(".verification-next").inner_text()
    assert _progress(page) == {"TNC": "done", "DIGILOCKER": "done", "VKYC": "done"}
    assert merchant_page.confirms == [merchant_page.url.replace("?token=", "/confirm?token=")]
    assert merchant_page.csp_violations == []
    assert stored(app, merchant_page.merchant_id).status == "PENDING_REVIEW"
    with app.app_context():
        change = db.session.scalars(select(StatusChange).order_by(StatusChange.id.desc())).first()
        assert (change.to_status, change.source) == ("PENDING_REVIEW", "verification page")


@pytest.fixture
def foreign_site() -> Iterator[str]:
    """The opener page on a loopback origin of its own."""
    app = Flask(__name__)
    app.add_url_rule("/opener", "opener", lambda: OPENER)
    with serve(app, host="localhost") as url:
        yield url


def test_messages_from_another_origin_or_another_window_are_ignored(
        app, merchant_page, foreign_site, sandbox):
    context = merchant_page.page.context
    # a page served from the gateway's own origin, but not the iframe: right origin, wrong source
    context.route(f"{sandbox.url}/opener", lambda route: route.fulfill(
        status=200, content_type="text/html", body=OPENER))
    for opener_url in (f"{foreign_site}/opener", f"{sandbox.url}/opener"):
        opener = context.new_page()
        opener.goto(opener_url)
        with context.expect_page() as popup:
            opener.evaluate("(url) => openPortal(url)", merchant_page.url)
        portal = popup.value
        portal.wait_for_load_state()
        allow_camera(portal)
        portal.frame_locator("#verification-frame").get_by_role(
            "heading", name="Merchant verification").wait_for()
        portal.evaluate("""() => { window.seen = [];
            addEventListener('message', (e) => window.seen.push(e.origin)); }""")
        opener.evaluate("(id) => forge(id)", merchant_page.onboarding_id)
        portal.wait_for_function(f"window.seen.length >= {FORGED_PER_OPENER}")
        portal.wait_for_timeout(300)  # give the page's own listener every chance to act

        assert set(portal.evaluate("window.seen")) == {opener_url.rsplit("/", 1)[0]}
        assert _progress(portal) == {"TNC": "waiting", "DIGILOCKER": "waiting",
                                     "VKYC": "waiting"}
        assert portal.locator(".verification-result").inner_text() == ""
        assert portal.url == merchant_page.url  # the forged REDIRECT moved nothing
        opener.close()
        portal.close()
    assert merchant_page.confirms == []
    assert stored(app, merchant_page.merchant_id).status == "PENDING_VERIFICATION"


def test_digilocker_opens_top_level_and_comes_back_then_the_bare_complete_confirms(
        app, outside_page, sandbox):
    page = outside_page.page
    page.goto(outside_page.url)
    allow_camera(page)
    accept_terms(page.frame_locator("#verification-frame"))
    # the frame asks for DigiLocker outside it: the portal goes there, top-level
    page.wait_for_url(f"{sandbox.url}/verification/digilocker?**")
    page.get_by_label("I consent to sharing my documents from DigiLocker").check()
    page.get_by_role("button", name="Give consent and go back").click()
    # the sandbox sends the person back to the callBackUrl: this same page, a fresh link, the
    # camera check passed in this tab not asked again
    page.wait_for_url(outside_page.url)
    video_kyc = page.frame_locator("#verification-frame").get_by_role("button",
                                                                      name="Pass video KYC")
    video_kyc.wait_for()
    # the frame resumes after DigiLocker, and so does the page's own list (no "Waiting")
    assert _progress(page) == {"TNC": "done", "DIGILOCKER": "done", "VKYC": "waiting"}
    video_kyc.click()
    page.locator(".verification-result[data-state='confirmed']").wait_for()

    assert page.locator(".verification-result").inner_text() == (
        "Thank you: your verification is complete.")
    assert len(outside_page.confirms) == 1
    assert outside_page.csp_violations == []
    assert stored(app, outside_page.merchant_id).status == "PENDING_REVIEW"


def _gateway_frame(page: Page, sandbox) -> Frame:
    found = next((f for f in page.frames if f.url.startswith(f"{sandbox.url}/verification")),
                 None)
    assert found is not None, [f.url for f in page.frames]
    return found


@pytest.mark.parametrize("uri", [
    "javascript:alert(document.domain)",
    "http://127.0.0.1:9/digilocker",  # neither https nor the gateway's origin
    "data:text/html,<h1>phish</h1>",
])
def test_a_redirect_to_an_address_neither_https_nor_the_gateways_is_ignored(
        merchant_page, sandbox, uri):
    page = merchant_page.page
    page.goto(merchant_page.url)
    allow_camera(page)
    page.frame_locator("#verification-frame").get_by_role(
        "heading", name="Merchant verification").wait_for()
    page.evaluate("""() => { window.seen = 0;
        addEventListener('message', () => { window.seen += 1; }); }""")
    _gateway_frame(page, sandbox).evaluate(
        """([name, uri]) => parent.postMessage(
               {eventName: name, eventData: {uri: uri, stepName: "DIGILOCKER"}}, "*")""",
        [REDIRECT, uri])
    page.wait_for_function("window.seen >= 1")
    page.wait_for_timeout(300)  # give the page's own listener every chance to act

    assert page.url == merchant_page.url
    assert page.locator(".verification-result").inner_text() == ""


def test_a_bare_string_complete_from_the_frame_is_confirmed_server_side(app, merchant_page,
                                                                        sandbox):
    page = merchant_page.page
    page.goto(merchant_page.url)
    allow_camera(page)
    page.frame_locator("#verification-frame").get_by_role(
        "heading", name="Merchant verification").wait_for()
    _gateway_frame(page, sandbox).evaluate(
        "() => parent.postMessage('PARTNER_MERCHANT_VERIFICATION_COMPLETE', '*')")
    page.locator(".verification-result[data-state='confirmed']").wait_for()
    # a hint only: the gateway still says PENDING_VERIFICATION, and that is what is shown
    assert page.locator(".verification-result").inner_text() == "Some steps are still open."
    assert len(merchant_page.confirms) == 1
    assert stored(app, merchant_page.merchant_id).status == "PENDING_VERIFICATION"
