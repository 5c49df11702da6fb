"""Fixtures of the real-browser journeys: one headless Chromium for the package, the portal
and the sandbox served on loopback on two origins (portal 127.0.0.1, sandbox localhost), axe."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from portal.core.config import Settings
from tests.browser.support import AXE, SCREENSHOTS, TIMEOUT_MS, Axe, Console, Servers
from tests.support.browser import Browser as PagesClient
from tests.support.chromium import missing
from tests.support.sandbox import RunningSandbox, serve_sandbox
from tests.support.servers import serve
from tests.support.settings import SANDBOX_CONFIG, with_payments
from tests.wizard.support import send_through_pages


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


@pytest.fixture
def console(context: BrowserContext, page: Page) -> Console:
    """Collect the console's CSP reports and the page's uncaught errors."""
    seen = Console()
    context.on("console", lambda msg: seen.csp_violations.append(msg.text)
               if "Content Security Policy" in msg.text else None)
    page.on("pageerror", lambda error: seen.errors.append(str(error)))
    return seen


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


@pytest.fixture
def customer(chromium: Browser, servers: Servers) -> Iterator[Page]:
    """The customer's own browser: never signed in to the portal."""
    context: BrowserContext = chromium.new_context(base_url=servers.portal)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()
