"""Fixtures of the real-browser journeys: one headless Chromium for the package, the portal
and the sandbox served on loopback on two origins (portal 127.0.0.1, sandbox localhost), axe."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, expect

from portal.core.config import Settings
from portal.sandbox.onboarding.backend import OnboardingBackend
from tests.conftest import (
    SANDBOX_CONFIG,
    TEST_PASSWORD,
    current_code,
    with_payments,
)
from tests.support.browser import Browser as PagesClient
from tests.support.chromium import missing
from tests.support.sandbox import RunningSandbox, serve_sandbox
from tests.support.servers import serve
from tests.wizard.conftest import send_through_pages

AXE = Path(__file__).resolve().parents[1] / "assets" / "vendor" / "axe.min.js"
#: Where ``screenshot`` saves pages (1280 and 375 px wide); unset, it saves nothing.
SCREENSHOTS = os.environ.get("PORTAL_SCREENSHOTS", "")
#: The widths pages are looked at: a laptop and a small phone.
SCREEN_WIDTHS = (1280, 375)
#: Impacts that fail a page; minor and moderate findings are left to review.
BLOCKING_IMPACTS = ("serious", "critical")
#: Playwright's wait for any one element or navigation, in milliseconds.
TIMEOUT_MS = 15_000


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the screenshot tour (``make screenshots``) unless PORTAL_SCREENSHOTS names the
    folder to save it in: it checks nothing and only costs time otherwise."""
    if SCREENSHOTS:
        return
    tour = [item for item in items if item.get_closest_marker("screenshots")]
    if tour:
        config.hook.pytest_deselected(items=tour)
        items[:] = [item for item in items if item not in tour]


@pytest.fixture(scope="session")
def localhost_sandbox() -> Iterator[RunningSandbox]:
    """The suite's sandbox served on ``localhost``: an origin other than the portal's."""
    with serve_sandbox(SANDBOX_CONFIG, host="localhost") as running:
        yield running


@pytest.fixture
def sandbox(localhost_sandbox: RunningSandbox) -> RunningSandbox:
    """The ``localhost`` sandbox as new."""
    return localhost_sandbox.reset()


@pytest.fixture
def settings(settings: Settings, sandbox: RunningSandbox, tmp_path: Path) -> Settings:
    """The suite's settings plus payments: a credentials key and the sandbox's gateway key."""
    return with_payments(settings, sandbox, tmp_path)


@dataclass
class Servers:
    """Where the portal and the sandbox listen, and the sandbox's state."""

    portal: str
    sandbox: RunningSandbox

    @property
    def onboarding(self) -> OnboardingBackend:
        """The sandbox's onboarding backend (its tick() runs reviews and webhooks)."""
        return self.sandbox.state.onboarding


@pytest.fixture
def servers(csrf_app, sandbox: RunningSandbox) -> Iterator[Servers]:
    """The portal (CSRF on) on 127.0.0.1; the sandbox's webhooks go to it."""
    # Plain http on loopback: a Secure session cookie would not come back over it.
    csrf_app.config["SESSION_COOKIE_SECURE"] = False
    with serve(csrf_app) as url:
        sandbox.state.config.webhookUrl = f"{url}/webhooks/onboarding"
        yield Servers(url, sandbox)


@pytest.fixture
def context(chromium: Browser, servers: Servers) -> Iterator[BrowserContext]:
    """A fresh browser profile (cookies, storage) for one test."""
    ctx = chromium.new_context(base_url=servers.portal)
    ctx.set_default_timeout(TIMEOUT_MS)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    """A tab of the test's profile."""
    return context.new_page()


@pytest.fixture
def sent_merchant(auth, client, servers: Servers):
    """``sent_merchant(*steps)`` creates a merchant at the sandbox and sends ``steps`` with the
    happy scenario through the wizard's pages in this process (Flask's test client, signed in
    as ops), and returns its base URL: a quick start for a test whose subject comes later. The
    journeys drive Chromium through these same pages."""
    auth.login("ops")
    pages = PagesClient(client)

    def send(*steps: str) -> str:
        return f"/merchants/{send_through_pages(pages, steps)}"
    return send


@dataclass
class Console:
    """What the test's pages reported: CSP violations and uncaught script errors."""

    csp_violations: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@pytest.fixture
def console(context: BrowserContext, page: Page) -> Console:
    """Collect the console's CSP reports and the page's uncaught errors."""
    seen = Console()
    context.on("console", lambda msg: seen.csp_violations.append(msg.text)
               if "Content Security Policy" in msg.text else None)
    page.on("pageerror", lambda error: seen.errors.append(str(error)))
    return seen


def import_ended(page: Page) -> None:
    """Wait for a bulk import's page to show its import ended. The page reloads itself once its
    progress says so (``static/js/progress.js``): a reload of the test's own would race that one
    and be aborted."""
    expect(page.locator("#bulk-progress")).not_to_have_attribute(
        "data-state", "running", timeout=TIMEOUT_MS)


def log_in(page: Page, email: str, password: str = TEST_PASSWORD, app: Flask | None = None) -> None:
    """Sign in through the login form, typing the authenticator's code (``app`` given) when the
    code page asks for it."""
    page.goto("/login")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: not url.endswith("/login"))
    if urlsplit(page.url).path == "/login/code" and app is not None:
        page.get_by_label("Authentication code").fill(current_code(app, email))
        page.get_by_role("button", name="Continue").click()
        page.wait_for_url(lambda url: "/login" not in url)


class Axe:
    """axe-core audits the test's own page as shown, under the portal's real CSP: the script is
    evaluated through the DevTools protocol, which no page policy governs (a script tag would be
    refused by script-src 'self')."""

    def __init__(self, source: str, portal: str, scripted: BrowserContext | None = None) -> None:
        self._source = source
        self._portal = portal
        self._scripted = scripted

    def with_scripts(self, scripted: BrowserContext) -> Axe:
        """This audit for pages shown with scripts off (axe runs on a script's timers): each page
        is copied, as shown, into a tab of ``scripted``, which takes the page's cookies."""
        return Axe(self._source, self._portal, scripted)

    def check(self, page: Page, path: str | None = None) -> None:
        """Audit the page as shown now (an error state after a POST included), or ``path`` in
        another tab of the test's profile (signed in as the page is); fail on serious or
        critical issues."""
        if path is None and self._scripted is None:
            self._run(page, page.url)
            return
        if self._scripted is not None:
            self._scripted.clear_cookies()
            self._scripted.add_cookies(page.context.cookies())
        tab = (self._scripted or page.context).new_page()
        try:
            tab.goto(urljoin(self._portal, path) if path else page.url)
            if path is None:
                tab.set_content(page.content())  # the same origin, so the page's styles load
            self._run(tab, tab.url)
        finally:
            tab.close()

    def _run(self, page: Page, where: str) -> None:
        """Run axe on ``page`` once it has loaded and fail on serious/critical issues."""
        page.wait_for_load_state()
        if not page.evaluate("() => typeof axe === 'object'"):
            page.evaluate(self._source)
        result: dict[str, Any] = page.evaluate(
            "() => axe.run(document, {iframes: false, resultTypes: ['violations']})")
        blocking = [describe(v) for v in result["violations"] if v["impact"] in BLOCKING_IMPACTS]
        assert not blocking, f"axe on {where}:\n" + "\n".join(blocking)


def describe(violation: dict[str, Any]) -> str:
    """One axe violation as a readable line with the offending elements."""
    targets = ", ".join(" ".join(map(str, node["target"])) for node in violation["nodes"][:5])
    return f"  {violation['impact']} {violation['id']}: {violation['help']} [{targets}]"


@pytest.fixture(scope="session")
def axe_source() -> str:
    """The vendored axe-core, read once a run."""
    return AXE.read_text(encoding="utf-8")


@pytest.fixture
def axe(request: pytest.FixtureRequest, servers: Servers) -> Axe:
    """``axe.check(page)`` audits the page's URL; skipped without the vendored axe-core."""
    if not AXE.exists():
        missing(f"{AXE} is missing: run scripts/vendor-axe.sh (scripts/test.sh does)")
    return Axe(request.getfixturevalue("axe_source"), servers.portal)


def screenshot(page: Page, name: str) -> None:
    """Save the page as shown, whole, at each of SCREEN_WIDTHS into $PORTAL_SCREENSHOTS (for
    people to look at; nothing is compared), then restore the viewport."""
    if not SCREENSHOTS:
        return
    folder = Path(SCREENSHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    viewport = page.viewport_size
    for width in SCREEN_WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        page.screenshot(path=str(folder / f"{name}-{width}.png"), full_page=True)
    if viewport:
        page.set_viewport_size(viewport)
