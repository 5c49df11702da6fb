"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from flask import Flask
from playwright.sync_api import BrowserContext, Page, expect

from portal.domain.onboarding import scenarios
from portal.sandbox.onboarding.backend import OnboardingBackend
from tests.bulk.support import DATA
from tests.support.accounts import TEST_PASSWORD, current_code
from tests.support.sandbox import RunningSandbox

#: Where ``screenshot`` saves pages (1280 and 375 px wide); unset, it saves nothing.
SCREENSHOTS = os.environ.get("PORTAL_SCREENSHOTS", "")


#: The widths pages are looked at: a laptop and a small phone.
SCREEN_WIDTHS = (1280, 375)


#: Impacts that fail a page; minor and moderate findings are left to review.
BLOCKING_IMPACTS = ("serious", "critical")


#: Playwright's wait for any one element or navigation, in milliseconds.
TIMEOUT_MS = 15_000


@dataclass
class Servers:
    """Where the portal and the sandbox listen, and the sandbox's state."""

    portal: str
    sandbox: RunningSandbox

    @property
    def onboarding(self) -> OnboardingBackend:
        """The sandbox's onboarding backend (its tick() runs reviews and webhooks)."""
        return self.sandbox.state.onboarding


@dataclass
class Console:
    """What the test's pages reported: CSP violations and uncaught script errors."""

    csp_violations: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


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


def zip_of_example_documents(folder: Path) -> Path:
    """The example's documents in a ZIP, as people make one of their docs folder."""
    path = folder / "documents.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for document in (DATA / "docs").iterdir():
            archive.write(document, f"docs/{document.name}")
    return path


CONFLICT = "Someone else saved this step"


def send(page: Page) -> None:
    """Press the step form's "Save and send"."""
    page.locator("form.step-form").get_by_role("button", name="Save and send").click()
    page.wait_for_load_state()


def fill(page: Page, scenario: str = scenarios.HAPPY) -> None:
    """Fill the step's form with a sandbox scenario's data (stored as a draft)."""
    page.get_by_label("Scenario", exact=True).select_option(scenario)
    page.get_by_role("button", name="Fill every step").click()
    page.wait_for_load_state()


def expect_sent(page: Page, step: str) -> None:
    """No conflict was reported and the step is marked sent."""
    expect(page.get_by_text(CONFLICT)).to_have_count(0)
    expect(page.locator(f".stepper__step[data-step='{step}']")).to_have_attribute(
        "data-state", "sent")


PHONE = {"width": 375, "height": 800}


DESKTOP = {"width": 1280, "height": 800}


#: The elements laid out past the viewport's right edge, even inside a scrolling box (a table
#: whose last column sits off-screen): the page's width alone does not show those.
BEYOND_THE_EDGE = """() => Array.from(document.querySelectorAll("body *")).filter(el => {
    const box = el.getBoundingClientRect();
    const unseen = el.closest(
        ".visually-hidden, .table--stacked thead, details:not([open]) > :not(summary)");
    return !unseen && box.width > 0 && box.right > window.innerWidth + 1;
}).slice(0, 3).map(el => el.tagName.toLowerCase() + (el.className ? "." + el.className : "")
    + " " + JSON.stringify((el.innerText || "").slice(0, 30)))"""


class Widths:
    """The width of each page as loaded at 375 px."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.too_wide: dict[str, str] = {}

    def measure(self, name: str, path: str | None = None) -> None:
        """Open ``path`` (or stay); note the page at each width where it is wider than the
        viewport or lays an element out past its edge."""
        if path is not None:
            self.page.goto(path)
        self.page.wait_for_load_state()
        for viewport in (DESKTOP, PHONE):
            self.page.set_viewport_size(viewport)
            width = self.page.evaluate("document.documentElement.scrollWidth")
            beyond = self.page.evaluate(BEYOND_THE_EDGE)
            if width > viewport["width"] or beyond:
                self.too_wide[f"{name} at {viewport['width']} ({self.page.url})"] = \
                    f"{width} px; {beyond}"
        screenshot(self.page, f"narrow-{name}")
        self.page.set_viewport_size(PHONE)


AXE = Path(__file__).resolve().parents[1] / "assets" / "vendor" / "axe.min.js"


WIDTHS = ({"width": 1280, "height": 800}, {"width": 375, "height": 800})


def audit(page: Page, axe: Axe) -> None:
    """axe at each width, back to the first."""
    for viewport in WIDTHS:
        page.set_viewport_size(viewport)
        axe.check(page)
    page.set_viewport_size(WIDTHS[0])


def choose(page: Page) -> None:
    """Choose a partnership in food and beverages asking for cards, and show its needs."""
    page.goto("/merchants/new")
    page.get_by_label("Entity type").select_option(label="Partnership firm")
    page.get_by_label("Business category").select_option(label="Food & Beverages")
    page.get_by_label("Domestic cards, UPI and net banking").check()
    page.get_by_role("button", name="Show what's needed").click()
    page.wait_for_load_state()
